import type { ReadReceipt } from './receipt';

/**
 * Is the supplier's file the receipt the SRI authorized? The two receipts are compared as the package reads them
 * (`comprobante`: every element but the XML signature, amounts as numbers), so a file re-indented, re-encoded or
 * wrapped in its authorization differs in nothing, while any changed figure, party, date, number, line or
 * additional field is named: the issuer and buyer, the number, the date, every total, base and tax, each item.
 * The signature is not compared (it is not verified either: the SRI verified it when it authorized the receipt).
 */

/** At most this many differences are named one by one; the rest are counted. */
const NAMED = 8;

type Json = unknown;

const shown = (value: Json): string =>
	value === undefined
		? 'absent'
		: typeof value === 'string'
			? JSON.stringify(value)
			: typeof value === 'object' && value !== null
				? 'present'
				: String(value);

/** The paths where `file` and `sri` differ, each with both values: `infoFactura.importeTotal is 30 in the file, 28 at the SRI`. */
function differences(file: Json, sri: Json, path: string, out: string[]): void {
	if (file === sri) return;
	const isObject = (v: Json) => typeof v === 'object' && v !== null;
	if (isObject(file) && isObject(sri) && Array.isArray(file) === Array.isArray(sri)) {
		if (Array.isArray(file) && Array.isArray(sri)) {
			if (file.length !== sri.length)
				out.push(`${path} has ${file.length} entries in the file, ${sri.length} at the SRI`);
			for (let k = 0; k < Math.min(file.length, sri.length); k++)
				differences(file[k], sri[k], `${path}[${k}]`, out);
			return;
		}
		const a = file as Record<string, Json>;
		const b = sri as Record<string, Json>;
		for (const key of new Set([...Object.keys(a), ...Object.keys(b)]))
			differences(a[key], b[key], path ? `${path}.${key}` : key, out);
		return;
	}
	out.push(`${path || 'the receipt'} is ${shown(file)} in the file, ${shown(sri)} at the SRI`);
}

/**
 * What differs between the receipt read from a file and the one the SRI authorized for the same access key, in
 * words (empty when they are the same receipt). `states`: the authorization's `estado` the file claims, if it is an
 * authorization file, and the SRI's.
 */
export function fileDifferences(
	file: ReadReceipt,
	sri: ReadReceipt,
	states: { file?: unknown; sri?: unknown } = {},
): string[] {
	const out: string[] = [];
	if (file.kind.root !== sri.kind.root)
		out.push(`the file is a ${file.kind.tipo}, the SRI's receipt a ${sri.kind.tipo}`);
	else differences(file.comprobante, sri.comprobante, '', out);
	if (typeof states.file === 'string' && states.file.trim() !== String(states.sri ?? '').trim())
		out.push(
			`the file says ${JSON.stringify(states.file)}, the SRI ${states.sri === undefined ? 'has no state for it' : JSON.stringify(states.sri)}`,
		);
	return out;
}

/** The differences as one sentence's tail: the first few named, the others counted. */
export function differencesText(list: string[]): string {
	const named = list.slice(0, NAMED).join('; ');
	return list.length > NAMED ? `${named}; and ${list.length - NAMED} more` : named;
}
