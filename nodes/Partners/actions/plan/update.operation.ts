import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';
import { path } from '../../../shared/path';
import type { OperationResult } from '../../../shared/router';
import type { PartnersContext } from '../../transport';
import { unwrap } from '../../transport';
import { planInputFields, planLocator } from '../common.descriptions';
import { requireId } from '../ids';
import { readPlanInput } from './planInput';

// The service replaces the plan with the input (name, vigencies and services are all required), so the
// fields are the same as when creating one.
export const description: INodeProperties[] = updateDisplayOptions(
	{ show: { resource: ['plan'], operation: ['update'] } },
	[planLocator('The plan to update'), ...planInputFields],
);

export async function execute(
	this: IExecuteFunctions,
	ctx: PartnersContext,
	i: number,
): Promise<OperationResult> {
	const uuid = requireId.call(this, 'plan', i);
	const body = readPlanInput.call(this, i);
	return unwrap(await ctx.api.write(path`/v1/products/${uuid}`, i, { method: 'PATCH', body }));
}
