import { AFTER_ITEMS, type Findings } from '../../../shared/findings';
import { moneyText, wholePesos } from '../amounts';
import type { CfdiFacts } from '../cfdiFacts';
import {
	AMOUNT_KEYS,
	DIOT_FIELDS,
	diotLine,
	fieldNumber,
	fieldText,
	FOREIGN_RFC,
	GLOBAL_RFC,
	IVA_OF,
	RETURNS_OF,
	SUPPLIER_TYPES,
	type AmountKey,
	type FieldKey,
	type IdentityKey,
	type SupplierKind,
} from './layout';
import type { Amounts, Placement } from './placement';

/**
 * The DIOT's lines: one per third party and type of operation (a Mexican supplier by its RFC, a foreign one by its
 * country and tax ID, the global line for the public in general), each amount added exactly as the month's CFDIs
 * are placed (build.ts), then rounded to whole pesos once, checked against the layout's rules, and written.
 */

/** What the bookkeeper chose for the supplier of one item (the form's per-item values, checked: choices.ts). */
export interface SupplierChoice {
	/** Tipo de operación; `87` on a national supplier's item sends it to the global line. */
	operation: string;
	region: Placement['region'];
	imports: Placement['imports'];
	/** For a foreign supplier: its tax ID, country (ISO 3166 alpha-3, or ZZZ) and, for ZZZ, its jurisdiction. */
	foreign?: { taxId: string; country: string; jurisdiction: string };
}

interface Line {
	kind: SupplierKind;
	operation: string;
	rfc?: string;
	name?: string;
	foreign?: SupplierChoice['foreign'];
	amounts: Amounts;
	cfdis: Set<string>;
}

/** A row of the output's JSON: a line's fields named in words (the non-empty ones), its CFDIs and its text. */
export type DiotRow = Record<string, string | number | string[]>;

/** The kind of third party a CFDI's issuer is, before the bookkeeper's choices. */
export function supplierKind(cfdi: CfdiFacts): SupplierKind {
	if (cfdi.issuerRfc === FOREIGN_RFC) return 'foreign';
	return cfdi.receiverRfc === GLOBAL_RFC ? 'global' : 'national';
}

/** The month's lines, as they fill. */
export class DiotLines {
	private readonly lines = new Map<string, Line>();

	/** The line of `cfdi`'s supplier under the bookkeeper's `choice`, and how its amounts are placed. */
	lineOf(cfdi: CfdiFacts, choice: SupplierChoice): { line: Line; placement: Placement } {
		let kind = supplierKind(cfdi);
		if (choice.operation === '87') kind = 'global';
		const operation = kind === 'global' ? '87' : choice.operation;
		const key =
			kind === 'national'
				? `04|${operation}|${cfdi.issuerRfc}`
				: kind === 'global'
					? '15|87'
					: `05|${operation}|${choice.foreign?.country}|${choice.foreign?.taxId || cfdi.issuerName}`;
		let line = this.lines.get(key);
		if (!line) {
			line = {
				kind,
				operation,
				rfc: kind === 'national' ? cfdi.issuerRfc : kind === 'global' ? GLOBAL_RFC : undefined,
				name: cfdi.issuerName,
				foreign: kind === 'foreign' ? choice.foreign : undefined,
				amounts: new Map(),
				cfdis: new Set(),
			};
			this.lines.set(key, line);
		}
		return { line, placement: { kind, region: choice.region, imports: choice.imports } };
	}

	/**
	 * The file's lines and the rows of the JSON, in the file's order (national suppliers by RFC, foreign, the global
	 * line), every amount rounded once; what breaks a rule of the layout is a problem naming the line.
	 */
	write(
		fiscalEffect: string,
		findings: Findings,
	): { lines: string[]; rows: DiotRow[]; sums: Map<AmountKey, bigint>; reported: Set<string> } {
		const order = (l: Line) => Object.keys(SUPPLIER_TYPES).indexOf(l.kind);
		const sorted = [...this.lines.values()].sort(
			(a, b) =>
				order(a) - order(b) ||
				(a.rfc ?? a.foreign?.country ?? '').localeCompare(b.rfc ?? b.foreign?.country ?? '') ||
				(a.foreign?.taxId ?? a.name ?? '').localeCompare(b.foreign?.taxId ?? b.name ?? '') ||
				a.operation.localeCompare(b.operation),
		);
		const out = {
			lines: [] as string[],
			rows: [] as DiotRow[],
			sums: new Map<AmountKey, bigint>(),
			reported: new Set<string>(),
		};
		for (const line of sorted) {
			// A line no CFDI added to (a payment whose every document counted elsewhere): nothing to say.
			if (!line.cfdis.size) continue;
			const values = rounded(line, findings);
			const cfdis = [...line.cfdis];
			if (!AMOUNT_KEYS.some((key) => values[key] > 0n)) {
				findings.warn(
					AFTER_ITEMS,
					`${who(line)}: no line written, every amount rounds to 0 (CFDIs ${cfdis.join(', ')})`,
				);
				continue;
			}
			checkLayout(line, values, findings);
			const identity: Partial<Record<IdentityKey, string>> = {
				supplier_type: SUPPLIER_TYPES[line.kind],
				operation_type: line.operation,
				rfc: line.rfc,
				foreign_tax_id: line.foreign ? fieldText(line.foreign.taxId, 40) : undefined,
				foreign_name: line.foreign ? fieldText(line.name ?? '', 300) : undefined,
				country: line.foreign?.country,
				jurisdiction:
					line.foreign?.country === 'ZZZ' ? fieldText(line.foreign.jurisdiction, 300) : undefined,
				// The SAT's example and Odoo 19 both write 02 on the global line.
				fiscal_effect: line.kind === 'global' ? '02' : fiscalEffect,
			};
			const text = diotLine({ ...identity, ...values });
			out.lines.push(text);
			const row: DiotRow = {};
			for (const { key } of DIOT_FIELDS.slice(0, 7)) {
				const value = identity[key as IdentityKey];
				if (value) row[key] = value;
			}
			if (line.kind === 'national' && line.name) row.supplier_name = line.name;
			for (const key of AMOUNT_KEYS)
				if (values[key] > 0n) {
					row[key] = Number(values[key]);
					out.sums.set(key, (out.sums.get(key) ?? 0n) + values[key]);
				}
			row.fiscal_effect = identity.fiscal_effect as string;
			row.cfdis = cfdis;
			row.line = text;
			out.rows.push(row);
			for (const uuid of cfdis) out.reported.add(uuid);
		}
		return out;
	}
}

/** The largest amount a field holds: 14 digits. */
const MAX_AMOUNT = 99_999_999_999_999n;

const fieldName = (key: FieldKey) => `field ${fieldNumber(key)} (${key})`;

/** How a line is named in messages. */
function who(line: Line): string {
	if (line.kind === 'national') return `Supplier ${line.rfc} (operation ${line.operation})`;
	if (line.kind === 'global') return `The global line (${GLOBAL_RFC})`;
	return `Foreign supplier ${line.name ?? ''} (${line.foreign?.country}${line.foreign?.taxId ? `, tax ID ${line.foreign.taxId}` : ''})`;
}

/** Every amount of a line in whole pesos (rounded once); negative sums written as 0 and named. */
function rounded(line: Line, findings: Findings): Record<AmountKey, bigint> {
	const values = {} as Record<AmountKey, bigint>;
	for (const key of AMOUNT_KEYS) {
		const micros = line.amounts.get(key) ?? 0n;
		let pesos = wholePesos(micros);
		if (pesos < 0n) {
			findings.problem(
				AFTER_ITEMS,
				`${who(line)}: ${fieldName(key)} adds up to ${moneyText(micros)} (credit notes of the month larger than what was paid): written as 0, since the SAT takes no negative amounts`,
			);
			pesos = 0n;
		}
		if (pesos > MAX_AMOUNT)
			findings.problem(
				AFTER_ITEMS,
				`${who(line)}: ${fieldName(key)} is ${pesos}, more than the 14 digits the field holds`,
			);
		values[key] = pesos;
	}
	return values;
}

/** The layout's rules between a line's fields: returns never above the value, IVA only beside a value. */
function checkLayout(line: Line, values: Record<AmountKey, bigint>, findings: Findings): void {
	for (const [value, returns] of RETURNS_OF)
		if (values[returns] > values[value])
			findings.problem(
				AFTER_ITEMS,
				`${who(line)}: the returns of ${fieldName(returns)}, ${values[returns]}, are more than the value paid of ${fieldName(value)}, ${values[value]}; the SAT refuses a line whose returns are more than its value (a credit note for a purchase paid in another month)`,
			);
	for (const [value, iva] of IVA_OF)
		if (values[iva] > 0n && values[value] === 0n)
			findings.problem(
				AFTER_ITEMS,
				`${who(line)}: ${fieldName(iva)} is ${values[iva]} while ${fieldName(value)} is 0; the SAT takes creditable IVA only beside a value above 0`,
			);
}
