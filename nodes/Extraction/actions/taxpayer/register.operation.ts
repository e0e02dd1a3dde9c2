import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';
import type { OperationResult } from '../../../shared/router';
import { Checker, isMissing, parseJsonParameter } from '../../../shared/validate';
import { path } from '../../../shared/path';
import { normalizeRecord } from '../../domain/names';
import { ECUADOR, type ExtractionContext } from '../../transport';

export const description: INodeProperties[] = updateDisplayOptions(
	{ show: { resource: ['taxpayer'], operation: ['register'] } },
	[
		{
			displayName: 'Taxpayer (JSON)',
			name: 'taxpayer',
			type: 'json',
			default: '{}',
			required: true,
			description:
				"The taxpayer record, sent as the JSON body as it is (the service does not publish its fields) to the Ecuador API, with the credential's Ecuador address and key. Put passwords and key material in Secret Fields instead.",
		},
		{
			displayName: 'Secret Fields',
			name: 'secretFields',
			type: 'fixedCollection',
			typeOptions: { multipleValues: true },
			placeholder: 'Add Secret Field',
			default: {},
			description:
				'Passwords and key material, added to the body at the given path; they never appear in the output or in errors',
			options: [
				{
					displayName: 'Secret Field',
					name: 'field',
					values: [
						{
							displayName: 'Path',
							name: 'path',
							type: 'string',
							default: '',
							placeholder: 'e.g. credentials.password',
							description: 'Where in the body the value goes, with dots for nested objects',
						},
						{
							displayName: 'Value',
							name: 'value',
							type: 'string',
							typeOptions: { password: true },
							default: '',
						},
					],
				},
			],
		},
	],
);

const SAFE_SEGMENT = /^[A-Za-z_][\w-]*$/;
/** Names that reach an object's prototype instead of a field of its own: never a path segment. */
const FORBIDDEN_SEGMENTS = new Set(['__proto__', 'prototype', 'constructor']);

/** Why `path` cannot be a secret field's path, or undefined. */
export function secretPathProblem(path: string): string | undefined {
	if (!path) return 'is required';
	const segments = path.split('.');
	const forbidden = segments.find((s) => FORBIDDEN_SEGMENTS.has(s));
	if (forbidden) return `${JSON.stringify(path)} uses "${forbidden}", which is not a field name`;
	if (!segments.every((s) => SAFE_SEGMENT.test(s)))
		return `${JSON.stringify(path)} is not a field path (names separated by dots)`;
	return undefined;
}

/**
 * Puts `value` at the dotted `path` of `body`, walking only the body's own fields: a segment that is not an
 * own plain object of the body is replaced by a new `{}`. Inherited properties are never read or written.
 */
function placeAt(body: IDataObject, path: string, value: string): void {
	const segments = path.split('.');
	let target = body;
	for (const segment of segments.slice(0, -1)) {
		const next = Object.prototype.hasOwnProperty.call(target, segment)
			? target[segment]
			: undefined;
		if (!next || typeof next !== 'object' || Array.isArray(next)) target[segment] = {};
		target = target[segment] as IDataObject;
	}
	Object.defineProperty(target, segments[segments.length - 1], {
		value,
		enumerable: true,
		writable: true,
		configurable: true,
	});
}

/** A copy of parsed JSON keeping own fields only; a `__proto__` key stays data and never becomes a prototype. */
function ownCopy(value: unknown): unknown {
	if (Array.isArray(value)) return value.map(ownCopy);
	if (!value || typeof value !== 'object') return value;
	const out: IDataObject = {};
	for (const key of Object.keys(value)) {
		Object.defineProperty(out, key, {
			value: ownCopy((value as IDataObject)[key]),
			enumerable: true,
			writable: true,
			configurable: true,
		});
	}
	return out;
}

/** The body Register sends, checked (`validate`), and the values of its Secret Fields. */
interface CheckedTaxpayer {
	body: IDataObject;
	secrets: string[];
}

/**
 * Checks item `i` before the first request (see shared/router.ts): the taxpayer JSON and every Secret Field, all
 * problems in one error, nothing sent. Returns the body as it will be sent.
 */
export function validate(
	this: IExecuteFunctions,
	ctx: ExtractionContext,
	i: number,
): CheckedTaxpayer {
	const node = this.getNode();
	const check = new Checker();
	const parsed = parseJsonParameter(
		node,
		i,
		'taxpayer',
		this.getNodeParameter('taxpayer', i, '{}'),
	);
	let body: IDataObject = {};
	if (check.object('taxpayer', parsed, { required: true })) body = ownCopy(parsed) as IDataObject;
	else if (parsed === undefined) check.fail('taxpayer', 'is required');

	const secrets: string[] = [];
	const fields = (this.getNodeParameter('secretFields.field', i, []) as IDataObject[]) ?? [];
	fields.forEach((f, n) => {
		const path = String(f.path ?? '').trim();
		const value = String(f.value ?? '');
		const problem = secretPathProblem(path);
		if (problem) {
			check.fail(`secretFields[${n}].path`, problem);
			return;
		}
		if (isMissing(value)) {
			check.fail(`secretFields[${n}].value`, 'is required');
			return;
		}
		secrets.push(value);
		placeAt(body, path, value);
	});
	// Secret Fields never come back in an output or an error (the client cuts them out), from the check on.
	ctx.api.keepSecret(...secrets);
	if (Object.keys(body).length === 0) check.fail('taxpayer', 'give at least one field');
	check.throwIfFailed(node, i);
	return { body, secrets };
}

/**
 * POST /taxpayers on the Ecuador API (spec: "registers a taxpayer (Ecuador side)"): its own address and key, from
 * the credential's Ecuador fields, never the Mexico ones (transport.ts). JSON body passed through, secrets merged
 * in from password fields.
 */
export async function execute(
	this: IExecuteFunctions,
	ctx: ExtractionContext,
	i: number,
	checked?: CheckedTaxpayer,
): Promise<OperationResult> {
	const { body } = checked ?? validate.call(this, ctx, i);
	return normalizeRecord(await ctx.api.write(path`/taxpayers`, i, { body, side: ECUADOR }));
}
