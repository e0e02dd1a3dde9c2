import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';
import { path } from '../../../shared/path';
import type { OperationResult } from '../../../shared/router';
import type { PartnersContext } from '../../transport';
import { unwrap } from '../../transport';
import { planLocator } from '../common.descriptions';
import { requireId } from '../ids';

// The service toggles the plan between activated and deactivated; the answer carries the new status.
export const description: INodeProperties[] = updateDisplayOptions(
	{ show: { resource: ['plan'], operation: ['changeStatus'] } },
	[planLocator('The plan to activate or deactivate (the service switches it to the other state)')],
);

export async function execute(
	this: IExecuteFunctions,
	ctx: PartnersContext,
	i: number,
): Promise<OperationResult> {
	const uuid = requireId.call(this, 'plan', i);
	return unwrap(await ctx.api.write(path`/v1/products/${uuid}/change-status`, i));
}
