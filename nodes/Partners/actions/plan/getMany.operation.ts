import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';
import { concurrencyOption, type OperationResult } from '../../../shared/router';
import { readPlans, type PartnersContext } from '../../transport';
import { readLimit, returnAllAndLimit } from '../common.descriptions';

export const kind = 'read';

export const description: INodeProperties[] = updateDisplayOptions(
	{ show: { resource: ['plan'], operation: ['getMany'] } },
	[
		...returnAllAndLimit,
		{
			displayName: 'Filters',
			name: 'filters',
			type: 'collection',
			placeholder: 'Add Filter',
			default: {},
			options: [
				{
					displayName: 'Search',
					name: 'search',
					type: 'string',
					default: '',
					description: 'Only plans whose name contains this text',
				},
			],
		},
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

/**
 * Walks the pages (`page` = 1, 2, … until `lastPage`) and stops as soon as the limit is reached; a service that
 * does not advance, or more than MAX_PAGES pages, stop it with an error (transport.ts, readPlans).
 */
export async function execute(
	this: IExecuteFunctions,
	ctx: PartnersContext,
	i: number,
): Promise<OperationResult> {
	const limit = readLimit.call(this, i);
	const search = String(this.getNodeParameter('filters.search', i, '') ?? '').trim();
	const plans = await readPlans(ctx.api, search, i, (count) => count >= limit);
	return plans.slice(0, limit);
}
