import { describe } from '../../../shared/text';
import { FOREIGN_RFC, OPERATIONS_OF, type SupplierKind } from './layout';
import type { SupplierChoice } from './lines';

/**
 * The bookkeeper's choices for the supplier of each item — the type of operation, the 8 % region, a foreign
 * supplier's country, tax ID and imports — read from the form's per-item values (fixed, or expressions) and
 * checked against the 2025 catalogs: what does not fit the item's supplier is said, each a message that follows
 * the item's name (build.ts turns them into the stop of the run).
 */

/** Readers of the form's per-item values (shared/parameters.ts `parameterReader`), by choice. */
type ChoiceReaders = Record<keyof typeof LABELS, (item: number) => unknown>;

/** The form's labels, for the messages about a value chosen for an item. */
const LABELS = {
	operationType: 'Type of Operation (Mexican Suppliers)',
	foreignOperationType: 'Type of Operation (Foreign Suppliers)',
	borderRegion: '8 % IVA Region',
	country: 'Foreign Supplier → Country',
	jurisdiction: 'Foreign Supplier → Jurisdiction',
	taxId: 'Foreign Supplier → Tax ID',
	imports: 'Foreign Supplier → Imports at 16 %',
};

/** The supplier choices of an item whose supplier is of `kind`, or what is wrong with them. */
export function chooser(
	read: ChoiceReaders,
): (item: number, kind: SupplierKind) => SupplierChoice | string[] {
	return (item, kind) => {
		const problems: string[] = [];
		const value = (field: keyof ChoiceReaders): string => {
			try {
				const v = read[field](item);
				if (typeof v === 'string' || typeof v === 'number') return String(v).trim();
				if (v === undefined || v === null) return '';
				problems.push(`${LABELS[field]}: must be text, got ${describe(v)}`);
			} catch (error) {
				problems.push(`${LABELS[field]}: the expression failed: ${(error as Error).message}`);
			}
			return '';
		};
		const oneOf = (field: keyof ChoiceReaders, allowed: readonly string[], what: string) => {
			const v = value(field);
			if (!allowed.includes(v))
				problems.push(
					`${LABELS[field]}: must be one of ${allowed.map((a) => JSON.stringify(a)).join(', ')}${what}, got ${JSON.stringify(v)}`,
				);
			return v;
		};
		const region = oneOf('borderRegion', ['north', 'south'], '') as SupplierChoice['region'];
		if (kind === 'global')
			return problems.length ? problems : { operation: '87', region, imports: 'services' };
		if (kind === 'national') {
			const operation = oneOf(
				'operationType',
				[...OPERATIONS_OF.national, '87'],
				' for a Mexican supplier',
			);
			return problems.length ? problems : { operation, region, imports: 'services' };
		}
		const operation = oneOf(
			'foreignOperationType',
			OPERATIONS_OF.foreign,
			' for a foreign supplier',
		);
		const imports = oneOf('imports', ['services', 'goods'], '') as SupplierChoice['imports'];
		const country = value('country').toUpperCase();
		const jurisdiction = value('jurisdiction');
		const taxId = value('taxId');
		if (!country)
			problems.push(
				`${LABELS.country}: is required for a foreign supplier (RFC ${FOREIGN_RFC}): give its 3-letter country code, e.g. with an expression per supplier`,
			);
		else if (!/^[A-Z]{3}$/.test(country) || country === 'MEX')
			problems.push(
				`${LABELS.country}: must be a foreign country's 3-letter code (ISO 3166 alpha-3, e.g. USA) or ZZZ, got ${JSON.stringify(country)}`,
			);
		if (country === 'ZZZ' && !jurisdiction)
			problems.push(`${LABELS.jurisdiction}: is required when the country is ZZZ`);
		if (taxId.length > 40)
			problems.push(`${LABELS.taxId}: must be at most 40 characters long, got ${taxId.length}`);
		return problems.length
			? problems
			: { operation, region, imports, foreign: { taxId, country, jurisdiction } };
	};
}
