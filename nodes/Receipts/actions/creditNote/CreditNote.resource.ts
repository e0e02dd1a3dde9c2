import type { INodeProperties } from 'n8n-workflow';
import * as get from './get.operation';
import * as issue from './issue.operation';
import * as issueFromXml from './issueFromXml.operation';
import * as reissue from './reissue.operation';

export { get, issue, issueFromXml, reissue };

/** Credit notes (/credit-notes): documented by the service publicly (Notas de crédito); the spec names them without their operations. */
export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['creditNote'] } },
		options: [
			{ name: 'Get', value: 'get', description: 'Get a credit note with its state and authorization', action: 'Get a credit note' },
			{ name: 'Issue', value: 'issue', description: 'Issue a credit note (POST /credit-notes/issue)', action: 'Issue a credit note' },
			{ name: 'Issue From XML', value: 'issueFromXml', description: 'Issue a credit note from its XML', action: 'Issue a credit note from XML' },
			{ name: 'Reissue', value: 'reissue', description: 'Send a corrected credit note for one in NO AUTORIZADO or DEVUELTO', action: 'Reissue a credit note' },
		],
		default: 'issue',
	},
	...get.description,
	...issue.description,
	...issueFromXml.description,
	...reissue.description,
];
