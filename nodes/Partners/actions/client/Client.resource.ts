import type { INodeProperties } from 'n8n-workflow';
import * as create from './create.operation';
import * as getMany from './getMany.operation';
import * as reactivate from './reactivate.operation';
import * as resendCredentials from './resendCredentials.operation';
import * as suspend from './suspend.operation';
import * as update from './update.operation';

export { create, getMany, reactivate, resendCredentials, suspend, update };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['client'] } },
		options: [
			{
				name: 'Create',
				value: 'create',
				description: 'Create a client account with its tax data and plan',
				action: 'Create a client',
			},
			{
				name: 'Get Many',
				value: 'getMany',
				description: 'Get many clients',
				action: 'Get many clients',
			},
			{
				name: 'Reactivate',
				value: 'reactivate',
				description: 'Reactivate suspended clients',
				action: 'Reactivate a client',
			},
			{
				name: 'Resend Credentials',
				value: 'resendCredentials',
				description: 'E-mail the account access credentials again',
				action: 'Resend the credentials of a client',
			},
			{
				name: 'Suspend',
				value: 'suspend',
				description: 'Suspend one or more clients',
				action: 'Suspend a client',
			},
			{
				name: 'Update',
				value: 'update',
				description: 'Update the data or tax data of a client',
				action: 'Update a client',
			},
		],
		default: 'create',
	},
	...create.description,
	...getMany.description,
	...reactivate.description,
	...resendCredentials.description,
	...suspend.description,
	...update.description,
];
