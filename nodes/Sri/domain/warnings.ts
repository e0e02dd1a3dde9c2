import { splitAccessKey } from '../../shared/sri/accessKey';
import { rucProblem } from '../../shared/sri/ruc';
import { keyProblem } from './key';
import type { Ambiente } from './kinds';
import { asObject, asText, type ReadReceipt } from './receipt';
import { totalsProblems } from './totals';

/**
 * What a careful bookkeeper flags before booking a receipt; none of it stops the item:
 * - the receipt's own `claveAcceso` is not the key that was asked about (the SRI's answer is about another
 *   receipt, or the receipt was altered), fails its modulo-11 check digit, or disagrees with the receipt's own
 *   date, type, RUC, environment, series or number (the key is built from them);
 * - the receipt has another `ambiente` or `claveAcceso` besides infoTributaria's (shared/sri/receiptIdentity.ts),
 *   which a program other than the SRI may read instead;
 * - the issuer's RUC fails its check digit — a warning only: real company and public-entity RUCs (third digit
 *   9 or 6) fail the published checksum (python-stdnum issues #290 and #497);
 * - the amounts do not add up (totals.ts);
 * - the receipt was issued in the SRI's test environment: it has no tax validity.
 */
export function receiptWarnings(
	read: ReadReceipt,
	context: { asked?: string; ambiente?: Ambiente },
): string[] {
	const warnings: string[] = [];
	const own = read.claveAcceso;
	if (context.asked && own && own !== context.asked)
		warnings.push(
			`The receipt's claveAcceso ${own} is not the access key asked about (${context.asked}): the answer is about another receipt, or the receipt was altered. Do not book it before checking its access key.`,
		);
	if (own && own !== context.asked) {
		const problem = keyProblem(own);
		if (problem)
			warnings.push(`The receipt's claveAcceso ${own} is not a valid access key: it ${problem}.`);
	}
	const key = own && !keyProblem(own) ? own : context.asked;
	if (key) {
		const differences = keyDifferences(key, read);
		if (differences.length)
			warnings.push(
				`The access key ${key} does not match the receipt: ${differences.join('; ')}. The SRI builds the key from these fields; a receipt whose key disagrees with them was altered or badly built.`,
			);
	}
	const ruc = asText(asObject(read.comprobante.infoTributaria).ruc);
	const rucIssue = ruc ? rucProblem(ruc) : undefined;
	if (ruc && rucIssue)
		warnings.push(
			`The issuer's RUC ${ruc} fails its check: ${rucIssue}. Some real RUCs of companies and public entities do; look the issuer up in the SRI's RUC register before booking.`,
		);
	const totals = totalsProblems(read.kind, read.comprobante);
	if (totals.length)
		warnings.push(`The amounts do not add up (a cent per line is allowed): ${totals.join('; ')}.`);
	if (read.elsewhere.length) {
		const marks = read.elsewhere
			.slice(0, 3)
			.map(
				(m) =>
					`${m.what === 'ambiente' ? 'ambiente' : 'claveAcceso'} ${JSON.stringify(m.value.slice(0, 49))} at ${m.where}`,
			);
		warnings.push(
			`The receipt has ${read.elsewhere.length === 1 ? 'another ambiente or claveAcceso' : `${read.elsewhere.length} other ambiente or claveAcceso elements`} besides infoTributaria's (${marks.join('; ')}${read.elsewhere.length > 3 ? '; …' : ''}): the SRI reads only infoTributaria's, which this output shows; another program may read the other. Check the file before booking it.`,
		);
	}
	if (context.ambiente === 'pruebas')
		warnings.push(
			"Issued in the SRI's test environment (ambiente pruebas): the receipt has no tax validity. Do not book it.",
		);
	return warnings;
}

/** The fields of the receipt that its access key contradicts, in words. */
function keyDifferences(key: string, read: ReadReceipt): string[] {
	const parts = splitAccessKey(key);
	const tributaria = asObject(read.comprobante.infoTributaria);
	const out: string[] = [];
	const compare = (what: string, inKey: string, inReceipt: string | undefined) => {
		if (inReceipt !== undefined && inKey !== inReceipt)
			out.push(`${what} is ${inKey} in the key, ${inReceipt} in the receipt`);
	};
	const fecha = read.summary.fecha_emision;
	if (typeof fecha === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(fecha))
		compare(
			'the emission date',
			parts.date,
			`${fecha.slice(8, 10)}${fecha.slice(5, 7)}${fecha.slice(0, 4)}`,
		);
	compare('the document type', parts.receiptType, read.kind.codDoc);
	compare('the RUC', parts.ruc, asText(tributaria.ruc));
	compare('the environment', parts.environment, read.ambiente);
	const estab = asText(tributaria.estab);
	const ptoEmi = asText(tributaria.ptoEmi);
	compare('the series', parts.series, estab && ptoEmi ? `${estab}${ptoEmi}` : undefined);
	compare('the sequential', parts.sequential, asText(tributaria.secuencial));
	return out;
}
