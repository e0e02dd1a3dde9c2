import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';
import { keptSize } from '../../../shared/budget';
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

/** How to ask Plan → Get Many for less (shared/budget.ts). */
export const narrow =
	'Read fewer plans: use Filters → Search, or turn off Return All and set a Limit';

/**
 * Walks the pages (`page` = 1, 2, … until `lastPage`) and stops as soon as the limit is reached; a service that
 * does not advance, or more than MAX_PAGES pages, stop it with an error (transport.ts, readPlans), and so does
 * a run that would keep more memory than it may (each page is counted as it is kept: shared/budget.ts).
 */
export async function execute(
	this: IExecuteFunctions,
	ctx: PartnersContext,
	i: number,
): Promise<OperationResult> {
	const limit = readLimit.call(this, i);
	const search = String(this.getNodeParameter('filters.search', i, '') ?? '').trim();
	const plans = await readPlans(
		ctx.api,
		search,
		i,
		(count) => count >= limit,
		(page) => ctx.kept?.keep(i, keptSize(page), page.length, 'Plan → Get Many', narrow),
	);
	return plans.slice(0, limit);
}
