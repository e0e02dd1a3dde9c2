import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';
import type { OperationResult } from '../../../shared/router';
import type { PartnersContext } from '../../transport';
import { clientLocator } from '../common.descriptions';
import { requireId } from '../ids';

export const description: INodeProperties[] = updateDisplayOptions({ show: { resource: ['client'], operation: ['resendCredentials'] } }, [clientLocator]);

// Sends an e-mail each time: not retried automatically.
export async function execute(this: IExecuteFunctions, ctx: PartnersContext, i: number): Promise<OperationResult> {
	const uuid = requireId.call(this, 'client', i);
	const answer = await ctx.api.request({ method: 'POST', path: `/v1/clients/${encodeURIComponent(uuid)}/resend-credentials` }, i);
	return { uuid, ...answer };
}
