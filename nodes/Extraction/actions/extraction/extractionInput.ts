import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { checkRfc } from '../../../shared/tax/rfc';
import { Checker, isMissing, parseJsonParameter } from '../../../shared/validate';
import { DIRECTIONS, normalizeDirection } from '../../domain/names';

/**
 * Input of Create: the taxpayer's SAT credentials (nested `SAT` object), information type, period,
 * direction and the emitter filter. The spec names these concepts but shows no full body; the body built
 * here is `{ SAT, options: { informationType, period: { from, to }, direction }, filters: { emitter } }`
 * (the same `options` shape the webhooks report), and Additional Body Fields are merged in for anything
 * else the service accepts.
 */

const INFORMATION_TYPES = ['INVOICE', 'TAX_STATUS', 'TAX_RETENTION'] as const;
const EMITTER_OPERATORS = ['equals', 'contains', 'in'] as const;

export const extractionInputFields: INodeProperties[] = [
	{
		displayName: 'SAT Credential Type',
		name: 'satCredentialType',
		type: 'options',
		default: 'ciec',
		options: [
			{ name: 'CIEC (RFC and Password)', value: 'ciec' },
			{ name: 'FIEL (E.firma Certificate and Private Key)', value: 'fiel' },
		],
		description:
			'How the taxpayer signs in to the SAT. These values are sent as the nested SAT object and never appear in the output.',
	},
	{
		displayName: 'Taxpayer RFC',
		name: 'rfc',
		type: 'string',
		default: '',
		required: true,
		placeholder: 'e.g. EKU9003173C9',
		description: 'RFC of the taxpayer whose documents are extracted (the subject)',
	},
	{
		displayName: 'SAT Password (CIEC)',
		name: 'satPassword',
		type: 'string',
		typeOptions: { password: true },
		default: '',
		required: true,
		description:
			"The taxpayer's SAT password. Prefer an expression that reads it from a secure source; it never appears in the output or in errors.",
		displayOptions: { show: { satCredentialType: ['ciec'] } },
	},
	{
		displayName: 'FIEL Certificate (Base64)',
		name: 'fielCertificate',
		type: 'string',
		default: '',
		required: true,
		description: 'The .cer file of the e.firma, Base64-encoded',
		displayOptions: { show: { satCredentialType: ['fiel'] } },
	},
	{
		displayName: 'FIEL Private Key (Base64)',
		name: 'fielPrivateKey',
		type: 'string',
		typeOptions: { password: true },
		default: '',
		required: true,
		description:
			'The .key file of the e.firma, Base64-encoded. It never appears in the output or in errors.',
		displayOptions: { show: { satCredentialType: ['fiel'] } },
	},
	{
		displayName: 'FIEL Private Key Password',
		name: 'fielPassword',
		type: 'string',
		typeOptions: { password: true },
		default: '',
		required: true,
		description: 'Password of the private key. It never appears in the output or in errors.',
		displayOptions: { show: { satCredentialType: ['fiel'] } },
	},
	{
		displayName: 'Information Type',
		name: 'informationType',
		type: 'options',
		default: 'INVOICE',
		options: [
			{ name: 'Invoices (CFDI)', value: 'INVOICE' },
			{ name: 'Tax Retention Certificates', value: 'TAX_RETENTION' },
			{ name: 'Tax Status Certificate', value: 'TAX_STATUS' },
		],
	},
	{
		displayName: 'Period From',
		name: 'periodFrom',
		type: 'dateTime',
		default: '',
		required: true,
		description: 'First day of the period (sent as YYYY-MM-DD)',
	},
	{
		displayName: 'Period To',
		name: 'periodTo',
		type: 'dateTime',
		default: '',
		required: true,
		description: 'Last day of the period (sent as YYYY-MM-DD); not before Period From',
	},
	{
		displayName: 'Direction',
		name: 'direction',
		type: 'options',
		default: 'INBOUND',
		options: [
			{ name: 'Inbound (Received)', value: 'INBOUND' },
			{ name: 'Outbound (Issued)', value: 'OUTBOUND' },
		],
		description:
			'Documents received or issued by the taxpayer. The beta values RECEIVED and ISSUED are accepted from expressions.',
		displayOptions: { show: { informationType: ['INVOICE', 'TAX_RETENTION'] } },
	},
	{
		displayName: 'Emitter Filter',
		name: 'emitterFilter',
		type: 'fixedCollection',
		placeholder: 'Add Emitter Filter',
		default: {},
		description: 'Only documents whose emitter matches',
		options: [
			{
				displayName: 'Emitter',
				name: 'emitter',
				values: [
					{
						displayName: 'Operator',
						name: 'operator',
						type: 'options',
						default: 'equals',
						options: [
							{ name: 'Contains', value: 'contains' },
							{ name: 'Equals', value: 'equals' },
							{ name: 'In', value: 'in', description: 'Any of a list of values' },
						],
					},
					{
						displayName: 'Value',
						name: 'value',
						type: 'string',
						default: '',
						description: 'For "In": a list from an expression, or values separated by commas',
					},
				],
			},
		],
	},
	{
		displayName: 'Additional Body Fields (JSON)',
		name: 'additionalBody',
		type: 'json',
		default: '{}',
		description:
			'Other fields of the request body the service accepts, merged in at the top level. The fields above win.',
	},
];

/** A date parameter as YYYY-MM-DD, or undefined when it is not a date. */
export function toDate(value: unknown): string | undefined {
	let text: unknown = value;
	if (value instanceof Date) text = value.toISOString();
	else if (
		value &&
		typeof value === 'object' &&
		typeof (value as { toISO?: unknown }).toISO === 'function'
	) {
		text = (value as { toISO: () => string }).toISO();
	}
	if (typeof text !== 'string') return undefined;
	const m = /^(\d{4}-\d{2}-\d{2})(?:[T ].*)?$/.exec(text.trim());
	if (!m) return undefined;
	const d = new Date(`${m[1]}T00:00:00Z`);
	return Number.isNaN(d.getTime()) || d.toISOString().slice(0, 10) !== m[1] ? undefined : m[1];
}

interface ExtractionInput {
	body: IDataObject;
	/** Secret values sent: kept out of every output and error. */
	secrets: string[];
	warnings: string[];
}

/** Reads and validates the Create input; throws before anything is sent. */
export function readExtractionInput(this: IExecuteFunctions, i: number): ExtractionInput {
	const check = new Checker();
	const node = this.getNode();
	const kind = this.getNodeParameter('satCredentialType', i, 'ciec') as string;
	const rawRfc = String(this.getNodeParameter('rfc', i, '') ?? '');
	const informationType = this.getNodeParameter('informationType', i, 'INVOICE') as string;

	let rfc = rawRfc.trim().toUpperCase();
	if (check.required('SAT.rfc', rawRfc)) {
		const result = checkRfc(rawRfc);
		rfc = result.normalized;
		if (result.error) check.fail('SAT.rfc', `${JSON.stringify(rfc)} ${result.error}`);
		if (result.warning) check.warn('SAT.rfc', result.warning);
	}

	const SAT: IDataObject = { rfc };
	const secrets: string[] = [];
	const secret = (parameter: string, field: string, target: string) => {
		const value = String(this.getNodeParameter(parameter, i, '') ?? '');
		// Only "is required" is ever said about a secret: its value is never put in a message.
		if (isMissing(value)) check.fail(field, 'is required');
		SAT[target] = value;
		if (value) secrets.push(value);
	};
	if (kind === 'fiel') {
		const certificate = String(this.getNodeParameter('fielCertificate', i, '') ?? '').trim();
		check.required('SAT.certificate', certificate);
		SAT.certificate = certificate;
		secret('fielPrivateKey', 'SAT.privateKey', 'privateKey');
		secret('fielPassword', 'SAT.password', 'password');
	} else {
		secret('satPassword', 'SAT.password', 'password');
	}

	check.oneOf('options.informationType', informationType, INFORMATION_TYPES, { required: true });
	const rawFrom = this.getNodeParameter('periodFrom', i, '') as unknown;
	const rawTo = this.getNodeParameter('periodTo', i, '') as unknown;
	const from = toDate(rawFrom);
	const to = toDate(rawTo);
	for (const [field, raw, value] of [
		['options.period.from', rawFrom, from],
		['options.period.to', rawTo, to],
	] as const) {
		if (!check.required(field, raw)) continue;
		if (!value) check.fail(field, `${JSON.stringify(String(raw))} is not a date (YYYY-MM-DD)`);
	}
	if (from && to && from > to) check.fail('options.period', `from ${from} is after to ${to}`);

	const options: IDataObject = { informationType, period: { from, to } };
	if (informationType !== 'TAX_STATUS') {
		const rawDirection = this.getNodeParameter('direction', i, 'INBOUND') as unknown;
		const direction = normalizeDirection(rawDirection);
		check.oneOf('options.direction', direction, DIRECTIONS, { required: true });
		options.direction = direction as string;
	}

	const body: IDataObject = {};
	const additional = parseJsonParameter(
		node,
		i,
		'additionalBody',
		this.getNodeParameter('additionalBody', i, '{}'),
	);
	if (additional !== undefined && check.object('additionalBody', additional))
		Object.assign(body, additional);

	const emitter = (this.getNodeParameter('emitterFilter', i, {}) as IDataObject).emitter as
		| IDataObject
		| undefined;
	if (emitter) {
		const operator = String(emitter.operator ?? 'equals');
		check.oneOf('filters.emitter.operator', operator, EMITTER_OPERATORS, { required: true });
		let value: unknown = emitter.value;
		if (operator === 'in') {
			const list = (Array.isArray(value) ? value : String(value ?? '').split(','))
				.map((v) => String(v).trim())
				.filter(Boolean);
			if (list.length === 0)
				check.fail(
					'filters.emitter.value',
					'operator "in" takes a list: give at least one value (a list, or values separated by commas)',
				);
			value = list;
		} else {
			if (Array.isArray(value))
				check.fail(
					'filters.emitter.value',
					`operator "${operator}" takes one value, got a list: use operator "in" for a list`,
				);
			else check.string('filters.emitter.value', value, { required: true });
			if (typeof value === 'string') value = value.trim();
		}
		const filters = (
			body.filters && typeof body.filters === 'object' ? body.filters : {}
		) as IDataObject;
		body.filters = { ...filters, emitter: { operator, value } };
	}

	check.throwIfFailed(node, i);
	body.SAT = SAT;
	body.options = { ...((body.options as IDataObject) ?? {}), ...options };
	return { body, secrets, warnings: check.warnings };
}
