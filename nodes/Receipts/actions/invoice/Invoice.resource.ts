import type { INodeProperties } from 'n8n-workflow';
import * as get from './get.operation';
import * as issue from './issue.operation';
import * as issueFromXml from './issueFromXml.operation';
import * as reissue from './reissue.operation';

export { get, issue, issueFromXml, reissue };

/** Invoices (/invoices): documented by the service publicly (Facturas); the spec names them without their operations. */
export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['invoice'] } },
		options: [
			{ name: 'Get', value: 'get', description: 'Get an invoice with its state and authorization', action: 'Get an invoice' },
			{ name: 'Issue', value: 'issue', description: 'Issue an invoice (POST /invoices/issue)', action: 'Issue an invoice' },
			{ name: 'Issue From XML', value: 'issueFromXml', description: 'Issue an invoice from its XML', action: 'Issue an invoice from XML' },
			{ name: 'Reissue', value: 'reissue', description: 'Send a corrected invoice for one in NO AUTORIZADO or DEVUELTO', action: 'Reissue an invoice' },
		],
		default: 'issue',
	},
	...get.description,
	...issue.description,
	...issueFromXml.description,
	...reissue.description,
];
