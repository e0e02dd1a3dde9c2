import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';
import { path } from '../../../shared/path';
import type { OperationResult } from '../../../shared/router';
import type { PartnersContext } from '../../transport';
import { unwrap } from '../../transport';
import { planInputFields } from '../common.descriptions';
import { readPlanInput } from './planInput';

export const description: INodeProperties[] = updateDisplayOptions(
	{ show: { resource: ['plan'], operation: ['create'] } },
	planInputFields,
);

/** Checks every item before the first request (see shared/router.ts): the body it returns is the one sent. */
export function validate(this: IExecuteFunctions, _ctx: PartnersContext, i: number): IDataObject {
	return readPlanInput.call(this, i);
}

export async function execute(
	this: IExecuteFunctions,
	ctx: PartnersContext,
	i: number,
	checked?: IDataObject,
): Promise<OperationResult> {
	const body = checked ?? validate.call(this, ctx, i);
	return unwrap(await ctx.api.write(path`/v1/products`, i, { body }));
}
