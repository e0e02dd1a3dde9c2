import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { numberOption } from '../../shared/options';

/** Pickers and field groups shared by several Partners operations. */

export const planLocator = (description = 'The plan to use'): INodeProperties => ({
	displayName: 'Plan',
	name: 'plan',
	type: 'resourceLocator',
	default: { mode: 'list', value: '' },
	required: true,
	description,
	modes: [
		{
			displayName: 'From List',
			name: 'list',
			type: 'list',
			typeOptions: { searchListMethod: 'searchPlans', searchable: true },
		},
		{
			displayName: 'By ID',
			name: 'id',
			type: 'string',
			placeholder: 'e.g. 5f0c6a8e-1b2c-4d3e-8f90-a1b2c3d4e5f6',
		},
	],
});

export const clientLocator: INodeProperties = {
	displayName: 'Client',
	name: 'client',
	type: 'resourceLocator',
	default: { mode: 'list', value: '' },
	required: true,
	modes: [
		{
			displayName: 'From List',
			name: 'list',
			type: 'list',
			typeOptions: { searchListMethod: 'searchClients', searchable: true },
		},
		{
			displayName: 'By ID',
			name: 'id',
			type: 'string',
			placeholder: 'e.g. 5f0c6a8e-1b2c-4d3e-8f90-a1b2c3d4e5f6',
		},
	],
};

export const subscriptionLocator: INodeProperties = {
	displayName: 'Subscription',
	name: 'subscription',
	type: 'resourceLocator',
	default: { mode: 'list', value: '' },
	required: true,
	modes: [
		{
			displayName: 'From List',
			name: 'list',
			type: 'list',
			typeOptions: { searchListMethod: 'searchSubscriptions', searchable: true },
		},
		{
			displayName: 'By ID',
			name: 'id',
			type: 'string',
			placeholder: 'e.g. 5f0c6a8e-1b2c-4d3e-8f90-a1b2c3d4e5f6',
		},
	],
};

const limitField: INodeProperties = {
	displayName: 'Limit',
	name: 'limit',
	type: 'number',
	typeOptions: { minValue: 1, numberPrecision: 0 },
	default: 50,
	description: 'Max number of results to return',
	displayOptions: { show: { returnAll: [false] } },
};

export const returnAllAndLimit: INodeProperties[] = [
	{
		displayName: 'Return All',
		name: 'returnAll',
		type: 'boolean',
		default: false,
		description: 'Whether to return all results or only up to a given limit',
	},
	limitField,
];

/** How many results item `i` asks for: everything with Return All, else its Limit (a whole number ≥ 1). */
export function readLimit(this: IExecuteFunctions, i: number): number {
	return this.getNodeParameter('returnAll', i) === true
		? Infinity
		: numberOption.call(this, limitField, i);
}

/** Plan input (create and update): name, vigencies, services. */
export const planInputFields: INodeProperties[] = [
	{
		displayName: 'Name',
		name: 'name',
		type: 'string',
		default: '',
		required: true,
		description: 'Name of the plan',
	},
	{
		displayName: 'Vigencies',
		name: 'vigencies',
		type: 'fixedCollection',
		typeOptions: { multipleValues: true },
		placeholder: 'Add Vigency',
		default: {},
		required: true,
		description: 'Validity periods the plan is sold with: folios included and price of each',
		options: [
			{
				displayName: 'Vigency',
				name: 'vigency',
				values: [
					{
						displayName: 'Period',
						name: 'vigency',
						type: 'options',
						default: 'Mensual',
						options: [
							{ name: 'Half-Yearly (Semestral)', value: 'Semestral' },
							{ name: 'Monthly (Mensual)', value: 'Mensual' },
							{ name: 'No Periodicity (SP)', value: 'SP' },
							{ name: 'Quarterly (Trimestral)', value: 'Trimestral' },
							{ name: 'Yearly (Anual)', value: 'Anual' },
						],
					},
					{
						displayName: 'Folios',
						name: 'folios',
						type: 'number',
						typeOptions: { minValue: 0, numberPrecision: 0 },
						default: 0,
						description: 'Number of folios (stamped documents) included',
					},
					{
						displayName: 'Price',
						name: 'price',
						type: 'number',
						typeOptions: { minValue: 0, numberPrecision: 2 },
						default: 0,
					},
				],
			},
		],
	},
	{
		displayName: 'Services',
		name: 'services',
		type: 'collection',
		placeholder: 'Add Service',
		default: {},
		description: 'Service switches of the plan',
		options: [
			{
				displayName: 'API',
				name: 'api',
				type: 'boolean',
				default: false,
				description: 'Whether the plan includes API access',
			},
			{
				displayName: 'Auto Invoice',
				name: 'auto_invoice',
				type: 'boolean',
				default: false,
				description: 'Whether customers of the client can invoice themselves (auto-facturación)',
			},
			{
				displayName: 'Custom Email',
				name: 'custom_email',
				type: 'boolean',
				default: false,
				description: 'Whether invoices can be sent from a custom e-mail address',
			},
			{
				displayName: 'Extra RFCs',
				name: 'extra_rfc',
				type: 'number',
				typeOptions: { minValue: 0, numberPrecision: 0 },
				default: 0,
				description: 'Additional RFCs (tax IDs) allowed',
			},
			{
				displayName: 'Extra Users',
				name: 'extra_user',
				type: 'number',
				typeOptions: { minValue: 0, numberPrecision: 0 },
				default: 0,
				description: 'Additional users allowed',
			},
			{
				displayName: 'Invoices Migrator',
				name: 'invoices_migrator',
				type: 'boolean',
				default: false,
				description: 'Whether the invoice migration tool is included',
			},
			{
				displayName: 'PDF Templates',
				name: 'pdf_templates',
				type: 'string',
				default: '',
				description: 'Template names, separated by commas',
			},
			{
				displayName: 'SMTP Mail',
				name: 'smtp_mail',
				type: 'boolean',
				default: false,
				description: 'Whether the client can send e-mail through their own SMTP server',
			},
		],
	},
];
