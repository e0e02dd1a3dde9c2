/**
 * The code tables the receipts take, as the node knows them without asking the service. The spec leaves
 * them "not shown"; these come from the service's public documentation (Catálogo, and the code tables of
 * its common objects), with the VAT percentage codes the SRI added since (4 = 15 %, 5 = 5 %, 8 = differentiated
 * rate, 10 = 13 %). They serve two purposes:
 * - the fallback of the dropdowns when `GET /catalog/...` cannot be reached (methods/loadOptions.ts);
 * - validation, where a code must come from a closed table (the type of the document a note modifies).
 */

export interface CatalogEntry {
	code: string;
	name: string;
	/** Percentage, when the entry is a rate. */
	rate?: number;
}

/**
 * One entry of a service catalog (`{count, results[]}`), whatever the catalog names its fields: the code is
 * `codigo_porcentaje` or `codigo`, the name `nombre` or `descripcion`, and a rate catalog gives its percentage as
 * `tarifa` (sales taxes) or `porcentaje` (withholdings), often as text (`"15.00"`). Undefined when it has no code.
 */
export function catalogEntry(raw: unknown): CatalogEntry | undefined {
	if (!raw || typeof raw !== 'object') return undefined;
	const r = raw as Record<string, unknown>;
	const code = r.codigo_porcentaje ?? r.codigo;
	if ((typeof code !== 'string' && typeof code !== 'number') || String(code).trim() === '')
		return undefined;
	const name = r.nombre ?? r.descripcion;
	const rawRate = r.tarifa ?? r.porcentaje;
	const rate =
		typeof rawRate === 'number' || (typeof rawRate === 'string' && rawRate.trim() !== '')
			? Number(rawRate)
			: undefined;
	return {
		code: String(code).trim(),
		name: typeof name === 'string' && name.trim() ? name.trim() : String(code),
		...(rate !== undefined && Number.isFinite(rate) ? { rate } : {}),
	};
}

/** Identification types (receipts service's public documentation, Catálogo → Tipo de identificación). */
export const ID_TYPE_CATALOG: CatalogEntry[] = [
	{ code: '04', name: 'RUC' },
	{ code: '05', name: 'Cédula' },
	{ code: '06', name: 'Passport' },
	{ code: '07', name: 'Final Consumer' },
	{ code: '08', name: 'Foreign ID' },
	{ code: '09', name: 'Vehicle Plate' },
];

/** Document types (receipts service's public documentation, Tipos de documentos; also the access-key table). */
export const DOCUMENT_TYPE_CATALOG: CatalogEntry[] = [
	{ code: '01', name: 'Invoice' },
	{ code: '03', name: 'Purchase Settlement' },
	{ code: '04', name: 'Credit Note' },
	{ code: '05', name: 'Debit Note' },
	{ code: '06', name: 'Waybill' },
	{ code: '07', name: 'Retention' },
];

export const DOCUMENT_TYPE_CODES = DOCUMENT_TYPE_CATALOG.map((e) => e.code);

/** Tax types of sales receipts (Tipos de impuesto): the `codigo` of a tax line. */
export const SALES_TAX_TYPES: CatalogEntry[] = [
	{ code: '2', name: 'VAT (IVA)' },
	{ code: '3', name: 'Excise Tax (ICE)' },
	{ code: '5', name: 'Plastic Bottle Tax (IRBPNR)' },
];

/** The sales tax types by code, as their Spanish abbreviations read in messages ("IVA 15 %"). */
export const SALES_TAX_SHORT_NAMES: Record<string, string> = {
	'2': 'IVA',
	'3': 'ICE',
	'5': 'IRBPNR',
};

/** IVA's tax type code: the only sales tax whose value the node computes (a percentage of the item's subtotal). */
export const IVA = '2';
/** ICE's tax type code: part of the IVA base of the item that carries it (Ley de Régimen Tributario Interno, Art. 58). */
export const ICE = '3';

/**
 * Percentage codes per sales tax type (`codigo_porcentaje`; SRI, Ficha técnica de comprobantes electrónicos,
 * the "Tarifa del IVA" table). ICE has hundreds of product codes: none offline. The IRBPNR's 0.02 is dollars per
 * bottle, not a percentage, so it carries no rate here.
 */
export const SALES_TAX_RATE_CATALOG: Record<string, CatalogEntry[]> = {
	'2': [
		{ code: '0', name: 'IVA 0%', rate: 0 },
		{ code: '2', name: 'IVA 12%', rate: 12 },
		{ code: '3', name: 'IVA 14%', rate: 14 },
		{ code: '4', name: 'IVA 15%', rate: 15 },
		{ code: '5', name: 'IVA 5%', rate: 5 },
		{ code: '6', name: 'No Objeto de IVA (Not Subject)', rate: 0 },
		{ code: '7', name: 'Exento de IVA (Exempt)', rate: 0 },
		{ code: '8', name: 'IVA Diferenciado 8%', rate: 8 },
		{ code: '10', name: 'IVA 13%', rate: 13 },
	],
	'3': [],
	'5': [{ code: '5001', name: 'IRBPNR (per bottle)' }],
};

/** Tax types of a retention (Tipos de impuesto para la retención): the `codigo` of a retained tax. */
export const WITHHOLDING_TAX_TYPES: CatalogEntry[] = [
	{ code: '1', name: 'Income Tax (Renta)' },
	{ code: '2', name: 'VAT (IVA)' },
	{ code: '6', name: 'Currency Outflow Tax (ISD)' },
];

/**
 * Percentage codes per withholding tax type. VAT and ISD as documented (Retención de IVA, Retención ISD);
 * income-tax codes change with the SRI's yearly table, so the offline list names the long-standing codes
 * without a rate (the documentation sends users to the SRI's current table for those).
 */
export const WITHHOLDING_RATE_CATALOG: Record<string, CatalogEntry[]> = {
	'1': [
		{ code: '303', name: 'Professional Fees' },
		{ code: '304', name: 'Services Where Intellect Prevails' },
		{ code: '307', name: 'Services Where Labour Prevails' },
		{ code: '308', name: 'Services Between Companies' },
		{ code: '309', name: 'Advertising and Media Services' },
		{ code: '310', name: 'Transport of Passengers or Goods' },
		{ code: '312', name: 'Transfer of Movable Goods' },
		{ code: '320', name: 'Rent of Real Estate' },
		{ code: '322', name: 'Insurance and Reinsurance' },
		{ code: '332', name: 'Payments Not Subject to Withholding' },
	],
	'2': [
		{ code: '9', name: 'VAT Withholding 10%', rate: 10 },
		{ code: '10', name: 'VAT Withholding 20%', rate: 20 },
		{ code: '1', name: 'VAT Withholding 30%', rate: 30 },
		{ code: '2', name: 'VAT Withholding 70%', rate: 70 },
		{ code: '3', name: 'VAT Withholding 100%', rate: 100 },
		{ code: '7', name: 'Withholding at 0%', rate: 0 },
		{ code: '8', name: 'No Withholding Applies', rate: 0 },
	],
	'6': [{ code: '4580', name: 'ISD 5%', rate: 5 }],
};

/**
 * The SRI's payment forms (`formaPago`; SRI, Ficha técnica de comprobantes electrónicos, Tabla 24 "Formas de
 * pago", as the receipts service's public documentation lists it: Tipos de forma de pago del SRI). Purchase
 * settlements send these codes (`pagos[].forma_pago`).
 */
export const SRI_PAYMENT_FORMS: CatalogEntry[] = [
	{ code: '01', name: 'Sin utilización del sistema financiero (cash)' },
	{ code: '15', name: 'Compensación de deudas (debt offset)' },
	{ code: '16', name: 'Tarjeta de débito (debit card)' },
	{ code: '17', name: 'Dinero electrónico (electronic money)' },
	{ code: '18', name: 'Tarjeta prepago (prepaid card)' },
	{ code: '19', name: 'Tarjeta de crédito (credit card)' },
	{ code: '20', name: 'Otros con utilización del sistema financiero (transfer, cheque, deposit)' },
	{ code: '21', name: 'Endoso de títulos (endorsement of securities)' },
];

/**
 * Payment means of invoices (`pagos[].medio`: the receipts service's own codes, Tipos de forma de pago) and the
 * SRI payment form the service sends for each (its documented "Equivalencia entre formas de pago Dátil y formas
 * de pago del SRI"). An invoice on credit goes to the SRI as 20 whatever its means.
 */
export const PAYMENT_MEANS: Array<CatalogEntry & { sri: string }> = [
	{ code: 'efectivo', name: 'Cash (Efectivo)', sri: '01' },
	{ code: 'cheque', name: 'Cheque', sri: '20' },
	{ code: 'debito_cuenta_bancaria', name: 'Bank Account Debit (Débito Bancario)', sri: '20' },
	{ code: 'transferencia', name: 'Bank Transfer (Transferencia)', sri: '20' },
	{ code: 'deposito_cuenta_bancaria', name: 'Bank Deposit (Depósito)', sri: '20' },
	{ code: 'tarjeta_debito', name: 'Debit Card (Tarjeta de Débito)', sri: '16' },
	{ code: 'dinero_electronico_ec', name: 'Electronic Money (Dinero Electrónico)', sri: '17' },
	{ code: 'tarjeta_prepago', name: 'Prepaid Card (Tarjeta Prepago)', sri: '18' },
	{ code: 'tarjeta_credito', name: 'Credit Card (Tarjeta de Crédito)', sri: '19' },
	{ code: 'otros', name: 'Other (Otros)', sri: '20' },
	{ code: 'endoso_titulos', name: 'Endorsement of Securities (Endoso de Títulos)', sri: '21' },
];
