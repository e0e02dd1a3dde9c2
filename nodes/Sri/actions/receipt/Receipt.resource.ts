import type { INodeProperties } from 'n8n-workflow';
import * as checkAuthorization from './checkAuthorization.operation';
import * as readXml from './readXml.operation';

export { checkAuthorization, readXml };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['receipt'] } },
		options: [
			{
				name: 'Check Authorization',
				value: 'checkAuthorization',
				description:
					"Ask the SRI whether a receipt is authorized, by its access key, and read the receipt from the SRI's answer",
				action: 'Check the authorization of a receipt',
			},
			{
				name: 'Read XML',
				value: 'readXml',
				description:
					'Read a receipt XML or its authorization file (an e-mail attachment, a downloaded file): nothing is sent',
				action: 'Read a receipt XML',
			},
		],
		default: 'checkAuthorization',
	},
	...checkAuthorization.description,
	...readXml.description,
];
