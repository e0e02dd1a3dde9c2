import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';
import { path } from '../../../shared/path';
import type { OperationResult } from '../../../shared/router';
import { Checker } from '../../../shared/validate';
import type { PartnersContext } from '../../transport';
import { unwrap } from '../../transport';
import { planLocator } from '../common.descriptions';
import { idInto } from '../ids';

// The service toggles the plan between activated and deactivated; the answer carries the new status.
export const description: INodeProperties[] = updateDisplayOptions(
	{ show: { resource: ['plan'], operation: ['changeStatus'] } },
	[planLocator('The plan to activate or deactivate (the service switches it to the other state)')],
);

/** Checks every item before the first request (see shared/router.ts): a bad plan ID stops the batch with nothing sent. */
export function validate(this: IExecuteFunctions, _ctx: PartnersContext, i: number): string {
	const check = new Checker();
	const uuid = idInto.call(this, check, 'plan', i);
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
	return unwrap(await ctx.api.write(path`/v1/products/${uuid}/change-status`, i));
}
