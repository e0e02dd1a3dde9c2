import type { INodeProperties } from 'n8n-workflow';
import * as get from './get.operation';
import * as issue from './issue.operation';
import * as issueFromXml from './issueFromXml.operation';
import * as preview from './preview.operation';
import * as reissue from './reissue.operation';

export { get, issue, issueFromXml, preview, reissue };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['waybill'] } },
		options: [
			{
				name: 'Get',
				value: 'get',
				description: 'Get a waybill with its state and authorization',
				action: 'Get a waybill',
			},
			{
				name: 'Issue',
				value: 'issue',
				description: 'Issue a waybill (POST /waybills/issue)',
				action: 'Issue a waybill',
			},
			{
				name: 'Issue From XML',
				value: 'issueFromXml',
				description: 'Issue a waybill from its XML',
				action: 'Issue a waybill from XML',
			},
			{
				name: 'Preview',
				value: 'preview',
				description:
					'Compute and check a waybill; output the exact body Issue would send, sending nothing',
				action: 'Preview a waybill',
			},
			{
				name: 'Reissue',
				value: 'reissue',
				description: 'Send a corrected waybill for one in NO AUTORIZADO or DEVUELTO',
				action: 'Reissue a waybill',
			},
		],
		default: 'issue',
	},
	...get.description,
	...issue.description,
	...issueFromXml.description,
	...preview.description,
	...reissue.description,
];
