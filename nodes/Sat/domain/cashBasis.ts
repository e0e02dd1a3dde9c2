import type { CfdiFacts, PaymentFacts } from './cfdiFacts';

/**
 * The cash-basis rule (flujo de efectivo), in one place: what of a CFDI counts in the DIOT of a month. The DIOT
 * reports IVA actually paid (Ley del IVA, art. 5 fr. III; art. 32 fr. VIII), so:
 * - an invoice paid in one exhibition (`MetodoPago` PUE) counts in the month of its date (`Fecha`): it was paid
 *   when issued;
 * - an invoice paid in installments or later (PPD) never counts by itself: only its payment CFDIs do (tipo P,
 *   Pagos 2.0), each payment (`Pago`) in the month of its `FechaPago`, with the taxes of the part it paid
 *   (`ImpuestosDR`; a Pagos 1.0 payment of the month, which does not say them, is a problem) — as the SAT itself reads CFDIs for cash-basis returns ("se precargan los CFDI emitidos con
 *   método de pago PUE, así como los CFDI con Complemento para recepción de Pagos");
 * - a credit note (tipo E) counts in the month of its date, whatever its MetodoPago: it reduces what was paid when
 *   it is given;
 * - payroll (N) and transfer (T) CFDIs are not operations paid to a supplier.
 * Months are compared on the date as the CFDI writes it (the issuer's local time), `YYYY-MM`.
 */

type Counting =
	/** A PUE invoice dated in the month. */
	| { counts: 'invoice' }
	/** A credit note dated in the month. */
	| { counts: 'credit-note' }
	/** A payment CFDI: its payments dated in the month (at least one). */
	| { counts: 'payments'; payments: PaymentFacts[] }
	/** A PPD invoice: counted only through the payments of it in the month. */
	| { counts: 'through-payments' }
	/** Nothing of it counts in the month, and why; `problem` when something of it was paid in the month. */
	| { counts: 'no'; why: string; problem?: true };

/** True when a CFDI date (`2025-10-03T10:15:00`) falls in `period` (`2025-10`). */
export function inPeriod(date: string | undefined, period: string): boolean {
	return date !== undefined && date.slice(0, 7) === period;
}

const day = (date: string | undefined) => (date ?? '(no date)').slice(0, 10);

/** What of `cfdi` counts in `period` (`YYYY-MM`). */
export function cashBasis(cfdi: CfdiFacts, period: string): Counting {
	switch (cfdi.type) {
		case 'I':
			if (cfdi.method === 'PPD') return { counts: 'through-payments' };
			return inPeriod(cfdi.date, period)
				? { counts: 'invoice' }
				: { counts: 'no', why: `dated ${day(cfdi.date)}, not in ${period}` };
		case 'E':
			return inPeriod(cfdi.date, period)
				? { counts: 'credit-note' }
				: { counts: 'no', why: `a credit note dated ${day(cfdi.date)}, not in ${period}` };
		case 'P': {
			const payments = cfdi.payments.filter((p) => inPeriod(p.date, period));
			const dates = [...new Set(cfdi.payments.map((p) => day(p.date)))].join(', ');
			if (cfdi.payments.length && !payments.length)
				return { counts: 'no', why: `paid on ${dates || '(no FechaPago)'}, not in ${period}` };
			// Pagos 1.0 (before 2.0 was required, in 2023) does not say the taxes of each document paid: what it paid
			// in the month is missing from the file, which is not complete without it.
			if (cfdi.paymentsVersion !== '2.0')
				return {
					counts: 'no',
					problem: true,
					why: `${
						cfdi.paymentsVersion === undefined
							? 'a payment CFDI without its payments complement (Pagos)'
							: `its payments complement is Pagos ${cfdi.paymentsVersion}, which does not say the taxes of each document paid (ImpuestosDR, Pagos 2.0)`
					}: what it paid in ${period} is not in the file. Report it by hand in the SAT's DIOT form, with the taxes of the invoices it paid`,
				};
			if (payments.length) return { counts: 'payments', payments };
			return { counts: 'no', why: `paid on ${dates || '(no FechaPago)'}, not in ${period}` };
		}
		case 'N':
			return { counts: 'no', why: 'a payroll CFDI (nómina): not an operation with a supplier' };
		case 'T':
			return { counts: 'no', why: 'a transfer CFDI (traslado): it moves goods, nothing is paid' };
		default:
			return {
				counts: 'no',
				why: `its TipoDeComprobante ${JSON.stringify(cfdi.type ?? null)} is none of I, E, P`,
			};
	}
}
