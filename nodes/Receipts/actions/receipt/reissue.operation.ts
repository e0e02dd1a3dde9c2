import type { IExecuteFunctions } from 'n8n-workflow';
import { NodeApiError, updateDisplayOptions } from 'n8n-workflow';
import { factsOf, mayHaveBeenProcessed } from '../../../shared/errors';
import { fixedPath, path } from '../../../shared/path';
import { RECEIPT_KINDS, type ReceiptKind } from '../../domain/kinds';
import type { ReceiptsContext } from '../../transport';
import { receiptProperties } from '../common/fields/form';
import { readReceiptId, receiptIdField } from '../common/id';
import { prepareReceipt, type PreparedReceipt } from '../common/receiptInput';
import { afterCreated } from '../common/recovery';
import { signingFields } from '../common/signing';
import { afterIssue } from '../common/wait';
import type { ReceiptKindRow, ReceiptOperation } from './types';

/** What Reissue checked of an item before anything is sent: the receipt to correct, and the corrected receipt. */
interface CheckedReissue extends PreparedReceipt {
	id: string;
}

const REISSUE = { accessKey: false, action: 'reissue' } as const;

/**
 * Reissue of a receipt kind: `POST <path>/{id}/reissue` with the corrected body, for a receipt in NO AUTORIZADO
 * or DEVUELTO (receipts service, States and transitions, shown for waybills; the service's public documentation
 * has the same operation for every kind). The corrected receipt is checked like an Issue's, once, before any item
 * is sent (the access key stays the receipt's: no Access Key option). It signs (X-Password) and is never re-sent
 * once it may have reached the service: the receipt exists either way, so a lost answer says so with its ID; a
 * refusal (e.g. of an authorized receipt) says which rule it broke.
 */
export function reissue(receipt: ReceiptKindRow): ReceiptOperation {
	const { resource, kind, read } = receipt;
	const { name } = RECEIPT_KINDS[kind];
	async function check(this: IExecuteFunctions, ctx: ReceiptsContext, i: number) {
		const id = readReceiptId.call(this, i);
		return { id, ...(await prepareReceipt.call(this, ctx, i, kind, read, REISSUE)) };
	}
	return {
		option: {
			name: 'Reissue',
			value: 'reissue',
			description: `Send a corrected ${name} for one in NO AUTORIZADO or DEVUELTO`,
			action: `Reissue ${receipt.a}`,
		},
		kind: 'parallelWrite',
		overlaps: true,
		description: updateDisplayOptions({ show: { resource: [resource], operation: ['reissue'] } }, [
			receiptIdField(`ID of the ${name} to correct: it must be in NO AUTORIZADO or DEVUELTO`),
			...receiptProperties(receipt.example, receipt.fields),
			...signingFields(),
		]),
		validate: check,
		async execute(
			this: IExecuteFunctions,
			ctx: ReceiptsContext,
			i: number,
			checked?: CheckedReissue,
		) {
			const { id, body, warnings, wait } = checked ?? (await check.call(this, ctx, i));
			let answer;
			try {
				answer = await ctx.api.sign(path`${fixedPath(receipt.path)}/${id}/reissue`, i, { body });
			} catch (error) {
				throw mayHaveBeenProcessed(error) ? afterCreated(error, { id }) : explain(error, kind, id);
			}
			return await afterIssue.call(this, ctx, i, { id, ...answer }, wait, { warnings });
		},
	};
}

/** The service's refusal (e.g. an authorized receipt) said in words that name the rule. */
function explain(error: unknown, kind: ReceiptKind, id: string): Error {
	if (!(error instanceof NodeApiError)) return error as Error;
	const { status = 0, said } = factsOf(error);
	if (status >= 400 && status < 500 && ![401, 403, 404, 429].includes(status)) {
		const { name, plural } = RECEIPT_KINDS[kind];
		error.message = `${name[0].toUpperCase()}${name.slice(1)} ${id} cannot be reissued: ${said ?? 'the service refused it'}`;
		error.description =
			`Only ${plural} in NO AUTORIZADO or DEVUELTO can be reissued: an authorized ${name} cannot be changed (issue a new one instead). Otherwise, correct what the service's messages name. ${error.description ?? ''}`.trim();
	}
	return error;
}
