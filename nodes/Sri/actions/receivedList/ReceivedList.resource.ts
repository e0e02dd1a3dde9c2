import type { INodeProperties } from 'n8n-workflow';
import * as read from './read.operation';

export { read };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['receivedList'] } },
		options: [
			{
				name: 'Read',
				value: 'read',
				description:
					'Read the .txt file SRI en línea downloads of the receipts issued to you: one item per receipt (access key, issuer, type, number, dates), for Check Authorization to fetch each one. Nothing is sent.',
				action: 'Read the SRI list of received receipts',
			},
		],
		default: 'read',
	},
	...read.description,
];
