import { RECEIPT_TYPE_CODES } from '../../shared/sri/accessKey';

/** The receipt kinds the Receipts node issues, as its checks (schemas.ts), totals and labels name them. */
export type ReceiptKind =
	| 'atsRetention'
	| 'retention'
	| 'waybill'
	| 'purchaseSettlement'
	| 'purchaseSettlementReimbursement'
	| 'invoice'
	| 'creditNote'
	| 'debitNote';

/** Per kind: its document type code (access key, SRI table) and its name in messages. */
export const RECEIPT_KINDS: Record<
	ReceiptKind,
	{ typeCode: string; name: string; plural: string }
> = {
	atsRetention: {
		typeCode: RECEIPT_TYPE_CODES.retention,
		name: 'ATS retention',
		plural: 'ATS retentions',
	},
	retention: { typeCode: RECEIPT_TYPE_CODES.retention, name: 'retention', plural: 'retentions' },
	waybill: { typeCode: RECEIPT_TYPE_CODES.waybill, name: 'waybill', plural: 'waybills' },
	purchaseSettlement: {
		typeCode: RECEIPT_TYPE_CODES.purchaseSettlement,
		name: 'purchase settlement',
		plural: 'purchase settlements',
	},
	purchaseSettlementReimbursement: {
		typeCode: RECEIPT_TYPE_CODES.purchaseSettlement,
		name: 'purchase settlement',
		plural: 'purchase settlements',
	},
	invoice: { typeCode: RECEIPT_TYPE_CODES.invoice, name: 'invoice', plural: 'invoices' },
	creditNote: {
		typeCode: RECEIPT_TYPE_CODES.creditNote,
		name: 'credit note',
		plural: 'credit notes',
	},
	debitNote: { typeCode: RECEIPT_TYPE_CODES.debitNote, name: 'debit note', plural: 'debit notes' },
};
