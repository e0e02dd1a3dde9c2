import type { INodeProperties } from 'n8n-workflow';
import {
	atsRetentionExample,
	atsRetentionFields,
	readAtsRetentionFields,
} from './atsRetention/fields';
import { creditNoteExample, creditNoteFields, readCreditNoteFields } from './creditNote/fields';
import { debitNoteExample, debitNoteFields, readDebitNoteFields } from './debitNote/fields';
import { invoiceExample, invoiceFields, readInvoiceFields } from './invoice/fields';
import { settlementForm } from './purchaseSettlement/fields';
import { get } from './receipt/get.operation';
import { issue } from './receipt/issue.operation';
import { issueFromXml } from './receipt/issueFromXml.operation';
import { preview } from './receipt/preview.operation';
import { reissue } from './receipt/reissue.operation';
import type { ReceiptKindRow, ReceiptOperation, ReceiptResource } from './receipt/types';
import { readRetentionFields, retentionExample, retentionFields } from './retention/fields';
import { readWaybillFields, waybillExample, waybillFields } from './waybill/fields';
import type { ReceiptsMap } from './node.type';

/**
 * THE TABLE OF RECEIPT KINDS × OPERATIONS of the Receipts node: one declarative table instead of a folder of
 * operation files per kind (why: actions/router.ts). Read it in two steps:
 * - `receiptKinds` (at the bottom): each receipt kind and the operations it offers, in the panel's order;
 * - each operation is the same code for every kind, in receipt/<operation>.operation.ts (its fields and what it
 *   does), given the kind's row below: its resource, path, words and Fields form (<kind>/fields.ts).
 * So "where is Credit Note → Reissue?": `creditNote.reissue` below — receipt/reissue.operation.ts with the
 * CREDIT_NOTE row (`POST /credit-notes/{id}/reissue`, the credit note form of creditNote/fields.ts).
 * Each kind's Operation selector and fields in the panel come from here too (`kindDescription`).
 * The resources that are not a receipt kind (Document, Webhook) have their own operation files.
 */

// The rows. Paths and shapes: the service's public documentation (Facturas, Notas de crédito, Notas de débito,
// Comprobantes de Retención, Liquidaciones de compra, Guías de remisión) and the receipts service's spec.

const ATS_RETENTION: ReceiptKindRow = {
	resource: 'atsRetention',
	kind: 'atsRetention',
	path: '/ats-retentions',
	a: 'an ATS retention',
	example: atsRetentionExample,
	fields: atsRetentionFields,
	read: readAtsRetentionFields,
};

const CREDIT_NOTE: ReceiptKindRow = {
	resource: 'creditNote',
	kind: 'creditNote',
	path: '/credit-notes',
	a: 'a credit note',
	example: creditNoteExample,
	fields: creditNoteFields,
	read: readCreditNoteFields,
};

const DEBIT_NOTE: ReceiptKindRow = {
	resource: 'debitNote',
	kind: 'debitNote',
	path: '/debit-notes',
	a: 'a debit note',
	example: debitNoteExample,
	fields: debitNoteFields,
	read: readDebitNoteFields,
};

const INVOICE: ReceiptKindRow = {
	resource: 'invoice',
	kind: 'invoice',
	path: '/invoices',
	a: 'an invoice',
	idempotent: true,
	example: invoiceExample,
	fields: invoiceFields,
	read: readInvoiceFields,
};

/** A purchase settlement: plain, with a reimbursement (its own operations), and as Reissue takes either. */
const settlement = (variant: 'plain' | 'reimbursement' | 'reissue'): ReceiptKindRow => ({
	resource: 'purchaseSettlement',
	path: '/purchase-settlements',
	a: 'a purchase settlement',
	...settlementForm(variant),
});
const PURCHASE_SETTLEMENT = settlement('plain');
const PURCHASE_SETTLEMENT_WITH_REIMBURSEMENT = settlement('reimbursement');
const PURCHASE_SETTLEMENT_REISSUE = settlement('reissue');

const RETENTION: ReceiptKindRow = {
	resource: 'retention',
	kind: 'retention',
	path: '/retentions',
	a: 'a retention',
	example: retentionExample,
	fields: retentionFields,
	read: readRetentionFields,
};

const WAYBILL: ReceiptKindRow = {
	resource: 'waybill',
	kind: 'waybill',
	path: '/waybills',
	a: 'a waybill',
	example: waybillExample,
	fields: waybillFields,
	read: readWaybillFields,
};

/** Purchase Settlement → Issue With Reimbursement and its Preview: Issue and Preview under names of their own. */
const WITH_REIMBURSEMENT = {
	issue: {
		name: 'Issue With Reimbursement',
		value: 'issueWithReimbursement',
		description: 'Issue a purchase settlement that reimburses expenses (reembolso required)',
		action: 'Issue a purchase settlement with reimbursement',
	},
	preview: {
		name: 'Preview With Reimbursement',
		value: 'previewWithReimbursement',
		description:
			'Compute and check a settlement that reimburses expenses; output the exact body Issue With Reimbursement would send, sending nothing',
		action: 'Preview a purchase settlement with reimbursement',
	},
};

/**
 * Every receipt kind × the operations it offers, in the order of its Operation selector. Typed from
 * node.type.ts: a kind that lacks an operation the map names, or offers one it does not, is a compile error.
 */
export const receiptKinds: { [R in ReceiptResource]: { [O in ReceiptsMap[R]]: ReceiptOperation } } =
	{
		atsRetention: {
			get: get(ATS_RETENTION),
			issue: issue(ATS_RETENTION),
			issueFromXml: issueFromXml(ATS_RETENTION),
			preview: preview(ATS_RETENTION),
		},
		creditNote: {
			get: get(CREDIT_NOTE),
			issue: issue(CREDIT_NOTE),
			issueFromXml: issueFromXml(CREDIT_NOTE),
			preview: preview(CREDIT_NOTE),
			reissue: reissue(CREDIT_NOTE),
		},
		debitNote: {
			get: get(DEBIT_NOTE),
			issue: issue(DEBIT_NOTE),
			issueFromXml: issueFromXml(DEBIT_NOTE),
			preview: preview(DEBIT_NOTE),
			reissue: reissue(DEBIT_NOTE),
		},
		invoice: {
			get: get(INVOICE),
			issue: issue(INVOICE),
			issueFromXml: issueFromXml(INVOICE),
			preview: preview(INVOICE),
			reissue: reissue(INVOICE),
		},
		purchaseSettlement: {
			issue: issue(PURCHASE_SETTLEMENT),
			issueFromXml: issueFromXml(PURCHASE_SETTLEMENT),
			issueWithReimbursement: issue(PURCHASE_SETTLEMENT_WITH_REIMBURSEMENT, WITH_REIMBURSEMENT),
			preview: preview(PURCHASE_SETTLEMENT),
			previewWithReimbursement: preview(
				PURCHASE_SETTLEMENT_WITH_REIMBURSEMENT,
				WITH_REIMBURSEMENT.preview,
			),
			// One Reissue for both variants: a `reembolso`, when the corrected settlement has one, is checked and sent.
			reissue: reissue(PURCHASE_SETTLEMENT_REISSUE),
		},
		retention: {
			issue: issue(RETENTION),
			issueFromXml: issueFromXml(RETENTION),
			preview: preview(RETENTION),
			reissue: reissue(RETENTION),
		},
		waybill: {
			get: get(WAYBILL),
			issue: issue(WAYBILL),
			issueFromXml: issueFromXml(WAYBILL),
			preview: preview(WAYBILL),
			reissue: reissue(WAYBILL),
		},
	};

/** A receipt kind in the panel: its Operation selector (Issue by default), then its operations' fields, in table order. */
export function kindDescription(resource: ReceiptResource): INodeProperties[] {
	const operations: ReceiptOperation[] = Object.values(receiptKinds[resource]);
	return [
		{
			displayName: 'Operation',
			name: 'operation',
			type: 'options',
			noDataExpression: true,
			displayOptions: { show: { resource: [resource] } },
			options: operations.map((operation) => operation.option),
			default: 'issue',
		},
		...operations.flatMap((operation) => operation.description),
	];
}
