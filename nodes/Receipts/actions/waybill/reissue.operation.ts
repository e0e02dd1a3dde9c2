import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeApiError, updateDisplayOptions } from 'n8n-workflow';
import type { Deferred, OperationResult } from '../../../shared/router';
import { mayHaveBeenProcessed } from '../../../shared/transport';
import type { ReceiptsContext } from '../../transport';
import { readReceiptId, receiptIdField } from '../common/id';
import { issueProperties, prepareReceipt } from '../common/issue';
import { afterCreated } from '../common/recovery';
import { afterIssue } from '../common/wait';
import { readWaybillFields, waybillExample, waybillFields } from './fields';

export const description: INodeProperties[] = updateDisplayOptions({ show: { resource: ['waybill'], operation: ['reissue'] } }, [
	receiptIdField('ID of the waybill to correct: it must be in NO AUTORIZADO or DEVUELTO'),
	...issueProperties(waybillExample, waybillFields, { accessKey: false }),
]);

/** Checks the item before any item of the batch is sent (see shared/router.ts). */
export function validate(this: IExecuteFunctions, _ctx: ReceiptsContext, i: number): void {
	readReceiptId.call(this, i);
	prepareReceipt.call(this, i, 'waybill', readWaybillFields, { accessKey: false });
}

/** Sends the corrected waybill for a NO AUTORIZADO / DEVUELTO one; an authorized waybill is refused by the service. */
export async function execute(this: IExecuteFunctions, ctx: ReceiptsContext, i: number): Promise<OperationResult | Deferred> {
	const id = readReceiptId.call(this, i);
	const { body, warnings } = prepareReceipt.call(this, i, 'waybill', readWaybillFields, { accessKey: false });
	let answer;
	try {
		answer = await ctx.api.sign({ method: 'POST', path: `/waybills/${encodeURIComponent(id)}/reissue`, body }, i);
	} catch (error) {
		throw mayHaveBeenProcessed(error) ? afterCreated(error, { id }) : explain(error, id, i);
	}
	return await afterIssue.call(this, ctx, i, { id, ...answer }, { warnings });
}

/** The service's refusal (e.g. an authorized waybill) said in words that name the rule. */
function explain(error: unknown, id: string, i: number): Error {
	if (!(error instanceof NodeApiError)) return error as Error;
	const status = Number(error.httpCode);
	if (status >= 400 && status < 500 && ![401, 403, 404, 429].includes(status)) {
		const said = error.message.replace(/^\[item \d+\] /, '').replace(/^Receipts rejected the request: /, '');
		error.message = `[item ${i}] Waybill ${id} cannot be reissued: ${said}`;
		error.description = `Only waybills in NO AUTORIZADO or DEVUELTO can be reissued: an authorized waybill cannot be changed (issue a new one instead). Otherwise, correct what the service's messages name. ${error.description ?? ''}`.trim();
	}
	return error;
}
