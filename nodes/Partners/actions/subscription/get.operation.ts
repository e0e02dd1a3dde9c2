import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';
import { path } from '../../../shared/path';
import { concurrencyOption, type OperationResult } from '../../../shared/router';
import type { PartnersContext } from '../../transport';
import { unwrap } from '../../transport';
import { subscriptionLocator } from '../common.descriptions';
import { requireId } from '../ids';

export const kind = 'read';

export const description: INodeProperties[] = updateDisplayOptions(
	{ show: { resource: ['subscription'], operation: ['get'] } },
	[
		subscriptionLocator,
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
	const uuid = requireId.call(this, 'subscription', i);
	return unwrap(await ctx.api.read(path`/v1/subscriptions/${uuid}`, i));
}
