import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';
import { path } from '../../../shared/path';
import type { OperationResult } from '../../../shared/router';
import { Checker } from '../../../shared/validate';
import type { PartnersContext } from '../../transport';
import { unwrap } from '../../transport';
import { planInputFields, planLocator } from '../common.descriptions';
import { idInto } from '../ids';
import { readPlanInput } from './planInput';

// The service replaces the plan with the input (name, vigencies and services are all required), so the
// fields are the same as when creating one.
export const description: INodeProperties[] = updateDisplayOptions(
	{ show: { resource: ['plan'], operation: ['update'] } },
	[planLocator('The plan to update'), ...planInputFields],
);

/** Checks every item before the first request (see shared/router.ts): the plan ID and its input, in one error. */
export function validate(
	this: IExecuteFunctions,
	_ctx: PartnersContext,
	i: number,
): { uuid: string; body: IDataObject } {
	const check = new Checker();
	const uuid = idInto.call(this, check, 'plan', i);
	return { uuid, body: readPlanInput.call(this, i, check) };
}

export async function execute(
	this: IExecuteFunctions,
	ctx: PartnersContext,
	i: number,
	checked?: { uuid: string; body: IDataObject },
): Promise<OperationResult> {
	const { uuid, body } = checked ?? validate.call(this, ctx, i);
	return unwrap(await ctx.api.write(path`/v1/products/${uuid}`, i, { method: 'PATCH', body }));
}
