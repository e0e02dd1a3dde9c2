import { attribute, type XmlElement } from '../../shared/xml';
import { decimalOf, type Decimal } from '../../shared/decimal';
import { toMicros } from './amounts';

/**
 * What the DIOT needs from one CFDI, by the SAT's names (Anexo 20: cfdv40.xsd, cfdv33.xsd, cfdv32.xsd; the
 * payments complement Pagos20.xsd), read once, the same way, from either of its two forms (`CfdiSource`): the XML
 * itself, as the package's XML reader parsed it, or the CFDI as JSON (`comprobante`, what Read CFDI XML outputs).
 * The JSON is read tolerantly: an element the schema lets repeat may be a list or a single object, an amount a
 * number or a decimal text, so every version of the reader's JSON and items a workflow built itself read alike.
 * Pure: nothing here decides what counts, only what the CFDI says.
 */

/** A tax line: a concepto's `Traslado`/`Retencion`, or a paid document's `TrasladoDR`/`RetencionDR`. */
export interface TaxLine {
	/** c_Impuesto: `001` ISR, `002` IVA, `003` IEPS. */
	tax?: string;
	/** c_TipoFactor: `Tasa`, `Cuota`, `Exento`. */
	factor?: string;
	rate?: Decimal;
	/** In millionths of the CFDI's (or the paid document's) currency. */
	base?: bigint;
	amount?: bigint;
}

export interface ConceptoFacts {
	/** c_ObjetoImp (CFDI 4.0): `01` not subject to tax, `02` subject, `03`… (absent in 3.3). */
	objetoImp?: string;
	/** `Importe − Descuento`, in millionths of the CFDI's currency. */
	amount: bigint;
	traslados: TaxLine[];
	retenciones: TaxLine[];
}

/** A `DoctoRelacionado` of a payment: an invoice paid, with the taxes of the part paid (`ImpuestosDR`). */
export interface PaidDocument {
	/** The paid invoice's UUID (`IdDocumento`), upper case. */
	uuid: string;
	currency?: string;
	/** `EquivalenciaDR`: units of the document's currency per unit of the payment's (`TipoCambioDR` in Pagos 1.0). */
	equivalence?: Decimal;
	/** `ImpPagado`, in millionths of the document's currency. */
	paid?: bigint;
	/** `ImpSaldoAnt` and `ImpSaldoInsoluto`: what was owed before and after this payment, same unit. */
	balanceBefore?: bigint;
	balanceAfter?: bigint;
	/** `ObjetoImpDR`. */
	objetoImp?: string;
	/** Whether it has `ImpuestosDR`. */
	hasTaxes: boolean;
	traslados: TaxLine[];
	retenciones: TaxLine[];
}

export interface PaymentFacts {
	/** `FechaPago`, as written (`2025-10-10T12:00:00`). */
	date?: string;
	/** `FormaDePagoP` (c_FormaPago: `01` cash, `03` transfer…). */
	form?: string;
	/** `Monto`, in millionths of the payment's currency. */
	amount?: bigint;
	currency?: string;
	/** `TipoCambioP`. */
	rate?: Decimal;
	documents: PaidDocument[];
}

export interface CfdiFacts {
	/** The stamp's UUID, upper case. */
	uuid?: string;
	version?: string;
	/** c_TipoDeComprobante: `I`, `E`, `P`, `N`, `T` (CFDI 3.2's words turned into these letters). */
	type?: string;
	/** `Fecha`, as written. */
	date?: string;
	/** `MetodoPago`: `PUE`, `PPD`. */
	method?: string;
	currency?: string;
	/** `TipoCambio`. */
	rate?: Decimal;
	issuerRfc?: string;
	issuerName?: string;
	receiverRfc?: string;
	/** `Total`, in millionths of the CFDI's currency. */
	total?: bigint;
	/** `FormaPago` (c_FormaPago: `01` cash, `03` transfer, `30` advances applied, `99` to be defined…). */
	paymentForm?: string;
	/** `LugarExpedicion`: the postal code of the place of issue (CFDI 3.3 and 4.0). */
	place?: string;
	/** The issuer's `RegimenFiscal` (3.3 and 4.0: a code). */
	issuerRegime?: string;
	/** The receiver's `UsoCFDI` (`G03`, `S01` no tax effects…). */
	use?: string;
	/** `CfdiRelacionados`: each group's `TipoRelacion` and its UUIDs (upper case). 3.3 has one group, 4.0 several. */
	related: Array<{ type?: string; uuids: string[] }>;
	conceptos: ConceptoFacts[];
	/** The payments complement's `Version` (`2.0`, `1.0`), when the CFDI has one. */
	paymentsVersion?: string;
	payments: PaymentFacts[];
	/** Amounts written as something else than a decimal, in words: the CFDI's figures cannot be used. */
	unreadable: string[];
}

/** An element of a CFDI in either form: its attributes and its children by local name. */
interface CfdiSource {
	/** The attribute's value: text (the XML) or text or a number (the JSON); undefined when absent. */
	attr(name: string): unknown;
	/** The child elements of that local name, in document order (none when absent). */
	kids(local: string): CfdiSource[];
}

/** A CFDI's element as the XML reader parsed it. */
export function fromXml(element: XmlElement): CfdiSource {
	return {
		attr: (name) => attribute(element, name),
		kids: (local) => element.children.filter((c) => c.local === local).map(fromXml),
	};
}

type Json = Record<string, unknown>;

/** A CFDI's element as JSON: a child the schema lets repeat may be a list or a single object. */
export function fromJson(object: Json): CfdiSource {
	return {
		attr: (name) => object[name],
		kids: (local) => {
			const value = object[local];
			const list = Array.isArray(value)
				? value
				: value === undefined || value === null
					? []
					: [value];
			return list
				.filter((v): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v))
				.map(fromJson);
		},
	};
}

/** An element that occurs once (the first one). */
const one = (node: CfdiSource | undefined, local: string): CfdiSource | undefined =>
	node?.kids(local)[0];

/** An attribute as trimmed text (a number written as text too), undefined when absent or empty. */
function text(node: CfdiSource | undefined, name: string): string | undefined {
	const value = node?.attr(name);
	if (typeof value === 'number') return String(value);
	if (typeof value !== 'string') return undefined;
	return value.trim() || undefined;
}

/** CFDI 3.2's words for the type of CFDI. */
const TYPES_32: Readonly<Record<string, string>> = { ingreso: 'I', egreso: 'E', traslado: 'T' };

/** Reads one CFDI from its root (`Comprobante`). `uuid` stands in when it has no stamp (an item a workflow built). */
export function cfdiFacts(comprobante: CfdiSource, uuid?: string): CfdiFacts {
	const unreadable: string[] = [];
	const v32 = text(comprobante, 'version') === '3.2';
	const name = (n40: string, n32: string) => (v32 ? n32 : n40);
	const amountOf = (
		node: CfdiSource | undefined,
		attr: string,
		where: string,
	): bigint | undefined => {
		const value = node?.attr(attr);
		if (value === undefined || value === null || value === '') return undefined;
		const d = decimalOf(value);
		if (d) return toMicros(d);
		unreadable.push(`${where} ${attr} ${JSON.stringify(value)} is not an amount`);
		return undefined;
	};
	const rateOf = (
		node: CfdiSource | undefined,
		attr: string,
		where: string,
	): Decimal | undefined => {
		const value = node?.attr(attr);
		if (value === undefined || value === null || value === '') return undefined;
		const d = decimalOf(value);
		if (!d) unreadable.push(`${where} ${attr} ${JSON.stringify(value)} is not a number`);
		return d;
	};
	const taxLine = (node: CfdiSource, suffix: string, where: string): TaxLine => ({
		tax: text(node, `Impuesto${suffix}`),
		factor: text(node, `TipoFactor${suffix}`),
		rate: rateOf(node, `TasaOCuota${suffix}`, where),
		base: amountOf(node, `Base${suffix}`, where),
		amount: amountOf(node, `Importe${suffix}`, where),
	});

	const complementos = comprobante.kids('Complemento');
	const stamp = complementos.map((c) => one(c, 'TimbreFiscalDigital')).find((t) => t !== undefined);
	const type = text(comprobante, name('TipoDeComprobante', 'tipoDeComprobante'));
	const emisor = one(comprobante, 'Emisor');
	const conceptos = (one(comprobante, 'Conceptos')?.kids('Concepto') ?? []).map((c, k) => {
		const where = `Concepto ${k + 1}`;
		const impuestos = one(c, 'Impuestos');
		const importe = amountOf(c, name('Importe', 'importe'), where) ?? 0n;
		return {
			objetoImp: text(c, 'ObjetoImp'),
			amount: importe - (amountOf(c, 'Descuento', where) ?? 0n),
			traslados: (one(impuestos, 'Traslados')?.kids('Traslado') ?? []).map((t) =>
				taxLine(t, '', where),
			),
			retenciones: (one(impuestos, 'Retenciones')?.kids('Retencion') ?? []).map((t) =>
				taxLine(t, '', where),
			),
		};
	});

	const pagos = complementos.map((c) => one(c, 'Pagos')).find((p) => p !== undefined);
	const payments = (pagos?.kids('Pago') ?? []).map((pago, k) => ({
		date: text(pago, 'FechaPago'),
		form: text(pago, 'FormaDePagoP'),
		amount: amountOf(pago, 'Monto', `Pago ${k + 1}`),
		currency: text(pago, 'MonedaP'),
		rate: rateOf(pago, 'TipoCambioP', `Pago ${k + 1}`),
		documents: pago.kids('DoctoRelacionado').map((d, j) => {
			const where = `Pago ${k + 1} DoctoRelacionado ${j + 1}`;
			const impuestos = one(d, 'ImpuestosDR');
			return {
				uuid: (text(d, 'IdDocumento') ?? '').toUpperCase(),
				currency: text(d, 'MonedaDR'),
				equivalence: rateOf(d, 'EquivalenciaDR', where) ?? rateOf(d, 'TipoCambioDR', where),
				paid: amountOf(d, 'ImpPagado', where),
				balanceBefore: amountOf(d, 'ImpSaldoAnt', where),
				balanceAfter: amountOf(d, 'ImpSaldoInsoluto', where),
				objetoImp: text(d, 'ObjetoImpDR'),
				hasTaxes: impuestos !== undefined,
				traslados: (one(impuestos, 'TrasladosDR')?.kids('TrasladoDR') ?? []).map((t) =>
					taxLine(t, 'DR', where),
				),
				retenciones: (one(impuestos, 'RetencionesDR')?.kids('RetencionDR') ?? []).map((t) =>
					taxLine(t, 'DR', where),
				),
			};
		}),
	}));

	return {
		uuid: (text(stamp, 'UUID') ?? uuid)?.toUpperCase(),
		version: text(comprobante, name('Version', 'version')),
		type: type !== undefined && v32 ? (TYPES_32[type] ?? type) : type,
		date: text(comprobante, name('Fecha', 'fecha')),
		method: text(comprobante, 'MetodoPago'),
		currency: text(comprobante, 'Moneda'),
		rate: rateOf(comprobante, 'TipoCambio', 'Comprobante'),
		issuerRfc: text(emisor, name('Rfc', 'rfc'))?.toUpperCase(),
		issuerName: text(emisor, name('Nombre', 'nombre')),
		receiverRfc: text(one(comprobante, 'Receptor'), name('Rfc', 'rfc'))?.toUpperCase(),
		total: amountOf(comprobante, name('Total', 'total'), 'Comprobante'),
		paymentForm: v32 ? undefined : text(comprobante, 'FormaPago'),
		place: text(comprobante, 'LugarExpedicion'),
		issuerRegime: v32 ? undefined : text(emisor, 'RegimenFiscal'),
		use: text(one(comprobante, 'Receptor'), 'UsoCFDI'),
		related: comprobante.kids('CfdiRelacionados').map((group) => ({
			type: text(group, 'TipoRelacion'),
			uuids: group
				.kids('CfdiRelacionado')
				.map((r) => text(r, 'UUID')?.toUpperCase())
				.filter((u): u is string => u !== undefined),
		})),
		conceptos: v32 ? [] : conceptos,
		paymentsVersion: text(pagos, 'Version'),
		payments,
		unreadable,
	};
}
