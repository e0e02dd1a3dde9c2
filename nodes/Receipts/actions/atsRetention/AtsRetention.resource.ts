import type { INodeProperties } from 'n8n-workflow';
import * as get from './get.operation';
import * as issue from './issue.operation';
import * as issueFromXml from './issueFromXml.operation';
import * as preview from './preview.operation';

export { get, issue, issueFromXml, preview };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['atsRetention'] } },
		options: [
			{
				name: 'Get',
				value: 'get',
				description: 'Get an ATS retention with its state and authorization',
				action: 'Get an ATS retention',
			},
			{
				name: 'Issue',
				value: 'issue',
				description: 'Issue an ATS retention (POST /ats-retentions/issue)',
				action: 'Issue an ATS retention',
			},
			{
				name: 'Issue From XML',
				value: 'issueFromXml',
				description: 'Issue an ATS retention from its XML',
				action: 'Issue an ATS retention from XML',
			},
			{
				name: 'Preview',
				value: 'preview',
				description:
					'Compute and check an ATS retention; output the exact body Issue would send, sending nothing',
				action: 'Preview an ATS retention',
			},
		],
		default: 'issue',
	},
	...get.description,
	...issue.description,
	...issueFromXml.description,
	...preview.description,
];
