import type { INodeProperties } from 'n8n-workflow';
import * as authorize from './authorize.operation';
import * as get from './get.operation';

export { authorize, get };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['document'] } },
		options: [
			{ name: 'Authorize', value: 'authorize', description: 'Sign a receipt of any kind and send it for authorization (POST /edocs/{ID}/issue)', action: 'Authorize a receipt' },
			{ name: 'Get', value: 'get', description: 'Get the state and authorization of a receipt of any kind', action: 'Get a receipt' },
		],
		default: 'get',
	},
	...authorize.description,
	...get.description,
];
