import { decimalOf } from '../../../shared/decimal';
import { describe } from '../../../shared/text';
import type { CfdiFacts } from '../cfdiFacts';
import { FOREIGN_RFC, GLOBAL_RFC, OPERATIONS_OF } from './layout';
import { supplierKind, type SupplierChoice } from './lines';
import type { IvaTreatment } from './placement';

/**
 * The bookkeeper's choices for the supplier of each item — the type of operation, the 8 % region, the IVA
 * treatment, field 54, a foreign supplier's country, tax ID, jurisdiction, nationality and imports — from the form's
 * Suppliers table (a row per RFC, or per foreign supplier's name) and, for what a row leaves to them or for a
 * supplier without a row, the form's fields for the other suppliers (fixed, or expressions read per item). Each is
 * checked against the catalogs: what does not fit the item's supplier is said, each a message that follows the
 * item's name (build.ts turns them into the stop of the run).
 */

/** The choices, by their parameter name in the form. */
type Choice = keyof typeof LABELS;

/** The form's labels, for the messages about a value chosen for an item. */
const LABELS = {
	operationType: 'Type of Operation',
	foreignOperationType: 'Foreign Type of Operation',
	borderRegion: '8 % IVA Region',
	ivaTreatment: 'IVA Treatment',
	ivaProportion: 'Creditable Proportion',
	fiscalEffect: 'Fiscal Effect (Field 54)',
	country: 'Foreign Supplier → Country',
	jurisdiction: 'Foreign Supplier → Jurisdiction',
	taxId: 'Foreign Supplier → Tax ID',
	imports: 'Foreign Supplier → Imports at 16 %',
	nationality: 'Foreign Supplier → Nationality',
};

/** Readers of the form's per-item values for the other suppliers (shared/parameters.ts `parameterReader`). */
type DefaultReaders = Record<Choice, (item: number) => unknown>;

/** A row of the Suppliers table as the form gives it: `rfc` and the choices it sets (empty: the other suppliers'). */
export type SupplierRow = Record<string, unknown>;

/** The row's name of each choice (a row's Type of Operation serves a Mexican or a foreign supplier). */
const ROW_FIELD: Record<Choice, string> = {
	operationType: 'operationType',
	foreignOperationType: 'operationType',
	borderRegion: 'borderRegion',
	ivaTreatment: 'ivaTreatment',
	ivaProportion: 'ivaProportion',
	fiscalEffect: 'fiscalEffect',
	country: 'country',
	jurisdiction: 'jurisdiction',
	taxId: 'taxId',
	imports: 'imports',
	nationality: 'nationality',
};

const TREATMENTS = ['taxed', 'proportional', 'requirements', 'exempt', 'not_subject'];

/** How a supplier is looked up in the table: its RFC, or a foreign supplier's name (case and spaces aside). */
const keyOf = (text: string) => text.trim().replace(/\s+/g, ' ').toUpperCase();

/**
 * The choices for the supplier of an item, or what is wrong with them; `problems`: what is wrong with the table
 * itself (a row without a supplier, two rows for one), each naming its row.
 */
export function chooser(
	defaults: DefaultReaders,
	table: readonly SupplierRow[],
	layout: 'current' | 'previous',
): { problems: string[]; choose: (item: number, cfdi: CfdiFacts) => SupplierChoice | string[] } {
	const problems: string[] = [];
	const rows = new Map<string, SupplierRow>();
	table.forEach((row, k) => {
		const key = keyOf(typeof row.rfc === 'string' ? row.rfc : '');
		const where = `Suppliers → row ${k + 1}`;
		if (!key) problems.push(`${where}: RFC or Foreign Name is required`);
		else if (key === GLOBAL_RFC || key === FOREIGN_RFC)
			problems.push(
				`${where}: ${key} is a generic RFC: ${key === GLOBAL_RFC ? "the global line's values are fixed (87, not creditable, field 54 02)" : 'give the foreign supplier’s name (Emisor Nombre) instead'}`,
			);
		else if (rows.has(key)) problems.push(`${where}: a second row for ${key}`);
		else rows.set(key, row);
	});

	const choose = (item: number, cfdi: CfdiFacts): SupplierChoice | string[] => {
		const kind = supplierKind(cfdi);
		const rowKey = keyOf((kind === 'foreign' ? cfdi.issuerName : cfdi.issuerRfc) ?? '');
		const row = rowKey ? rows.get(rowKey) : undefined;
		const wrong: string[] = [];
		const fromRow = new Set<Choice>();
		const labelOf = (choice: Choice) =>
			fromRow.has(choice) ? `Suppliers → ${rowKey} → ${LABELS[choice]}` : LABELS[choice];
		const value = (choice: Choice): string => {
			const own = row?.[ROW_FIELD[choice]];
			if ((typeof own === 'string' && own.trim()) || typeof own === 'number') {
				fromRow.add(choice);
				return String(own).trim();
			}
			try {
				const v = defaults[choice](item);
				if (typeof v === 'string' || typeof v === 'number') return String(v).trim();
				if (v === undefined || v === null) return '';
				wrong.push(`${LABELS[choice]}: must be text, got ${describe(v)}`);
			} catch (error) {
				wrong.push(`${LABELS[choice]}: the expression failed: ${(error as Error).message}`);
			}
			return '';
		};
		const oneOf = (choice: Choice, allowed: readonly string[], what: string) => {
			const v = value(choice);
			if (!allowed.includes(v))
				wrong.push(
					`${labelOf(choice)}: must be one of ${allowed.map((a) => JSON.stringify(a)).join(', ')}${what}, got ${JSON.stringify(v)}`,
				);
			return v;
		};
		const region = oneOf(
			'borderRegion',
			['auto', 'north', 'south'],
			'',
		) as SupplierChoice['region'];
		const fiscalEffect = oneOf('fiscalEffect', ['01', '02'], '') as SupplierChoice['fiscalEffect'];
		const treatmentKind = oneOf('ivaTreatment', TREATMENTS, '');
		let treatment: IvaTreatment = { kind: 'taxed' };
		if (treatmentKind === 'proportional') {
			const text = value('ivaProportion');
			const factor = decimalOf(text);
			if (!factor || factor.n < 0n || factor.n > 10n ** BigInt(factor.scale))
				wrong.push(
					`${labelOf('ivaProportion')}: must be the creditable part, from 0 to 1 (e.g. 0.8523), got ${JSON.stringify(text)}`,
				);
			else treatment = { kind: 'proportional', factor };
		} else if (TREATMENTS.includes(treatmentKind))
			treatment = { kind: treatmentKind } as IvaTreatment;
		const base = { region, fiscalEffect, treatment, imports: 'services' as const };
		if (kind === 'global') return wrong.length ? wrong : { ...base, operation: '87' };
		if (kind === 'national') {
			const operation = oneOf(
				'operationType',
				[...OPERATIONS_OF.national, '87'],
				' for a Mexican supplier',
			);
			return wrong.length ? wrong : { ...base, operation };
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
		const nationality = value('nationality');
		const letters = layout === 'current' ? 3 : 2;
		if (
			country &&
			(!new RegExp(`^[A-Z]{${letters}}$`).test(country) || country === 'MEX' || country === 'MX')
		)
			wrong.push(
				layout === 'current'
					? `${labelOf('country')}: must be a foreign country's 3-letter code (ISO 3166 alpha-3, e.g. USA) or ZZZ, got ${JSON.stringify(country)}`
					: `${labelOf('country')}: before 2025 the country is the previous catalog's 2-letter code (e.g. US; XX for another), got ${JSON.stringify(country)}`,
			);
		if (layout === 'current' && country === 'ZZZ' && !jurisdiction)
			wrong.push(`${labelOf('jurisdiction')}: is required when the country is ZZZ`);
		if (taxId.length > 40)
			wrong.push(`${labelOf('taxId')}: must be at most 40 characters long, got ${taxId.length}`);
		if (nationality.length > 40)
			wrong.push(
				`${labelOf('nationality')}: must be at most 40 characters long, got ${nationality.length}`,
			);
		return wrong.length
			? wrong
			: {
					...base,
					operation,
					imports,
					foreign: { taxId, country, jurisdiction, nationality },
				};
	};
	return { problems, choose };
}

/** What a foreign supplier's line must have that the choices left empty (it is then left out, named), or none. */
export function missingForeign(choice: SupplierChoice, layout: 'current' | 'previous'): string[] {
	const f = choice.foreign;
	if (!f) return [];
	const missing: string[] = [];
	if (!f.country) missing.push('its country (Country)');
	// Field 4 is required for a foreign supplier in 2025; before, its nationality was (with its name).
	if (layout === 'current' && !f.taxId) missing.push('its tax ID (Tax ID, field 4)');
	if (layout === 'previous' && !f.nationality) missing.push('its nationality (Nationality)');
	return missing;
}
