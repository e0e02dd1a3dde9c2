import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';
import { fixedPath } from '../../../shared/path';
import { RECEIPT_KINDS } from '../../domain/kinds';
import type { ReceiptsContext } from '../../transport';
import { receiptProperties } from '../common/fields/form';
import { accessKeyOption, prepareReceipt, type PreparedReceipt } from '../common/receiptInput';
import { idempotencyKeyOption, refuseOtherInvoice } from '../common/idempotency';
import { lostAnswer, sentIds } from '../common/recovery';
import { signingFields } from '../common/signing';
import { afterIssue } from '../common/wait';
import type { Offered, ReceiptKindRow, ReceiptOperation } from './types';

/**
 * Issue of a receipt kind: `POST <path>/issue` with the receipt, signed (X-Password) — the service's public
 * documentation for each kind; receipts service, Authentication. Before any item of the batch is sent, every
 * item is read, completed and checked once (`validate`: common/receiptInput.ts, prepareReceipt), and exactly
 * that body is sent. Issuing is not idempotent: a request that may have been processed is never sent again, and
 * a lost answer says what was sent (common/recovery.ts) — except where the service documents an idempotency key
 * (invoices: the request carries one and a lost answer is re-sent with it, common/idempotency.ts). Wait for
 * Final State follows the receipt (common/wait.ts). Several items may be in flight at once (Options → Parallel Requests).
 *
 * `as`: Issue under another name on the same path, with its own Preview (Purchase Settlement → Issue With
 * Reimbursement). The receipt's fields are shown for Issue and its Preview alike, so switching between the two
 * keeps every value the user filled in.
 */
export function issue(
	receipt: ReceiptKindRow,
	as?: { issue: Offered; preview: Offered },
): ReceiptOperation {
	const { resource, kind, path, read, idempotent } = receipt;
	const option = as?.issue ?? {
		name: 'Issue',
		value: 'issue',
		description: `Issue ${receipt.a} (POST ${path}/issue)`,
		action: `Issue ${receipt.a}`,
	};
	const preview = as?.preview.value ?? 'preview';
	const options = { accessKey: true, action: 'issue' as const, idempotencyKey: idempotent };
	return {
		option,
		kind: 'parallelWrite',
		overlaps: true,
		description: [
			...updateDisplayOptions(
				{ show: { resource: [resource], operation: [option.value, preview] } },
				receiptProperties(receipt.example, receipt.fields),
			),
			...updateDisplayOptions(
				{ show: { resource: [resource], operation: [option.value] } },
				signingFields(idempotent ? [accessKeyOption, idempotencyKeyOption] : [accessKeyOption]),
			),
		],
		async validate(this: IExecuteFunctions, ctx: ReceiptsContext, i: number) {
			return await prepareReceipt.call(this, ctx, i, kind, read, options);
		},
		async execute(
			this: IExecuteFunctions,
			ctx: ReceiptsContext,
			i: number,
			checked?: PreparedReceipt,
		) {
			const { body, warnings, wait, idempotencyKey } =
				checked ?? (await prepareReceipt.call(this, ctx, i, kind, read, options));
			const sent = { ...sentIds(RECEIPT_KINDS[kind].name, body), idempotencyKey };
			let answer: IDataObject;
			try {
				answer = await ctx.api.sign(fixedPath(`${path}/issue`), i, { body, idempotencyKey });
			} catch (error) {
				throw lostAnswer(error, sent);
			}
			refuseOtherInvoice.call(this, i, idempotencyKey, sent.secuencial, answer);
			return await afterIssue.call(this, ctx, i, answer, wait, { warnings, record: true });
		},
	};
}
