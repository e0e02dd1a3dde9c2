import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { parseJsonParameter } from '../../../shared/validate';
import { FormChecker, type InputMode } from '../../domain/labels';
import type { ReceiptKind } from '../../domain/schemas';
import { checkReceipt } from '../../domain/schemas';
import { ratesNeeded } from '../../domain/totals';
import type { ReceiptsContext } from '../../transport';
import { ratesFor, savedIssuer, withIssuer } from './defaults';

/**
 * Input of every Issue/Reissue operation: "Fields" (common data as n8n fields, lists as fixed
 * collections) or "JSON" (the whole body, expressions allowed). Both end in the same validation.
 */

export const inputModeField: INodeProperties = {
	displayName: 'Input Mode',
	name: 'inputMode',
	type: 'options',
	noDataExpression: true,
	options: [
		{ name: 'Fields', value: 'fields', description: 'Fill in the receipt field by field' },
		{
			name: 'JSON',
			value: 'json',
			description: 'Give the whole receipt body as JSON (e.g. mapped from a spreadsheet or an ERP)',
		},
	],
	default: 'fields',
};

/**
 * The JSON body field: its default is the receipt's shape with every value left to fill in (so an untouched
 * body fails validation, naming each field), and a complete example in `placeholder`.
 */
export function jsonBodyField(example: IDataObject): INodeProperties {
	return {
		displayName: 'Receipt (JSON)',
		name: 'jsonBody',
		type: 'json',
		default: JSON.stringify(template(example), null, 2),
		placeholder: JSON.stringify(example, null, 2),
		required: true,
		displayOptions: { show: { inputMode: ['json'] } },
		description:
			'The whole request body as the service documents it. Amounts you leave out (item subtotals, tax rates, bases and values, totals, tax totals, the total of a single payment, retained values) are computed from the quantities, prices, discounts and tax codes; the issuer fields you leave out come from the Receipts credential. Expressions are allowed. It is validated before anything is sent.',
	};
}

/** Settings that are safe defaults rather than data: kept in the template (1 = test environment, normal emission). */
const TEMPLATE_DEFAULTS: IDataObject = { ambiente: 1, tipo_emision: 1 };

/** `example` with every value emptied: text → "", numbers → null; lists keep one emptied entry. */
export function template(example: IDataObject): IDataObject {
	const empty = (value: unknown): unknown => {
		if (Array.isArray(value)) return value.length ? [empty(value[0])] : [];
		if (value && typeof value === 'object')
			return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, empty(v)]));
		if (typeof value === 'string') return '';
		if (typeof value === 'boolean') return value;
		return null;
	};
	const out = empty(example) as IDataObject;
	for (const [key, value] of Object.entries(TEMPLATE_DEFAULTS)) if (key in out) out[key] = value;
	return out;
}

/** Drops empty strings, null, undefined and empty objects/lists (what an untouched n8n field leaves). */
export function compact(value: IDataObject): IDataObject {
	const out: IDataObject = {};
	for (const [key, v] of Object.entries(value)) {
		if (v === undefined || v === null || (typeof v === 'string' && v.trim() === '')) continue;
		if (typeof v === 'object' && !Array.isArray(v)) {
			const inner = compact(v as IDataObject);
			if (Object.keys(inner).length) out[key] = inner;
			continue;
		}
		if (Array.isArray(v) && v.length === 0) continue;
		out[key] = v;
	}
	return out;
}

/** Reads a JSON-typed parameter inside Fields mode (e.g. documentos_soporte); empty → undefined. */
export function jsonPart(this: IExecuteFunctions, name: string, field: string, i: number): unknown {
	return parseJsonParameter(this.getNode(), i, field, this.getNodeParameter(name, i, ''));
}

/** Reads the receipt of item `i` from the Fields form of a kind. */
export type FromFields = (this: IExecuteFunctions, i: number) => IDataObject;

export interface ReceiptInput {
	body: IDataObject;
	warnings: string[];
}

/** A receipt read and checked: the body to send (when it could be read), and the problems and warnings found. */
export interface InspectedReceipt {
	body?: IDataObject;
	check: FormChecker;
}

/**
 * Reads the receipt body of item `i` in the chosen input mode, completes it (the issuer saved in the credential,
 * identification types, the amounts computed from what was sold) and validates it for `kind`. Nothing is thrown
 * for a bad receipt: every problem is in `check`, named by the form's labels.
 */
export async function inspectReceipt(
	this: IExecuteFunctions,
	ctx: ReceiptsContext,
	i: number,
	kind: ReceiptKind,
	fromFields: FromFields,
): Promise<InspectedReceipt> {
	const mode = this.getNodeParameter('inputMode', i, 'fields') as InputMode;
	const check = new FormChecker(kind, mode);
	let raw: unknown;
	try {
		raw =
			mode === 'json'
				? parseJsonParameter(
						this.getNode(),
						i,
						'Receipt (JSON)',
						this.getNodeParameter('jsonBody', i, ''),
					)
				: fromFields.call(this, i);
	} catch (error) {
		// A JSON field that does not parse: its message says which field and why.
		check.problems.push(error instanceof Error ? error.message : String(error));
		return { check };
	}
	if (!check.object('body', raw, { required: true })) return { check };
	const input = raw as IDataObject;
	withIssuer(input, await savedIssuer.call(this, ctx));
	const rates = await ratesFor(ctx, ratesNeeded(kind, input), i);
	return { body: checkReceipt(check, kind, input, rates), check };
}
