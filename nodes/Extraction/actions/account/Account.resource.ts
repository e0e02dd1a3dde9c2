import type { INodeProperties } from 'n8n-workflow';
import * as verifyApiKey from './verifyApiKey.operation';

export { verifyApiKey };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['account'] } },
		options: [
			{
				name: 'Verify API Key',
				value: 'verifyApiKey',
				description: 'Check the API key: organization, permissions and rate limit',
				action: 'Verify the API key',
			},
		],
		default: 'verifyApiKey',
	},
	...verifyApiKey.description,
];
