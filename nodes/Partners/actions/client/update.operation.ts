import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';
import { path } from '../../../shared/path';
import type { OperationResult } from '../../../shared/router';
import { Checker } from '../../../shared/validate';
import type { PartnersContext } from '../../transport';
import { unwrap } from '../../transport';
import { clientLocator } from '../common.descriptions';
import { idInto } from '../ids';
import {
	invoiceUseField,
	legalNameField,
	postalCodeField,
	taxIdField,
	taxRegimeField,
} from './fields';
import { checkClientData, withWarnings } from './taxData';

const CLIENT_KEYS = ['name', 'email'];

export const description: INodeProperties[] = updateDisplayOptions(
	{ show: { resource: ['client'], operation: ['update'] } },
	[
		clientLocator,
		{
			displayName: 'Update Fields',
			name: 'updateFields',
			type: 'collection',
			placeholder: 'Add Field',
			default: {},
			options: [
				{
					displayName: 'Additional Email',
					name: 'additional_email',
					type: 'string',
					placeholder: 'name@email.com',
					default: '',
					description: 'Second address that receives the tax documents',
				},
				{ displayName: 'Address', name: 'address', type: 'string', default: '' },
				{ displayName: 'City', name: 'city', type: 'string', default: '' },
				{ displayName: 'Country', name: 'country', type: 'string', default: '' },
				{
					displayName: 'Email',
					name: 'email',
					type: 'string',
					placeholder: 'name@email.com',
					default: '',
				},
				invoiceUseField,
				legalNameField,
				{
					displayName: 'Name',
					name: 'name',
					type: 'string',
					default: '',
					description: 'Name of the client account',
				},
				{
					displayName: 'Neighborhood',
					name: 'neighborhood',
					type: 'string',
					default: '',
					description: 'Colonia',
				},
				postalCodeField,
				taxIdField,
				taxRegimeField,
				{ displayName: 'State', name: 'state', type: 'string', default: '' },
			],
		},
	],
);

/** What Update sends, checked, and the checks' warnings. */
interface CheckedUpdate {
	uuid: string;
	body: IDataObject;
	warnings: string[];
}

/** Checks every item before the first request (see shared/router.ts): the client ID and every field, in one error. */
export function validate(this: IExecuteFunctions, _ctx: PartnersContext, i: number): CheckedUpdate {
	const check = new Checker();
	const uuid = idInto.call(this, check, 'client', i);
	const fields = this.getNodeParameter('updateFields', i, {}) as IDataObject;
	const client: IDataObject = {};
	const tax: IDataObject = {};
	for (const [key, value] of Object.entries(fields))
		(CLIENT_KEYS.includes(key) ? client : tax)[key] =
			typeof value === 'string' ? value.trim() : value;
	if (Object.keys(fields).length === 0)
		check.fail('updateFields', 'add at least one field to update');
	checkClientData(check, client, tax, false);
	check.throwIfFailed(this.getNode(), i);

	const body: IDataObject = {};
	if (Object.keys(client).length) body.client = client;
	if (Object.keys(tax).length) body.tax_information = tax;
	return { uuid, body, warnings: check.warnings };
}

export async function execute(
	this: IExecuteFunctions,
	ctx: PartnersContext,
	i: number,
	checked?: CheckedUpdate,
): Promise<OperationResult> {
	const { uuid, body, warnings } = checked ?? validate.call(this, ctx, i);
	const answer = await ctx.api.write(path`/v1/clients/${uuid}`, i, { method: 'PATCH', body });
	return withWarnings(unwrap(answer), warnings);
}
