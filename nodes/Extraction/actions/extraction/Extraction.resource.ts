import type { INodeProperties } from 'n8n-workflow';
import * as create from './create.operation';
import * as downloadDocument from './downloadDocument.operation';
import * as get from './get.operation';

export { create, downloadDocument, get };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['extraction'] } },
		options: [
			{
				name: 'Create',
				value: 'create',
				description: 'Start extracting documents from the SAT',
				action: 'Create an extraction',
			},
			{
				name: 'Download Document',
				value: 'downloadDocument',
				description: 'Download one document as XML or PDF',
				action: 'Download a document',
			},
			{
				name: 'Get',
				value: 'get',
				description: 'Get the progress of an extraction',
				action: 'Get an extraction',
			},
		],
		default: 'create',
	},
	...create.description,
	...downloadDocument.description,
	...get.description,
];
