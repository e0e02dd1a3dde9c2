import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { Checker, parseJsonParameter } from '../../../shared/validate';
import type { ReceiptKind } from '../../domain/schemas';
import { checkReceipt } from '../../domain/schemas';

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
		{ name: 'JSON', value: 'json', description: 'Give the whole receipt body as JSON (e.g. mapped from a spreadsheet or an ERP)' },
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
			'The whole request body as the service documents it: fill in every empty value. Expressions are allowed. It is validated before anything is sent.',
	};
}

/** Settings that are safe defaults rather than data: kept in the template (1 = test environment, normal emission). */
const TEMPLATE_DEFAULTS: IDataObject = { ambiente: 1, tipo_emision: 1 };

/** `example` with every value emptied: text → "", numbers → null; lists keep one emptied entry. */
export function template(example: IDataObject): IDataObject {
	const empty = (value: unknown): unknown => {
		if (Array.isArray(value)) return value.length ? [empty(value[0])] : [];
		if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, empty(v)]));
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

export interface ReceiptInput {
	body: IDataObject;
	warnings: string[];
}

/**
 * Reads the receipt body of item `i` in the chosen input mode and validates it for `kind`; throws
 * `[item N] field.path: what is wrong` (nothing sent) when it is not valid.
 */
export function readReceipt(this: IExecuteFunctions, i: number, kind: ReceiptKind, fromFields: (this: IExecuteFunctions, i: number) => IDataObject): ReceiptInput {
	const mode = this.getNodeParameter('inputMode', i, 'fields') as string;
	let raw: unknown;
	if (mode === 'json') {
		raw = parseJsonParameter(this.getNode(), i, 'Receipt (JSON)', this.getNodeParameter('jsonBody', i, ''));
		const check = new Checker();
		if (!check.object('body', raw, { required: true })) check.throwIfFailed(this.getNode(), i);
	} else {
		raw = fromFields.call(this, i);
	}
	const check = new Checker();
	const body = checkReceipt(check, kind, raw as IDataObject);
	check.throwIfFailed(this.getNode(), i);
	return { body, warnings: check.warnings };
}
