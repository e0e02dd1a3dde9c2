import type { INodeProperties } from 'n8n-workflow';

interface Described {
	description: INodeProperties[];
}

/**
 * The Operation selector and the operations' fields of a receipt kind that has Get, Issue, Issue From XML and
 * Reissue (invoices, credit notes, debit notes). `a`: the kind with its article ("an invoice").
 */
export function receiptKindDescription(
	resource: string,
	words: { a: string; name: string; base: string },
	ops: {
		get: Described;
		issue: Described;
		issueFromXml: Described;
		preview: Described;
		reissue: Described;
	},
): INodeProperties[] {
	const { a, name, base } = words;
	return [
		{
			displayName: 'Operation',
			name: 'operation',
			type: 'options',
			noDataExpression: true,
			displayOptions: { show: { resource: [resource] } },
			options: [
				{
					name: 'Get',
					value: 'get',
					description: `Get ${a} with its state and authorization`,
					action: `Get ${a}`,
				},
				{
					name: 'Issue',
					value: 'issue',
					description: `Issue ${a} (POST ${base}/issue)`,
					action: `Issue ${a}`,
				},
				{
					name: 'Issue From XML',
					value: 'issueFromXml',
					description: `Issue ${a} from its XML`,
					action: `Issue ${a} from XML`,
				},
				{
					name: 'Preview',
					value: 'preview',
					description: `Compute and check ${a}; output the exact body Issue would send, sending nothing`,
					action: `Preview ${a}`,
				},
				{
					name: 'Reissue',
					value: 'reissue',
					description: `Send a corrected ${name} for one in NO AUTORIZADO or DEVUELTO`,
					action: `Reissue ${a}`,
				},
			],
			default: 'issue',
		},
		...ops.get.description,
		...ops.issue.description,
		...ops.issueFromXml.description,
		...ops.preview.description,
		...ops.reissue.description,
	];
}
