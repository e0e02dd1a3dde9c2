import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';
import { path } from '../../../shared/path';
import type { OperationResult } from '../../../shared/router';
import { Checker } from '../../../shared/validate';
import type { PartnersContext } from '../../transport';
import { unwrap } from '../../transport';
import { planLocator } from '../common.descriptions';
import {
	invoiceUseField,
	legalNameField,
	postalCodeField,
	taxIdField,
	taxRegimeField,
} from './fields';
import { checkClientData, withWarnings } from './taxData';

export const description: INodeProperties[] = updateDisplayOptions(
	{ show: { resource: ['client'], operation: ['create'] } },
	[
		{
			displayName: 'Name',
			name: 'name',
			type: 'string',
			default: '',
			required: true,
			description: 'Name of the client account',
		},
		{
			displayName: 'Email',
			name: 'email',
			type: 'string',
			placeholder: 'name@email.com',
			default: '',
			required: true,
			description: 'E-mail address the account credentials are sent to',
		},
		{ ...taxIdField, required: true },
		{ ...legalNameField, required: true },
		{ ...postalCodeField, required: true },
		{ ...invoiceUseField, required: true },
		{ ...taxRegimeField, required: true },
		planLocator('The plan the client subscribes to'),
		{
			displayName: 'Vigency Name or ID',
			name: 'vigency',
			type: 'options',
			typeOptions: { loadOptionsMethod: 'getPlanVigencies', loadOptionsDependsOn: ['plan.value'] },
			default: '',
			required: true,
			description:
				'Which of the plan\'s vigencies the client gets. Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
		},
	],
);

/** What Create sends, checked, and the checks' warnings (catalog codes the CFDI 4.0 catalogs do not list). */
interface CheckedClient {
	body: IDataObject;
	warnings: string[];
}

/** Checks every item before the first request (see shared/router.ts): every problem of the item in one error. */
export function validate(this: IExecuteFunctions, _ctx: PartnersContext, i: number): CheckedClient {
	const param = (name: string) => this.getNodeParameter(name, i, '') as string;
	const client: IDataObject = { name: param('name'), email: param('email').trim() };
	const tax: IDataObject = {
		tax_id: param('tax_id'),
		legal_name: param('legal_name'),
		postal_code: param('postal_code').trim(),
		invoice_use_key: param('invoice_use_key'),
		tax_regime: String(this.getNodeParameter('tax_regime', i, '')),
	};
	const product = {
		uuid: String(this.getNodeParameter('plan', i, '', { extractValue: true }) ?? '').trim(),
		vigency_uuid: param('vigency'),
	};
	const check = new Checker();
	checkClientData(check, client, tax, true);
	check.string('product.uuid', product.uuid, { required: true });
	check.string('product.vigency_uuid', product.vigency_uuid, { required: true });
	check.throwIfFailed(this.getNode(), i);
	return { body: { client, tax_information: tax, product }, warnings: check.warnings };
}

export async function execute(
	this: IExecuteFunctions,
	ctx: PartnersContext,
	i: number,
	checked?: CheckedClient,
): Promise<OperationResult> {
	const { body, warnings } = checked ?? validate.call(this, ctx, i);
	const answer = await ctx.api.write(path`/v1/clients`, i, { body });
	return withWarnings(unwrap(answer), warnings);
}
