import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';
import { path } from '../../../shared/path';
import type { OperationResult } from '../../../shared/router';
import type { PartnersContext } from '../../transport';
import { readIdList } from '../ids';

export const description: INodeProperties[] = updateDisplayOptions(
	{ show: { resource: ['plan'], operation: ['delete'] } },
	[
		{
			displayName: 'Plan Names or IDs',
			name: 'planIds',
			type: 'multiOptions',
			typeOptions: { loadOptionsMethod: 'getPlans' },
			default: [],
			required: true,
			description:
				'Choose from the list, or specify IDs using an <a href="https://docs.n8n.io/code/expressions/">expression</a>',
			hint: 'Plans to delete in one request. An expression may give a list or comma-separated text.',
		},
	],
);

/** Checks every item before the first request (see shared/router.ts): one bad list stops the batch with nothing sent. */
export function validate(this: IExecuteFunctions, _ctx: PartnersContext, i: number): void {
	readIdList.call(this, 'planIds', i, { agentLimit: true });
}

export async function execute(
	this: IExecuteFunctions,
	ctx: PartnersContext,
	i: number,
): Promise<OperationResult> {
	const uuids = readIdList.call(this, 'planIds', i, { agentLimit: true });
	// Not re-sent after a 5xx or a broken connection: a plan deleted before the answer was lost would be
	// "not found" the second time, and a successful delete reported as a failure.
	const answer = await ctx.api.write(path`/v1/products`, i, { method: 'DELETE', body: { uuids } });
	return { deleted: uuids, ...answer };
}
