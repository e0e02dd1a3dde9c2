import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
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

export async function execute(
	this: IExecuteFunctions,
	ctx: PartnersContext,
	i: number,
): Promise<OperationResult> {
	const body = readPlanInput.call(this, i);
	return unwrap(await ctx.api.write(path`/v1/products`, i, { body }));
}
