import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';
import { path } from '../../../shared/path';
import type { OperationResult } from '../../../shared/router';
import type { PartnersContext } from '../../transport';
import { clientLocator } from '../common.descriptions';
import { requireId } from '../ids';

export const description: INodeProperties[] = updateDisplayOptions(
	{ show: { resource: ['client'], operation: ['resendCredentials'] } },
	[clientLocator],
);

// Sends an e-mail each time: not retried automatically.
export async function execute(
	this: IExecuteFunctions,
	ctx: PartnersContext,
	i: number,
): Promise<OperationResult> {
	const uuid = requireId.call(this, 'client', i);
	const answer = await ctx.api.write(path`/v1/clients/${uuid}/resend-credentials`, i);
	return { uuid, ...answer };
}
