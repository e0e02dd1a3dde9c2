import type { INodeProperties } from 'n8n-workflow';
import * as checkStatus from './checkStatus.operation';
import * as readXml from './readXml.operation';

export { checkStatus, readXml };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['cfdi'] } },
		options: [
			{
				name: 'Check CFDI Status',
				value: 'checkStatus',
				description:
					'Ask the SAT whether a CFDI is valid (vigente) or cancelled, from its data or its XML',
				action: 'Check a CFDI status with the SAT',
			},
			{
				name: 'Read CFDI XML',
				value: 'readXml',
				description:
					"Turn a CFDI's XML into a summary, its conceptos and JSON, with warnings; nothing is sent",
				action: 'Read a CFDI XML',
			},
		],
		default: 'checkStatus',
	},
	...checkStatus.description,
	...readXml.description,
];
