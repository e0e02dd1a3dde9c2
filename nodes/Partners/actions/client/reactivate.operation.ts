import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';
import { path } from '../../../shared/path';
import type { OperationResult } from '../../../shared/router';
import type { PartnersContext } from '../../transport';
import { readIdList } from '../ids';
import { clientIdsField } from './clientIds';

export const description: INodeProperties[] = updateDisplayOptions(
	{ show: { resource: ['client'], operation: ['reactivate'] } },
	[clientIdsField],
);

/** Checks every item before the first request (see shared/router.ts): one bad list stops the batch with nothing sent. */
export function validate(this: IExecuteFunctions, _ctx: PartnersContext, i: number): void {
	readIdList.call(this, 'clientIds', i, { agentLimit: true });
}

export async function execute(
	this: IExecuteFunctions,
	ctx: PartnersContext,
	i: number,
): Promise<OperationResult> {
	const uuids = readIdList.call(this, 'clientIds', i, { agentLimit: true });
	// Not re-sent after a 5xx or a broken connection: reactivation needs a suspended client, so a repeat of
	// a request that already worked would report the success as a failure.
	const answer = await ctx.api.write(path`/v1/clients/reactivate`, i, { body: { uuids } });
	return { reactivated: uuids, ...answer };
}
