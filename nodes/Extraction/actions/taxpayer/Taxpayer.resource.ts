import type { INodeProperties } from 'n8n-workflow';
import * as register from './register.operation';

export { register };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['taxpayer'] } },
		options: [
			{
				name: 'Register',
				value: 'register',
				description: 'Register a taxpayer (Ecuador)',
				action: 'Register a taxpayer',
			},
		],
		default: 'register',
	},
	...register.description,
];
