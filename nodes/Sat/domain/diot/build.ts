import { itemLabel } from '../../../shared/errors';
import type { Decimal } from '../../../shared/decimal';
import { checkPeriod, checkTaxpayer, type Findings } from '../../../shared/findings';
import { convert, moneyText } from '../amounts';
import { cashBasis } from '../cashBasis';
import type { CfdiFacts, ConceptoFacts, PaidDocument, TaxLine } from '../cfdiFacts';
import { AMOUNT_KEYS, GLOBAL_RFC, type SupplierKind } from './layout';
import { DiotLines, supplierKind, type DiotRow, type SupplierChoice } from './lines';
import {
	placeNotSubject,
	placeTransfer,
	placeWithholding,
	type Amounts,
	type Placement,
	type Sign,
} from './placement';

/**
 * The DIOT of one month from the month's CFDIs: which CFDIs count (the cash-basis rule, cashBasis.ts), where their
 * amounts go (placement.ts), one line per supplier and type of operation, every amount rounded once at the end,
 * and the file's lines (lines.ts, layout.ts). Pure: the operation reads the items and the form, this decides;
 * what is found on the way goes to the run's one collector (shared/findings.ts). Nothing is dropped silently: every
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
	rows: DiotRow[];
	totals: Record<string, number>;
}

/** Choices for an item that do not fit it: they stop the DIOT. */
const CHOICES = {
	title: 'values chosen for an item that do not fit it',
	fix: 'Fix the value (or the expression that chooses it per item) and run again.',
};

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

/** Places one concepto of an invoice or credit note; returns why part of it has no place. */
function placeConcepto(
	into: Amounts,
	c: ConceptoFacts,
	p: Placement,
	sign: Sign,
	toPesos: (micros: bigint) => bigint,
): string[] {
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
}

/** Places the part of an invoice paid by one DoctoRelacionado; returns why part of it has no place. */
function placePaid(
	into: Amounts,
	doc: PaidDocument,
	invoice: CfdiFacts | undefined,
	p: Placement,
	toPesos: (micros: bigint) => bigint,
): string[] {
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
}

export function buildDiot(
	inputs: readonly DiotInput[],
	settings: DiotSettings,
	findings: Findings,
): DiotResult {
	const { taxpayer, period } = settings;
	const leftOut = new Set<number>();
	const label = ({ index, cfdi }: DiotInput) =>
		`${itemLabel(index)} CFDI ${cfdi.uuid ?? '(no UUID)'}${cfdi.issuerRfc ? ` from ${cfdi.issuerRfc}` : ''}`;
	const leave = (input: DiotInput, why: string, problem = false) => {
		leftOut.add(input.index);
		const text = `${label(input)}: left out, ${why}`;
		if (problem) findings.problem(input.index, text);
		else findings.warn(input.index, text);
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

	// The month's CFDIs must be the taxpayer's and of the month: a DIOT of the wrong RFC or month stops here.
	const addressed = unique.filter((i) => i.cfdi.issuerRfc !== taxpayer);
	checkTaxpayer(
		findings,
		{ documents: 'CFDIs', taxpayer, field: 'Taxpayer RFC', side: 'receiver (Receptor)' },
		addressed.map((i) => i.cfdi.receiverRfc ?? '(no RFC)'),
		// A ticket to the public in general (XAXX010101000) is anyone's: it does not make a month the taxpayer's.
		(rfc) => rfc === taxpayer,
	);
	checkPeriod(
		findings,
		{ documents: 'CFDIs', period, field: 'Month (Periodo)' },
		addressed
			.filter((i) => i.cfdi.receiverRfc === taxpayer || i.cfdi.receiverRfc === GLOBAL_RFC)
			.flatMap(({ cfdi }) => {
				if (cfdi.type === 'P') return cfdi.payments.map((p) => p.date ?? '');
				if (cfdi.type === 'E' || (cfdi.type === 'I' && cfdi.method !== 'PPD'))
					return [cfdi.date ?? ''];
				return [];
			})
			.filter(Boolean),
		(date) => date.slice(0, 7) === period,
	);
	if (findings.stopped) return { lines: [], rows: [], totals: {} };

	const lines = new DiotLines();
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
			findings.warn(
				input.index,
				`${label(input)}: the SAT did not find it (No Encontrado, from Check CFDI Status): reported, but check it before filing`,
			);
		if (counting.counts === 'through-payments') {
			ppd.push(input);
			continue;
		}
		const choice = settings.choose(input.index, supplierKind(cfdi));
		if (Array.isArray(choice)) {
			for (const e of choice)
				findings.stop(CHOICES.title, CHOICES.fix, `${itemLabel(input.index)} ${e}`);
			continue;
		}
		const { line, placement } = lines.lineOf(cfdi, choice);

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
			for (const w of why) findings.problem(input.index, `${label(input)}: ${w}`);
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
					findings.warn(
						input.index,
						`${label(input)}: its payment of ${day} of invoice ${doc.uuid} (${itemLabel(invoice.index)}) is not counted: that invoice is PUE, so it counts in the month of its own date`,
					);
					continue;
				}
				// ImpuestosDR are in the paid document's currency: pesos already for a document in MXN; otherwise
				// turned into the payment's currency (÷ EquivalenciaDR) and into pesos (× TipoCambioP).
				const currency = doc.currency ?? payment.currency ?? 'MXN';
				const rate = pesosRate(payment.currency, payment.rate);
				const equivalence = doc.equivalence ?? (currency === payment.currency ? ONE : undefined);
				if (currency !== 'MXN' && (!rate || !equivalence)) {
					findings.problem(
						input.index,
						`${label(input)}: it pays ${doc.uuid} in ${currency} with a payment of ${day} in ${payment.currency ?? 'no currency'} without ${rate ? 'EquivalenciaDR' : 'TipoCambioP'}, so the amounts cannot be turned into pesos: not placed`,
					);
					continue;
				}
				const toPesos = (m: bigint) => (currency === 'MXN' ? m : convert(m, rate, equivalence));
				if (!invoice)
					findings.warn(
						input.index,
						`${label(input)}: its payment of ${day} pays invoice ${doc.uuid}, which is not among the input items: counted from the payment's own taxes (ImpuestosDR)`,
					);
				for (const w of placePaid(line.amounts, doc, invoice?.cfdi, placement, toPesos))
					findings.problem(input.index, `${label(input)}: ${w}`);
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

	const written = lines.write(settings.fiscalEffect, findings);
	const totals: Record<string, number> = {
		lines: written.rows.length,
		cfdis_reported: written.reported.size,
		items_read: inputs.length,
		items_left_out: leftOut.size,
	};
	for (const key of AMOUNT_KEYS) {
		const pesos = written.sums.get(key);
		if (pesos !== undefined) totals[key] = Number(pesos);
	}
	return { lines: written.lines, rows: written.rows, totals };
}
