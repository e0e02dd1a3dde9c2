import type { INodeProperties } from 'n8n-workflow';
import * as issue from './issue.operation';
import * as issueFromXml from './issueFromXml.operation';
import * as preview from './preview.operation';
import * as reissue from './reissue.operation';

export { issue, issueFromXml, preview, reissue };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['retention'] } },
		options: [
			{
				name: 'Issue',
				value: 'issue',
				description: 'Issue a retention receipt (POST /retentions/issue)',
				action: 'Issue a retention',
			},
			{
				name: 'Issue From XML',
				value: 'issueFromXml',
				description: 'Issue a retention from its XML',
				action: 'Issue a retention from XML',
			},
			{
				name: 'Preview',
				value: 'preview',
				description:
					'Compute and check a retention; output the exact body Issue would send, sending nothing',
				action: 'Preview a retention',
			},
			{
				name: 'Reissue',
				value: 'reissue',
				description: 'Send a corrected retention for one in NO AUTORIZADO or DEVUELTO',
				action: 'Reissue a retention',
			},
		],
		default: 'issue',
	},
	...issue.description,
	...issueFromXml.description,
	...preview.description,
	...reissue.description,
];
