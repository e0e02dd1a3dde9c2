import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';
import { path } from '../../../shared/path';
import type { OperationResult } from '../../../shared/router';
import { Checker } from '../../../shared/validate';
import type { PartnersContext } from '../../transport';
import { clientLocator } from '../common.descriptions';
import { idInto } from '../ids';

export const description: INodeProperties[] = updateDisplayOptions(
	{ show: { resource: ['client'], operation: ['resendCredentials'] } },
	[clientLocator],
);

// Sends an e-mail each time: not retried automatically.
/** Checks every item before the first request (see shared/router.ts): a bad client ID stops the batch with nothing sent. */
export function validate(this: IExecuteFunctions, _ctx: PartnersContext, i: number): string {
	const check = new Checker();
	const uuid = idInto.call(this, check, 'client', i);
	check.throwIfFailed(this.getNode(), i);
	return uuid;
}

export async function execute(
	this: IExecuteFunctions,
	ctx: PartnersContext,
	i: number,
	checked?: string,
): Promise<OperationResult> {
	const uuid = checked ?? validate.call(this, ctx, i);
	const answer = await ctx.api.write(path`/v1/clients/${uuid}/resend-credentials`, i);
	return { uuid, ...answer };
}
