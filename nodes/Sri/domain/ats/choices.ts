import { itemLabel } from '../../../shared/errors';
import type { Findings } from '../../../shared/findings';
import { describe } from '../../../shared/text';
import { keyProblem, normalizeKey } from '../key';
import { isoDateOf } from './period';
import type { ItemChoices } from './roles';

/**
 * What an item's own expressions say — Tax Support per Item, Related Party per Item, Options → Registration Date per
 * Item — read only for the purchases and sales that need them, each checked: a value that is not what its field
 * asks stops the annex, naming the item and the field. And the access keys an option gives (Voided Receipts,
 * Receipts the SRI Lists for You), each checked.
 */

/** Readers of the form's per-item values (shared/parameters.ts `parameterReader`). */
interface ChoiceReaders {
	relatedParty: (item: number) => unknown;
	taxSupport: (item: number) => unknown;
	registered: (item: number) => unknown;
}

const PER_ITEM = {
	title: 'per-item values that cannot be read',
	fix: 'Fix the expression so that it gives the value the field asks for.',
};

/** Related Party per Item as a boolean: true/false, SI/NO, 1/0; undefined for anything else. */
function yesNo(value: unknown): boolean | undefined {
	if (typeof value === 'boolean') return value;
	if (value === 1 || value === 0) return value === 1;
	const text = typeof value === 'string' ? value.trim().toUpperCase() : undefined;
	if (text === 'SI' || text === 'SÍ' || text === 'TRUE' || text === 'YES') return true;
	if (text === 'NO' || text === 'FALSE' || text === '') return false;
	return undefined;
}

/** The choices of an item in the role it has in the annex. */
export function itemChoices(
	read: ChoiceReaders,
	findings: Findings,
): (item: number, role: 'purchase' | 'sale') => ItemChoices {
	const stop = (item: number, line: string) =>
		findings.stop(PER_ITEM.title, PER_ITEM.fix, `${itemLabel(item)} ${line}`);
	/** A value read for the item; a stop when its expression fails. */
	const value = (item: number, reader: (item: number) => unknown, label: string): unknown => {
		try {
			return reader(item);
		} catch (error) {
			stop(item, `${label}: the expression failed: ${(error as Error).message}`);
			return undefined;
		}
	};
	return (item, role) => {
		const rawRelated = value(item, read.relatedParty, 'Related Party per Item');
		const relatedParty = yesNo(rawRelated ?? false);
		if (relatedParty === undefined)
			stop(
				item,
				`Related Party per Item: must be true or false (or SI / NO), got ${describe(rawRelated)}`,
			);
		if (role === 'sale') return { relatedParty };
		const rawSupport = value(item, read.taxSupport, 'Tax Support per Item');
		const taxSupport =
			typeof rawSupport === 'number'
				? String(rawSupport).padStart(2, '0')
				: String(rawSupport ?? '').trim();
		const rawDate = value(item, read.registered, 'Options → Registration Date per Item');
		const empty = rawDate === '' || rawDate === null || rawDate === undefined;
		const registered = empty ? undefined : isoDateOf(rawDate);
		if (!empty && !registered)
			stop(
				item,
				`Options → Registration Date per Item: must be a date as yyyy-mm-dd or dd/mm/yyyy, got ${describe(rawDate)}`,
			);
		return { relatedParty, taxSupport, registered };
	};
}

/**
 * The access keys an option gives, in the shapes a bookkeeper wires without code: a list (an expression such as
 * `{{ $('Read the list').all().map(i => i.json.clave_acceso) }}`; entries may also be the items' JSON, whose
 * `clave_acceso` is taken), or text with the keys separated by commas, semicolons or line breaks (spaces inside a
 * key, as a printed RIDE groups its digits, are dropped). Empty entries are skipped; an entry that is not an
 * access key joins the stop group `title`, naming the field and the entry.
 */
export function keysOf(value: unknown, field: string, findings: Findings, title: string): string[] {
	const entries: unknown[] = Array.isArray(value)
		? value
		: typeof value === 'string'
			? value.split(/[,;\r\n]+/)
			: value === undefined || value === null
				? []
				: [value];
	const keys: string[] = [];
	entries.forEach((entry, k) => {
		const raw =
			entry && typeof entry === 'object' && 'clave_acceso' in entry ? entry.clave_acceso : entry;
		const key = normalizeKey(raw);
		if (key === '' || key === undefined || key === null) return;
		const problem = keyProblem(key);
		if (problem)
			findings.stop(
				title,
				`Give ${field} the 49-digit access keys (a list, or text with one key per line or comma).`,
				`${field}: entry ${k + 1}, ${describe(typeof raw === 'string' ? raw.trim() : raw)}, ${problem}`,
			);
		else keys.push(key as string);
	});
	return keys;
}
