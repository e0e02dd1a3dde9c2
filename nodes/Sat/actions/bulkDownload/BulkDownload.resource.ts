import type { INodeProperties } from 'n8n-workflow';
import * as checkRequest from './checkRequest.operation';
import * as download from './download.operation';
import * as request from './request.operation';

export { checkRequest, download, request };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['bulkDownload'] } },
		options: [
			{
				name: 'Check Request',
				value: 'checkRequest',
				description:
					'Ask the SAT whether a request is finished, and which packages it has (for a Wait loop)',
				action: 'Check a bulk download request with the SAT',
			},
			{
				name: 'Download',
				value: 'download',
				description:
					'Download the packages of a finished request: an item per CFDI (its XML) or per metadata row',
				action: 'Download bulk download packages from the SAT',
			},
			{
				name: 'Request',
				value: 'request',
				description:
					'Ask the SAT for the CFDIs issued or received in a period (XML or metadata), or one by UUID',
				action: 'Request a bulk download from the SAT',
			},
		],
		default: 'request',
	},
	...request.description,
	...checkRequest.description,
	...download.description,
];
