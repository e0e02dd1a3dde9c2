import { itemLabel } from '../../../shared/errors';
import type { Decimal } from '../../../shared/decimal';
import { checkPeriod, checkTaxpayer, type Findings } from '../../../shared/findings';
import { convert, equalsMicros, moneyText } from '../amounts';
import { cashBasis, inPeriod } from '../cashBasis';
import type { CfdiFacts, ConceptoFacts, PaidDocument, TaxLine } from '../cfdiFacts';
import { missingForeign } from './choices';
import { AMOUNT_KEYS, GLOBAL_RFC, layoutOf } from './layout';
import {
	DiotLines,
	fieldsOf,
	writeCurrent,
	type DiotRow,
	type Line,
	type SettleRow,
	type SupplierChoice,
} from './lines';
import { readNote, type PaymentOf } from './notes';
import {
	addAll,
	placeNotSubject,
	placeTransfer,
	placeWithholding,
	type Amounts,
	type Flow,
	type Placement,
} from './placement';
import { previousFieldsOf, writePrevious } from './previous';
import { regionOf } from './region';

/**
 * The DIOT of one month from the month's CFDIs: which CFDIs count (the cash-basis rule, cashBasis.ts), what a credit
 * note is (notes.ts), where their amounts go (placement.ts), one line per supplier and type of operation, every
 * amount rounded once at the end, and the file's lines (lines.ts, layout.ts; months before 2025: previous.ts). Pure:
 * the operation reads the items and the form, this decides; what is found on the way goes to the run's one
 * collector (shared/findings.ts). Nothing is dropped silently: every CFDI is in a row or named in `warnings` (left
 * out, and why; where a credit note went) or `problems` (what may make the file wrong, what is to settle by hand).
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
	/** The choices for the supplier of item `index`, or why they are wrong (each a message without the item). */
	choose(index: number, cfdi: CfdiFacts): SupplierChoice | string[];
}

interface DiotResult {
	/** The file's lines, in order. */
	lines: string[];
	/** One per line: its fields named in words (the non-empty ones), its CFDIs and its text. */
	rows: DiotRow[];
	/** The credit notes the file cannot hold (returns above the value paid), to settle by hand. */
	toSettle: SettleRow[];
	totals: Record<string, number>;
}

/** Choices for an item that do not fit it: they stop the DIOT. */
const CHOICES = {
	title: 'values chosen for an item that do not fit it',
	fix: 'Fix the value (its row in the Suppliers table, or the field or expression for the other suppliers) and run again.',
};

const ONE: Decimal = { n: 1n, scale: 0 };

/** Cash above this many pesos makes an expense not deductible (Ley del ISR, art. 27 fr. III). */
const CASH_LIMIT = 2_000_000_000n;

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
	flow: Flow,
	toPesos: (micros: bigint) => bigint,
): string[] {
	const iva = c.traslados.filter((t) => t.tax === '002');
	// CFDI 3.3 has no ObjetoImp: a concepto without IVA lines is not subject to it.
	if (c.objetoImp === '01' || (c.objetoImp === undefined && !iva.length)) {
		placeNotSubject(into, toPesos(c.amount), p, flow);
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
		const problem = placeTransfer(into, inPesos(t, toPesos), p, flow);
		if (problem) why.push(problem);
	}
	for (const r of c.retenciones) placeWithholding(into, inPesos(r, toPesos), flow);
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
		placeNotSubject(into, toPesos(doc.paid ?? 0n), p, 'paid');
		return [];
	}
	if (!doc.hasTaxes)
		return [
			`it pays ${moneyText(doc.paid ?? 0n)} of ${doc.uuid} (ObjetoImpDR ${doc.objetoImp ?? 'absent'}) without its taxes (ImpuestosDR): not placed`,
		];
	const why: string[] = [];
	for (const t of doc.traslados) {
		const problem = placeTransfer(into, inPesos(t, toPesos), p, 'paid');
		if (problem) why.push(`paying ${doc.uuid}: ${problem}`);
	}
	for (const r of doc.retenciones) placeWithholding(into, inPesos(r, toPesos), 'paid');
	// ImpuestosDR has the taxes of the part paid, not the conceptos of the invoice that are not subject to
	// IVA: the part of those paid is in proportion to what was paid of the invoice's total. Without the invoice,
	// what ImpPagado holds beyond its taxes' bases and amounts cannot be placed: said, never dropped.
	if (!invoice) {
		const iva = doc.traslados.filter((t) => t.tax === '002');
		const explained =
			[...iva.map((t) => t.base ?? 0n), ...doc.traslados.map((t) => t.amount ?? 0n)].reduce(
				(a, b) => a + b,
				0n,
			) - doc.retenciones.reduce((a, r) => a + (r.amount ?? 0n), 0n);
		if (iva.length && doc.paid !== undefined && doc.paid - explained > 1_000_000n)
			why.push(
				`it pays ${moneyText(doc.paid)} of ${doc.uuid}, of which its taxes (ImpuestosDR) account for ${moneyText(explained)}: the other ${moneyText(doc.paid - explained)} (a part of the invoice not subject to IVA, field 52?) is not in the file — give the node the invoice, whose conceptos say`,
			);
		return why;
	}
	const notSubject = invoice.conceptos
		.filter((c) => c.objetoImp === '01')
		.reduce((sum, c) => sum + c.amount, 0n);
	if (notSubject > 0n && invoice.total && doc.paid)
		placeNotSubject(
			into,
			toPesos(convert(notSubject, { n: doc.paid, scale: 6 }, { n: invoice.total, scale: 6 })),
			p,
			'paid',
		);
	return why;
}

/** Whether a CFDI (its conceptos, or the documents a payment pays) has IVA at 8 %, or withholds ISR. */
function taxesOf(cfdi: CfdiFacts): { at8: boolean; isrWithheld: boolean } {
	const lines = [
		...cfdi.conceptos.flatMap((c) => [...c.traslados, ...c.retenciones]),
		...cfdi.payments.flatMap((p) => p.documents.flatMap((d) => [...d.traslados, ...d.retenciones])),
	];
	const withheld = [
		...cfdi.conceptos.flatMap((c) => c.retenciones),
		...cfdi.payments.flatMap((p) => p.documents.flatMap((d) => d.retenciones)),
	];
	return {
		at8: lines.some((t) => t.tax === '002' && equalsMicros(t.rate, 80_000n)),
		isrWithheld: withheld.some((t) => t.tax === '001' && (t.amount ?? 0n) > 0n),
	};
}

/** Whether the amounts put any IVA in a creditable field. */
const creditable = (amounts: Amounts) =>
	[...amounts].some(([key, micros]) => key.startsWith('creditable_iva_') && micros > 0n);

export function buildDiot(
	inputs: readonly DiotInput[],
	settings: DiotSettings,
	findings: Findings,
): DiotResult {
	const { taxpayer, period } = settings;
	const layout = layoutOf(period);
	/** The fields a CFDI's amounts went to, as the month's layout numbers them. */
	const fieldsIn = (amounts: Amounts) =>
		layout === 'current' ? fieldsOf(amounts) : previousFieldsOf(amounts);
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
		(date) => inPeriod(date, period),
	);
	if (findings.stopped) return { lines: [], rows: [], toSettle: [], totals: {} };

	const cancelled = (input: DiotInput) => input.status?.estado?.toLowerCase() === 'cancelado';
	// A CFDI that another among the items replaces (TipoRelacion 04, sustitución de los CFDI previos: Anexo 20's
	// c_TipoRelacion) does not count: its replacement does, and the replaced one is to be cancelled. Counting both
	// would report the same operation twice.
	const replacedBy = new Map<string, DiotInput>();
	for (const input of unique.filter((i) => !cancelled(i)))
		for (const group of input.cfdi.related.filter((g) => g.type === '04'))
			for (const uuid of group.uuids)
				if (uuid !== input.cfdi.uuid && byUuid.has(uuid)) replacedBy.set(uuid, input);
	const replaced = (input: DiotInput) => replacedBy.has(input.cfdi.uuid ?? '');
	// Every payment of each invoice among the items, whatever its month: what a credit note reduced (notes.ts).
	const paymentsOf = new Map<string, PaymentOf[]>();
	for (const { cfdi } of unique.filter((i) => i.cfdi.type === 'P' && !cancelled(i) && !replaced(i)))
		for (const payment of cfdi.payments)
			for (const doc of payment.documents) {
				const list = paymentsOf.get(doc.uuid) ?? [];
				list.push({ date: payment.date ?? '', before: doc.balanceBefore, after: doc.balanceAfter });
				paymentsOf.set(doc.uuid, list);
			}
	for (const list of paymentsOf.values()) list.sort((a, b) => a.date.localeCompare(b.date));
	const known = {
		invoice: (uuid: string) => byUuid.get(uuid)?.cfdi,
		payments: (uuid: string) => paymentsOf.get(uuid) ?? [],
	};

	const lines = new DiotLines();

	/** The supplier's line and placement for `input` (whose amounts may be placed by the CFDI at `place`), or none. */
	const lineFor = (
		input: DiotInput,
		place = input.cfdi,
	): { line: Line; placement: Placement } | undefined => {
		const { cfdi } = input;
		const choice = settings.choose(input.index, cfdi);
		if (Array.isArray(choice)) {
			for (const e of choice)
				findings.stop(CHOICES.title, CHOICES.fix, `${itemLabel(input.index)} ${e}`);
			return undefined;
		}
		const missing = choice.operation === '87' ? [] : missingForeign(choice, layout);
		if (missing.length) {
			leave(
				input,
				`its supplier ${cfdi.issuerName ?? '(no name)'} is foreign (RFC ${cfdi.issuerRfc}) and the file needs ${missing.join(' and ')}: give them in its row of the Suppliers table (RFC or Foreign Name: ${cfdi.issuerName ?? 'its name'}) and run again`,
				true,
			);
			return undefined;
		}
		const line = lines.lineOf(cfdi, choice);
		if (typeof line === 'string') {
			findings.stop(CHOICES.title, CHOICES.fix, `${itemLabel(input.index)} ${line}`);
			return undefined;
		}
		const taxes = taxesOf(place);
		if ((place === cfdi ? taxes : taxesOf(cfdi)).isrWithheld) line.hints.isrWithheld = true;
		let region = choice.region;
		if (region === 'auto') {
			const from = regionOf(place.place);
			region = from.region ?? 'north';
			if (!from.region && taxes.at8 && line.kind !== 'foreign')
				findings.warn(
					input.index,
					`${label(input)}: IVA at 8 % from ${from.state ? `${from.state} (LugarExpedicion ${place.place})` : `LugarExpedicion ${place.place ?? '(none)'}`}, in neither border region: placed in the northern fields (8, 9, 18…) — choose its 8 % IVA Region in the Suppliers table if it is the southern`,
				);
		}
		// The global line's CFDIs name no receiver: their IVA is not creditable (lacking requirements), field 54 02.
		const treatment = line.kind === 'global' ? { kind: 'requirements' as const } : choice.treatment;
		return {
			line,
			placement: { kind: line.kind, region, imports: choice.imports, treatment },
		};
	};

	/** What usually makes IVA placed as creditable not creditable: a warning naming it (never applied). */
	const notCreditableHints = (
		input: DiotInput,
		amounts: Amounts,
		cash: { form?: string; pesos?: bigint; what: string },
	) => {
		const { cfdi } = input;
		if (cfdi.receiverRfc === GLOBAL_RFC) {
			findings.warn(
				input.index,
				`${label(input)}: issued to the public in general (${GLOBAL_RFC}), not to the taxpayer: its IVA cannot be credited (the CFDI must name the receiver's RFC) — on the global line as not creditable for lacking requirements (${fieldsIn(amounts)}), field 54 02`,
			);
			return;
		}
		if (!creditable(amounts)) return;
		const why: string[] = [];
		if (cash.form === '01' && cash.pesos !== undefined && cash.pesos > CASH_LIMIT)
			why.push(
				`${cash.what} paid in cash (FormaPago 01) ${moneyText(cash.pesos)} pesos, above MXN 2,000: such an expense is not deductible (Ley del ISR, art. 27 fr. III), so its IVA is not creditable (Ley del IVA, art. 5 fr. I)`,
			);
		if (cfdi.use === 'S01')
			why.push(
				'its UsoCFDI is S01 (sin efectos fiscales): the taxpayer asked for a CFDI without tax effects',
			);
		if (why.length)
			findings.warn(
				input.index,
				`${label(input)}: ${why.join('; ')} — its IVA is in the creditable fields (${fieldsIn(amounts)}): if it is not creditable, choose its IVA Treatment (Not Creditable: Lacking Requirements) in the Suppliers table`,
			);
	};

	const paidInvoices = new Set<string>();
	/** The documents paid by payment CFDIs of the month the DIOT cannot read (Pagos 1.0), by UUID. */
	const unreadPayments = new Map<string, DiotInput>();
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
		if (cancelled(input)) {
			leave(input, 'the SAT says it is cancelled (Cancelado, from Check CFDI Status)');
			continue;
		}
		if (replaced(input)) {
			leave(
				input,
				`replaced by ${label(replacedBy.get(input.cfdi.uuid ?? '') as DiotInput)} (TipoRelacion 04, a substitution), which counts instead: the issuer is to cancel this one (Check CFDI Status says whether it did)`,
			);
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
			leave(input, counting.why, counting.problem);
			if (counting.problem)
				for (const payment of cfdi.payments.filter((p) => inPeriod(p.date, period)))
					for (const doc of payment.documents) unreadPayments.set(doc.uuid, input);
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

		if (counting.counts === 'invoice' || counting.counts === 'credit-note') {
			const rate = pesosRate(cfdi.currency, cfdi.rate);
			if (!rate) {
				leave(input, `it is in ${cfdi.currency} without an exchange rate (TipoCambio)`, true);
				continue;
			}
			let flow: Flow = 'paid';
			let share: { part: bigint; of: bigint } | undefined;
			let said = '';
			if (counting.counts === 'credit-note') {
				const reading = readNote(cfdi, known);
				if ('problem' in reading) {
					leave(input, `a credit note that ${reading.problem}`, true);
					continue;
				}
				if (reading.flow === 'none') {
					leftOut.add(input.index);
					findings.warn(input.index, `${label(input)}: credit note, ${reading.said}`);
					continue;
				}
				({ flow, share, said } = reading);
			}
			const found = lineFor(input);
			if (!found) continue;
			const { line, placement } = found;
			const toPesos = (m: bigint) => {
				const pesos = convert(m, rate);
				return share
					? convert(pesos, { n: share.part, scale: 0 }, { n: share.of, scale: 0 })
					: pesos;
			};
			const own: Amounts = new Map();
			const why = cfdi.conceptos.flatMap((c, k) =>
				placeConcepto(own, c, placement, flow, toPesos).map((w) => `Concepto ${k + 1}: ${w}`),
			);
			for (const w of why) findings.problem(input.index, `${label(input)}: ${w}`);
			lines.add(line, uuid, own, flow === 'returned' ? { index: input.index } : undefined);
			if (said)
				findings.warn(
					input.index,
					`${label(input)}: credit note, ${said}: ${flow === 'netted' ? 'taken off' : 'in'} ${fieldsIn(own)}`,
				);
			else
				notCreditableHints(input, own, {
					form: cfdi.paymentForm,
					pesos: cfdi.total === undefined ? undefined : convert(cfdi.total, rate),
					what: 'it was',
				});
			continue;
		}

		// A payment CFDI: each payment of the month, each invoice it pays.
		let counted = 0;
		for (const payment of counting.payments) {
			const day = (payment.date ?? '').slice(0, 10);
			const own: Amounts = new Map();
			let found: { line: Line; placement: Placement } | undefined;
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
				found ??= lineFor(input, invoice?.cfdi ?? cfdi);
				if (!found) break;
				const toPesos = (m: bigint) => (currency === 'MXN' ? m : convert(m, rate, equivalence));
				if (!invoice)
					findings.warn(
						input.index,
						`${label(input)}: its payment of ${day} pays invoice ${doc.uuid}, which is not among the input items: counted from the payment's own taxes (ImpuestosDR)`,
					);
				const paid: Amounts = new Map();
				for (const w of placePaid(paid, doc, invoice?.cfdi, found.placement, toPesos))
					findings.problem(input.index, `${label(input)}: ${w}`);
				lines.add(found.line, uuid, paid);
				addAll(own, paid);
				if (invoice) {
					found.line.cfdis.add(doc.uuid);
					paidInvoices.add(doc.uuid);
				}
				counted++;
			}
			const rate = pesosRate(payment.currency, payment.rate);
			notCreditableHints(input, own, {
				form: payment.form,
				pesos: payment.amount === undefined || !rate ? undefined : convert(payment.amount, rate),
				what: `its payment of ${day} was`,
			});
		}
		if (!counted) leftOut.add(input.index);
	}
	for (const input of ppd)
		if (unreadPayments.has(input.cfdi.uuid as string))
			leave(
				input,
				`a PPD invoice paid in ${period} by ${label(unreadPayments.get(input.cfdi.uuid as string) as DiotInput)}, which the DIOT cannot read (see its problem)`,
			);
		else if (!paidInvoices.has(input.cfdi.uuid as string))
			leave(
				input,
				`a PPD invoice (paid in installments or later) with no payment dated in ${period} among the input items: it counts in the month its payment CFDI says it was paid`,
			);

	const rounded = lines.rounded(findings, layout);
	const written =
		layout === 'current' ? writeCurrent(rounded, findings) : writePrevious(rounded, findings);
	const totals: Record<string, number> = {
		lines: written.rows.length,
		cfdis_reported: written.reported.size,
		items_read: inputs.length,
		items_left_out: leftOut.size,
	};
	const order = layout === 'current' ? AMOUNT_KEYS : [...written.sums.keys()];
	for (const key of order) {
		const pesos = written.sums.get(key);
		if (pesos !== undefined) totals[key] = Number(pesos);
	}
	return { lines: written.lines, rows: written.rows, toSettle: lines.toSettle, totals };
}
