import type { INodeProperties } from 'n8n-workflow';
import * as authorize from './authorize.operation';
import * as download from './download.operation';
import { getReceipt } from '../receipt/get.operation';
import * as sendEmail from './sendEmail.operation';

export { authorize, download, sendEmail };

/** Document → Get: `GET /edocs/{id}` (receipts service), any receipt kind; the same operation as each kind's Get. */
export const get = getReceipt('document', '/edocs', 'receipt (any kind)');

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['document'] } },
		options: [
			{
				name: 'Authorize',
				value: 'authorize',
				description:
					'Sign a receipt of any kind and send it for authorization (POST /edocs/{ID}/issue)',
				action: 'Authorize a receipt',
			},
			{
				name: 'Download',
				value: 'download',
				description: 'Download the printable form (RIDE, PDF) or the XML of a receipt of any kind',
				action: 'Download a receipt file',
			},
			{
				name: 'Get',
				value: 'get',
				description: 'Get the state and authorization of a receipt of any kind',
				action: 'Get a receipt',
			},
			{
				name: 'Send by Email',
				value: 'sendEmail',
				description:
					'Email a receipt of any kind to its buyer or to chosen addresses (POST /edocs/send-email/{ID})',
				action: 'Send a receipt by email',
			},
		],
		default: 'get',
	},
	...authorize.description,
	...download.description,
	...get.description,
	...sendEmail.description,
];
