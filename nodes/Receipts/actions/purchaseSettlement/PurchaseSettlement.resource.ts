import type { INodeProperties } from 'n8n-workflow';
import * as issue from './issue.operation';
import * as issueFromXml from './issueFromXml.operation';
import * as issueWithReimbursement from './issueWithReimbursement.operation';
import * as preview from './preview.operation';
import * as previewWithReimbursement from './previewWithReimbursement.operation';
import * as reissue from './reissue.operation';

export { issue, issueFromXml, issueWithReimbursement, preview, previewWithReimbursement, reissue };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['purchaseSettlement'] } },
		options: [
			{
				name: 'Issue',
				value: 'issue',
				description: 'Issue a purchase settlement (POST /purchase-settlements/issue)',
				action: 'Issue a purchase settlement',
			},
			{
				name: 'Issue From XML',
				value: 'issueFromXml',
				description: 'Issue a purchase settlement from its XML',
				action: 'Issue a purchase settlement from XML',
			},
			{
				name: 'Issue With Reimbursement',
				value: 'issueWithReimbursement',
				description: 'Issue a purchase settlement that reimburses expenses (reembolso required)',
				action: 'Issue a purchase settlement with reimbursement',
			},
			{
				name: 'Preview',
				value: 'preview',
				description:
					'Compute and check a purchase settlement; output the exact body Issue would send, sending nothing',
				action: 'Preview a purchase settlement',
			},
			{
				name: 'Preview With Reimbursement',
				value: 'previewWithReimbursement',
				description:
					'Compute and check a settlement that reimburses expenses; output the exact body Issue With Reimbursement would send, sending nothing',
				action: 'Preview a purchase settlement with reimbursement',
			},
			{
				name: 'Reissue',
				value: 'reissue',
				description: 'Send a corrected purchase settlement for one in NO AUTORIZADO or DEVUELTO',
				action: 'Reissue a purchase settlement',
			},
		],
		default: 'issue',
	},
	...issue.description,
	...issueFromXml.description,
	...issueWithReimbursement.description,
	...preview.description,
	...previewWithReimbursement.description,
	...reissue.description,
];
