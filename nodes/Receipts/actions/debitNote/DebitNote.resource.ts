import type { INodeProperties } from 'n8n-workflow';
import * as get from './get.operation';
import * as issue from './issue.operation';
import * as issueFromXml from './issueFromXml.operation';
import * as reissue from './reissue.operation';

export { get, issue, issueFromXml, reissue };

/** Debit notes (/debit-notes): documented by the service publicly (Notas de débito); the spec names them without their operations. */
export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['debitNote'] } },
		options: [
			{ name: 'Get', value: 'get', description: 'Get a debit note with its state and authorization', action: 'Get a debit note' },
			{ name: 'Issue', value: 'issue', description: 'Issue a debit note (POST /debit-notes/issue)', action: 'Issue a debit note' },
			{ name: 'Issue From XML', value: 'issueFromXml', description: 'Issue a debit note from its XML', action: 'Issue a debit note from XML' },
			{ name: 'Reissue', value: 'reissue', description: 'Send a corrected debit note for one in NO AUTORIZADO or DEVUELTO', action: 'Reissue a debit note' },
		],
		default: 'issue',
	},
	...get.description,
	...issue.description,
	...issueFromXml.description,
	...reissue.description,
];
