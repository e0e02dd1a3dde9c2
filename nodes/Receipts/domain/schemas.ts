import type { IDataObject } from 'n8n-workflow';
import { deepCopy } from 'n8n-workflow';
import { Checker, isMissing, numberValue } from '../../shared/validate';
import { accessKeyProblem, splitAccessKey } from '../../shared/sri/accessKey';
import { ID_TYPES, idTypeOf, identificationWarning, rucProblem } from '../../shared/sri/ruc';
import { DOCUMENT_TYPE_CODES } from './catalogs';
import { RECEIPT_KINDS, type ReceiptKind } from './kinds';
import { CREDENTIAL_ISSUER } from './labels';
import {
	BUILT_IN_RATES,
	checkDebitNoteTotals,
	checkReimbursementAmounts,
	checkRetentionAmounts,
	checkSalesTotals,
	completeAmounts,
	type RateBook,
} from './totals';

/**
 * Pre-flight validation of receipt bodies, one function per receipt kind, following the tables of the
 * receipts service's specification (Limits, and each endpoint's parameters); invoices, credit notes and debit
 * notes, which the spec names without showing, follow the service's public documentation (Facturas, Notas de
 * crédito, Notas de débito). Each checks everything the spec constrains (naming the field path, e.g.
 * `destinatarios[0].items[1].cantidad`), adds warnings for what is suspicious but may be right
 * (identification check digits), and returns the body as it is sent: a number given as plain decimal text
 * (from a spreadsheet: "12.50") is sent as the number that was checked (Checker.numbersInto), and `ambiente`
 * and `tipo_emision` as the integers the spec types them.
 * Fields the spec does not describe are passed through untouched.
 */

const PERIODO_FISCAL = /^(0[1-9]|1[0-2])\/\d{4}$/;
const CURRENCY = /^[A-Z]{3}$/;
const MAX_SEQUENTIAL = 999999999;
/** A full document number: establishment-emission point-sequential, e.g. 001-002-000058473. */
const DOCUMENT_NUMBER = /^\d{3}-\d{3}-\d{9}$/;

function isObjectValue(value: unknown): value is IDataObject {
	return !!value && typeof value === 'object' && !Array.isArray(value);
}

function asObject(value: unknown): IDataObject {
	return isObjectValue(value) ? value : {};
}

function toInteger(value: unknown): unknown {
	return numberValue(value) ?? value;
}

function each(
	check: Checker,
	path: string,
	value: unknown,
	opts: { required?: boolean; min?: number },
	fn: (entry: IDataObject, at: string) => void,
): void {
	if (!check.array(path, value, opts)) return;
	(value as unknown[]).forEach((entry, n) => {
		const at = `${path}[${n}]`;
		if (check.object(at, entry, { required: true })) fn(entry as IDataObject, at);
	});
}

function common(check: Checker, body: IDataObject): void {
	check.oneOf('ambiente', body.ambiente, [1, 2], { required: true });
	check.oneOf('tipo_emision', body.tipo_emision, [1, 2], { required: true });
	check.isoDate('fecha_emision', body.fecha_emision);
	check.string('version', body.version);
	if (!isMissing(body.clave_acceso)) {
		const problem = accessKeyProblem(body.clave_acceso);
		if (problem) check.fail('clave_acceso', problem);
	}

	if (!isMissing(body.ambiente)) body.ambiente = toInteger(body.ambiente) as IDataObject[string];
	if (!isMissing(body.tipo_emision))
		body.tipo_emision = toInteger(body.tipo_emision) as IDataObject[string];
}

/**
 * A valid access key that disagrees with the receipt it travels with (other environment, issuer, receipt
 * type or sequential) is most likely copied from another receipt: warn, the service has the last word.
 */
function crossCheckAccessKey(
	check: Checker,
	body: IDataObject,
	kind: ReceiptKind,
	sequentialField: 'secuencial' | 'secuencia',
): void {
	if (isMissing(body.clave_acceso) || accessKeyProblem(body.clave_acceso)) return;
	const parts = splitAccessKey(String(body.clave_acceso));
	const differs: string[] = [];
	if (parts.receiptType !== RECEIPT_KINDS[kind].typeCode)
		differs.push(
			`receipt type ${parts.receiptType} (this receipt is ${RECEIPT_KINDS[kind].typeCode})`,
		);
	if (!isMissing(body.ambiente) && parts.environment !== String(body.ambiente))
		differs.push(`ambiente ${parts.environment} (body: ${String(body.ambiente)})`);
	if (!isMissing(body.tipo_emision) && parts.emissionType !== String(body.tipo_emision))
		differs.push(`tipo_emision ${parts.emissionType} (body: ${String(body.tipo_emision)})`);
	const ruc = (body.emisor as IDataObject | undefined)?.ruc;
	if (!isMissing(ruc) && parts.ruc !== String(ruc).trim())
		differs.push(`RUC ${parts.ruc} (emisor.ruc: ${String(ruc)})`);
	const seq = body[sequentialField];
	if (!isMissing(seq) && /^\d+$/.test(String(seq)) && Number(parts.sequential) !== Number(seq))
		differs.push(`sequential ${parts.sequential} (${sequentialField}: ${String(seq)})`);
	if (differs.length)
		check.warn(
			'clave_acceso',
			`does not match this receipt: it carries ${differs.join(', ')}; sent anyway, verify the key`,
		);
}

function sequential(
	check: Checker,
	body: IDataObject,
	field: 'secuencial' | 'secuencia',
	as: 'integer' | 'string',
): void {
	// An accepted text becomes the integer (Checker.numbersInto); kinds whose spec types it as text keep the
	// text as given ("000123"), and a number becomes its text.
	const given = body[field];
	check.integer(field, given, { required: true, min: 1, max: MAX_SEQUENTIAL });
	if (as === 'string' && !isMissing(given))
		body[field] = typeof given === 'number' ? String(given) : given;
}

/**
 * The issuer: RUC, legal name, establishment and emission point are required (from the node, a JSON body or the
 * issuer saved in the credential, merged before this check): a receipt without them is refused by the service at
 * best, and at worst carries an access key built on a wrong RUC. Each missing field is named, with both places to
 * fill it. A RUC that is not 13 digits of an existing province is refused; a check digit that does not follow the
 * published rule only warns, because the SRI has issued such RUCs (shared/sri/ruc.ts).
 */
function checkEmisor(check: Checker, value: unknown): void {
	if (!isMissing(value) && !check.object('emisor', value)) return;
	const emisor = (isMissing(value) ? {} : value) as IDataObject;
	const establecimiento =
		emisor.establecimiento && typeof emisor.establecimiento === 'object'
			? (emisor.establecimiento as IDataObject)
			: {};
	const required = (path: string, given: unknown, credentialLabel: string): boolean => {
		if (!isMissing(given)) return true;
		check.fail(
			path,
			`is required: fill it in the node, or once in the Receipts credential (${credentialLabel}), which every receipt then uses`,
		);
		return false;
	};
	check.string('emisor.ruc', emisor.ruc);
	if (
		required('emisor.ruc', emisor.ruc, CREDENTIAL_ISSUER.ruc) &&
		(typeof emisor.ruc === 'string' || typeof emisor.ruc === 'number')
	) {
		const problem = rucProblem(String(emisor.ruc).trim());
		if (problem?.startsWith('is not a RUC')) check.fail('emisor.ruc', problem);
		else if (problem) check.warn('emisor.ruc', `${problem}; sent anyway, verify the RUC`);
	}
	if (required('emisor.razon_social', emisor.razon_social, CREDENTIAL_ISSUER.razon_social))
		check.string('emisor.razon_social', emisor.razon_social);
	if (
		emisor.obligado_contabilidad !== undefined &&
		typeof emisor.obligado_contabilidad !== 'boolean'
	) {
		check.fail('emisor.obligado_contabilidad', 'must be true or false');
	}
	if (
		!isMissing(emisor.establecimiento) &&
		!check.object('emisor.establecimiento', emisor.establecimiento)
	)
		return;
	for (const [key, label] of [
		['codigo', CREDENTIAL_ISSUER.codigo],
		['punto_emision', CREDENTIAL_ISSUER.punto_emision],
	] as const) {
		const path = `emisor.establecimiento.${key}`;
		if (
			required(path, establecimiento[key], label) &&
			!/^\d{3}$/.test(String(establecimiento[key]).trim())
		)
			check.fail(path, 'must be 3 digits, e.g. 001');
	}
}

/** A person (sujeto, proveedor, comprador, destinatario, transportista). */
function checkParty(
	check: Checker,
	path: string,
	value: unknown,
	opts: { required: boolean; strict?: boolean; carrier?: boolean; buyer?: boolean },
): IDataObject | undefined {
	if (!check.object(path, value, { required: opts.required })) return undefined;
	const party = value as IDataObject;
	check.string(`${path}.identificacion`, party.identificacion, {
		required: opts.strict,
		min: 5,
		max: 20,
	});
	check.string(`${path}.tipo_identificacion`, party.tipo_identificacion, { required: opts.strict });
	check.string(`${path}.razon_social`, party.razon_social, { required: opts.strict, max: 300 });
	// The spec gives no e-mail format (some issuers send several addresses in one field): only a length, the
	// carrier's (spec) and the buyer's (the service's public documentation, Persona).
	check.string(`${path}.email`, party.email, { max: opts.carrier || opts.buyer ? 300 : undefined });
	if (opts.carrier) check.string(`${path}.placa`, party.placa, { required: true });
	const warning = isMissing(party.identificacion)
		? undefined
		: identificationWarning(party.identificacion, party.tipo_identificacion);
	if (warning) check.warn(`${path}.identificacion`, `${warning}; sent anyway, verify the number`);
	return party;
}

/** Kinds whose `info_adicional` entries are `{nombre, valor}` (the others: `{nombre, descripcion}`). */
const INFO_VALOR: ReceiptKind[] = ['waybill', 'invoice', 'creditNote', 'debitNote'];
/** Kinds where `informacion_adicional` is marked obsolete in favour of `info_adicional`. */
const INFO_OBSOLETE: ReceiptKind[] = [
	'waybill',
	'purchaseSettlement',
	'purchaseSettlementReimbursement',
	'invoice',
];

function checkInfo(check: Checker, body: IDataObject, kind: ReceiptKind): void {
	const valueKey = INFO_VALOR.includes(kind) ? 'valor' : 'descripcion';
	each(check, 'info_adicional', body.info_adicional, {}, (entry, at) => {
		check.string(`${at}.nombre`, entry.nombre, { required: true });
		if (isMissing(entry[valueKey]) && isMissing(entry.valor) && isMissing(entry.descripcion))
			check.fail(`${at}.${valueKey}`, 'is required');
	});
	if (!isMissing(body.informacion_adicional)) {
		check.object('informacion_adicional', body.informacion_adicional);
		if (INFO_OBSOLETE.includes(kind)) {
			check.warn(
				'informacion_adicional',
				'is obsolete for this receipt kind; passed through, but prefer info_adicional (a list of {nombre, ' +
					valueKey +
					'})',
			);
		}
	}
}

/**
 * `computedAmounts`: the base and value are required but computed when left out (totals.ts reports when they
 * cannot be). `codes`: a line that is there must say its tax and percentage code, even in an optional list.
 */
function taxLines(
	check: Checker,
	path: string,
	value: unknown,
	opts: { required?: boolean; tarifa?: boolean; computedAmounts?: boolean; codes?: boolean },
): void {
	each(check, path, value, { required: opts.required }, (tax, at) => {
		check.string(`${at}.codigo`, tax.codigo, { required: opts.required || opts.codes });
		check.string(`${at}.codigo_porcentaje`, tax.codigo_porcentaje, {
			required: opts.required || opts.codes,
		});
		check.number(`${at}.base_imponible`, tax.base_imponible, {
			required: opts.required && !opts.computedAmounts,
		});
		check.number(`${at}.valor`, tax.valor, { required: opts.required && !opts.computedAmounts });
		check.number(`${at}.tarifa`, tax.tarifa);
	});
}

function checkRetention(
	check: Checker,
	body: IDataObject,
	rates: RateBook = BUILT_IN_RATES,
): IDataObject {
	common(check, body);
	sequential(check, body, 'secuencial', 'integer');
	check.matches(
		'periodo_fiscal',
		body.periodo_fiscal,
		PERIODO_FISCAL,
		'is not a fiscal period: use MM/YYYY, e.g. 03/2026',
		{ required: true },
	);
	checkEmisor(check, body.emisor);
	checkParty(check, 'sujeto', body.sujeto, { required: true });
	each(check, 'items', body.items, { required: true, min: 1 }, (item, at) => {
		check.number(`${at}.base_imponible`, item.base_imponible, { required: true, maxDecimals: 2 });
		check.string(`${at}.codigo`, item.codigo, { required: true });
		check.string(`${at}.codigo_porcentaje`, item.codigo_porcentaje, { required: true });
		check.number(`${at}.porcentaje`, item.porcentaje);
		// Required, but computed from the percentage when known: completeAmounts says when it cannot be.
		check.number(`${at}.valor_retenido`, item.valor_retenido, { maxDecimals: 2 });
		check.isoDate(`${at}.fecha_emision_documento_sustento`, item.fecha_emision_documento_sustento, {
			required: true,
		});
		check.string(`${at}.numero_documento_sustento`, item.numero_documento_sustento);
		check.string(`${at}.tipo_documento_sustento`, item.tipo_documento_sustento, { required: true });
	});
	checkRetentionAmounts(check, body, rates);
	crossCheckAccessKey(check, body, 'retention', 'secuencial');
	checkInfo(check, body, 'retention');
	return body;
}

function checkAtsRetention(check: Checker, body: IDataObject): IDataObject {
	common(check, body);
	sequential(check, body, 'secuencia', 'integer');
	check.matches(
		'periodo_fiscal',
		body.periodo_fiscal,
		PERIODO_FISCAL,
		'is not a fiscal period: use MM/YYYY, e.g. 03/2026',
		{ required: true },
	);
	checkEmisor(check, body.emisor);
	const sujeto = checkParty(check, 'sujeto', body.sujeto, { required: true });
	// Receipts service, POST /ats-retentions/issue: required when the retained subject has a foreign identification.
	if (
		sujeto &&
		String(sujeto.tipo_identificacion ?? '') === ID_TYPES.foreign &&
		isMissing(body.tipo_sujeto_retenido)
	) {
		check.fail(
			'tipo_sujeto_retenido',
			'is required when the retained subject has a foreign identification (sujeto.tipo_identificacion 08)',
		);
	}
	check.string('tipo_sujeto_retenido', body.tipo_sujeto_retenido);
	each(
		check,
		'documentos_soporte',
		body.documentos_soporte,
		{ required: true, min: 1 },
		(doc, at) => {
			check.isoDate(`${at}.fecha_emision`, doc.fecha_emision);
			check.isoDate(`${at}.fecha_registro_contable`, doc.fecha_registro_contable);
			check.number(`${at}.total_sin_impuestos`, doc.total_sin_impuestos);
			check.number(`${at}.total`, doc.total);
			taxLines(check, `${at}.impuestos`, doc.impuestos, {});
			each(check, `${at}.retenciones`, doc.retenciones, {}, (r, rat) => {
				check.string(`${rat}.codigo`, r.codigo);
				check.string(`${rat}.codigo_porcentaje`, r.codigo_porcentaje);
				check.number(`${rat}.base_imponible`, r.base_imponible, { maxDecimals: 2 });
				check.number(`${rat}.tarifa`, r.tarifa);
				check.number(`${rat}.valor_retenido`, r.valor_retenido, { maxDecimals: 2 });
				each(check, `${rat}.dividendos`, r.dividendos, {}, (d, dat) => {
					check.isoDate(`${dat}.fecha_pago`, d.fecha_pago);
					check.number(`${dat}.impuesto_renta`, d.impuesto_renta);
					check.integer(`${dat}.annio_fiscal`, d.annio_fiscal);
				});
			});
			each(check, `${at}.pagos`, doc.pagos, {}, (p, pat) => check.number(`${pat}.total`, p.total));
			if (check.object(`${at}.reembolso`, doc.reembolso))
				reimbursementDocuments(check, `${at}.reembolso`, doc.reembolso as IDataObject);
		},
	);
	crossCheckAccessKey(check, body, 'atsRetention', 'secuencia');
	checkInfo(check, body, 'atsRetention');
	return body;
}

function checkWaybill(check: Checker, body: IDataObject): IDataObject {
	common(check, body);
	sequential(check, body, 'secuencial', 'string');
	checkEmisor(check, body.emisor);
	check.isoDate('fecha_inicio_transporte', body.fecha_inicio_transporte, { required: true });
	check.isoDate('fecha_fin_transporte', body.fecha_fin_transporte, { required: true });
	check.string('direccion_partida', body.direccion_partida, { required: true });
	checkParty(check, 'transportista', body.transportista, {
		required: true,
		strict: true,
		carrier: true,
	});
	each(check, 'destinatarios', body.destinatarios, { required: true, min: 1 }, (d, at) => {
		checkParty(check, at, d, { required: true, strict: true });
		check.string(`${at}.direccion`, d.direccion, { required: true });
		check.string(`${at}.ruta`, d.ruta, { max: 300 });
		check.string(`${at}.documento_aduanero_unico`, d.documento_aduanero_unico, { max: 20 });
		check.isoDate(`${at}.fecha_emision_documento_sustento`, d.fecha_emision_documento_sustento);
		check.string(`${at}.motivo_traslado`, d.motivo_traslado, { required: true });
		each(check, `${at}.items`, d.items, { required: true, min: 1 }, (item, iat) => {
			check.string(`${iat}.descripcion`, item.descripcion, { required: true });
			check.string(`${iat}.codigo_principal`, item.codigo_principal, { required: true, max: 25 });
			check.string(`${iat}.codigo_auxiliar`, item.codigo_auxiliar, { max: 25 });
			check.number(`${iat}.cantidad`, item.cantidad, { required: true, maxDecimals: 6 });
			check.object(`${iat}.detalles_adicionales`, item.detalles_adicionales);
		});
	});
	crossCheckAccessKey(check, body, 'waybill', 'secuencial');
	checkInfo(check, body, 'waybill');
	return body;
}

function reimbursementDocuments(check: Checker, path: string, reembolso: IDataObject): void {
	check.number(`${path}.subtotal`, reembolso.subtotal);
	check.number(`${path}.total`, reembolso.total);
	check.number(`${path}.total_impuestos`, reembolso.total_impuestos);
	each(check, `${path}.documentos`, reembolso.documentos, {}, (doc, at) => {
		check.isoDate(`${at}.fecha_emision`, doc.fecha_emision);
		check.integer(`${at}.secuencia`, doc.secuencia, { min: 1, max: MAX_SEQUENTIAL });
		const warning = identificationWarning(
			doc.identificacion_proveedor,
			doc.tipo_identificacion_proveedor,
		);
		if (warning)
			check.warn(`${at}.identificacion_proveedor`, `${warning}; sent anyway, verify the number`);
		taxLines(check, `${at}.impuestos`, doc.impuestos, {});
	});
}

/** SRI: IVA (codigo 2) at percentage code 6 is "no objeto de impuesto". */
export const NO_OBJECT_OF_TAX = { codigo: '2', codigo_porcentaje: '6' } as const;

function checkPurchaseSettlement(
	check: Checker,
	body: IDataObject,
	opts: { reimbursement: boolean },
	rates: RateBook = BUILT_IN_RATES,
): IDataObject {
	common(check, body);
	sequential(check, body, 'secuencial', 'string');
	checkEmisor(check, body.emisor);
	check.matches(
		'moneda',
		body.moneda,
		CURRENCY,
		'is not an ISO currency code (3 capital letters, e.g. USD)',
		{ required: true },
	);
	// The amounts are required, and computed from the items when left out (totals.ts says when they cannot be).
	if (check.object('totales', body.totales, { required: true })) {
		const t = body.totales as IDataObject;
		check.number('totales.total_sin_impuestos', t.total_sin_impuestos);
		check.number('totales.descuento', t.descuento);
		check.number('totales.importe_total', t.importe_total);
		taxLines(check, 'totales.impuestos', t.impuestos, { required: true, computedAmounts: true });
	}
	if (check.object('maquina_fiscal', body.maquina_fiscal)) {
		const m = body.maquina_fiscal as IDataObject;
		for (const key of ['marca', 'modelo', 'serie']) check.string(`maquina_fiscal.${key}`, m[key]);
	}
	checkParty(check, 'proveedor', body.proveedor, { required: true });
	each(check, 'items', body.items, { required: true, min: 1 }, (item, at) => {
		check.number(`${at}.cantidad`, item.cantidad);
		check.string(`${at}.codigo_principal`, item.codigo_principal, { max: 25 });
		check.string(`${at}.codigo_auxiliar`, item.codigo_auxiliar, { max: 25 });
		check.number(`${at}.precio_unitario`, item.precio_unitario);
		check.number(`${at}.precio_total_sin_impuestos`, item.precio_total_sin_impuestos);
		check.number(`${at}.descuento`, item.descuento);
		check.object(`${at}.detalles_adicionales`, item.detalles_adicionales);
		taxLines(check, `${at}.impuestos`, item.impuestos, { codes: true });
		if (opts.reimbursement && Array.isArray(item.impuestos)) {
			(item.impuestos as IDataObject[]).forEach((tax, n) => {
				if (
					tax &&
					(String(tax.codigo) !== NO_OBJECT_OF_TAX.codigo ||
						String(tax.codigo_porcentaje) !== NO_OBJECT_OF_TAX.codigo_porcentaje)
				) {
					check.warn(
						`${at}.impuestos[${n}]`,
						'is not of the no-object-of-tax kind (IVA, percentage code 6) that a reimbursement settlement item carries',
					);
				}
			});
		}
	});
	each(check, 'pagos', body.pagos, { required: true, min: 1 }, (p, at) => {
		check.string(`${at}.forma_pago`, p.forma_pago, { required: true });
		check.number(`${at}.total`, p.total);
		check.string(`${at}.unidad_tiempo`, p.unidad_tiempo, { max: 10 });
		check.string(`${at}.plazo`, p.plazo, { max: 14 });
	});
	if (opts.reimbursement) {
		if (check.object('reembolso', body.reembolso, { required: true }))
			reimbursementDocuments(check, 'reembolso', body.reembolso as IDataObject);
	} else if (!isMissing(body.reembolso) && check.object('reembolso', body.reembolso)) {
		reimbursementDocuments(check, 'reembolso', body.reembolso as IDataObject);
	}
	checkSalesTotals(check, body, { propina: false, payments: 'settlement' }, rates);
	if (isObjectValue(body.reembolso))
		checkReimbursementAmounts(check, 'reembolso', body.reembolso, rates);
	crossCheckAccessKey(
		check,
		body,
		opts.reimbursement ? 'purchaseSettlementReimbursement' : 'purchaseSettlement',
		'secuencial',
	);
	checkInfo(
		check,
		body,
		opts.reimbursement ? 'purchaseSettlementReimbursement' : 'purchaseSettlement',
	);
	return body;
}

/**
 * Tax lines of invoices and notes: codes and 2-decimal amounts (Impuesto Item, Total Impuesto). The amounts (and
 * a debit note's `tarifa`) are required, and computed when left out: totals.ts reports those it cannot compute.
 */
function salesTaxLines(check: Checker, path: string, value: unknown): void {
	each(check, path, value, { required: true, min: 1 }, (tax, at) => {
		check.string(`${at}.codigo`, tax.codigo, { required: true });
		check.string(`${at}.codigo_porcentaje`, tax.codigo_porcentaje, { required: true });
		check.number(`${at}.base_imponible`, tax.base_imponible, { maxDecimals: 2 });
		check.number(`${at}.valor`, tax.valor, { maxDecimals: 2 });
		check.number(`${at}.tarifa`, tax.tarifa, { min: 0, maxDecimals: 2 });
		check.number(`${at}.descuento_adicional`, tax.descuento_adicional, { min: 0, maxDecimals: 2 });
	});
}

/** Items of invoices and credit notes (Item de factura, nota de crédito y liquidación de compras). */
function salesItems(check: Checker, value: unknown): void {
	each(check, 'items', value, { required: true, min: 1 }, (item, at) => {
		check.string(`${at}.descripcion`, item.descripcion, { required: true, max: 300 });
		check.string(`${at}.codigo_principal`, item.codigo_principal, { max: 25 });
		check.string(`${at}.codigo_auxiliar`, item.codigo_auxiliar, { max: 25 });
		check.number(`${at}.cantidad`, item.cantidad, { required: true, maxDecimals: 6 });
		check.number(`${at}.precio_unitario`, item.precio_unitario, { required: true, maxDecimals: 6 });
		check.number(`${at}.descuento`, item.descuento, { required: true, min: 0, maxDecimals: 2 });
		check.number(`${at}.precio_total_sin_impuestos`, item.precio_total_sin_impuestos, {
			maxDecimals: 2,
		});
		check.string(`${at}.unidad_medida`, item.unidad_medida);
		check.object(`${at}.detalles_adicionales`, item.detalles_adicionales);
		salesTaxLines(check, `${at}.impuestos`, item.impuestos);
	});
}

/**
 * `totales` with its amounts, all with at most 2 decimals: `computed` are required but computed from the items
 * when left out (totals.ts reports those it cannot compute); `optional` may be left out.
 */
function salesTotals(check: Checker, value: unknown, computed: string[], optional: string[]): void {
	if (!check.object('totales', value, { required: true })) return;
	const totales = value as IDataObject;
	for (const key of computed) check.number(`totales.${key}`, totales[key], { maxDecimals: 2 });
	for (const key of optional)
		check.number(`totales.${key}`, totales[key], { min: 0, maxDecimals: 2 });
	salesTaxLines(check, 'totales.impuestos', totales.impuestos);
}

/** The date part of a valid ISO 8601 date, for comparing dates; undefined when it is not one. */
function validDate(value: unknown): string | undefined {
	return typeof value === 'string' && new Checker().isoDate('date', value).ok
		? value.slice(0, 10)
		: undefined;
}

/** The document a credit or debit note modifies: its type, number and date. */
function modifiedDocument(check: Checker, body: IDataObject): void {
	check.oneOf('tipo_documento_modificado', body.tipo_documento_modificado, DOCUMENT_TYPE_CODES, {
		required: true,
	});
	check.matches(
		'numero_documento_modificado',
		body.numero_documento_modificado,
		DOCUMENT_NUMBER,
		'is not a document number: use establishment-emission point-sequential (###-###-#########), e.g. 001-002-000058473',
		{ required: true },
	);
	check.isoDate('fecha_emision_documento_modificado', body.fecha_emision_documento_modificado, {
		required: true,
	});
	const modified = validDate(body.fecha_emision_documento_modificado);
	const own = validDate(body.fecha_emision);
	if (modified && own && modified > own) {
		check.fail(
			'fecha_emision_documento_modificado',
			`${modified} is after the note's own fecha_emision ${own}: a note can only modify a document issued before it`,
		);
	}
}

/** What invoices and notes begin with: the common fields, sequential, issuer, currency and buyer. */
function salesHeader(
	check: Checker,
	body: IDataObject,
	opts: { sequentialAs: 'integer' | 'string'; currency: boolean },
): void {
	common(check, body);
	sequential(check, body, 'secuencial', opts.sequentialAs);
	checkEmisor(check, body.emisor);
	check.matches(
		'moneda',
		body.moneda,
		CURRENCY,
		'is not an ISO currency code (3 capital letters, e.g. USD)',
		{ required: opts.currency },
	);
	checkParty(check, 'comprador', body.comprador, { required: true, strict: true, buyer: true });
}

/** Invoice (receipts service's public documentation, Facturas: "Emisión de una factura"). */
function checkInvoice(
	check: Checker,
	body: IDataObject,
	rates: RateBook = BUILT_IN_RATES,
): IDataObject {
	salesHeader(check, body, { sequentialAs: 'integer', currency: true });
	check.matches(
		'guia_remision',
		body.guia_remision,
		DOCUMENT_NUMBER,
		'is not a waybill number: use ###-###-#########, e.g. 001-002-000000003',
	);
	salesItems(check, body.items);
	salesTotals(
		check,
		body.totales,
		['total_sin_impuestos', 'descuento', 'propina', 'importe_total'],
		['descuento_adicional'],
	);
	each(check, 'pagos', body.pagos, { required: true, min: 1 }, (p, at) => {
		check.string(`${at}.medio`, p.medio, { required: true });
		check.number(`${at}.total`, p.total, { maxDecimals: 2 });
		check.isoDate(`${at}.fecha`, p.fecha);
		check.string(`${at}.notas`, p.notas, { max: 300 });
		check.object(`${at}.propiedades`, p.propiedades);
	});
	if (check.object('credito', body.credito)) {
		const credito = body.credito as IDataObject;
		check.isoDate('credito.fecha_vencimiento', credito.fecha_vencimiento, { required: true });
		check.number('credito.monto', credito.monto, { required: true, min: 0, maxDecimals: 2 });
	}
	check.number('valor_retenido_iva', body.valor_retenido_iva, { min: 0, maxDecimals: 2 });
	check.number('valor_retenido_renta', body.valor_retenido_renta, { min: 0, maxDecimals: 2 });
	each(check, 'retenciones', body.retenciones, {}, (r, at) => {
		check.string(`${at}.codigo`, r.codigo, { required: true });
		check.string(`${at}.codigo_porcentaje`, r.codigo_porcentaje, { required: true });
		check.number(`${at}.tarifa`, r.tarifa, { required: true, maxDecimals: 2 });
		check.number(`${at}.valor`, r.valor, { required: true, maxDecimals: 2 });
	});
	checkSalesTotals(check, body, { propina: true, payments: 'invoice' }, rates);
	crossCheckAccessKey(check, body, 'invoice', 'secuencial');
	checkInfo(check, body, 'invoice');
	return body;
}

/** Credit note (Notas de crédito): an invoice's shape without payments and tip, plus the modified document. */
function checkCreditNote(
	check: Checker,
	body: IDataObject,
	rates: RateBook = BUILT_IN_RATES,
): IDataObject {
	salesHeader(check, body, { sequentialAs: 'integer', currency: true });
	modifiedDocument(check, body);
	check.string('motivo', body.motivo, { required: true, max: 300 });
	salesItems(check, body.items);
	salesTotals(
		check,
		body.totales,
		['total_sin_impuestos', 'importe_total'],
		['descuento', 'descuento_adicional'],
	);
	checkSalesTotals(check, body, { propina: false, payments: false }, rates);
	crossCheckAccessKey(check, body, 'creditNote', 'secuencial');
	checkInfo(check, body, 'creditNote');
	return body;
}

/** Debit note (Notas de débito): `secuencial` as text, no currency, items are `{motivo, valor}`, taxes with `tarifa`. */
function checkDebitNote(
	check: Checker,
	body: IDataObject,
	rates: RateBook = BUILT_IN_RATES,
): IDataObject {
	salesHeader(check, body, { sequentialAs: 'string', currency: false });
	modifiedDocument(check, body);
	each(check, 'items', body.items, { required: true, min: 1 }, (item, at) => {
		check.string(`${at}.motivo`, item.motivo, { required: true, max: 300 });
		check.number(`${at}.valor`, item.valor, { required: true, maxDecimals: 2 });
	});
	salesTotals(check, body.totales, ['total_sin_impuestos', 'importe_total'], []);
	checkDebitNoteTotals(check, body, rates);
	crossCheckAccessKey(check, body, 'debitNote', 'secuencial');
	checkInfo(check, body, 'debitNote');
	return body;
}

/** Every party a receipt of `kind` names, by path. */
function partiesOf(body: IDataObject): Array<[string, IDataObject]> {
	const parties: Array<[string, IDataObject]> = [];
	for (const key of ['comprador', 'proveedor', 'sujeto', 'transportista'])
		if (isObjectValue(body[key])) parties.push([key, body[key] as IDataObject]);
	if (Array.isArray(body.destinatarios))
		body.destinatarios.forEach(
			(d, n) => isObjectValue(d) && parties.push([`destinatarios[${n}]`, d]),
		);
	return parties;
}

/**
 * A party's identification type, when left empty, from the shape of its identification (ruc.ts: 13 digits
 * ending in 001 → RUC, 10 → cédula, thirteen nines → final consumer), with a warning that says so.
 */
function inferIdentificationTypes(check: Checker, body: IDataObject): void {
	for (const [path, party] of partiesOf(body)) {
		if (!isMissing(party.tipo_identificacion)) continue;
		const inferred = idTypeOf(party.identificacion);
		if (!inferred) continue;
		party.tipo_identificacion = inferred.code;
		check.warn(
			`${path}.tipo_identificacion`,
			`was empty: ${inferred.code} (${inferred.why}) was used; check it`,
		);
	}
}

/**
 * Validates `body` as a receipt of `kind`, after filling what can be computed: a party's identification type
 * (inferIdentificationTypes) and the amounts (totals.ts, with the rates of `rates`). Returns a copy the caller
 * may send; `input` is not changed.
 */
export function checkReceipt(
	check: Checker,
	kind: ReceiptKind,
	input: IDataObject,
	rates: RateBook = BUILT_IN_RATES,
): IDataObject {
	const body = deepCopy(asObject(input));
	check.numbersInto(body);
	inferIdentificationTypes(check, body);
	completeAmounts(check, kind, body, rates);
	switch (kind) {
		case 'retention':
			return checkRetention(check, body, rates);
		case 'atsRetention':
			return checkAtsRetention(check, body);
		case 'waybill':
			return checkWaybill(check, body);
		case 'purchaseSettlement':
			return checkPurchaseSettlement(check, body, { reimbursement: false }, rates);
		case 'purchaseSettlementReimbursement':
			return checkPurchaseSettlement(check, body, { reimbursement: true }, rates);
		case 'invoice':
			return checkInvoice(check, body, rates);
		case 'creditNote':
			return checkCreditNote(check, body, rates);
		case 'debitNote':
			return checkDebitNote(check, body, rates);
	}
}
