import type { INodeProperties } from 'n8n-workflow';

export const clientIdsField: INodeProperties = {
	displayName: 'Client Names or IDs',
	name: 'clientIds',
	type: 'multiOptions',
	typeOptions: { loadOptionsMethod: 'getClients' },
	default: [],
	required: true,
	description:
		'Choose from the list, or specify IDs using an <a href="https://docs.n8n.io/code/expressions/">expression</a>',
	hint: 'Clients to change in one request. An expression may give a list or comma-separated text.',
};
