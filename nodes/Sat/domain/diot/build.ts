import type { IDataObject } from 'n8n-workflow';
import { itemLabel } from '../../../shared/errors';
import { convert, moneyText, wholePesos, type Decimal } from './amounts';
import { cashBasis } from './cashBasis';
import type { CfdiFacts, ConceptoFacts, PaidDocument, TaxLine } from './facts';
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
	type SupplierKind,
} from './layout';
import {
	placeNotSubject,
	placeTransfer,
	placeWithholding,
	type Amounts,
	type Placement,
	type Sign,
} from './placement';

/**
 * The DIOT of one month from the month's CFDIs: which CFDIs count (cashBasis.ts), where their amounts go
 * (placement.ts), one line per supplier and type of operation, every amount rounded once at the end, and the file
 * (layout.ts). Pure: the operation reads the items and the form, this decides. Nothing is dropped silently: every
 * CFDI is in a row or named in `warnings` (left out, and why) or `problems` (what may make the file wrong).
 */

export interface DiotInput {
	/** The n8n input item (from 0). */
	index: number;
	cfdi: CfdiFacts;
	/** Check CFDI Status's answer carried by the item, when it is about this CFDI. */
	status?: { estado?: string; found?: boolean };
	/**
	 * Which file the CFDI was read from (the stored file, or its name and content): items that carry the same file
	 * — the rows of Read CFDI XML's One Item per Concepto, each with its CFDI's file — are that CFDI once, not
	 * duplicates of it.
	 */
	file?: string;
}

/** What the bookkeeper chose for the supplier of one item (the form's per-item values, checked). */
export interface SupplierChoice {
	/** Tipo de operación; `87` on a national supplier's item sends it to the global line. */
	operation: string;
	region: Placement['region'];
	imports: Placement['imports'];
	/** For a foreign supplier: its tax ID, country (ISO 3166 alpha-3, or ZZZ) and, for ZZZ, its jurisdiction. */
	foreign?: { taxId: string; country: string; jurisdiction: string };
}

interface DiotSettings {
	/** The taxpayer's RFC (the receiver of the CFDIs), upper case. */
	taxpayer: string;
	/** `YYYY-MM`. */
	period: string;
	/** Field 54 of the suppliers' lines: `01` or `02`. */
	fiscalEffect: string;
	/** The choices for the supplier of item `index`, or why they are wrong (each a message without the item). */
	choose(index: number, kind: SupplierKind): SupplierChoice | string[];
}

interface DiotResult {
	/** The file's lines, in order. */
	lines: string[];
	/** One per line: its fields named in words (the non-empty ones), its CFDIs and its text. */
	rows: IDataObject[];
	totals: IDataObject;
	warnings: string[];
	problems: string[];
	/** Bad input (a choice that is wrong for its item): no file may be built. */
	errors: string[];
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

const ONE: Decimal = { n: 1n, scale: 0 };

/** The rate that turns amounts in `currency` into pesos (MXN and XXX, no currency, are pesos already). */
function pesosRate(currency: string | undefined, rate: Decimal | undefined): Decimal | undefined {
	return currency === undefined || currency === 'MXN' || currency === 'XXX' ? ONE : rate;
}

/** A tax line converted to pesos. */
function inPesos(line: TaxLine, toPesos: (micros: bigint) => bigint): TaxLine {
	return {
		...line,
		base: line.base === undefined ? undefined : toPesos(line.base),
		amount: line.amount === undefined ? undefined : toPesos(line.amount),
	};
}

/** The largest amount a field holds: 14 digits. */
const MAX_AMOUNT = 99_999_999_999_999n;

const fieldName = (key: string) => `field ${fieldNumber(key)} (${key})`;

export function buildDiot(inputs: readonly DiotInput[], settings: DiotSettings): DiotResult {
	const { taxpayer, period } = settings;
	// Messages about an item are listed in item order; those about a line, after them.
	const warnings: Array<[number, string]> = [];
	const problems: Array<[number, string]> = [];
	const errors: string[] = [];
	const LINE = Number.MAX_SAFE_INTEGER;
	const leftOut = new Set<number>();
	const label = ({ index, cfdi }: DiotInput) =>
		`${itemLabel(index)} CFDI ${cfdi.uuid ?? '(no UUID)'}${cfdi.issuerRfc ? ` from ${cfdi.issuerRfc}` : ''}`;
	const leave = (input: DiotInput, why: string, problem = false) => {
		leftOut.add(input.index);
		(problem ? problems : warnings).push([input.index, `${label(input)}: left out, ${why}`]);
	};

	// One CFDI per UUID: the same CFDI downloaded twice counts once. Items carrying the very same file (the rows of
	// One Item per Concepto, each with its CFDI's file) are that CFDI once, and say nothing.
	const byUuid = new Map<string, DiotInput>();
	const filesOf = new Map<string, Set<string>>();
	const unique: DiotInput[] = [];
	for (const input of inputs) {
		const { uuid } = input.cfdi;
		const first = uuid === undefined ? undefined : byUuid.get(uuid);
		const files = uuid === undefined ? undefined : filesOf.get(uuid);
		if (uuid === undefined)
			leave(
				input,
				'it has no stamp (TimbreFiscalDigital): it is not a valid CFDI until the SAT stamps it',
			);
		else if (input.file !== undefined && files?.has(input.file)) continue;
		else if (first) {
			if (input.file !== undefined) files?.add(input.file);
			leave(input, `a duplicate of ${itemLabel(first.index)} (the same UUID)`);
		} else {
			byUuid.set(uuid, input);
			filesOf.set(uuid, new Set(input.file === undefined ? [] : [input.file]));
			unique.push(input);
		}
	}

	const lines = new Map<string, Line>();
	/** The supplier line of an item, by the bookkeeper's choices for it; undefined when they are wrong. */
	const lineOf = (input: DiotInput): { line: Line; placement: Placement } | undefined => {
		const { cfdi, index } = input;
		let kind: SupplierKind =
			cfdi.issuerRfc === FOREIGN_RFC
				? 'foreign'
				: cfdi.receiverRfc === GLOBAL_RFC
					? 'global'
					: 'national';
		const choice = settings.choose(index, kind);
		if (Array.isArray(choice)) {
			for (const e of choice) errors.push(`${itemLabel(index)} ${e}`);
			return undefined;
		}
		if (choice.operation === '87') kind = 'global';
		const operation = kind === 'global' ? '87' : choice.operation;
		const key =
			kind === 'national'
				? `04|${operation}|${cfdi.issuerRfc}`
				: kind === 'global'
					? '15|87'
					: `05|${operation}|${choice.foreign?.country}|${choice.foreign?.taxId || cfdi.issuerName}`;
		let line = lines.get(key);
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
			lines.set(key, line);
		}
		return { line, placement: { kind, region: choice.region, imports: choice.imports } };
	};

	/** Places one concepto of an invoice or credit note; returns why part of it has no place. */
	const placeConcepto = (
		into: Amounts,
		c: ConceptoFacts,
		p: Placement,
		sign: Sign,
		toPesos: (micros: bigint) => bigint,
	): string[] => {
		const iva = c.traslados.filter((t) => t.tax === '002');
		// CFDI 3.3 has no ObjetoImp: a concepto without IVA lines is not subject to it.
		if (c.objetoImp === '01' || (c.objetoImp === undefined && !iva.length)) {
			placeNotSubject(into, toPesos(c.amount), p, sign);
			return [];
		}
		if (c.objetoImp !== undefined && c.objetoImp !== '02')
			return [
				`ObjetoImp ${c.objetoImp} (${moneyText(c.amount)}): the CFDI does not break its IVA down, so it has no place in the DIOT`,
			];
		const why: string[] = [];
		if (!iva.length)
			why.push(`subject to tax (ObjetoImp 02) without an IVA line (${moneyText(c.amount)})`);
		for (const t of c.traslados) {
			const problem = placeTransfer(into, inPesos(t, toPesos), p, sign);
			if (problem) why.push(problem);
		}
		for (const r of c.retenciones) placeWithholding(into, inPesos(r, toPesos), sign);
		return why;
	};

	/** Places the part of an invoice paid by one DoctoRelacionado; returns why part of it has no place. */
	const placePaid = (
		into: Amounts,
		doc: PaidDocument,
		invoice: CfdiFacts | undefined,
		p: Placement,
		toPesos: (micros: bigint) => bigint,
	): string[] => {
		if (doc.objetoImp === '01') {
			placeNotSubject(into, toPesos(doc.paid ?? 0n), p, 1n);
			return [];
		}
		if (!doc.hasTaxes)
			return [
				`it pays ${moneyText(doc.paid ?? 0n)} of ${doc.uuid} (ObjetoImpDR ${doc.objetoImp ?? 'absent'}) without its taxes (ImpuestosDR): not placed`,
			];
		const why: string[] = [];
		for (const t of doc.traslados) {
			const problem = placeTransfer(into, inPesos(t, toPesos), p, 1n);
			if (problem) why.push(`paying ${doc.uuid}: ${problem}`);
		}
		for (const r of doc.retenciones) placeWithholding(into, inPesos(r, toPesos), 1n);
		// ImpuestosDR has the taxes of the part paid, not the conceptos of the invoice that are not subject to
		// IVA: the part of those paid is in proportion to what was paid of the invoice's total.
		const notSubject = (invoice?.conceptos ?? [])
			.filter((c) => c.objetoImp === '01')
			.reduce((sum, c) => sum + c.amount, 0n);
		if (notSubject > 0n && invoice?.total && doc.paid)
			placeNotSubject(
				into,
				toPesos(convert(notSubject, { n: doc.paid, scale: 6 }, { n: invoice.total, scale: 6 })),
				p,
				1n,
			);
		return why;
	};

	const paidInvoices = new Set<string>();
	const ppd: DiotInput[] = [];
	for (const input of unique) {
		const { cfdi } = input;
		const uuid = cfdi.uuid as string;
		if (cfdi.version === '3.2') {
			leave(
				input,
				'a CFDI 3.2 (issued before 2018): its taxes per concepto are unknown, so its amounts cannot be placed',
			);
			continue;
		}
		if (input.status?.estado?.toLowerCase() === 'cancelado') {
			leave(input, 'the SAT says it is cancelled (Cancelado, from Check CFDI Status)');
			continue;
		}
		if (cfdi.issuerRfc === taxpayer) {
			leave(
				input,
				`issued by the taxpayer ${taxpayer} itself: the DIOT reports what the taxpayer paid its suppliers`,
			);
			continue;
		}
		if (cfdi.receiverRfc !== taxpayer && cfdi.receiverRfc !== GLOBAL_RFC) {
			leave(
				input,
				`issued to ${cfdi.receiverRfc ?? 'no receiver RFC'}, not to the taxpayer ${taxpayer}`,
			);
			continue;
		}
		if (cfdi.unreadable.length) {
			leave(input, `its amounts cannot be read: ${cfdi.unreadable.join('; ')}`, true);
			continue;
		}
		const counting = cashBasis(cfdi, period);
		if (counting.counts === 'no') {
			leave(input, counting.why);
			continue;
		}
		if (input.status?.found === false)
			warnings.push([
				input.index,
				`${label(input)}: the SAT did not find it (No Encontrado, from Check CFDI Status): reported, but check it before filing`,
			]);
		if (counting.counts === 'through-payments') {
			ppd.push(input);
			continue;
		}
		const supplier = lineOf(input);
		if (!supplier) continue;
		const { line, placement } = supplier;

		if (counting.counts === 'invoice' || counting.counts === 'credit-note') {
			const rate = pesosRate(cfdi.currency, cfdi.rate);
			if (!rate) {
				leave(input, `it is in ${cfdi.currency} without an exchange rate (TipoCambio)`, true);
				continue;
			}
			const sign: Sign = counting.counts === 'invoice' ? 1n : -1n;
			const why = cfdi.conceptos.flatMap((c, k) =>
				placeConcepto(line.amounts, c, placement, sign, (m) => convert(m, rate)).map(
					(w) => `Concepto ${k + 1}: ${w}`,
				),
			);
			for (const w of why) problems.push([input.index, `${label(input)}: ${w}`]);
			line.cfdis.add(uuid);
			continue;
		}

		// A payment CFDI: each payment of the month, each invoice it pays.
		let counted = 0;
		for (const payment of counting.payments) {
			const day = (payment.date ?? '').slice(0, 10);
			for (const doc of payment.documents) {
				const invoice = byUuid.get(doc.uuid);
				if (invoice && invoice.cfdi.type === 'I' && invoice.cfdi.method !== 'PPD') {
					warnings.push([
						input.index,
						`${label(input)}: its payment of ${day} of invoice ${doc.uuid} (${itemLabel(invoice.index)}) is not counted: that invoice is PUE, so it counts in the month of its own date`,
					]);
					continue;
				}
				// ImpuestosDR are in the paid document's currency: pesos already for a document in MXN; otherwise
				// turned into the payment's currency (÷ EquivalenciaDR) and into pesos (× TipoCambioP).
				const currency = doc.currency ?? payment.currency ?? 'MXN';
				const rate = pesosRate(payment.currency, payment.rate);
				const equivalence = doc.equivalence ?? (currency === payment.currency ? ONE : undefined);
				if (currency !== 'MXN' && (!rate || !equivalence)) {
					problems.push([
						input.index,
						`${label(input)}: it pays ${doc.uuid} in ${currency} with a payment of ${day} in ${payment.currency ?? 'no currency'} without ${rate ? 'EquivalenciaDR' : 'TipoCambioP'}, so the amounts cannot be turned into pesos: not placed`,
					]);
					continue;
				}
				const toPesos = (m: bigint) => (currency === 'MXN' ? m : convert(m, rate, equivalence));
				if (!invoice)
					warnings.push([
						input.index,
						`${label(input)}: its payment of ${day} pays invoice ${doc.uuid}, which is not among the input items: counted from the payment's own taxes (ImpuestosDR)`,
					]);
				for (const w of placePaid(line.amounts, doc, invoice?.cfdi, placement, toPesos))
					problems.push([input.index, `${label(input)}: ${w}`]);
				line.cfdis.add(uuid);
				if (invoice) {
					line.cfdis.add(doc.uuid);
					paidInvoices.add(doc.uuid);
				}
				counted++;
			}
		}
		if (!counted) leftOut.add(input.index);
	}
	for (const input of ppd)
		if (!paidInvoices.has(input.cfdi.uuid as string))
			leave(
				input,
				`a PPD invoice (paid in installments or later) with no payment dated in ${period} among the input items: it counts in the month its payment CFDI says it was paid`,
			);

	// Every amount rounded once, per supplier and field.
	const order = (l: Line) => Object.keys(SUPPLIER_TYPES).indexOf(l.kind);
	const sorted = [...lines.values()].sort(
		(a, b) =>
			order(a) - order(b) ||
			(a.rfc ?? a.foreign?.country ?? '').localeCompare(b.rfc ?? b.foreign?.country ?? '') ||
			(a.foreign?.taxId ?? a.name ?? '').localeCompare(b.foreign?.taxId ?? b.name ?? '') ||
			a.operation.localeCompare(b.operation),
	);
	const fileLines: string[] = [];
	const rows: IDataObject[] = [];
	const sums = new Map<string, bigint>();
	const reported = new Set<string>();
	for (const line of sorted) {
		// A line no CFDI added to (a payment whose every document counted elsewhere): nothing to say.
		if (!line.cfdis.size) continue;
		const who =
			line.kind === 'national'
				? `Supplier ${line.rfc} (operation ${line.operation})`
				: line.kind === 'global'
					? `The global line (${GLOBAL_RFC})`
					: `Foreign supplier ${line.name ?? ''} (${line.foreign?.country}${line.foreign?.taxId ? `, tax ID ${line.foreign.taxId}` : ''})`;
		const values: Record<string, bigint> = {};
		for (const key of AMOUNT_KEYS) {
			const micros = line.amounts.get(key) ?? 0n;
			let pesos = wholePesos(micros);
			if (pesos < 0n) {
				problems.push([
					LINE,
					`${who}: ${fieldName(key)} adds up to ${moneyText(micros)} (credit notes of the month larger than what was paid): written as 0, since the SAT takes no negative amounts`,
				]);
				pesos = 0n;
			}
			if (pesos > MAX_AMOUNT)
				problems.push([
					LINE,
					`${who}: ${fieldName(key)} is ${pesos}, more than the 14 digits the field holds`,
				]);
			values[key] = pesos;
		}
		const cfdis = [...line.cfdis];
		if (!AMOUNT_KEYS.some((key) => values[key] > 0n)) {
			warnings.push([
				LINE,
				`${who}: no line written, every amount rounds to 0 (CFDIs ${cfdis.join(', ')})`,
			]);
			continue;
		}
		for (const [value, returns] of RETURNS_OF)
			if (values[returns] > values[value])
				problems.push([
					LINE,
					`${who}: the returns of ${fieldName(returns)}, ${values[returns]}, are more than the value paid of ${fieldName(value)}, ${values[value]}; the SAT refuses a line whose returns are more than its value (a credit note for a purchase paid in another month)`,
				]);
		for (const [value, iva] of IVA_OF)
			if (values[iva] > 0n && values[value] === 0n)
				problems.push([
					LINE,
					`${who}: ${fieldName(iva)} is ${values[iva]} while ${fieldName(value)} is 0; the SAT takes creditable IVA only beside a value above 0`,
				]);

		const identity: Record<string, string | undefined> = {
			supplier_type: SUPPLIER_TYPES[line.kind],
			operation_type: line.operation,
			rfc: line.rfc,
			foreign_tax_id: line.foreign ? fieldText(line.foreign.taxId, 40) : undefined,
			foreign_name: line.foreign ? fieldText(line.name ?? '', 300) : undefined,
			country: line.foreign?.country,
			jurisdiction:
				line.foreign?.country === 'ZZZ' ? fieldText(line.foreign.jurisdiction, 300) : undefined,
			// The SAT's example and Odoo 19 both write 02 on the global line.
			fiscal_effect: line.kind === 'global' ? '02' : settings.fiscalEffect,
		};
		const text = diotLine({ ...identity, ...values });
		fileLines.push(text);
		const row: IDataObject = {};
		for (const { key } of DIOT_FIELDS.slice(0, 7))
			if (identity[key]) row[key] = identity[key] as string;
		if (line.kind === 'national' && line.name) row.supplier_name = line.name;
		for (const key of AMOUNT_KEYS)
			if (values[key] > 0n) {
				row[key] = Number(values[key]);
				sums.set(key, (sums.get(key) ?? 0n) + values[key]);
			}
		row.fiscal_effect = identity.fiscal_effect as string;
		row.cfdis = cfdis;
		row.line = text;
		rows.push(row);
		for (const uuid of cfdis) reported.add(uuid);
	}

	const totals: IDataObject = {
		lines: rows.length,
		cfdis_reported: reported.size,
		items_read: inputs.length,
		items_left_out: leftOut.size,
	};
	for (const key of AMOUNT_KEYS) if (sums.has(key)) totals[key] = Number(sums.get(key));
	const inOrder = (list: Array<[number, string]>) =>
		list
			.map((entry, k) => ({ entry, k }))
			.sort((a, b) => a.entry[0] - b.entry[0] || a.k - b.k)
			.map(({ entry }) => entry[1]);
	return {
		lines: fileLines,
		rows,
		totals,
		warnings: inOrder(warnings),
		problems: inOrder(problems),
		errors,
	};
}
