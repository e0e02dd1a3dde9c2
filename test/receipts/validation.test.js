/** @import { IDataObject } from 'n8n-workflow' */
import { workflowWith } from '../harness/engine';
import {
	atsRetentionBody,
	creditNoteBody,
	debitNoteBody,
	invoiceBody,
	jsonIssue,
	KNOWN_ACCESS_KEY,
	retentionBody,
	settlementBody,
	useReceipts,
	waybillBody,
	xmlOf,
} from './setup';

const env = useReceipts();

const REMOVE = Symbol('remove');

/**
 * A copy of `body` with the value at `path` (dots and [n]) replaced, or removed with REMOVE.
 * @returns {IDataObject}
 */
function withValue(body, path, value) {
	const copy = structuredClone(body);
	const keys = path.replace(/\[(\d+)\]/g, '.$1').split('.');
	/** @type {Record<string, unknown>} */
	let target = copy;
	for (const key of keys.slice(0, -1))
		target = /** @type {Record<string, unknown>} */ (target[key]);
	const last = keys[keys.length - 1];
	if (value === REMOVE) delete target[last];
	else target[last] = value;
	return copy;
}

const long = (n) => 'x'.repeat(n);
/** A party with a passport number and no identification type: nothing tells the type, so it is required. */
const withoutIdType = (body, party) =>
	withValue(
		withValue(body, `${party}.identificacion`, 'PA1234567'),
		`${party}.tipo_identificacion`,
		REMOVE,
	);
const badCheckDigit = `${KNOWN_ACCESS_KEY.slice(0, 48)}${(Number(KNOWN_ACCESS_KEY[48]) + 1) % 10}`;

/**
 * @typedef {[label: string, resource: string, operation: string, body: IDataObject, field: string, says: RegExp]} Case
 */
/** @returns {Case} */
const R = (label, path, value, says, field = path) => [
	label,
	'retention',
	'issue',
	withValue(retentionBody(), path, value),
	field,
	says,
];
/** @returns {Case} */
const A = (label, path, value, says, field = path) => [
	label,
	'atsRetention',
	'issue',
	withValue(atsRetentionBody(), path, value),
	field,
	says,
];
/** @returns {Case} */
const W = (label, path, value, says, field = path) => [
	label,
	'waybill',
	'issue',
	withValue(waybillBody(), path, value),
	field,
	says,
];
/** @returns {Case} */
const S = (label, path, value, says, field = path) => [
	label,
	'purchaseSettlement',
	'issue',
	withValue(settlementBody(), path, value),
	field,
	says,
];
/** @returns {Case} */
const SR = (label, path, value, says, field = path) => [
	label,
	'purchaseSettlement',
	'issueWithReimbursement',
	withValue(settlementBody(true), path, value),
	field,
	says,
];

/** @type {Case[]} */
const cases = [
	// Retention
	R('ambiente outside 1/2', 'ambiente', 3, /must be one of 1, 2, got 3/),
	R('ambiente missing', 'ambiente', REMOVE, /is required/),
	R('tipo_emision outside 1/2', 'tipo_emision', 0, /must be one of 1, 2/),
	R('secuencial 0', 'secuencial', 0, /must be at least 1/),
	R('secuencial over 999999999', 'secuencial', 1000000000, /must be at most 999999999/),
	R('secuencial not whole', 'secuencial', 12.5, /must be a whole number/),
	R('secuencial missing', 'secuencial', REMOVE, /is required/),
	R(
		'periodo_fiscal as YYYY-MM',
		'periodo_fiscal',
		'2026-03',
		/is not a fiscal period: use MM\/YYYY/,
	),
	R('periodo_fiscal month 13', 'periodo_fiscal', '13/2026', /is not a fiscal period/),
	R('fecha_emision not ISO', 'fecha_emision', '31/03/2026', /is not an ISO 8601 date/),
	R(
		'emisor missing',
		'emisor',
		REMOVE,
		/is required: fill it in the node, or once in the Receipts credential \(Issuer RUC\)/,
		'emisor.ruc',
	),
	R(
		'emisor.ruc missing',
		'emisor.ruc',
		REMOVE,
		/is required: fill it in the node, or once in the Receipts credential \(Issuer RUC\)/,
	),
	R(
		'emisor.ruc thirteen zeros',
		'emisor.ruc',
		'0000000000000',
		/is not a RUC: province code 00 does not exist/,
	),
	R('emisor.ruc 12 digits', 'emisor.ruc', '179214673900', /is not a RUC: it must be 13 digits/),
	R(
		'emisor.razon_social missing',
		'emisor.razon_social',
		REMOVE,
		/is required: fill it in the node, or once in the Receipts credential \(Legal Name \(Razón Social\)\)/,
	),
	R(
		'emisor.establecimiento.codigo missing',
		'emisor.establecimiento.codigo',
		REMOVE,
		/is required: fill it in the node, or once in the Receipts credential \(Establishment Code \(Establecimiento\)\)/,
	),
	R(
		'emisor.establecimiento.punto_emision one digit',
		'emisor.establecimiento.punto_emision',
		'1',
		/must be 3 digits, e\.g\. 001/,
	),
	W(
		'emisor.establecimiento.punto_emision missing (waybill)',
		'emisor.establecimiento.punto_emision',
		REMOVE,
		/is required: fill it in the node, or once in the Receipts credential \(Emission Point \(Punto de Emisión\)\)/,
	),
	R('sujeto missing', 'sujeto', REMOVE, /is required/),
	R(
		'sujeto.identificacion too short',
		'sujeto.identificacion',
		'1234',
		/must be 5 to 20 characters long, got 4/,
	),
	R(
		'sujeto.identificacion too long',
		'sujeto.identificacion',
		long(21),
		/must be 5 to 20 characters long, got 21/,
	),
	R('items empty', 'items', [], /must have at least 1 entry/),
	R('items not a list', 'items', { base_imponible: 1 }, /must be a list/),
	R(
		'base_imponible 3 decimals',
		'items[0].base_imponible',
		100.123,
		/must have at most 2 decimals/,
	),
	R('valor_retenido 3 decimals', 'items[0].valor_retenido', 1.755, /must have at most 2 decimals/),
	R('item codigo missing', 'items[0].codigo', REMOVE, /is required/),
	R('item codigo_porcentaje missing', 'items[0].codigo_porcentaje', REMOVE, /is required/),
	R(
		'supporting document date not ISO',
		'items[0].fecha_emision_documento_sustento',
		'15/03/2026',
		/is not an ISO 8601 date/,
	),
	R('supporting document type missing', 'items[0].tipo_documento_sustento', REMOVE, /is required/),
	R(
		'clave_acceso of 48 digits',
		'clave_acceso',
		KNOWN_ACCESS_KEY.slice(1),
		/must be exactly 49 digits, got 48 digits/,
	),
	R(
		'clave_acceso with a wrong check digit',
		'clave_acceso',
		badCheckDigit,
		/SRI modulo-11 check gives 3/,
	),
	R('informacion_adicional not an object', 'informacion_adicional', 'nota', /must be an object/),
	// ATS retention
	A('secuencia 0', 'secuencia', 0, /must be at least 1/),
	A('periodo_fiscal missing', 'periodo_fiscal', REMOVE, /is required/),
	A('documentos_soporte missing', 'documentos_soporte', REMOVE, /is required/),
	A(
		'supporting document date not ISO',
		'documentos_soporte[0].fecha_emision',
		'2026/03/15',
		/is not an ISO 8601 date/,
	),
	A(
		'retention valor_retenido 3 decimals',
		'documentos_soporte[0].retenciones[0].valor_retenido',
		1.751,
		/at most 2 decimals/,
	),
	A(
		'retention base_imponible 3 decimals',
		'documentos_soporte[0].retenciones[0].base_imponible',
		99.999,
		/at most 2 decimals/,
	),
	A('info_adicional entry without nombre', 'info_adicional[0].nombre', REMOVE, /is required/),
	// Waybill
	W('fecha_inicio_transporte missing', 'fecha_inicio_transporte', REMOVE, /is required/),
	W(
		'fecha_fin_transporte impossible',
		'fecha_fin_transporte',
		'2026-13-01',
		/is not an ISO 8601 date/,
	),
	W('direccion_partida missing', 'direccion_partida', REMOVE, /is required/),
	W('carrier placa missing', 'transportista.placa', REMOVE, /is required/),
	W(
		'carrier email over 300',
		'transportista.email',
		`${long(295)}@x.com`,
		/must be at most 300 characters long, got 301/,
	),
	W(
		'carrier razon_social over 300',
		'transportista.razon_social',
		long(301),
		/must be at most 300 characters long/,
	),
	W(
		'carrier identificacion too short',
		'transportista.identificacion',
		'1234',
		/must be 5 to 20 characters long/,
	),
	[
		'carrier tipo_identificacion missing, not told by a passport number',
		'waybill',
		'issue',
		withoutIdType(waybillBody(), 'transportista'),
		'transportista.tipo_identificacion',
		/is required/,
	],
	W(
		'recipient razon_social over 300',
		'destinatarios[0].razon_social',
		long(301),
		/must be at most 300 characters long/,
	),
	W(
		'recipient ruta over 300',
		'destinatarios[0].ruta',
		long(301),
		/must be at most 300 characters long/,
	),
	W(
		'recipient documento_aduanero_unico over 20',
		'destinatarios[0].documento_aduanero_unico',
		long(21),
		/must be at most 20 characters long/,
	),
	W('recipient motivo_traslado missing', 'destinatarios[0].motivo_traslado', REMOVE, /is required/),
	W('recipient direccion missing', 'destinatarios[0].direccion', REMOVE, /is required/),
	W('recipient items missing', 'destinatarios[0].items', REMOVE, /is required/),
	W(
		'recipient supporting date not ISO',
		'destinatarios[0].fecha_emision_documento_sustento',
		'ayer',
		/is not an ISO 8601 date/,
	),
	W(
		'item codigo_principal over 25',
		'destinatarios[0].items[0].codigo_principal',
		long(26),
		/must be at most 25 characters long/,
	),
	W(
		'item codigo_auxiliar over 25',
		'destinatarios[0].items[0].codigo_auxiliar',
		long(26),
		/must be at most 25 characters long/,
	),
	W(
		'item cantidad 7 decimals',
		'destinatarios[0].items[0].cantidad',
		1.1234567,
		/must have at most 6 decimals/,
	),
	W('item descripcion missing', 'destinatarios[0].items[0].descripcion', REMOVE, /is required/),
	W('destinatarios empty', 'destinatarios', [], /must have at least 1 entry/),
	// Purchase settlement
	S('moneda lower case', 'moneda', 'usd', /is not an ISO currency code/),
	S('totales not an object', 'totales', 115, /must be an object/),
	S(
		'totales.importe_total not a number',
		'totales.importe_total',
		'ciento quince',
		/must be a number/,
	),
	S('totales.impuestos not a list', 'totales.impuestos', { codigo: '2' }, /must be a list/),
	S('payment forma_pago missing', 'pagos[0].forma_pago', REMOVE, /is required/),
	S(
		'payment unidad_tiempo over 10',
		'pagos[0].unidad_tiempo',
		long(11),
		/must be at most 10 characters long/,
	),
	S('payment plazo over 14', 'pagos[0].plazo', long(15), /must be at most 14 characters long/),
	S('proveedor missing', 'proveedor', REMOVE, /is required/),
	S(
		'item codigo_principal over 25',
		'items[0].codigo_principal',
		long(26),
		/must be at most 25 characters long/,
	),
	S('item price not a number', 'items[0].precio_unitario', 'diez', /must be a number/),
	SR('reembolso missing in the reimbursement variant', 'reembolso', REMOVE, /is required/),
	SR(
		'reimbursed document secuencia 0',
		'reembolso.documentos[0].secuencia',
		0,
		/must be at least 1/,
	),
	SR(
		'reimbursed document date not ISO',
		'reembolso.documentos[0].fecha_emision',
		'10-03-2026',
		/is not an ISO 8601 date/,
	),
	// Input that cannot slip through: one value where one value goes, numbers as JSON numbers or plain decimal text
	R('ambiente as a list of one valid value', 'ambiente', [2], /must be one of 1, 2, got a list$/),
	R(
		'base_imponible in hexadecimal',
		'items[0].base_imponible',
		'0x64',
		/must be a number, got "0x64"$/,
	),
	R(
		'base_imponible with an exponent',
		'items[0].base_imponible',
		'1e2',
		/must be a number, got "1e2"$/,
	),
	R(
		'base_imponible with spaces around',
		'items[0].base_imponible',
		' 100 ',
		/must be a number, got " 100 "$/,
	),
	R(
		'base_imponible with a decimal comma',
		'items[0].base_imponible',
		'100,50',
		/must be a number, got "100,50" \(write decimals with a point, e\.g\. 1\.50\)$/,
	),
	R(
		'porcentaje empty text (optional, but it would be sent)',
		'items[0].porcentaje',
		'',
		/must be a number or left out, got ""$/,
	),
	R('emisor.ruc as a list', 'emisor.ruc', ['1792146739001'], /must be text, got a list$/),
	A('ambiente as a list', 'ambiente', [2], /must be one of 1, 2, got a list$/),
	A(
		'supporting document total in hexadecimal',
		'documentos_soporte[0].total',
		'0x73',
		/must be a number, got "0x73"$/,
	),
	A(
		'retention base_imponible with an exponent',
		'documentos_soporte[0].retenciones[0].base_imponible',
		'1e2',
		/must be a number, got "1e2"$/,
	),
	A('tipo_sujeto_retenido as a list', 'tipo_sujeto_retenido', ['01'], /must be text, got a list$/),
	W('ambiente as a list', 'ambiente', [1], /must be one of 1, 2, got a list$/),
	W('tipo_emision as a list', 'tipo_emision', [1], /must be one of 1, 2, got a list$/),
	W(
		'item cantidad in hexadecimal',
		'destinatarios[0].items[0].cantidad',
		'0xC',
		/must be a number, got "0xC"$/,
	),
	S('tipo_emision as a list', 'tipo_emision', [1], /must be one of 1, 2, got a list$/),
	S(
		'payment total with a leading space',
		'pagos[0].total',
		' 115',
		/must be a number, got " 115"$/,
	),
	S('item cantidad with an exponent', 'items[0].cantidad', '2e0', /must be a number, got "2e0"$/),
	S(
		'totales.importe_total with an exponent',
		'totales.importe_total',
		'1.15e2',
		/must be a number, got "1\.15e2"$/,
	),
	SR('reembolso.total in hexadecimal', 'reembolso.total', '0x64', /must be a number, got "0x64"$/),
];

/**
 * Invoices, credit notes and debit notes (the service's public documentation): required fields, the
 * documented limits, the modified document of a note, and amounts that do not add up by more than a cent.
 * @returns {Case}
 */
const I = (label, path, value, says, field = path) => [
	label,
	'invoice',
	'issue',
	withValue(invoiceBody(), path, value),
	field,
	says,
];
/** @returns {Case} */
const C = (label, path, value, says, field = path) => [
	label,
	'creditNote',
	'issue',
	withValue(creditNoteBody(), path, value),
	field,
	says,
];
/** @returns {Case} */
const D = (label, path, value, says, field = path) => [
	label,
	'debitNote',
	'issue',
	withValue(debitNoteBody(), path, value),
	field,
	says,
];
/** @returns {Case} */
const IR = (label, path, value, says, field = path) => [
	label,
	'invoice',
	'reissue',
	{ ...withValue(invoiceBody(), path, value) },
	field,
	says,
];
const DOES_NOT_ADD_UP = /the tax authority rejects a receipt whose amounts do not add up/;

/** @type {Case[]} */
const salesCases = [
	// Invoice: required fields and documented limits
	I('secuencial 0', 'secuencial', 0, /must be at least 1/),
	I('secuencial over 999999999', 'secuencial', 1000000000, /must be at most 999999999/),
	I('secuencial missing', 'secuencial', REMOVE, /is required/),
	I('secuencial not a number', 'secuencial', 'A-12', /must be a whole number/),
	I('moneda missing', 'moneda', REMOVE, /is required/),
	I('moneda not ISO', 'moneda', 'dolares', /is not an ISO currency code/),
	I('comprador missing', 'comprador', REMOVE, /is required/),
	I(
		'comprador.identificacion too short',
		'comprador.identificacion',
		'1234',
		/must be 5 to 20 characters long, got 4/,
	),
	I(
		'comprador.identificacion too long',
		'comprador.identificacion',
		'1'.repeat(21),
		/must be 5 to 20 characters long, got 21/,
	),
	[
		'comprador.tipo_identificacion missing, not told by a passport number',
		'invoice',
		'issue',
		withoutIdType(invoiceBody(), 'comprador'),
		'comprador.tipo_identificacion',
		/is required/,
	],
	I('comprador.razon_social missing', 'comprador.razon_social', REMOVE, /is required/),
	I(
		'comprador.razon_social over 300',
		'comprador.razon_social',
		long(301),
		/must be at most 300 characters long/,
	),
	I(
		'comprador.email over 300',
		'comprador.email',
		`${long(295)}@x.com`,
		/must be at most 300 characters long, got 301/,
	),
	I('items empty', 'items', [], /must have at least 1 entry/),
	I('item descripcion missing', 'items[0].descripcion', REMOVE, /is required/),
	I(
		'item codigo_principal over 25',
		'items[0].codigo_principal',
		long(26),
		/must be at most 25 characters long/,
	),
	I('item cantidad 7 decimals', 'items[0].cantidad', 3.0000001, /must have at most 6 decimals/),
	I('item precio_unitario missing', 'items[0].precio_unitario', REMOVE, /is required/),
	I('item descuento 3 decimals', 'items[0].descuento', 1.505, /must have at most 2 decimals/),
	I(
		'item precio_total_sin_impuestos 3 decimals',
		'items[0].precio_total_sin_impuestos',
		36.001,
		/must have at most 2 decimals/,
	),
	I('item without taxes', 'items[0].impuestos', REMOVE, /is required/),
	I(
		'item tax valor 3 decimals',
		'items[0].impuestos[0].valor',
		5.401,
		/must have at most 2 decimals/,
	),
	I(
		'item tax codigo_porcentaje missing',
		'items[0].impuestos[0].codigo_porcentaje',
		REMOVE,
		/is required/,
	),
	I('totales not an object', 'totales', 61.4, /must be an object/),
	I('totales.propina not a number', 'totales.propina', 'nada', /must be a number/),
	I(
		'totales.importe_total 3 decimals',
		'totales.importe_total',
		61.401,
		/must have at most 2 decimals/,
	),
	I('pagos missing', 'pagos', REMOVE, /is required/),
	I('payment medio missing', 'pagos[0].medio', REMOVE, /is required/),
	I('payment total 3 decimals', 'pagos[0].total', 40.001, /must have at most 2 decimals/),
	I('payment notas over 300', 'pagos[0].notas', long(301), /must be at most 300 characters long/),
	I('guia_remision not ###-###-#########', 'guia_remision', '1-2-3', /is not a waybill number/),
	I(
		'credito without due date',
		'credito',
		{ monto: 10 },
		/is required/,
		'credito.fecha_vencimiento',
	),
	I('info_adicional entry without valor', 'info_adicional[0].valor', REMOVE, /is required/),
	I(
		'clave_acceso with a wrong check digit',
		'clave_acceso',
		badCheckDigit,
		/SRI modulo-11 check gives 3/,
	),
	// Invoice: amounts that do not add up
	I(
		'item subtotal is not cantidad × precio − descuento',
		'items[0].precio_total_sin_impuestos',
		37.5,
		/is 37\.50, but 3 × 12\.5 − 1\.50 is 36\.00/,
	),
	I(
		'item tax valor is not base × tarifa',
		'items[0].impuestos[0].valor',
		5.04,
		/is 5\.04, but IVA 15 % of 36\.00 is 5\.40/,
	),
	I(
		'item tax base is not the item’s subtotal',
		'items[0].impuestos[0].base_imponible',
		0,
		/is 0\.00, but the item's subtotal is 36\.00/,
	),
	I(
		'item tax rate contradicts its percentage code',
		'items[0].impuestos[0].tarifa',
		0,
		/is 0 %, but IVA percentage code 4 is 15 %/,
	),
	I(
		'total_sin_impuestos is not the sum of the items',
		'totales.total_sin_impuestos',
		60,
		/is 60\.00, but the sum of the items' subtotals is 56\.00 \(off by 4\.00\)/,
	),
	I(
		'a tax total base is not the items’ base',
		'totales.impuestos[0].base_imponible',
		30,
		/is 30\.00, but the sum of the items' IVA 15 % bases is 36\.00/,
	),
	I(
		'a tax total valor is not the items’ valor',
		'totales.impuestos[0].valor',
		6.4,
		/is 6\.40, but the sum of the items' IVA 15 % values is 5\.40/,
	),
	I(
		'a tax of the items missing from the totals',
		'totales.impuestos',
		[{ codigo: '2', codigo_porcentaje: '4', base_imponible: 36, valor: 5.4 }],
		/has no line for IVA 0 % \(tax 2, percentage code 0\), which Line 2 "Libro de recetas" \(items\[1\]\) carries/,
	),
	I(
		'importe_total is not subtotal + taxes + tip',
		'totales.importe_total',
		65,
		/is 65\.00, but 56\.00 \+ 5\.40 taxes \+ 0\.00 tip is 61\.40/,
	),
	I(
		'payments do not add up to importe_total',
		'pagos[1].total',
		20,
		/add up to 60\.00, but the Total Amount is 61\.40/,
		'pagos',
	),
	// Credit note
	C('motivo missing', 'motivo', REMOVE, /is required/),
	C('motivo over 300', 'motivo', long(301), /must be at most 300 characters long/),
	C(
		'numero_documento_modificado without dashes',
		'numero_documento_modificado',
		'001002000000148',
		/is not a document number: use establishment-emission point-sequential \(###-###-#########\)/,
	),
	C(
		'numero_documento_modificado too short',
		'numero_documento_modificado',
		'001-002-148',
		/is not a document number/,
	),
	C('numero_documento_modificado missing', 'numero_documento_modificado', REMOVE, /is required/),
	C(
		'tipo_documento_modificado not a document type',
		'tipo_documento_modificado',
		'1',
		/must be one of "01", "03", "04", "05", "06", "07", got "1"/,
	),
	C('tipo_documento_modificado missing', 'tipo_documento_modificado', REMOVE, /is required/),
	C(
		'fecha_emision_documento_modificado missing',
		'fecha_emision_documento_modificado',
		REMOVE,
		/is required/,
	),
	C(
		'fecha_emision_documento_modificado not ISO',
		'fecha_emision_documento_modificado',
		'31/03/2026',
		/is not an ISO 8601 date/,
	),
	C(
		'modified document dated after the note',
		'fecha_emision_documento_modificado',
		'2026-04-03T10:00:00-05:00',
		/2026-04-03 is after the note's own fecha_emision 2026-04-02: a note can only modify a document issued before it/,
	),
	C('moneda missing', 'moneda', REMOVE, /is required/),
	C(
		'comprador.identificacion too short',
		'comprador.identificacion',
		'123',
		/must be 5 to 20 characters long, got 3/,
	),
	C('secuencial over 999999999', 'secuencial', 1234567890, /must be at most 999999999/),
	C('total_sin_impuestos not the items’ sum', 'totales.total_sin_impuestos', 13, DOES_NOT_ADD_UP),
	C(
		'importe_total not subtotal + taxes',
		'totales.importe_total',
		12,
		/is 12\.00, but 12\.00 \+ 1\.80 taxes is 13\.80/,
	),
	// Debit note
	D('secuencial 0', 'secuencial', '0', /must be at least 1/),
	D('secuencial not digits', 'secuencial', '7a', /must be a whole number/),
	D('items with a charge without motivo', 'items[0].motivo', REMOVE, /is required/),
	D('charge valor 3 decimals', 'items[0].valor', 8.505, /must have at most 2 decimals/),
	D('charge valor missing', 'items[0].valor', REMOVE, /is required/),
	D(
		'tax tarifa contradicts its percentage code',
		'totales.impuestos[0].tarifa',
		12,
		/is 12 %, but IVA percentage code 4 is 15 %/,
	),
	D(
		'tax without a code, so no rate',
		'totales.impuestos[0].codigo_porcentaje',
		REMOVE,
		/is required/,
	),
	D(
		'tax valor is not base × tarifa',
		'totales.impuestos[0].valor',
		1.2,
		/is 1\.20, but IVA 15 % of 10\.00 is 1\.50/,
	),
	D(
		'total_sin_impuestos not the sum of the charges',
		'totales.total_sin_impuestos',
		12,
		/is 12\.00, but the sum of the charges' values is 10\.00/,
	),
	D(
		'importe_total not subtotal + taxes',
		'totales.importe_total',
		10,
		/is 10\.00, but 10\.00 \+ 1\.50 taxes is 11\.50/,
	),
	D(
		'numero_documento_modificado with letters',
		'numero_documento_modificado',
		'001-002-00000014A',
		/is not a document number/,
	),
	D('tipo_documento_modificado as a number', 'tipo_documento_modificado', 1, /must be one of "01"/),
	D(
		'modified document date impossible',
		'fecha_emision_documento_modificado',
		'2026-02-30',
		/is not an ISO 8601 date/,
	),
	[
		'comprador.tipo_identificacion missing, not told by a passport number',
		'debitNote',
		'issue',
		withoutIdType(debitNoteBody(), 'comprador'),
		'comprador.tipo_identificacion',
		/is required/,
	],
	// Reissue goes through the same checks
	IR('reissued invoice whose totals do not add up', 'totales.importe_total', 70, DOES_NOT_ADD_UP),
	// Input that cannot slip through
	I('ambiente as a list of one valid value', 'ambiente', [2], /must be one of 1, 2, got a list$/),
	I('item cantidad in hexadecimal', 'items[0].cantidad', '0x3', /must be a number, got "0x3"$/),
	I(
		'item precio_unitario with an exponent',
		'items[0].precio_unitario',
		'1.25e1',
		/must be a number, got "1\.25e1"$/,
	),
	I(
		'optional descuento_adicional empty text',
		'totales.descuento_adicional',
		' ',
		/must be a number or left out, got " "$/,
	),
	I(
		'valor_retenido_iva in hexadecimal',
		'valor_retenido_iva',
		'0x1',
		/must be a number, got "0x1"$/,
	),
	I('payment total with a trailing space', 'pagos[0].total', '40 ', /must be a number, got "40 "$/),
	C('tipo_emision as a list', 'tipo_emision', [1], /must be one of 1, 2, got a list$/),
	C('item descuento in hexadecimal', 'items[0].descuento', '0x0', /must be a number, got "0x0"$/),
	D('charge valor with an exponent', 'items[0].valor', '1e1', /must be a number, got "1e1"$/),
	D(
		'tipo_documento_modificado as a list',
		'tipo_documento_modificado',
		['01'],
		/must be one of "01".*, got a list$/,
	),
	IR(
		'reissued invoice with ambiente as a list',
		'ambiente',
		[2],
		/must be one of 1, 2, got a list$/,
	),
];

/**
 * The run stopped before any request, with an error whose first problem names `field` (JSON mode: the form's
 * words, then the JSON path in parentheses) and says `says`.
 * @param {{ error?: { message: string; description?: string } }} result
 * @param {string} field
 * @param {RegExp} says
 */
function expectStoppedBeforeSending(result, field, says) {
	expect(env.calls()).toHaveLength(0);
	const message = String(result.error?.message);
	const at = message.indexOf(`(${field})`);
	// `[item 1] Line 1 "…" › Quantity (items[0].cantidad) must be …`: the first problem's field, in the form's words.
	expect(message.startsWith('[item 1] ') && at > 9 && !message.slice(9, at).includes('(')).toBe(
		true,
	);
	expect(message).toMatch(says);
	expect(result.error?.description).toMatch(/Nothing was sent to the service/);
}

describe('pre-flight validation of invoices and notes: nothing is sent and the message names the field', () => {
	test('the table has at least 40 invalid invoice and note inputs', () =>
		expect(salesCases.length).toBeGreaterThanOrEqual(40));

	test.each(salesCases)('%s (%s %s)', async (_label, resource, operation, body, field, says) => {
		expectStoppedBeforeSending(
			await env.run(
				jsonIssue(
					resource,
					body,
					operation === 'reissue' ? { receiptId: 'a1b2c3' } : {},
					operation,
				),
			),
			field,
			says,
		);
	});

	test('the valid bodies these cases start from are sent, without warnings', async () => {
		for (const [resource, body] of /** @type {const} */ ([
			['invoice', invoiceBody()],
			['creditNote', creditNoteBody()],
			['debitNote', debitNoteBody()],
		])) {
			const result = await env.run(jsonIssue(resource, body));
			expect(result.error).toBeUndefined();
			expect(result.output('Receipts')[0].json.warnings).toBeUndefined();
		}
		expect(env.calls()).toHaveLength(3);
	});
});

describe('pre-flight validation: nothing is sent and the message names the field', () => {
	test('the table has at least 40 invalid inputs', () =>
		expect(cases.length).toBeGreaterThanOrEqual(40));

	test.each(cases)('%s (%s %s)', async (_label, resource, operation, body, field, says) => {
		expectStoppedBeforeSending(
			await env.run(jsonIssue(resource, body, {}, operation)),
			field,
			says,
		);
	});

	test('every problem of the item is listed, the first in the message and the rest in the description', async () => {
		const body = withValue(withValue(retentionBody(), 'ambiente', 9), 'periodo_fiscal', '2026');
		const result = await env.run(jsonIssue('retention', body));
		expect(env.calls()).toHaveLength(0);
		expect(result.error?.message).toBe(
			'[item 1] Environment (ambiente) must be one of 1, 2, got 9',
		);
		expect(result.error?.description).toMatch(
			/- Fiscal Period \(periodo_fiscal\): "2026" is not a fiscal period/,
		);
	});

	test('one bad item stops the batch before anything is sent, and the error names that item', async () => {
		const rows = [{ periodo: '03/2026' }, { periodo: '3/26' }, { periodo: '05/2026' }];
		const text = JSON.stringify(retentionBody()).replace(
			'"periodo_fiscal":"03/2026"',
			'"periodo_fiscal":"{{ $json.periodo }}"',
		);
		const result = await env.run(
			{ resource: 'retention', operation: 'issue', inputMode: 'json', jsonBody: `=${text}` },
			rows,
		);
		expect(env.calls()).toHaveLength(0);
		expect(result.error?.message).toBe(
			'[item 2] Fiscal Period (periodo_fiscal): "3/26" is not a fiscal period: use MM/YYYY, e.g. 03/2026',
		);
	});

	test('with Continue On Fail the invalid item becomes an error item and the others are sent', async () => {
		const rows = [{ periodo: '3/26' }, { periodo: '04/2026' }];
		const text = JSON.stringify(retentionBody()).replace(
			'"periodo_fiscal":"03/2026"',
			'"periodo_fiscal":"{{ $json.periodo }}"',
		);
		const result = await env.run(
			{ resource: 'retention', operation: 'issue', inputMode: 'json', jsonBody: `=${text}` },
			rows,
			true,
		);
		expect(env.calls()).toHaveLength(1);
		const out = result.output('Receipts');
		expect(out[0].json.error).toMatch(/^\[item 1\] Fiscal Period \(periodo_fiscal\):/);
		expect(out[1].json.periodo_fiscal).toBe('04/2026');
		expect(out.map((i) => i.pairedItem)).toEqual([{ item: 0 }, { item: 1 }]);
	});

	test.each([
		['not JSON', '{"ambiente": 1,', /^\[item 1\] Receipt \(JSON\): is not valid JSON/],
		['a list', '[1, 2]', /^\[item 1\] Receipt \(JSON\) must be an object, got a list/],
	])('JSON body that is %s', async (_what, jsonBody, says) => {
		const result = await env.run({
			resource: 'retention',
			operation: 'issue',
			inputMode: 'json',
			jsonBody,
		});
		expect(env.calls()).toHaveLength(0);
		expect(result.error?.message).toMatch(says);
	});

	test('Fields mode goes through the same validation', async () => {
		const result = await env.run({
			resource: 'retention',
			operation: 'issue',
			inputMode: 'fields',
			secuencial: '5',
			periodo_fiscal: 'marzo',
			emisor: { details: { ruc: '1792146739001' } },
			sujeto: {
				details: {
					identificacion: '1710034065001',
					tipo_identificacion: '04',
					razon_social: 'Juan',
				},
			},
			items: {
				item: [
					{
						codigo: '1',
						codigo_porcentaje: '312',
						base_imponible: 10.555,
						valor_retenido: 0.18,
						fecha_emision_documento_sustento: '2026-03-01',
						tipo_documento_sustento: '01',
					},
				],
			},
		});
		expect(env.calls()).toHaveLength(0);
		expect(result.error?.message).toBe(
			'[item 1] Fiscal Period: "marzo" is not a fiscal period: use MM/YYYY, e.g. 03/2026',
		);
		expect(result.error?.description).toMatch(
			/Retained Tax 1 › Taxable Base must have at most 2 decimals, got 10.555/,
		);
	});

	test('Fields mode: an item assigned to a recipient that does not exist is named', async () => {
		const result = await env.run({
			resource: 'waybill',
			operation: 'issue',
			inputMode: 'fields',
			secuencial: '5',
			emisor: {
				details: {
					ruc: '1792146739001',
					razon_social: 'Distribuidora Andina S.A.',
					establecimiento_codigo: '001',
					punto_emision: '002',
				},
			},
			fecha_inicio_transporte: '2026-03-20',
			fecha_fin_transporte: '2026-03-21',
			direccion_partida: 'Quito',
			transportista: {
				details: {
					identificacion: '1710034065',
					tipo_identificacion: '05',
					razon_social: 'T',
					placa: 'PBA-1',
				},
			},
			destinatarios: {
				recipient: [
					{
						identificacion: '1790016919001',
						tipo_identificacion: '04',
						razon_social: 'C',
						direccion: 'G',
						motivo_traslado: 'Venta',
					},
				],
			},
			waybillItems: {
				item: [
					{ recipient: 1, descripcion: 'a', codigo_principal: 'A', cantidad: 1 },
					{ recipient: 2, descripcion: 'b', codigo_principal: 'B', cantidad: 1 },
				],
			},
		});
		expect(env.calls()).toHaveLength(0);
		expect(result.error?.message).toBe('[item 1] Recipient 2 › Identification is required');
	});

	test.each([
		// An empty literal is caught by n8n itself (required parameter); an expression that yields nothing reaches the node.
		['empty', '={{ $json.xml ?? "" }}', /^\[item 1\] xml: is required$/],
		['not XML', 'hola', /^\[item 1\] xml: is not XML/],
	])('Issue From XML with %s XML', async (_what, xml, says) => {
		const result = await env.run({
			resource: 'retention',
			operation: 'issueFromXml',
			xmlSource: 'text',
			xml,
		});
		expect(env.calls()).toHaveLength(0);
		expect(result.error?.message).toMatch(says);
	});

	test.each([
		['empty', '={{ $json.id ?? "" }}', /^\[item 1\] receiptId: is required$/],
		[
			'with a slash',
			'abc/../def',
			/^\[item 1\] receiptId: "abc\/..\/def" is not an ID: it contains "\/"/,
		],
	])('a receipt ID that is %s', async (_what, receiptId, says) => {
		const result = await env.run({ resource: 'document', operation: 'authorize', receiptId });
		expect(env.calls()).toHaveLength(0);
		expect(result.error?.message).toMatch(says);
	});
});

describe('Issue From XML from a binary property that is not there', () => {
	test('names the missing property and the item; nothing sent', async () => {
		const result = await env.run(
			{
				resource: 'retention',
				operation: 'issueFromXml',
				xmlSource: 'binary',
				binaryPropertyName: 'factura',
			},
			[{}, {}],
		);
		expect(env.calls()).toHaveLength(0);
		expect(result.error?.message).toBe(
			'[item 1] binary.factura: the input item has no binary property "factura" (Input Binary Field): it carries no file at all, so the previous node did not output one',
		);
		expect(result.error?.description).toMatch(/Nothing was sent to the service/);
	});

	test('an item that carries another file: the message names what it has, on the item that lacks it', async () => {
		const xml = Buffer.from(xmlOf('comprobanteRetencion')).toString('base64');
		const wf = workflowWith({
			nodeType: 'receipts',
			credentialType: 'receiptsApi',
			name: 'Receipts',
			parameters: {
				resource: 'retention',
				operation: 'issueFromXml',
				xmlSource: 'binary',
				binaryPropertyName: 'data',
			},
		});
		// The Code stand-in emits two items: the first with the XML as `data`, the second with it as `attachment_0`.
		const code = /** @type {{ parameters: IDataObject }} */ (
			wf.nodes.find((n) => n.name === 'Input')
		);
		const file = JSON.stringify({
			data: xml,
			mimeType: 'application/xml',
			fileName: 'retencion.xml',
		});
		code.parameters = {
			jsCode: `return [{ json: {}, binary: { data: ${file} } }, { json: {}, binary: { attachment_0: ${file} } }];`,
		};
		const result = await env.engine.run(wf);
		expect(env.calls()).toHaveLength(0);
		expect(result.error?.message).toBe(
			'[item 2] binary.data: the input item has no binary property "data" (Input Binary Field); it has "attachment_0"',
		);
	});
});

test('a public entity’s RUC in the company format (1793221293001) is issued without a check-digit warning', async () => {
	const result = await env.run(
		jsonIssue('retention', {
			...retentionBody(),
			sujeto: {
				identificacion: '1793221293001',
				tipo_identificacion: '04',
				razon_social: 'Entidad Pública',
			},
		}),
	);
	expect(result.error).toBeUndefined();
	expect(env.calls()).toHaveLength(1);
	expect(result.output('Receipts')[0].json.warnings).toBeUndefined();
});

describe('ATS retention to a subject with a foreign identification (receipts service: tipo_sujeto_retenido is required then)', () => {
	const foreign = () => ({
		...atsRetentionBody(),
		sujeto: { identificacion: 'X1234567', tipo_identificacion: '08', razon_social: 'Acme GmbH' },
	});

	test('without tipo_sujeto_retenido: an error, nothing sent', async () => {
		const result = await env.run(jsonIssue('atsRetention', foreign()));
		expectStoppedBeforeSending(
			result,
			'tipo_sujeto_retenido',
			/is required when the retained subject has a foreign identification \(sujeto\.tipo_identificacion 08\)$/,
		);
	});

	test('with it: sent as given', async () => {
		const result = await env.run(
			jsonIssue('atsRetention', { ...foreign(), tipo_sujeto_retenido: '02' }),
		);
		expect(result.error).toBeUndefined();
		expect(env.calls()).toHaveLength(1);
		expect(/** @type {IDataObject} */ (env.calls()[0].body).tipo_sujeto_retenido).toBe('02');
	});
});

describe('what is sent is what was checked: numbers given as plain decimal text are sent as those numbers', () => {
	test('amounts, quantities and integers of an invoice given as text arrive as JSON numbers', async () => {
		const body = invoiceBody();
		const item = /** @type {IDataObject[]} */ (body.items)[0];
		Object.assign(item, {
			cantidad: '3',
			precio_unitario: '12.50',
			descuento: '1.50',
			precio_total_sin_impuestos: '36.00',
		});
		/** @type {IDataObject[]} */ (item.impuestos)[0].valor = '5.40';
		Object.assign(/** @type {IDataObject} */ (body.totales), {
			importe_total: '61.40',
			propina: '0',
		});
		Object.assign(body, { secuencial: '148', ambiente: '1' });
		const result = await env.run(jsonIssue('invoice', body));
		expect(result.error).toBeUndefined();
		const sent = /** @type {IDataObject} */ (env.calls()[0].body);
		const sentItem = /** @type {IDataObject[]} */ (sent.items)[0];
		expect(sentItem).toMatchObject({
			cantidad: 3,
			precio_unitario: 12.5,
			descuento: 1.5,
			precio_total_sin_impuestos: 36,
		});
		expect(/** @type {IDataObject[]} */ (sentItem.impuestos)[0].valor).toBe(5.4);
		expect(sent.totales).toMatchObject({ importe_total: 61.4, propina: 0 });
		expect([sent.secuencial, sent.ambiente]).toEqual([148, 1]);
	});

	test('a retention’s amounts and a reimbursed document’s secuencia; the waybill’s secuencial stays the text the spec types it as', async () => {
		const retention = retentionBody();
		Object.assign(/** @type {IDataObject[]} */ (retention.items)[0], {
			base_imponible: '100.00',
			valor_retenido: '1.75',
		});
		await env.run(jsonIssue('retention', retention));
		expect(
			/** @type {IDataObject[]} */ (/** @type {IDataObject} */ (env.calls()[0].body).items)[0],
		).toMatchObject({ base_imponible: 100, valor_retenido: 1.75 });

		const settlement = settlementBody(true);
		/** @type {IDataObject[]} */ (
			/** @type {IDataObject} */ (settlement.reembolso).documentos
		)[0].secuencia = '321';
		await env.run(jsonIssue('purchaseSettlement', settlement, {}, 'issueWithReimbursement'));
		const reembolso = /** @type {IDataObject} */ (
			/** @type {IDataObject} */ (env.calls()[1].body).reembolso
		);
		expect(/** @type {IDataObject[]} */ (reembolso.documentos)[0].secuencia).toBe(321);

		await env.run(jsonIssue('waybill', { ...waybillBody(), secuencial: '000045' }));
		expect(/** @type {IDataObject} */ (env.calls()[2].body).secuencial).toBe('000045');
	});
});

/**
 * Node options that are numbers: a value an expression made that is not a number in the form's range stops
 * the run before anything is sent, naming the option by its label (instead of a spin or a hang).
 * @type {Array<[label: string, parameters: IDataObject, says: RegExp]>}
 */
const optionCases = [
	[
		'Parallel Status Checks 0.5',
		{ waitForFinalState: true, options: { parallelChecks: 0.5 } },
		/^Options → Parallel Status Checks: must be a whole number from 1 to 20, got 0\.5 \(read once per execution, from the first item\)$/,
	],
	[
		'Parallel Status Checks 0',
		{ waitForFinalState: true, options: { parallelChecks: 0 } },
		/^Options → Parallel Status Checks: must be a whole number from 1 to 20, got 0 /,
	],
	[
		'Parallel Status Checks 50',
		{ waitForFinalState: true, options: { parallelChecks: 50 } },
		/^Options → Parallel Status Checks: must be a whole number from 1 to 20, got 50 /,
	],
	[
		'Poll Interval "5s" from an expression',
		{ waitForFinalState: true, options: { pollInterval: '={{ "5s" }}' } },
		/^\[item 1\] Options → Poll Interval \(Seconds\): must be a number from 0\.01 to 3600, got "5s"$/,
	],
	[
		'Poll Interval 0',
		{ waitForFinalState: true, options: { pollInterval: 0 } },
		/^\[item 1\] Options → Poll Interval \(Seconds\): must be a number from 0\.01 to 3600, got 0$/,
	],
	[
		'Poll Interval in hexadecimal',
		{ waitForFinalState: true, options: { pollInterval: '={{ "0x5" }}' } },
		/^\[item 1\] Options → Poll Interval \(Seconds\): must be a number from 0\.01 to 3600, got "0x5"$/,
	],
	[
		'Timeout (Wait for Final State) "2m"',
		{ waitForFinalState: true, waitTimeout: '={{ "2m" }}' },
		/^\[item 1\] Timeout \(Seconds\): must be a number from 0 to 86400, got "2m"$/,
	],
	[
		'Timeout (Wait for Final State) negative',
		{ waitForFinalState: true, waitTimeout: -1 },
		/^\[item 1\] Timeout \(Seconds\): must be a number from 0 to 86400, got -1$/,
	],
	[
		'Timeout (Wait for Final State) not finite',
		{ waitForFinalState: true, waitTimeout: '={{ 1/0 }}' },
		/^\[item 1\] Timeout \(Seconds\): must be a number from 0 to 86400, got Infinity$/,
	],
	[
		'Request Timeout 0',
		{ options: { requestTimeout: 0 } },
		/^Options → Request Timeout \(Seconds\): must be a number from 1 to 3600, got 0 \(read once per execution, from the first item\)$/,
	],
	[
		'Request Timeout "abc"',
		{ options: { requestTimeout: '={{ "abc" }}' } },
		/^Options → Request Timeout \(Seconds\): must be a number from 1 to 3600, got "abc" /,
	],
];

describe('numeric options: a clear error naming the option, nothing sent', () => {
	test.each(optionCases)('Issue with %s', async (_label, parameters, says) => {
		const result = await env.run(jsonIssue('retention', retentionBody(), parameters));
		expect(env.calls()).toHaveLength(0);
		expect(env.catalogReads()).toHaveLength(0); // not even the tax-rate catalogs are read
		expect(result.error?.message).toMatch(says);
		expect(result.error?.description).toMatch(/Nothing was sent to the service/);
	});

	test('Authorize and Reissue read the same options before sending', async () => {
		const seeded = env.receipts.seed('retention', retentionBody(), 'CREADO');
		const authorize = await env.run({
			resource: 'document',
			operation: 'authorize',
			receiptId: seeded.id,
			waitForFinalState: true,
			options: { pollInterval: '={{ "5s" }}' },
		});
		expect(authorize.error?.message).toMatch(
			/^\[item 1\] Options → Poll Interval \(Seconds\): must be a number/,
		);
		const reissue = await env.run(
			jsonIssue(
				'retention',
				retentionBody(),
				{ receiptId: seeded.id, waitForFinalState: true, waitTimeout: '={{ "1h" }}' },
				'reissue',
			),
		);
		expect(reissue.error?.message).toMatch(/^\[item 1\] Timeout \(Seconds\): must be a number/);
		expect(env.calls()).toHaveLength(0);
	});

	test('the second item’s wrong Poll Interval stops the batch before the first item is issued', async () => {
		const result = await env.run(
			jsonIssue('retention', retentionBody(), {
				waitForFinalState: true,
				options: { pollInterval: '={{ $json.every }}' },
			}),
			[{ every: 1 }, { every: '5s' }],
		);
		expect(env.calls()).toHaveLength(0);
		expect(result.error?.message).toMatch(
			/^\[item 2\] Options → Poll Interval \(Seconds\): must be a number from 0\.01 to 3600, got "5s"$/,
		);
	});

	test('with Continue On Fail, the item with a wrong option is an error item and is not issued; the others are', async () => {
		const result = await env.runTimed(
			jsonIssue('retention', retentionBody(), {
				waitForFinalState: true,
				waitTimeout: '={{ $json.wait }}',
				options: { pollInterval: 1 },
			}),
			[{ wait: '1m' }, { wait: 600 }],
			true,
		);
		expect(env.calls().filter((c) => c.method === 'POST')).toHaveLength(1);
		const out = result.output('Receipts');
		expect(out[0].json.error).toMatch(
			/^\[item 1\] Timeout \(Seconds\): must be a number from 0 to 86400, got "1m"$/,
		);
		expect(out[1].json.estado).toBe('AUTORIZADO');
	});

	test.each([
		['0.5', 0.5, /got 0\.5/],
		['"5s"', '={{ "5s" }}', /got "5s"/],
	])(
		'Document → Get with Parallel Requests %s: refused before any read',
		async (_label, parallelRequests, says) => {
			const seeded = env.receipts.seed('retention', retentionBody(), 'AUTORIZADO');
			const result = await env.run(
				{
					resource: 'document',
					operation: 'get',
					receiptId: seeded.id,
					options: { parallelRequests },
				},
				[{}, {}],
			);
			expect(env.calls()).toHaveLength(0);
			expect(result.error?.message).toMatch(
				/^Options → Parallel Requests: must be a whole number from 1 to 20, /,
			);
			expect(result.error?.message).toMatch(says);
		},
	);

	test('numbers given as plain decimal text are read as those numbers', async () => {
		const result = await env.runTimed(
			jsonIssue('retention', retentionBody(), {
				waitForFinalState: true,
				waitTimeout: '={{ "600" }}',
				options: { pollInterval: '={{ "0.01" }}', parallelChecks: '={{ "2" }}' },
			}),
		);
		expect(result.error).toBeUndefined();
		expect(result.output('Receipts')[0].json.estado).toBe('AUTORIZADO');
	});
});
