import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';
import { path } from '../../../shared/path';
import type { OperationResult } from '../../../shared/router';
import type { PartnersContext } from '../../transport';
import { readIdList } from '../ids';
import { clientIdsField } from './clientIds';

export const description: INodeProperties[] = updateDisplayOptions(
	{ show: { resource: ['client'], operation: ['suspend'] } },
	[
		clientIdsField,
		{
			displayName: 'Options',
			name: 'options',
			type: 'collection',
			placeholder: 'Add Option',
			default: {},
			options: [
				{
					displayName: 'Keep Folios',
					name: 'keep_folios',
					type: 'boolean',
					default: false,
					description: 'Whether the clients keep their available folios while suspended',
				},
				{
					displayName: 'Message',
					name: 'message',
					type: 'string',
					typeOptions: { rows: 3 },
					default: '',
					description: 'Message delivered to the suspended clients',
				},
			],
		},
	],
);

/** Checks every item before the first request (see shared/router.ts): one bad list stops the batch with nothing sent. */
export function validate(this: IExecuteFunctions, _ctx: PartnersContext, i: number): void {
	readIdList.call(this, 'clientIds', i, { agentLimit: true });
}

export async function execute(
	this: IExecuteFunctions,
	ctx: PartnersContext,
	i: number,
): Promise<OperationResult> {
	const uuids = readIdList.call(this, 'clientIds', i, { agentLimit: true });
	const options = this.getNodeParameter('options', i, {}) as IDataObject;
	const body: IDataObject = { uuids };
	if (typeof options.message === 'string' && options.message.trim()) body.message = options.message;
	if (options.keep_folios !== undefined) body.keep_folios = options.keep_folios === true;
	// Not re-sent after a 5xx or a broken connection: the service delivers `message` to the clients, and a
	// second request could deliver it twice.
	const answer = await ctx.api.write(path`/v1/clients/suspend`, i, { body });
	return { suspended: uuids, ...answer };
}
