import type { INodeProperties } from 'n8n-workflow';
import * as subscribe from './subscribe.operation';

export { subscribe };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['webhook'] } },
		options: [
			{
				name: 'Subscribe',
				value: 'subscribe',
				description: 'Subscribe a URL to receipt events (POST /webhooks)',
				action: 'Subscribe to a receipt event',
			},
		],
		default: 'subscribe',
	},
	...subscribe.description,
];
