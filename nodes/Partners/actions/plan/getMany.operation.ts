import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';
import { concurrencyOption, type OperationResult } from '../../../shared/router';
import type { PartnersContext, ProductPage } from '../../transport';
import { readLimit, returnAllAndLimit } from '../common.descriptions';

export const kind = 'read';

export const description: INodeProperties[] = updateDisplayOptions({ show: { resource: ['plan'], operation: ['getMany'] } }, [
	...returnAllAndLimit,
	{
		displayName: 'Filters',
		name: 'filters',
		type: 'collection',
		placeholder: 'Add Filter',
		default: {},
		options: [{ displayName: 'Search', name: 'search', type: 'string', default: '', description: 'Only plans whose name contains this text' }],
	},
	{ displayName: 'Options', name: 'options', type: 'collection', placeholder: 'Add Option', default: {}, options: [concurrencyOption] },
]);

/** Walks the pages (`page` = 1, 2, … until `lastPage`) and stops as soon as the limit is reached. */
export async function execute(this: IExecuteFunctions, ctx: PartnersContext, i: number): Promise<OperationResult> {
	const limit = readLimit.call(this, i);
	const search = (this.getNodeParameter('filters.search', i, '') as string).trim();
	const plans: IDataObject[] = [];
	for (let page = 1; plans.length < limit; page++) {
		const qs: IDataObject = { page };
		if (search) qs.search = search;
		const answer = await ctx.api.request<ProductPage>({ method: 'GET', path: '/v1/products', qs }, i);
		const products = answer.data?.products ?? [];
		plans.push(...products);
		const { currentPage = page, lastPage = page } = answer.data?.pagination ?? {};
		if (products.length === 0 || currentPage >= lastPage) break;
	}
	return plans.slice(0, limit);
}
