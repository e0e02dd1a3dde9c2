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

/** Percentage codes per sales tax type (`codigo_porcentaje`). ICE has hundreds of product codes: none offline. */
export const SALES_TAX_RATE_CATALOG: Record<string, CatalogEntry[]> = {
	'2': [
		{ code: '0', name: 'VAT 0%', rate: 0 },
		{ code: '2', name: 'VAT 12%', rate: 12 },
		{ code: '3', name: 'VAT 14%', rate: 14 },
		{ code: '4', name: 'VAT 15%', rate: 15 },
		{ code: '5', name: 'VAT 5%', rate: 5 },
		{ code: '6', name: 'Not Subject to VAT', rate: 0 },
		{ code: '7', name: 'Exempt From VAT', rate: 0 },
		{ code: '8', name: 'Differentiated VAT', rate: 8 },
		{ code: '10', name: 'VAT 13%', rate: 13 },
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

/** Payment means of invoices (`pagos[].medio`, Tipos de forma de pago). */
export const PAYMENT_MEANS: CatalogEntry[] = [
	{ code: 'efectivo', name: 'Cash' },
	{ code: 'cheque', name: 'Cheque' },
	{ code: 'debito_cuenta_bancaria', name: 'Bank Account Debit' },
	{ code: 'transferencia', name: 'Bank Transfer' },
	{ code: 'deposito_cuenta_bancaria', name: 'Bank Deposit' },
	{ code: 'tarjeta_debito', name: 'Debit Card' },
	{ code: 'dinero_electronico_ec', name: 'Electronic Money' },
	{ code: 'tarjeta_prepago', name: 'Prepaid Card' },
	{ code: 'tarjeta_credito', name: 'Credit Card' },
	{ code: 'otros', name: 'Other' },
	{ code: 'endoso_titulos', name: 'Endorsement of Securities' },
];
