import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';
import { path } from '../../../shared/path';
import { concurrencyOption, type OperationResult } from '../../../shared/router';
import type { PartnersContext } from '../../transport';
import { unwrap } from '../../transport';
import { planLocator } from '../common.descriptions';
import { requireId } from '../ids';

export const kind = 'read';

export const description: INodeProperties[] = updateDisplayOptions(
	{ show: { resource: ['plan'], operation: ['get'] } },
	[
		planLocator('The plan to get'),
		{
			displayName: 'Options',
			name: 'options',
			type: 'collection',
			placeholder: 'Add Option',
			default: {},
			options: [concurrencyOption],
		},
	],
);

export async function execute(
	this: IExecuteFunctions,
	ctx: PartnersContext,
	i: number,
): Promise<OperationResult> {
	const uuid = requireId.call(this, 'plan', i);
	return unwrap(await ctx.api.read(path`/v1/products/${uuid}`, i));
}
