import { AFTER_ITEMS, type Findings } from '../../../shared/findings';
import { itemLabel } from '../../../shared/errors';
import { moneyText, wholePesos } from '../amounts';
import type { CfdiFacts } from '../cfdiFacts';
import {
	AMOUNT_KEYS,
	CATEGORY_FIELDS,
	diotLine,
	fieldNumber,
	fieldText,
	FOREIGN_RFC,
	GLOBAL_RFC,
	SUPPLIER_TYPES,
	type FieldKey,
	type IdentityKey,
	type Layout,
	type LedgerKey,
	type SupplierKind,
} from './layout';
import { addAll, type Amounts, type IvaTreatment, type Placement } from './placement';

/**
 * The DIOT's lines: one per third party and type of operation (a Mexican supplier by its RFC, a foreign one by its
 * country and tax ID, the global line for the public in general), each amount added exactly as the month's CFDIs
 * are placed (build.ts), then rounded to whole pesos once, held to the layout's rules, and written. A line the
 * SAT's platform refuses is never written as if it were fine: the credit notes that make its returns larger than its
 * value are taken out of it and listed to settle by hand (`to_settle`), each named in `problems`.
 */

/** What the bookkeeper chose for the supplier of one item (the form's table and defaults, checked: choices.ts). */
export interface SupplierChoice {
	/** Tipo de operación; `87` on a national supplier's item sends it to the global line. */
	operation: string;
	/** Where 8 % IVA goes: from the CFDI's place of issue (`auto`), or the region chosen. */
	region: Placement['region'] | 'auto';
	imports: Placement['imports'];
	treatment: IvaTreatment;
	/** Field 54: `01` (fiscal effect given to the CFDIs) or `02`. */
	fiscalEffect: '01' | '02';
	/**
	 * For a foreign supplier: its tax ID, country (ISO 3166 alpha-3 or ZZZ; before 2025 the previous catalog's 2
	 * letters), for ZZZ its jurisdiction, and its nationality (before 2025). Empty when not given.
	 */
	foreign?: { taxId: string; country: string; jurisdiction: string; nationality: string };
}

/** A credit note whose return is in a line: its item and what it added, to take it out if the line cannot hold it. */
interface Note {
	index: number;
	amounts: Amounts;
}

export interface Line {
	kind: SupplierKind;
	operation: string;
	fiscalEffect: '01' | '02';
	rfc?: string;
	name?: string;
	foreign?: SupplierChoice['foreign'];
	amounts: Amounts;
	cfdis: Set<string>;
	/** The credit notes whose returns it holds, by UUID. */
	notes: Map<string, Note>;
	/** What its CFDIs say of the type of operation (for a suggestion, never applied). */
	hints: { isrWithheld: boolean; rent: boolean };
}

/** A row of the output's JSON: a line's fields named in words (the non-empty ones), its CFDIs and its text. */
export type DiotRow = Record<string, string | number>;

/** A supplier's credit notes the file cannot hold (returns above the value paid), to settle by hand. */
export type SettleRow = Record<string, string | number | string[]>;

/** A line with every amount rounded once, as the layouts write it. */
export interface RoundedLine {
	line: Line;
	values: Record<LedgerKey, bigint>;
	cfdis: string[];
}

/** The kind of third party a CFDI's issuer is, before the bookkeeper's choices. */
export function supplierKind(cfdi: CfdiFacts): SupplierKind {
	if (cfdi.issuerRfc === FOREIGN_RFC) return 'foreign';
	return cfdi.receiverRfc === GLOBAL_RFC ? 'global' : 'national';
}

/** How a line is named in messages. */
export function who(line: Line): string {
	if (line.kind === 'national') return `Supplier ${line.rfc} (operation ${line.operation})`;
	if (line.kind === 'global') return `The global line (${GLOBAL_RFC})`;
	return `Foreign supplier ${line.name ?? ''} (${line.foreign?.country}${line.foreign?.taxId ? `, tax ID ${line.foreign.taxId}` : ''})`;
}

const fieldName = (key: FieldKey) => `field ${fieldNumber(key)} (${key})`;

/** The amount fields a CFDI's own amounts went to: `fields 13, 22`. */
export function fieldsOf(amounts: Amounts): string {
	const numbers = AMOUNT_KEYS.filter((key) => (amounts.get(key) ?? 0n) !== 0n).map(fieldNumber);
	if (!numbers.length) return 'no field';
	return `field${numbers.length > 1 ? 's' : ''} ${numbers.join(', ')}`;
}

/**
 * Every amount of a line in whole pesos (rounded once); negative sums written as 0, and named when `findings` are
 * given (the 2025 layout's fields; the layout before 2025 adds them into its own, and names its own: previous.ts).
 */
function rounded(line: Line, findings?: Findings): Record<LedgerKey, bigint> {
	const values = {} as Record<LedgerKey, bigint>;
	for (const [key, micros] of line.amounts) values[key] = wholePesos(micros);
	for (const key of AMOUNT_KEYS) {
		const micros = line.amounts.get(key) ?? 0n;
		const pesos = values[key] ?? 0n;
		if (pesos < 0n)
			findings?.problem(
				AFTER_ITEMS,
				`${who(line)}: ${fieldName(key)} adds up to ${moneyText(micros)} (credit notes of the month larger than what was paid): written as 0, since the SAT takes no negative amounts`,
			);
		values[key] = pesos < 0n ? 0n : pesos;
	}
	return values;
}

/** The month's lines, as they fill. */
export class DiotLines {
	private readonly lines = new Map<string, Line>();
	/** The credit notes taken out of their line, to settle by hand. */
	readonly toSettle: SettleRow[] = [];

	/**
	 * The line of `cfdi`'s supplier under the bookkeeper's `choice` (its IVA treatment for the amounts placed), or
	 * why the choice contradicts another item's for the same line.
	 */
	lineOf(cfdi: CfdiFacts, choice: SupplierChoice): Line | string {
		let kind = supplierKind(cfdi);
		if (choice.operation === '87') kind = 'global';
		const operation = kind === 'global' ? '87' : choice.operation;
		const key =
			kind === 'national'
				? `04|${operation}|${cfdi.issuerRfc}`
				: kind === 'global'
					? '15|87'
					: `05|${operation}|${choice.foreign?.country}|${choice.foreign?.taxId || cfdi.issuerName}`;
		// The global line's CFDIs name no receiver: no fiscal effect is given to them (field 54 02, the SAT's example).
		const fiscalEffect = kind === 'global' ? '02' : choice.fiscalEffect;
		let line = this.lines.get(key);
		if (!line) {
			line = {
				kind,
				operation,
				fiscalEffect,
				rfc: kind === 'national' ? cfdi.issuerRfc : kind === 'global' ? GLOBAL_RFC : undefined,
				name: cfdi.issuerName,
				foreign: kind === 'foreign' ? choice.foreign : undefined,
				amounts: new Map(),
				cfdis: new Set(),
				notes: new Map(),
				hints: { isrWithheld: false, rent: false },
			};
			this.lines.set(key, line);
		} else if (line.fiscalEffect !== fiscalEffect)
			return `Fiscal Effect (Field 54): ${fiscalEffect} for ${who(line)}, whose other CFDIs have ${line.fiscalEffect}: a line has one`;
		if (cfdi.issuerRegime === '606') line.hints.rent = true;
		return line;
	}

	/** The amounts of CFDI `uuid` added to `line` (`note`: a credit note's return, which the line may not hold). */
	add(line: Line, uuid: string, amounts: Amounts, note?: { index: number }): void {
		addAll(line.amounts, amounts);
		line.cfdis.add(uuid);
		if (note) {
			const held = line.notes.get(uuid);
			if (held) addAll(held.amounts, amounts);
			else line.notes.set(uuid, { index: note.index, amounts: new Map(amounts) });
		}
	}

	/**
	 * Every line with its amounts rounded once, in the file's order (national suppliers by RFC, foreign, the global
	 * line). A category whose returns are more than its value paid — which the SAT's platform refuses — loses the
	 * credit notes that returned in it: they are listed in `toSettle` and each named in `problems` by its UUID.
	 */
	rounded(findings: Findings, layout: Layout): RoundedLine[] {
		const order = (l: Line) => Object.keys(SUPPLIER_TYPES).indexOf(l.kind);
		const sorted = [...this.lines.values()].sort(
			(a, b) =>
				order(a) - order(b) ||
				(a.rfc ?? a.foreign?.country ?? '').localeCompare(b.rfc ?? b.foreign?.country ?? '') ||
				(a.foreign?.taxId ?? a.name ?? '').localeCompare(b.foreign?.taxId ?? b.name ?? '') ||
				a.operation.localeCompare(b.operation),
		);
		const out: RoundedLine[] = [];
		// Returns never above the value paid, and no negative field, are rules of the 2025 layout: the layout before
		// 2025 has no field for the value of returns, and writePrevious checks its own fields.
		const current = layout === 'current';
		for (const line of sorted) {
			if (current) this.settleReturns(line, findings);
			// A line no CFDI added to (a payment whose every document counted elsewhere): nothing to say.
			if (!line.cfdis.size) continue;
			out.push({
				line,
				values: rounded(line, current ? findings : undefined),
				cfdis: [...line.cfdis],
			});
		}
		return out;
	}

	/** Takes out of `line` the credit notes of each category whose returns pass its value paid. */
	private settleReturns(line: Line, findings: Findings): void {
		for (const { paid, returns } of CATEGORY_FIELDS) {
			const value = wholePesos(line.amounts.get(paid) ?? 0n);
			const given = wholePesos(line.amounts.get(returns) ?? 0n);
			if (given <= value) continue;
			for (const [uuid, note] of line.notes) {
				if (!(note.amounts.get(returns) ?? 0n)) continue;
				addAll(line.amounts, note.amounts, -1n);
				line.notes.delete(uuid);
				line.cfdis.delete(uuid);
				const row: SettleRow = { supplier: who(line), cfdi: uuid };
				for (const key of AMOUNT_KEYS) {
					const micros = note.amounts.get(key);
					if (micros) row[key] = Number(wholePesos(micros));
				}
				this.toSettle.push(row);
				findings.problem(
					note.index,
					`${itemLabel(note.index)} credit note ${uuid}: not in the file, in to_settle — ${who(line)} has returns of ${given} in ${fieldName(returns)} but a value paid of ${value} in ${fieldName(paid)} this month, and the SAT refuses a line whose returns are more than its value (a credit note for a purchase paid in another month). The line is written without it; its return (${fieldsOf(note.amounts)}) is to settle by hand: set it against a later month's purchases from the supplier, or capture it in the SAT's form.`,
				);
			}
		}
	}
}

/** The lines a layout writes, and the rows of the JSON: one each per line, in the file's order. */
export class Written {
	readonly lines: string[] = [];
	readonly rows: DiotRow[] = [];
	/** Each amount field's sum over the lines (the totals). */
	readonly sums = new Map<string, bigint>();
	/** The CFDIs of the lines written. */
	readonly reported = new Set<string>();

	/**
	 * Line `text` of `line`: its row has the identity's non-empty fields, a Mexican supplier's name, the amounts
	 * above 0, `after` (field 54), its CFDIs and its text.
	 */
	add(
		{ line, cfdis }: Pick<RoundedLine, 'line' | 'cfdis'>,
		text: string,
		identity: Readonly<Record<string, string | undefined>>,
		amounts: Iterable<[string, bigint]>,
		after: Readonly<Record<string, string>> = {},
	): void {
		this.lines.push(text);
		const row: DiotRow = {};
		for (const [key, value] of Object.entries(identity)) if (value) row[key] = value;
		if (line.kind === 'national' && line.name) row.supplier_name = line.name;
		for (const [key, pesos] of amounts)
			if (pesos > 0n) {
				row[key] = Number(pesos);
				this.sums.set(key, (this.sums.get(key) ?? 0n) + pesos);
			}
		Object.assign(row, after);
		// One column in a sheet (n8n's Convert to File writes an array as cfdis.0, cfdis.1…), as the ATS's rows.
		row.cfdis = cfdis.join(', ');
		row.line = text;
		this.rows.push(row);
		for (const uuid of cfdis) this.reported.add(uuid);
	}
}

/** The largest amount a field of the 2025 layout holds: 14 digits. */
const MAX_AMOUNT = 99_999_999_999_999n;

/**
 * The 54-field lines and rows of the JSON, from the rounded lines; what breaks a rule of the layout is a problem
 * naming the line, what often makes the SAT's platform refuse a line (IVA above its value times its rate) a warning.
 */
export function writeCurrent(lines: readonly RoundedLine[], findings: Findings): Written {
	const out = new Written();
	for (const rounded of lines) {
		const { line, values, cfdis } = rounded;
		if (!AMOUNT_KEYS.some((key) => values[key] > 0n)) {
			findings.warn(
				AFTER_ITEMS,
				`${who(line)}: no line written, every amount rounds to 0 (CFDIs ${cfdis.join(', ')})`,
			);
			continue;
		}
		checkLayout(line, values, findings);
		hintOperation(line, findings);
		const identity: Partial<Record<IdentityKey, string>> = {
			supplier_type: SUPPLIER_TYPES[line.kind],
			operation_type: line.operation,
			rfc: line.rfc,
			foreign_tax_id: line.foreign ? fieldText(line.foreign.taxId, 40) : undefined,
			foreign_name: line.foreign ? fieldText(line.name ?? '', 300) : undefined,
			country: line.foreign?.country,
			jurisdiction:
				line.foreign?.country === 'ZZZ' ? fieldText(line.foreign.jurisdiction, 300) : undefined,
		};
		const amounts = AMOUNT_KEYS.map((key): [string, bigint] => [key, values[key]]);
		const text = diotLine({
			...identity,
			...Object.fromEntries(amounts),
			fiscal_effect: line.fiscalEffect,
		});
		out.add(rounded, text, identity, amounts, { fiscal_effect: line.fiscalEffect });
	}
	return out;
}

/**
 * A suggestion, never applied: a Mexican supplier on `85` whose CFDIs withhold ISR (professional fees, `03`) or
 * whose regime is leasing (606, `06`).
 */
export function hintOperation(line: Line, findings: Findings): void {
	if (line.kind !== 'national' || line.operation !== '85') return;
	const [code, why] = line.hints.rent
		? ['06', 'its RegimenFiscal is 606 (arrendamiento)']
		: line.hints.isrWithheld
			? ['03', 'its CFDIs withhold ISR, as professional fees do']
			: [];
	if (code)
		findings.warn(
			AFTER_ITEMS,
			`${who(line)}: ${why}: its type of operation may be ${code}, not 85 — choose it in the Suppliers table (row ${line.rfc}) if so`,
		);
}

/**
 * The layout's rules between a line's fields: amounts of at most 14 digits, returns never above the value (taken
 * care of before: DiotLines.rounded), IVA only beside a value; and a warning where its IVA passes round(value ×
 * rate), which one public DIOT tool reports the SAT's platform refusing ("IVA acreditable greater than IVA pagado").
 */
function checkLayout(line: Line, values: Record<LedgerKey, bigint>, findings: Findings): void {
	for (const key of AMOUNT_KEYS)
		if (values[key] > MAX_AMOUNT)
			findings.problem(
				AFTER_ITEMS,
				`${who(line)}: ${fieldName(key)} is ${values[key]}, more than the 14 digits the field holds`,
			);
	for (const { paid, returns, rate, iva } of CATEGORY_FIELDS) {
		const ivaTotal = iva.reduce((sum, key) => sum + values[key], 0n);
		const filled = iva.filter((key) => values[key] > 0n);
		if (filled.length && values[paid] === 0n)
			findings.problem(
				AFTER_ITEMS,
				`${who(line)}: ${filled.map(fieldName).join(', ')} ${filled.length > 1 ? 'are' : 'is'} filled while ${fieldName(paid)} is 0; the SAT takes IVA only beside a value above 0`,
			);
		const net = values[paid] - values[returns];
		// round(net × rate): whole pesos × 0.16 or 0.08 never ends in exactly half a peso.
		const cap = (net * rate + 500_000n) / 1_000_000n;
		if (net > 0n && ivaTotal > cap)
			findings.warn(
				AFTER_ITEMS,
				`${who(line)}: its IVA of ${fieldName(paid)} adds up to ${ivaTotal} (${filled.map((k) => fieldNumber(k)).join(' + ')}), more than ${values[paid]}${values[returns] ? ` − ${values[returns]}` : ''} × ${rate === 80_000n ? '8' : '16'} % = ${cap} after rounding: the SAT's platform may refuse IVA above the value paid times its rate (one public DIOT tool reports it; unconfirmed). The CFDIs' IVA, rounded apart from their bases, is what was paid: keep it, or lower it by the difference if the platform refuses the file.`,
			);
	}
}
