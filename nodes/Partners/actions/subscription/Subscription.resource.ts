import type { INodeProperties } from 'n8n-workflow';
import * as get from './get.operation';
import * as getMany from './getMany.operation';

export { get, getMany };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['subscription'] } },
		options: [
			{
				name: 'Get',
				value: 'get',
				description: 'Get a subscription with its dates and folio usage',
				action: 'Get a subscription',
			},
			{
				name: 'Get Many',
				value: 'getMany',
				description: 'Get many subscriptions',
				action: 'Get many subscriptions',
			},
		],
		default: 'getMany',
	},
	...get.description,
	...getMany.description,
];
