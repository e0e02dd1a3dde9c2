import type { INodeProperties } from 'n8n-workflow';
import * as build from './build.operation';

export { build };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['monthlyAnnex'] } },
		options: [
			{
				name: 'Build',
				value: 'build',
				description:
					'Build the ATS of a month (or semester) from its receipts, all input items together: one XML file for the SRI’s DIMM, and a summary to check',
				action: 'Build the ATS from a month of receipts',
			},
		],
		default: 'build',
	},
	...build.description,
];
