import type { INodeProperties } from 'n8n-workflow';
import { asOptions, REGIMEN_FISCAL, USO_CFDI } from '../../domain/catalogs';

export const invoiceUseField: INodeProperties = {
	displayName: 'Invoice Use (Uso CFDI) Name or ID',
	name: 'invoice_use_key',
	type: 'options',
	options: asOptions(USO_CFDI),
	default: 'G03',
	description:
		'CFDI 4.0 c_UsoCFDI code. Choose from the list, or specify a code using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
};

export const taxRegimeField: INodeProperties = {
	displayName: 'Tax Regime (Régimen Fiscal) Name or ID',
	name: 'tax_regime',
	type: 'options',
	options: asOptions(REGIMEN_FISCAL),
	default: '601',
	description:
		'CFDI 4.0 c_RegimenFiscal code. Choose from the list, or specify a code using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
};

export const taxIdField: INodeProperties = {
	displayName: 'RFC',
	name: 'tax_id',
	type: 'string',
	default: '',
	placeholder: 'e.g. EKU9003173C9',
	description:
		'Tax ID: 12 characters for a company, 13 for a person. XAXX010101000 and XEXX010101000 are accepted.',
};

export const legalNameField: INodeProperties = {
	displayName: 'Legal Name',
	name: 'legal_name',
	type: 'string',
	default: '',
	description:
		'Name exactly as registered with the SAT (without the company type, e.g. without "SA de CV")',
};

export const postalCodeField: INodeProperties = {
	displayName: 'Postal Code',
	name: 'postal_code',
	type: 'string',
	default: '',
	placeholder: 'e.g. 06600',
	description: 'Postal code of the tax address (5 digits)',
};
