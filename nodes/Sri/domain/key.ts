import { accessKeyProblem, splitAccessKey } from '../../shared/sri/accessKey';
import { DOCUMENT_TYPE_CODES, type Ambiente } from './kinds';

/**
 * The access key as typed: text without its spaces (a key copied from a printed RIDE often comes in groups of
 * digits), a number as its digits. Anything else is left as it is, for `keyProblem` to name.
 */
export function normalizeKey(value: unknown): unknown {
	if (typeof value === 'string') return value.replace(/\s+/g, '');
	if (typeof value === 'number' && Number.isSafeInteger(value)) return String(value);
	return value;
}

/**
 * Whether an access key can be asked about: 49 digits whose modulo-11 check digit holds (the rule lives in
 * shared/sri/accessKey.ts), a document type the SRI issues (01, 03, 04, 05, 06, 07) and an environment digit
 * of 1 (test) or 2 (production) — the digit that chooses which of the SRI's hosts is asked. The RUC inside
 * is not judged here: real company RUCs fail their own checksum, and a key is valid by its own rule.
 * Returns why not, in words that follow the field's label, or undefined.
 */
export function keyProblem(value: unknown): string | undefined {
	if (value === undefined || value === null || value === '') return 'is required';
	const problem = accessKeyProblem(value);
	if (problem) return problem;
	const { receiptType, environment } = splitAccessKey(String(value));
	if (!DOCUMENT_TYPE_CODES.includes(receiptType))
		return `has document type ${receiptType} (digits 9–10), which is not one of the SRI's receipts (${DOCUMENT_TYPE_CODES.join(', ')}): the key is mistyped`;
	if (environment !== '1' && environment !== '2')
		return `has environment digit ${environment} (digit 24), which must be 1 (test) or 2 (production): the key is mistyped`;
	return undefined;
}

/** The environment a valid key names (digit 24). */
export function keyAmbiente(key: string): Ambiente {
	return splitAccessKey(key).environment === '1' ? 'pruebas' : 'produccion';
}

/** The emission date a key carries (digits 1–8, ddmmyyyy), as an ISO date, when it is a calendar date. */
export function keyDate(key: string): string | undefined {
	const { date } = splitAccessKey(key);
	return isoDate(`${date.slice(0, 2)}/${date.slice(2, 4)}/${date.slice(4, 8)}`);
}

/** `dd/mm/yyyy` (the SRI's date format) as `yyyy-mm-dd`, when it is a calendar date; else undefined. */
export function isoDate(sri: string | undefined): string | undefined {
	const m = /^(\d{2})\/(\d{2})\/(\d{4})$/.exec((sri ?? '').trim());
	if (!m) return undefined;
	const [, d, mo, y] = m;
	const date = new Date(Date.UTC(Number(y), Number(mo) - 1, Number(d)));
	if (date.getUTCDate() !== Number(d) || date.getUTCMonth() !== Number(mo) - 1) return undefined;
	return `${y}-${mo}-${d}`;
}
