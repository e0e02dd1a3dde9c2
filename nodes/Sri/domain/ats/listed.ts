import { AFTER_ITEMS, type Findings } from '../../../shared/findings';
import { splitAccessKey } from '../../../shared/sri/accessKey';
import { keyDate } from '../key';
import { documentWord } from './matching';
import type { PeriodRange } from './period';

/**
 * The input held against the SRI's own record of what was issued to the company: the access keys of the portal's
 * list of received receipts (SRI en línea → Comprobantes electrónicos recibidos; Received Receipts List → Read), given
 * in Options → Receipts the SRI Lists for You. Every receipt the list holds for the period that is not among the
 * items is named in `problems`: a purchase missing from the annex is IVA credit lost, a client's retention missing is
 * withheld tax no ventas row reports. Receipts of other months in the list are counted in one warning.
 */

/** What a missing receipt of type `codDoc` costs the annex. */
function consequence(codDoc: string): string {
	if (codDoc === '07')
		return 'a retention a client made on your sale: the IVA and income tax it withheld are not in ventas';
	if (codDoc === '04')
		return 'a credit note on a purchase: the purchase it reduces is overstated in the annex';
	return 'a purchase missing from the annex is IVA credit lost';
}

/**
 * Each key of `listed` (checked by choices.ts `keysOf`) issued to `informant` in `range` that is not among `seen`
 * (the keys of every input item, left out or not), named in a problem.
 */
export function checkListed(
	listed: readonly string[],
	seen: ReadonlySet<string>,
	informant: string,
	range: PeriodRange,
	findings: Findings,
	field: string,
): void {
	let otherMonths = 0;
	for (const key of new Set(listed)) {
		if (seen.has(key)) continue;
		const k = splitAccessKey(key);
		// The list is of what others issued to you, in the SRI's production environment.
		if (k.ruc === informant || k.environment !== '2') continue;
		const date = keyDate(key);
		if (!range.holds(date)) {
			otherMonths++;
			continue;
		}
		findings.problem(
			AFTER_ITEMS,
			`The SRI lists ${documentWord(k.receiptType)} ${k.series.slice(0, 3)}-${k.series.slice(3)}-${k.sequential} of ${k.ruc}, issued ${date} (access key ${key}), as issued to you, and it is not among the items: ${consequence(k.receiptType)}. Fetch it with Check Authorization and run again, or add it in the DIMM.`,
		);
	}
	if (otherMonths)
		findings.warn(
			AFTER_ITEMS,
			`${field}: ${otherMonths === 1 ? 'one receipt' : `${otherMonths} receipts`} the SRI lists ${otherMonths === 1 ? 'is' : 'are'} of another period than ${range.from} – ${range.to}, and not among the items: not held against this annex.`,
		);
}
