import { Checker } from '../../shared/validate';
import type { ReceiptKind } from './kinds';

/**
 * The words of the Fields forms, in one place: each form field's display name is built from here, and every
 * message about a receipt names its field the same way, counting list entries from 1 as the form shows them
 * (`Item 1 › Tax Value`). The SRI's Spanish term follows in parentheses on the form (`Quantity (Cantidad)`), so a
 * bookkeeper finds the field either way; messages use the English words only, and in JSON mode add the JSON path
 * the user wrote (`Item 1 › Tax 1 › Value (items[0].impuestos[0].valor)`).
 */

export interface Label {
	/** English words: the message label and the start of the form label. */
	en: string;
	/** The SRI's Spanish term, shown in parentheses on the form. */
	es?: string;
}

/** A form's display name: `Quantity (Cantidad)`; dropdowns filled from the service end in n8n's "Name or ID". */
export function displayName(label: Label, opts: { dynamic?: boolean } = {}): string {
	return `${label.en}${label.es ? ` (${label.es})` : ''}${opts.dynamic ? ' Name or ID' : ''}`;
}

const l = (en: string, es?: string): Label => (es ? { en, es } : { en });

/** Fields of a party (buyer, supplier, retained subject, carrier, recipient). */
export const PARTY = {
	identificacion: l('Identification', 'Identificación'),
	tipo_identificacion: l('ID Type', 'Tipo Identificación'),
	razon_social: l('Legal Name', 'Razón Social'),
	direccion: l('Address', 'Dirección'),
	email: l('Email', 'Correo'),
	telefono: l('Phone', 'Teléfono'),
	placa: l('Vehicle Plate', 'Placa'),
};

/** Fields of the issuer, with its establishment's flattened as the form shows them. */
export const ISSUER = {
	ruc: l('RUC'),
	razon_social: l('Legal Name', 'Razón Social'),
	nombre_comercial: l('Trade Name', 'Nombre Comercial'),
	direccion: l('Main Address', 'Dirección Matriz'),
	obligado_contabilidad: l('Keeps Accounting', 'Obligado Contabilidad'),
	contribuyente_especial: l('Special Taxpayer Number', 'Contrib. Especial'),
	regimen_rimpe: l('Regime', 'Régimen'),
	codigo: l('Establishment Code', 'Establecimiento'),
	punto_emision: l('Emission Point', 'Punto Emisión'),
	establecimiento_direccion: l('Establishment Address', 'Dir. Establecimiento'),
};

/**
 * The issuer fields of the Receipts credential, as its form labels them: the credential's fields and the
 * issuer check's messages ("… or once in the Receipts credential (Issuer RUC)") both use these.
 */
export const CREDENTIAL_ISSUER = {
	ruc: 'Issuer RUC',
	razon_social: 'Legal Name (Razón Social)',
	codigo: 'Establishment Code (Establecimiento)',
	punto_emision: 'Emission Point (Punto de Emisión)',
} as const;

/** A tax line (of a JSON item, of the totals, of a reimbursed document). */
export const TAX_LINE = {
	codigo: l('Tax Code', 'Impuesto'),
	codigo_porcentaje: l('Percentage Code', 'Cód. Porcentaje'),
	tarifa: l('Rate', 'Tarifa'),
	base_imponible: l('Base', 'Base Imponible'),
	valor: l('Value', 'Valor'),
	descuento_adicional: l('Additional Discount', 'Descuento Adicional'),
};

/** The one tax line of an item in Fields mode, whose fields sit among the item's own. */
export const ITEM_TAX = {
	codigo: l('Tax', 'Impuesto'),
	codigo_porcentaje: l('Tax Percentage', 'Código Porcentaje'),
	tarifa: l('Tax Rate', 'Tarifa'),
	base_imponible: l('Tax Base', 'Base Imponible'),
	valor: l('Tax Value', 'Valor'),
};

/** An item of an invoice, credit note or purchase settlement. */
export const ITEM = {
	descripcion: l('Description', 'Descripción'),
	codigo_principal: l('Main Code', 'Código Principal'),
	codigo_auxiliar: l('Auxiliary Code', 'Código Auxiliar'),
	unidad_medida: l('Unit of Measure', 'Unidad Medida'),
	cantidad: l('Quantity', 'Cantidad'),
	precio_unitario: l('Unit Price', 'Precio Unitario'),
	descuento: l('Discount', 'Descuento'),
	precio_total_sin_impuestos: l('Subtotal', 'Precio Total Sin Impuestos'),
	detalles_adicionales: l('Additional Details', 'Detalles Adicionales'),
};

/** The totals of a sales receipt. */
export const TOTALS = {
	total_sin_impuestos: l('Total Without Taxes', 'Total Sin Impuestos'),
	descuento: l('Discount', 'Descuento'),
	descuento_adicional: l('Additional Discount', 'Descuento Adicional'),
	propina: l('Tip', 'Propina'),
	importe_total: l('Total Amount', 'Importe Total'),
};

/** A payment (invoices: `medio`; purchase settlements: `forma_pago`). */
export const PAYMENT = {
	medio: l('Means', 'Forma de Pago'),
	forma_pago: l('Payment Form', 'Forma de Pago'),
	total: l('Total'),
	fecha: l('Date', 'Fecha'),
	notas: l('Notes', 'Notas'),
	unidad_tiempo: l('Time Unit', 'Unidad de Tiempo'),
	plazo: l('Term', 'Plazo'),
};

/** A retained tax of a retention. */
export const RETAINED = {
	base_imponible: l('Taxable Base', 'Base Imponible'),
	codigo: l('Tax Code', 'Impuesto'),
	codigo_porcentaje: l('Percentage Code', 'Código Retención'),
	porcentaje: l('Percentage', 'Porcentaje'),
	valor_retenido: l('Retained Value', 'Valor Retenido'),
	fecha_emision_documento_sustento: l('Supporting Document Date', 'Fecha Sustento'),
	numero_documento_sustento: l('Supporting Document Number', 'Número Sustento'),
	// A dropdown whose choices are the types (Invoice, …), so no "Type"; the SRI's term shortened as its XML does
	// (codDocSustento): with n8n's " Name or ID" the label fits the parameter panel (test/receipts/form.test.js).
	tipo_documento_sustento: l('Supporting Document', 'Sustento'),
};

/** Top-level fields, and the names of the lists and groups the forms show. */
export const TOP = {
	ambiente: l('Environment', 'Ambiente'),
	tipo_emision: l('Emission Type', 'Tipo Emisión'),
	secuencial: l('Sequential', 'Secuencial'),
	secuencia: l('Sequence', 'Secuencia'),
	fecha_emision: l('Issue Date', 'Fecha Emisión'),
	moneda: l('Currency', 'Moneda'),
	clave_acceso: l('Access Key', 'Clave de Acceso'),
	version: l('Version'),
	periodo_fiscal: l('Fiscal Period', 'Periodo Fiscal'),
	guia_remision: l('Waybill Number', 'Guía de Remisión'),
	motivo: l('Reason', 'Motivo'),
	// As the supporting document's type above (codDocModificado).
	tipo_documento_modificado: l('Modified Document', 'Doc. Modificado'),
	numero_documento_modificado: l('Modified Document Number', 'Número Modificado'),
	fecha_emision_documento_modificado: l('Modified Document Date', 'Fecha Modificado'),
	valor_retenido_iva: l('Retained VAT', 'Valor Retenido IVA'),
	valor_retenido_renta: l('Retained Income Tax', 'Valor Retenido Renta'),
	tipo_sujeto_retenido: l('Retained Subject Type', 'Tipo Sujeto Retenido'),
	fecha_inicio_transporte: l('Transport Start Date', 'Fecha Inicio Transporte'),
	fecha_fin_transporte: l('Transport End Date', 'Fecha Fin Transporte'),
	direccion_partida: l('Departure Address', 'Dirección Partida'),
	emisor: l('Issuer', 'Emisor'),
	comprador: l('Buyer', 'Comprador'),
	proveedor: l('Supplier', 'Proveedor'),
	sujeto: l('Retained Subject', 'Sujeto Retenido'),
	transportista: l('Carrier', 'Transportista'),
	items: l('Items', 'Detalles'),
	charges: l('Charges', 'Motivos'),
	retainedTaxes: l('Retained Taxes', 'Impuestos Retenidos'),
	totales: l('Totals', 'Totales'),
	totalTaxes: l('Total Taxes', 'Total Impuestos'),
	pagos: l('Payments', 'Pagos'),
	info_adicional: l('Additional Information', 'Información Adicional'),
	credito_monto: l('Credit Amount', 'Crédito'),
	credito_fecha_vencimiento: l('Credit Due Date', 'Vencimiento Crédito'),
	destinatarios: l('Recipients', 'Destinatarios'),
	reembolso: l('Reimbursement', 'Reembolso'),
	documentos_soporte: l('Supporting Documents', 'Documentos Sustento'),
};

/** How a path segment reads: its label, the word of one entry of a list, and what its own fields are. */
interface Shape {
	label?: Label;
	/** One entry of the list: `Item` (then `Item 2`). */
	entry?: string;
	/** The fields inside (for lists: inside each entry). */
	fields?: Record<string, Shape>;
	/** Adds nothing to the path: its fields read as the parent's (the issuer's establishment). */
	flat?: boolean;
	/** Replaces the parent in the path: `totales.impuestos` is the form's own list, "Total Taxes". */
	replacesParent?: boolean;
	/** Fields mode shows the list's one entry among its parent's fields (an item's tax line). */
	flatInFields?: Record<string, Shape>;
}

const leaves = (labels: Record<string, Label>): Record<string, Shape> =>
	Object.fromEntries(Object.entries(labels).map(([k, label]) => [k, { label }]));

const TAX_LINES: Shape = { label: l('Taxes', 'Impuestos'), entry: 'Tax', fields: leaves(TAX_LINE) };
const PARTY_SHAPE = (label: Label): Shape => ({ label, fields: leaves(PARTY) });
const INFO: Shape = {
	label: TOP.info_adicional,
	entry: 'Entry',
	fields: leaves({ nombre: l('Name'), valor: l('Value'), descripcion: l('Value') }),
};
const { establecimiento_direccion, ...issuerOwn } = ISSUER;
const ISSUER_SHAPE: Shape = {
	label: TOP.emisor,
	fields: {
		...leaves(issuerOwn),
		establecimiento: {
			flat: true,
			fields: leaves({
				codigo: ISSUER.codigo,
				punto_emision: ISSUER.punto_emision,
				direccion: establecimiento_direccion,
			}),
		},
	},
};
const PAYMENTS: Shape = { label: TOP.pagos, entry: 'Payment', fields: leaves(PAYMENT) };
const SALES_ITEMS: Shape = {
	label: TOP.items,
	entry: 'Line',
	fields: { ...leaves(ITEM), impuestos: { ...TAX_LINES, flatInFields: leaves(ITEM_TAX) } },
};
const REIMBURSEMENT: Shape = {
	label: TOP.reembolso,
	fields: {
		...leaves({ subtotal: l('Subtotal'), total: l('Total'), total_impuestos: l('Total Taxes') }),
		documentos: { label: l('Documents'), entry: 'Document', fields: { impuestos: TAX_LINES } },
	},
};

const COMMON: Record<string, Shape> = {
	...leaves(TOP),
	emisor: ISSUER_SHAPE,
	comprador: PARTY_SHAPE(TOP.comprador),
	proveedor: PARTY_SHAPE(TOP.proveedor),
	sujeto: PARTY_SHAPE(TOP.sujeto),
	transportista: PARTY_SHAPE(TOP.transportista),
	info_adicional: INFO,
	informacion_adicional: { label: TOP.info_adicional },
	totales: {
		label: TOP.totales,
		fields: {
			...leaves(TOTALS),
			impuestos: { ...TAX_LINES, label: TOP.totalTaxes, replacesParent: true },
		},
	},
	pagos: PAYMENTS,
	credito: {
		flat: true,
		fields: leaves({ monto: TOP.credito_monto, fecha_vencimiento: TOP.credito_fecha_vencimiento }),
	},
	reembolso: REIMBURSEMENT,
	maquina_fiscal: {
		flat: true,
		fields: leaves({
			marca: l('Fiscal Machine Brand'),
			modelo: l('Fiscal Machine Model'),
			serie: l('Fiscal Machine Serial'),
		}),
	},
	destinatarios: {
		label: TOP.destinatarios,
		entry: 'Recipient',
		fields: {
			...leaves(PARTY),
			items: { label: TOP.items, entry: 'Line', fields: leaves(ITEM) },
			...leaves({
				motivo_traslado: l('Reason for Transfer'),
				ruta: l('Route'),
				documento_aduanero_unico: l('Customs Document', 'DAU'),
			}),
		},
	},
	documentos_soporte: {
		label: TOP.documentos_soporte,
		entry: 'Document',
		fields: {
			impuestos: TAX_LINES,
			retenciones: {
				label: l('Retentions'),
				entry: 'Retention',
				fields: leaves({ ...TAX_LINE, valor_retenido: RETAINED.valor_retenido }),
			},
			pagos: PAYMENTS,
			reembolso: REIMBURSEMENT,
		},
	},
};

/** The shape of each kind's body: where its `items` differ. */
function rootOf(kind: ReceiptKind): Record<string, Shape> {
	if (kind === 'debitNote')
		return {
			...COMMON,
			items: {
				label: TOP.charges,
				entry: 'Charge',
				fields: leaves({ motivo: TOP.motivo, valor: TAX_LINE.valor }),
			},
		};
	if (kind === 'retention')
		return {
			...COMMON,
			items: { label: TOP.retainedTaxes, entry: 'Retained Tax', fields: leaves(RETAINED) },
		};
	return { ...COMMON, items: SALES_ITEMS };
}

export type InputMode = 'fields' | 'json';

/** A body field path: `items[0].impuestos[1].valor`. */
const JSON_PATH = /^[A-Za-z_]\w*(\[\d+\])*(\.[A-Za-z_]\w*(\[\d+\])*)*$/;

/** How a list entry's own words are quoted after its number: `Line 1 "Servicio contable"` (at most 40 characters). */
function entryWords(entry: unknown): string {
	if (!entry || typeof entry !== 'object') return '';
	const own = entry as Record<string, unknown>;
	const words = [own.descripcion, own.motivo].find(
		(v): v is string => typeof v === 'string' && v.trim() !== '',
	);
	if (!words) return '';
	const text = words.trim();
	return ` "${text.length > 40 ? `${text.slice(0, 37)}...` : text}"`;
}

/**
 * A body field path (`items[0].impuestos[0].valor`) in the form's words: `Line 1 › Tax Value` in Fields
 * mode, `Line 1 › Tax 1 › Value (items[0].impuestos[0].valor)` in JSON mode; with `body`, an entry that
 * has a description is named by it too (`Line 1 "Pan"`). Lines of a receipt are "lines", never "items": in
 * n8n an item is a row of the input. Unknown fields keep their JSON name.
 */
function fieldLabel(path: string, kind: ReceiptKind, mode: InputMode, body?: unknown): string {
	if (path === 'body') return 'Receipt (JSON)';
	if (!JSON_PATH.test(path)) return path; // already words (e.g. a credential's field)
	const parts: string[] = [];
	let fields: Record<string, Shape> | undefined = rootOf(kind);
	let value: unknown = body;
	for (const segment of path.split('.')) {
		const match = /^([^[\]]+)((?:\[\d+\])*)$/.exec(segment);
		const name = match ? match[1] : segment;
		const indexes = match ? [...match[2].matchAll(/\[(\d+)\]/g)].map((m) => Number(m[1]) + 1) : [];
		value =
			value && typeof value === 'object' ? (value as Record<string, unknown>)[name] : undefined;
		for (const n of indexes) value = Array.isArray(value) ? value[n - 1] : undefined;
		const shape: Shape | undefined = fields?.[name];
		if (!shape) {
			parts.push(`${name}${indexes.map((n) => ` ${n}`).join('')}`);
			fields = undefined;
			continue;
		}
		if (shape.replacesParent) {
			parts.pop();
			if (indexes.length && shape.label) parts.push(shape.label.en);
		}
		if (mode === 'fields' && shape.flatInFields && indexes.length) {
			fields = shape.flatInFields;
			continue;
		}
		if (!shape.flat) {
			// A list's entry: its number, and its words when it has some: `Line 1 "Pan"`.
			parts.push(
				indexes.length && shape.entry
					? `${shape.entry} ${indexes.join(' ')}${entryWords(value)}`
					: (shape.label?.en ?? name),
			);
		}
		fields = shape.fields;
	}
	const words = parts.join(' › ') || path;
	return mode === 'json' ? `${words} (${path})` : words;
}

/** `Item 1 › Quantity must be a number`, but `Issue Date: "31/03" is not an ISO 8601 date`. */
function say(label: string, what: string): string {
	return /^(is|must|has|have|does|do|should|needs|cannot|can|was|were|add|adds|are|takes)\b/.test(
		what,
	)
		? `${label} ${what}`
		: `${label}: ${what}`;
}

/**
 * A Checker whose messages name the form's fields (see fieldLabel). Everything that checks a receipt body
 * writes JSON paths; this turns them into the words the user sees.
 */
export class FormChecker extends Checker {
	/** The receipt being checked, once read: its lines' descriptions name them in messages. */
	private body?: unknown;

	constructor(
		private readonly kind: ReceiptKind,
		private readonly mode: InputMode,
	) {
		super();
	}

	/** From now on, messages name list entries by their descriptions in `body` too (see fieldLabel). */
	reading(body: unknown): this {
		this.body = body;
		return this;
	}

	name(path: string): string {
		return fieldLabel(path, this.kind, this.mode, this.body);
	}

	override fail(field: string, what: string): this {
		this.problems.push(say(this.name(field), what));
		return this;
	}

	override warn(field: string, what: string): this {
		this.warnings.push(say(this.name(field), what));
		return this;
	}
}

/** How a message names another field: in the form's words with a FormChecker, else by its path. */
export function nameOf(check: Checker, path: string): string {
	return check instanceof FormChecker ? check.name(path) : path;
}
