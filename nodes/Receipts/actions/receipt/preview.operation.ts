import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';
import type { ReceiptsContext } from '../../transport';
import { requestTimeoutOption } from '../common/output';
import { accessKeyOption, inspectReceipt } from '../common/receiptInput';
import type { Offered, ReceiptKindRow, ReceiptOperation } from './types';

/** Preview's options: what changes the body (the access key) and how long a catalog read may take. */
const previewOptions: INodeProperties = {
	displayName: 'Options',
	name: 'options',
	type: 'collection',
	placeholder: 'Add Option',
	default: {},
	options: [accessKeyOption, requestTimeoutOption],
};

/**
 * Preview of a receipt kind: the body Issue would send for the item and its warnings — or, for a receipt that is
 * not valid, every problem Issue would stop on — as the item's output. Nothing is issued, signed or written; the
 * only requests are reads of the tax-rate catalogs (once per execution). Its receipt fields are Issue's
 * (receipt/issue.operation.ts shows them for both); it adds its own options. No `validate`: a bad row is an
 * output item with its problems, not an error that stops the batch, so a whole batch is checked in one run.
 *
 * `as`: the Preview of Issue under another name (Purchase Settlement → Preview With Reimbursement).
 */
export function preview(receipt: ReceiptKindRow, as?: Offered): ReceiptOperation {
	const { resource, kind, read } = receipt;
	const option = as ?? {
		name: 'Preview',
		value: 'preview',
		description: `Compute and check ${receipt.a}; output the exact body Issue would send, sending nothing`,
		action: `Preview ${receipt.a}`,
	};
	return {
		option,
		// Sends nothing: computed and checked here, each item alone (a bad one is its own output, valid: false).
		kind: 'read',
		description: updateDisplayOptions(
			{ show: { resource: [resource], operation: [option.value] } },
			[previewOptions],
		),
		async execute(this: IExecuteFunctions, ctx: ReceiptsContext, i: number) {
			const { body, check } = await inspectReceipt.call(this, ctx, i, kind, read);
			// Every item has the same columns, in this order, so that n8n's table (its columns in order of first
			// appearance) shows `valid` and `problems` first for every row, before the tall `body`.
			const { problems, warnings } = check;
			if (!check.ok || !body) return { valid: false, problems, warnings };
			return { valid: true, problems, warnings, body };
		},
	};
}
