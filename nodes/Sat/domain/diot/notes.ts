import { moneyText } from '../amounts';
import type { CfdiFacts } from '../cfdiFacts';

/**
 * What a credit note (tipo E) of the month is in the DIOT, read with what it relates to (`CfdiRelacionados`: its
 * `TipoRelacion` and the UUIDs of the CFDIs it is about; c_TipoRelacion: 01 nota de crédito de los documentos
 * relacionados, 03 devolución de mercancía, 07 aplicación de anticipo), on the cash basis of cashBasis.ts — the DIOT
 * reports what was paid (Ley del IVA, art. 5 fr. III):
 * - a note on an invoice paid in one exhibition (PUE), or on one not among the items, is a **return** of what was
 *   paid: its bases in the returns fields, its IVA off the IVA fields;
 * - a note on an invoice paid in installments (PPD) reduces what is still owed: the part of it not above the
 *   balance owed when it was issued is **not a return** — the invoice's later payments carry the reduced balance,
 *   their `ImpuestosDR` already net it — and only the part above (a part already paid) is a return; if the payment
 *   after it still starts from the balance before it (`ImpSaldoAnt`), the payments did not net it: a return;
 * - a type-07 note applies an advance: on a PUE invoice it **nets the invoice** (its bases off the value paid, not
 *   a return: the advance itself counted when it was paid); on a PPD invoice the payments' balance nets it.
 * Pure: the caller places the amounts.
 */

/** A payment of an invoice as the month's payment CFDIs say it (any month). */
export interface PaymentOf {
	/** `FechaPago`. */
	date: string;
	/** `ImpSaldoAnt`, `ImpSaldoInsoluto`, in millionths of the invoice's currency. */
	before?: bigint;
	after?: bigint;
}

/** What a credit note is in the DIOT: how its amounts flow (`share`: the part of it that does), or why it has no place. */
type NoteReading =
	| { flow: 'returned' | 'netted' | 'none'; share?: { part: bigint; of: bigint }; said: string }
	| { problem: string };

/** What the note needs to know of the other CFDIs. */
interface Known {
	/** The invoice of a UUID, when it is among the items. */
	invoice(uuid: string): CfdiFacts | undefined;
	/** Its payments among the items, in date order. */
	payments(uuid: string): readonly PaymentOf[];
}

/** A cent, in millionths: balances are compared to the cent. */
const CENT = 10_000n;

export function readNote(note: CfdiFacts, known: Known): NoteReading {
	const groups = note.related.filter((g) => g.uuids.length);
	if (!groups.length)
		return {
			flow: 'returned',
			said: 'relates no CFDI (no CfdiRelacionados): counted as a return of the month',
		};
	const types = [...new Set(groups.map((g) => g.type ?? '(none)'))];
	const uuids = [...new Set(groups.flatMap((g) => g.uuids))];
	if (types.length > 1)
		return {
			problem: `relates CFDIs under several TipoRelacion (${types.join(', ')}): not placed — settle it by hand`,
		};
	const [type] = types;
	const isPpd = (uuid: string) =>
		known.invoice(uuid)?.method === 'PPD' || known.payments(uuid).length > 0;
	const ppd = uuids.filter(isPpd);
	const missing = uuids.filter((u) => !known.invoice(u));
	const relation = `TipoRelacion ${type} of ${uuids.join(', ')}`;
	const unknown = missing.length
		? ` (${missing.join(', ')} ${missing.length > 1 ? 'are' : 'is'} not among the input items: if ${missing.length > 1 ? 'one is' : 'it is'} a PPD invoice whose balance the note reduced, it is not a return — give the invoice to the node)`
		: '';
	if (ppd.length && ppd.length < uuids.length)
		return {
			problem: `${relation}: relates invoices paid in one exhibition and in installments at once: not placed — settle it by hand`,
		};
	if (type === '07') {
		if (ppd.length)
			return {
				flow: 'none',
				said: `applies an advance (${relation}, paid in installments): not a return — the invoice counts through its payments, whose balance the advance reduced`,
			};
		return {
			flow: 'netted',
			said: `applies an advance (${relation}): it nets the invoice, its amounts taken off the value paid, not a return — the advance counted when it was paid${missing.length ? ` (${missing.join(', ')} is not among the input items)` : ''}`,
		};
	}
	if (!ppd.length) return { flow: 'returned', said: `a return (${relation})${unknown}` };
	if (ppd.length > 1)
		return {
			problem: `${relation}: relates several invoices paid in installments: which part of it reduced each balance cannot be told — settle it by hand`,
		};
	return onInstallments(note, ppd[0], relation, known);
}

/** A note (01, 03…) on one PPD invoice: the part within the balance owed is not a return. */
function onInstallments(
	note: CfdiFacts,
	uuid: string,
	relation: string,
	known: Known,
): NoteReading {
	const date = note.date ?? '';
	const invoice = known.invoice(uuid);
	const payments = known.payments(uuid);
	const before = payments.filter((p) => p.date < date);
	const owed = before.length ? before[before.length - 1].after : invoice?.total;
	const total = note.total;
	if (owed === undefined || total === undefined)
		return {
			problem: `${relation} (paid in installments): how much of it was still owed when the note was issued cannot be told (${total === undefined ? 'the note has no Total' : 'neither the invoice nor a payment of it before the note is among the input items'}): not placed — give the invoice to the node, or settle it by hand`,
		};
	// With no payment of it among the items before the note, the invoice's Total is what was owed only if nothing
	// had been paid: true of an invoice of the note's month (its payments of the month are among the items), not
	// of an earlier one, whose payments are of earlier months — unless a later payment's ImpSaldoAnt says.
	const next = payments.find((p) => p.date >= date);
	if (
		!before.length &&
		next?.before === undefined &&
		invoice?.date !== undefined &&
		invoice.date.slice(0, 7) < date.slice(0, 7)
	)
		return {
			problem: `${relation} (paid in installments): ${uuid} is of ${invoice.date.slice(0, 7)} and no payment of it among the input items says how much of it was still owed when the note was issued (paid in full, the note is a return): not placed — give the node the invoice's payments, or settle it by hand`,
		};
	if (invoice?.currency && note.currency && invoice.currency !== note.currency)
		return {
			problem: `${relation} (paid in installments): the note is in ${note.currency}, the invoice in ${invoice.currency}: not placed — settle it by hand`,
		};
	const netted = total < owed ? total : owed > 0n ? owed : 0n;
	if (netted > 0n && next?.before !== undefined && next.before > owed - netted + CENT)
		return {
			flow: 'returned',
			said: `a return (${relation}, paid in installments): the payment of ${next.date.slice(0, 10)} still starts from a balance of ${moneyText(next.before)} (ImpSaldoAnt), so the payments did not take the note off: what was paid includes it`,
		};
	if (netted === 0n)
		return {
			flow: 'returned',
			said: `a return (${relation}, paid in installments): ${uuid} had been paid in full when it was issued`,
		};
	const balance = `${moneyText(owed)} was still owed on ${uuid} when it was issued`;
	if (netted === total)
		return {
			flow: 'none',
			said: `not a return (${relation}, paid in installments): ${balance}, and the note reduced it — the invoice's payments carry the reduced balance, their ImpuestosDR net it`,
		};
	return {
		flow: 'returned',
		share: { part: total - netted, of: total },
		said: `${moneyText(total - netted)} of its ${moneyText(total)} is a return (${relation}, paid in installments): ${balance}, and only the part above that balance had been paid`,
	};
}
