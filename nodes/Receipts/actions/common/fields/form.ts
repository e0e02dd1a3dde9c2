import type {
	IDataObject,
	IDisplayOptions,
	IExecuteFunctions,
	INodeProperties,
} from 'n8n-workflow';
import { type CatalogEntry } from '../../../domain/catalogs';
import { displayName, type Label } from '../../../domain/labels';
import { inputModeField, jsonBodyField } from '../receiptInput';

/**
 * Field groups shared by the Fields input mode of several receipt kinds, and their readers, one file per part of
 * the form (this folder): this file, the form's versions and its building blocks; head.ts, the receipt's head
 * and Additional Fields; parties.ts, the issuer and the other parties; items.ts, the lines and their taxes;
 * totals.ts; payments.ts; info.ts, the additional information; documents.ts, a supporting or modified document;
 * sales.ts, what invoices and notes share.
 *
 * Two versions of the form (the node's typeVersion; n8n's light versioning: one node, properties shown per
 * `@version`). A saved workflow stores only what differs from a field's default, so a default that changes would
 * change what an existing workflow sends; version 1 keeps its defaults and meanings exactly, version 2 (new
 * nodes) is the bookkeeper's form:
 * - amounts (item subtotal and tax rate, base and value; totals; tax totals; payment totals; retained values)
 *   left at 0 are computed (domain/totals.ts); in version 1 a 0 is sent as 0 (and refused when it contradicts);
 * - Issue Date sits on the form and means today in Ecuador when empty (version 1: under Additional Fields);
 * - an empty identification type is inferred from the identification (version 1: RUC by default);
 * - Keeps Accounting can be left to the issuer saved in the credential (version 1: No by default).
 * Every field whose words or meaning are the same in both versions is one property (see `byVersion`).
 */

export type FormVersion = 1 | 2;

/** The form version of the node being run. */
export function formVersion(this: IExecuteFunctions): FormVersion {
	return this.getNode().typeVersion >= 2 ? 2 : 1;
}

const SHOW_V1: ShowValues = [1];

const SHOW_V2: ShowValues = [{ _cnd: { gte: 2 } }];

type Show = NonNullable<IDisplayOptions['show']>;

type ShowValues = NonNullable<Show['@version']>;

function forVersion(property: INodeProperties, versions: ShowValues): INodeProperties {
	const show: Show = { ...property.displayOptions?.show };
	show['@version'] = versions;
	return { ...property, displayOptions: { ...property.displayOptions, show } };
}

/**
 * The properties of both form versions: a property built the same for both is listed once; one that differs is
 * listed twice, each shown only for its version (`@version`). Each version keeps its own order.
 */
function byVersion(build: (v: FormVersion) => INodeProperties[]): INodeProperties[] {
	const v1 = build(1);
	const v2 = build(2);
	const key = (p: INodeProperties) => JSON.stringify(p);
	const inV1 = new Set(v1.map(key));
	const inV2 = new Set(v2.map(key));
	const out: INodeProperties[] = [];
	const done = new Set<string>();
	let i = 0;
	let j = 0;
	while (i < v1.length || j < v2.length) {
		if (i < v1.length && done.has(key(v1[i]))) {
			i++;
		} else if (j < v2.length && !inV1.has(key(v2[j]))) {
			out.push(forVersion(v2[j++], SHOW_V2));
		} else if (i < v1.length && !inV2.has(key(v1[i]))) {
			out.push(forVersion(v1[i++], SHOW_V1));
		} else if (j < v2.length) {
			done.add(key(v2[j]));
			out.push(v2[j++]);
		} else {
			i++;
		}
	}
	return out;
}

/** The receipt itself, as Issue, Preview and Reissue show it: the input mode, the JSON body, the Fields form (both versions). */
export const receiptProperties = (
	example: IDataObject,
	fields: (v: FormVersion) => INodeProperties[],
): INodeProperties[] => [inputModeField, jsonBodyField(example), ...byVersion(fields)];

export const fieldsMode = { show: { inputMode: ['fields'] } };

export const text = (
	displayName: string,
	name: string,
	extra: Partial<INodeProperties> = {},
): INodeProperties =>
	({ displayName, name, type: 'string', default: '', ...extra }) as INodeProperties;

/** An amount with 2 decimals (money). */
export const money = (
	displayName: string,
	name: string,
	extra: Partial<INodeProperties> = {},
): INodeProperties =>
	({
		displayName,
		name,
		type: 'number',
		typeOptions: { numberPrecision: 2 },
		default: 0,
		...extra,
	}) as INodeProperties;

/** What version 2 says of an amount it computes when left at 0. */
const COMPUTED = 'Computed when 0 (leave it so)';

/**
 * The line version 2 shows under an amount it computes: the description is only a tooltip, and a bookkeeper who
 * sees 0.00 in a Total field would otherwise type the total in.
 */
export const COMPUTED_HINT = 'Leave 0: the node computes it';

/** An amount the node computes in version 2 (`how`), given by the user in version 1 (`v1`: its old description). */
export const computedMoney = (
	v: FormVersion,
	label: Label,
	name: string,
	how: string,
	v1?: string,
): INodeProperties =>
	money(
		displayName(label),
		name,
		v === 2
			? { description: `${COMPUTED}: ${how}`, hint: COMPUTED_HINT }
			: v1
				? { description: v1 }
				: {},
	);

/** Static options of a code table, sorted by name, each showing its code. */
export const codeOptions = (entries: CatalogEntry[]) =>
	entries
		.map((e) => ({ name: `${e.name} (${e.code})`, value: e.code }))
		.sort((a, b) => a.name.localeCompare(b.name));

/** Reads one-entry fixed collection `name` (its `details` values). */
export function one(this: IExecuteFunctions, name: string, i: number): IDataObject {
	return (this.getNodeParameter(`${name}.details`, i, {}) as IDataObject) ?? {};
}

/** Reads multi-entry fixed collection `name.key`. */
export function many(this: IExecuteFunctions, path: string, i: number): IDataObject[] {
	return ((this.getNodeParameter(path, i, []) as IDataObject[]) ?? []).map((e) => ({ ...e }));
}

/**
 * Version 2: the amounts of `entry` named in `keys` that are left at 0 are not given (the node computes them);
 * version 1 sends them as they are.
 */
export function withoutZeros(v: FormVersion, entry: IDataObject, keys: string[]): IDataObject {
	if (v === 1) return entry;
	const out = { ...entry };
	for (const key of keys) if (out[key] === 0) delete out[key];
	return out;
}

/** A text parameter of item `i`, trimmed. */
export function textParam(this: IExecuteFunctions, name: string, i: number): string {
	return String(this.getNodeParameter(name, i, '') ?? '').trim();
}
