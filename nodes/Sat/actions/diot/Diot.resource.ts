import type { INodeProperties } from 'n8n-workflow';
import * as build from './build.operation';

export { build };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['diot'] } },
		options: [
			{
				name: 'Build DIOT File',
				value: 'build',
				description:
					"Turn the month's CFDIs (all input items) into one DIOT file for the SAT, on a cash basis, with a row per supplier; nothing is sent",
				action: 'Build the monthly DIOT file',
			},
		],
		default: 'build',
	},
	...build.description,
];
