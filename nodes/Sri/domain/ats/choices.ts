import { itemLabel } from '../../../shared/errors';
import type { Findings } from '../../../shared/findings';
import { isoDateOf } from './period';
import type { ItemChoices } from './roles';

/**
 * What an item's own expressions say — Tax Support per Item, Related Party per Item, Options → Registration Date per
 * Item — read only for the purchases and sales that need them, each checked: a value that is not what its field
 * asks stops the annex, naming the item and the field.
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
				`Related Party per Item: must be true or false (or SI / NO), got ${JSON.stringify(rawRelated)}`,
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
				`Options → Registration Date per Item: must be a date as yyyy-mm-dd or dd/mm/yyyy, got ${JSON.stringify(rawDate)}`,
			);
		return { relatedParty, taxSupport, registered };
	};
}
