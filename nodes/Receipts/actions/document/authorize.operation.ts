import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';
import type { Deferred, OperationResult } from '../../../shared/router';
import { mayHaveBeenProcessed } from '../../../shared/errors';
import { path } from '../../../shared/path';
import type { ReceiptsContext } from '../../transport';
import { productionAllowed, refuseProductionForAgent } from '../common/agent';
import { readReceiptId, receiptIdField } from '../common/id';
import { afterCreated } from '../common/recovery';
import { signingFields } from '../common/signing';
import { afterIssue, readWaitSettings, type WaitSettings } from '../common/wait';

export const description: INodeProperties[] = updateDisplayOptions(
	{ show: { resource: ['document'], operation: ['authorize'] } },
	[
		receiptIdField('ID of the receipt of any kind to sign and send for authorization'),
		...signingFields(),
	],
);

/** Several receipts may be in flight at once (Options → Parallel Requests; see shared/router.ts). */
export const kind = 'parallelWrite' as const;

interface CheckedItem {
	id: string;
	wait: WaitSettings | undefined;
}

/** Checks the item before any item of the batch is sent (see shared/router.ts); execute uses what it read. */
export function validate(this: IExecuteFunctions, _ctx: ReceiptsContext, i: number): CheckedItem {
	return { id: readReceiptId.call(this, i), wait: readWaitSettings.call(this, i) };
}

/**
 * POST /edocs/{id}/issue: signs and sends any receipt kind (X-Password); never re-sent after it may have been
 * processed. Run by an AI agent without "Allow Production From an AI Agent", the receipt is read first
 * (GET /edocs/{id}, which carries its `ambiente`) and only a test receipt is signed.
 */
export async function execute(
	this: IExecuteFunctions,
	ctx: ReceiptsContext,
	i: number,
	checked?: CheckedItem,
): Promise<OperationResult | Deferred> {
	const { id, wait } = checked ?? validate.call(this, ctx, i);
	if (!productionAllowed.call(this, i)) {
		const receipt = await ctx.api.read(path`/edocs/${id}`, i);
		refuseProductionForAgent.call(this, i, [receipt.ambiente], `authorize receipt ${id}`);
	}
	let answer;
	try {
		answer = await ctx.api.sign(path`/edocs/${id}/issue`, i);
	} catch (error) {
		throw mayHaveBeenProcessed(error) ? afterCreated(error, { id }) : error;
	}
	return await afterIssue.call(this, ctx, i, { id, ...answer }, wait);
}
