import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';
import type { Deferred, OperationResult } from '../../../shared/router';
import { mayHaveBeenProcessed } from '../../../shared/errors';
import { path } from '../../../shared/path';
import type { ReceiptsContext } from '../../transport';
import {
	allowProductionFromAgentField,
	productionAllowed,
	refuseProductionForAgent,
} from '../common/agent';
import { readReceiptId, receiptIdField } from '../common/id';
import { receiptOptions } from '../common/issue';
import { simplifyField } from '../common/output';
import { afterCreated } from '../common/recovery';
import { afterIssue, readWaitSettings, waitFields } from '../common/wait';

export const description: INodeProperties[] = updateDisplayOptions(
	{ show: { resource: ['document'], operation: ['authorize'] } },
	[
		receiptIdField('ID of the receipt of any kind to sign and send for authorization'),
		allowProductionFromAgentField,
		...waitFields,
		simplifyField,
		receiptOptions(),
	],
);

/** Several receipts may be in flight at once (Options → Parallel Requests; see shared/router.ts). */
export const kind = 'parallelWrite' as const;

/** Checks the item before any item of the batch is sent (see shared/router.ts). */
export function validate(this: IExecuteFunctions, _ctx: ReceiptsContext, i: number): void {
	readReceiptId.call(this, i);
	readWaitSettings.call(this, i);
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
): Promise<OperationResult | Deferred> {
	const id = readReceiptId.call(this, i);
	const wait = readWaitSettings.call(this, i);
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
