import type { IExecuteFunctions } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';
import type { ApiPath } from '../../shared/path';
import { concurrencyOption, type ReadModule } from '../../shared/router';
import type { PartnersContext } from '../transport';
import { listIn } from '../transport';
import { readLimit, returnAllAndLimit } from './common.descriptions';

/**
 * Get Many for the client and subscription lists: the spec shows no paging or filter parameters and no
 * answer shape, so one GET is made, the first list found in the answer becomes the output items, and
 * Limit is applied here.
 */
export function listOperation(
	resource: string,
	path: ApiPath,
	listKey: string,
): ReadModule<PartnersContext> {
	return {
		kind: 'read',
		narrow: 'Turn off Return All and set a Limit',
		description: updateDisplayOptions({ show: { resource: [resource], operation: ['getMany'] } }, [
			...returnAllAndLimit,
			{
				displayName: 'Options',
				name: 'options',
				type: 'collection',
				placeholder: 'Add Option',
				default: {},
				options: [concurrencyOption],
			},
		]),
		async execute(this: IExecuteFunctions, ctx: PartnersContext, i: number) {
			const limit = readLimit.call(this, i);
			const list = listIn(await ctx.api.read<unknown>(path, i), [listKey]);
			return list.slice(0, limit);
		},
	};
}
