/**
 * The SRI's catalog of the ATS ("Catálogo Anexo Transaccional Simplificado ATS", its tables 2, 4 and 5, as
 * transcribed in SINKRONET-SAS/erp-ec `addons/erpec_fiscal_native/ats_catalog.py`) and the codes of the SRI's
 * electronic receipts (Ficha técnica de comprobantes electrónicos: IVA percentage codes, identification types),
 * as far as the annex built from receipts needs them. One table per rule.
 */

/** Tabla 5: the tax supports (sustento tributario) of a purchase. */
export const TAX_SUPPORTS: ReadonlyArray<{ code: string; name: string; description: string }> = [
	{
		code: '01',
		name: '01 — IVA Tax Credit (Services and Goods)',
		description:
			'Crédito tributario para declaración de IVA (servicios y bienes distintos de inventarios y activos fijos)',
	},
	{
		code: '02',
		name: '02 — Income Tax Cost or Expense (Services and Goods)',
		description:
			'Costo o gasto para declaración de IR (servicios y bienes distintos de inventarios y activos fijos)',
	},
	{
		code: '03',
		name: '03 — Fixed Asset, IVA Tax Credit',
		description: 'Activo fijo - crédito tributario para declaración de IVA',
	},
	{
		code: '04',
		name: '04 — Fixed Asset, Income Tax Cost or Expense',
		description: 'Activo fijo - costo o gasto para declaración de IR',
	},
	{
		code: '05',
		name: "05 — Employees' Travel, Lodging and Meals",
		description:
			'Liquidación gastos de viaje, hospedaje y alimentación, gastos IR (a nombre de empleados y no de la empresa)',
	},
	{
		code: '06',
		name: '06 — Inventory, IVA Tax Credit',
		description: 'Inventario - crédito tributario para declaración de IVA',
	},
	{
		code: '07',
		name: '07 — Inventory, Income Tax Cost or Expense',
		description: 'Inventario - costo o gasto para declaración de IR',
	},
	{
		code: '08',
		name: '08 — Paid to Claim a Reimbursement (Intermediary)',
		description: 'Valor pagado para solicitar reembolso de gasto (intermediario)',
	},
	{
		code: '09',
		name: '09 — Insurance Claim Reimbursement',
		description: 'Reembolso por siniestros',
	},
	{
		code: '10',
		name: '10 — Dividends, Profits Distributed',
		description: 'Distribución de dividendos, beneficios o utilidades',
	},
	{
		code: '11',
		name: '11 — Debit or Collection Agreements (Banks)',
		description: "Convenios de débito o recaudación para IFI's",
	},
	{
		code: '12',
		name: '12 — Presumptive Taxes and Withholdings',
		description: 'Impuestos y retenciones presuntivos',
	},
	{
		code: '13',
		name: '13 — Amounts Recognized by Public Entities',
		description: 'Valores reconocidos por entidades del sector público a favor de sujetos pasivos',
	},
	{
		code: '14',
		name: '14 — Billed by Members to Transport Operators',
		description:
			'Valores facturados por socios a operadoras de transporte (que no constituyen gasto de dicha operadora)',
	},
	{
		code: '15',
		name: '15 — Digital Services',
		description: 'Pagos efectuados por consumos propios y de terceros de servicios digitales',
	},
	{
		code: '00',
		name: '00 — Special Cases',
		description: 'Casos especiales cuyo sustento no aplica en las opciones anteriores',
	},
];

/**
 * Tabla 4: the tax supports the SRI accepts for each kind of purchase document the annex reports from receipts
 * (01 factura, 03 liquidación de compra, 04 nota de crédito, 05 nota de débito, 41 comprobante de venta emitido
 * por reembolso).
 */
export const TAX_SUPPORTS_BY_DOCUMENT: Readonly<Record<string, readonly string[]>> = {
	'01': ['01', '02', '03', '04', '05', '06', '07', '08', '09', '14', '15', '00'],
	'03': ['01', '02', '03', '04', '05', '06', '07', '08', '14', '15'],
	'04': ['01', '02', '03', '04', '05', '06', '07', '08', '09', '14', '15', '00'],
	'05': ['01', '02', '03', '04', '05', '06', '07', '08', '09', '14', '15', '00'],
	'41': ['01', '02', '03', '04', '05', '06', '07'],
};

/**
 * Tabla 4's code of a receipt issued for a reimbursement of expenses (`codDocReembolso` of an invoice or a purchase
 * settlement), the `tipoComprobante` of such a purchase (Odoo Enterprise and Trescloud file it so). Tabla 4 also has
 * 47 and 48, credit and debit notes for a reimbursement issued by the intermediary; the SRI's credit and debit note
 * schemas carry no reimbursed documents, so no receipt is one of them.
 */
export const REIMBURSEMENT_DOCUMENT = '41';

/** The fields of IVA withheld on a purchase, in the schema's order. */
export type IvaWithheldField =
	| 'valRetBien10'
	| 'valRetServ20'
	| 'valorRetBienes'
	| 'valRetServ50'
	| 'valorRetServicios'
	| 'valRetServ100';

/**
 * The field of IVA withheld at each percentage (form 104's boxes 721, 723, 725, 727, 729, 731; Odoo Enterprise
 * and Trescloud map them the same way): 10 %, 20 %, 30 % (goods), 50 %, 70 % (services), 100 %.
 */
export const IVA_WITHHELD_FIELDS: ReadonlyArray<[number, IvaWithheldField]> = [
	[10, 'valRetBien10'],
	[20, 'valRetServ20'],
	[30, 'valorRetBienes'],
	[50, 'valRetServ50'],
	[70, 'valorRetServicios'],
	[100, 'valRetServ100'],
];

/**
 * The IVA withholding codes at 0 % (the SRI's table of IVA withholding percentages, as the receipts service
 * publishes its catalog): 7 retención en cero, 8 no procede retención. A line of them, or any line at 0 %, withholds
 * nothing and fills no field.
 */
export const ZERO_IVA_WITHHOLDING_CODES: readonly string[] = ['7', '8'];

/**
 * `tipoRegi` of a payment abroad (the ATS schema's enumeration, its annotations): 01 general regime, whose country
 * is `paisEfecPagoGen`; 02 tax haven, `paisEfecPagoParFis`; 03 preferential regime or lower-tax jurisdiction,
 * `denopagoRegFis` (the regime's name).
 */
export const FOREIGN_REGIMES: Readonly<Record<string, string>> = {
	'01': 'paisEfecPagoGen',
	'02': 'paisEfecPagoParFis',
	'03': 'denopagoRegFis',
};

/**
 * Tabla 2 for purchases (`tpIdProv`), from the receipt's identification type (Ficha técnica, table 6: 04 RUC,
 * 05 cédula, 06 pasaporte, 08 identificación del exterior): 01 RUC, 02 cédula, 03 passport or foreign tax id.
 */
export const PURCHASE_ID_TYPES: Readonly<Record<string, string>> = {
	'04': '01',
	'05': '02',
	'06': '03',
	'08': '03',
};

/** Tabla 2 for sales (`tpIdCliente`): 04 RUC, 05 cédula, 06 passport or foreign tax id, 07 consumidor final. */
export const SALE_ID_TYPES: Readonly<Record<string, string>> = {
	'04': '04',
	'05': '05',
	'06': '06',
	'07': '07',
	'08': '06',
};

/**
 * `tipoProv` / `tipoCliente` of a party with a passport or a foreign tax id (the only ones the schema asks it of):
 * 01 natural person, 02 company. A receipt does not say; a passport is a person's, a foreign tax id taken as a
 * company's (Trescloud's exporter reads them the same way).
 */
export const FOREIGN_PARTY_TYPES: Readonly<Record<string, string>> = { '06': '01', '08': '02' };

/**
 * Tabla 4 in sales: invoices (and notas de venta) are reported as 18 "documentos autorizados utilizados en ventas
 * excepto N/C N/D"; credit and debit notes keep 04 and 05 (Odoo Enterprise's ATS_SALE_DOCUMENT_TYPE).
 */
export const SALE_DOCUMENT_TYPES: Readonly<Record<string, string>> = {
	'01': '18',
	'04': '04',
	'05': '05',
};

/** The final consumer (consumidor final): thirteen nines, identification type 07 (Ficha técnica). */
export const FINAL_CONSUMER = { id: '9999999999999', type: '07' } as const;

/**
 * The authorization written for a document whose number the receipts do not give (a credit note's modified
 * invoice that is not among the items): ten nines, as Odoo Enterprise and Trescloud write for documents without
 * one.
 */
export const NO_AUTHORIZATION = '9999999999';

/**
 * A purchase of this total (with taxes) or more names its payment forms (`formasDePago`) when its receipt gives
 * none: the threshold from which paying through the financial system is required for the cost to count (USD 500 in
 * a public fork of Odoo Enterprise's exporter; Trescloud's still uses 1,000). The annex writes the receipt's own
 * `pagos` whenever it has them; this only decides what is flagged when it has none.
 */
export const PAYMENT_FORM_THRESHOLD_CENTS = 50_000;
