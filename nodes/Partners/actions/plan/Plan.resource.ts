import type { INodeProperties } from 'n8n-workflow';
import * as changeStatus from './changeStatus.operation';
import * as create from './create.operation';
import * as del from './delete.operation';
import * as get from './get.operation';
import * as getMany from './getMany.operation';
import * as update from './update.operation';

export { changeStatus, create, del as delete, get, getMany, update };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['plan'] } },
		options: [
			{
				name: 'Change Status',
				value: 'changeStatus',
				description: 'Activate or deactivate a plan',
				action: 'Change the status of a plan',
			},
			{ name: 'Create', value: 'create', description: 'Create a plan', action: 'Create a plan' },
			{
				name: 'Delete',
				value: 'delete',
				description: 'Delete one or more plans',
				action: 'Delete a plan',
			},
			{ name: 'Get', value: 'get', description: 'Get a plan', action: 'Get a plan' },
			{
				name: 'Get Many',
				value: 'getMany',
				description: 'Get many plans',
				action: 'Get many plans',
			},
			{
				name: 'Update',
				value: 'update',
				description: 'Replace the data of a plan',
				action: 'Update a plan',
			},
		],
		default: 'getMany',
	},
	...changeStatus.description,
	...create.description,
	...del.description,
	...get.description,
	...getMany.description,
	...update.description,
];
