import { createHmac } from 'node:crypto';

/**
 * SRI access key (clave de acceso): 49 digits. Layout (SRI "ficha técnica" of electronic receipts):
 * issue date ddmmyyyy (8) · receipt type (2) · issuer RUC (13) · environment (1) · series = establishment
 * + emission point (6) · sequential (9) · numeric code (8) · emission type (1) · check digit (1).
 * Check digit: modulo 11 over the first 48 digits, weights 2..7 repeating from the right;
 * 11 - (sum mod 11), where 11 becomes 0 and 10 becomes 1.
 */

export function accessKeyCheckDigit(first48: string): number {
	let sum = 0;
	let weight = 2;
	for (let i = first48.length - 1; i >= 0; i--) {
		sum += Number(first48[i]) * weight;
		weight = weight === 7 ? 2 : weight + 1;
	}
	const digit = 11 - (sum % 11);
	if (digit === 11) return 0;
	if (digit === 10) return 1;
	return digit;
}

interface AccessKeyParts {
	date: string;
	receiptType: string;
	ruc: string;
	environment: string;
	series: string;
	sequential: string;
	numericCode: string;
	emissionType: string;
	checkDigit: string;
}

export function splitAccessKey(key: string): AccessKeyParts {
	return {
		date: key.slice(0, 8),
		receiptType: key.slice(8, 10),
		ruc: key.slice(10, 23),
		environment: key.slice(23, 24),
		series: key.slice(24, 30),
		sequential: key.slice(30, 39),
		numericCode: key.slice(39, 47),
		emissionType: key.slice(47, 48),
		checkDigit: key.slice(48, 49),
	};
}

/** Why `value` is not a valid access key, or undefined when it is one. */
export function accessKeyProblem(value: unknown): string | undefined {
	const key = typeof value === 'number' ? String(value) : value;
	if (typeof key !== 'string') return 'must be text of 49 digits';
	if (!/^\d{49}$/.test(key))
		return `must be exactly 49 digits, got ${/^\d*$/.test(key) ? `${key.length} digits` : `"${key.slice(0, 60)}"`}`;
	const expected = accessKeyCheckDigit(key.slice(0, 48));
	if (String(expected) !== key[48])
		return `has check digit ${key[48]} but the SRI modulo-11 check gives ${expected}: the key is mistyped`;
	return undefined;
}

/** Receipt type codes inside the access key (SRI table 3). */
export const RECEIPT_TYPE_CODES = {
	invoice: '01',
	purchaseSettlement: '03',
	creditNote: '04',
	debitNote: '05',
	waybill: '06',
	retention: '07',
} as const;

/** The parts a receipt gives to build its access key. */
interface AccessKeyInput {
	/** Emission date as written in the receipt: `YYYY-MM-DD`, optionally followed by a time. */
	fechaEmision: unknown;
	receiptType: string;
	ruc: unknown;
	ambiente: unknown;
	establecimiento: unknown;
	puntoEmision: unknown;
	secuencial: unknown;
	tipoEmision: unknown;
}

/**
 * The shortest secret accepted for the reproducible access key: the numeric code is only as secret as the
 * secret that keys it, and a short one can be found by trying all of them against one published key.
 */
const MIN_ACCESS_KEY_SECRET = 16;

/**
 * A reproducible access key: the SRI layout above, where the 8-digit numeric code — which the SRI leaves to
 * the issuer — is derived from the other fields instead of drawn at random: HMAC-SHA256 keyed with a secret
 * of the account (the Receipts credential's Access Key Secret), first 48 bits, modulo 10^8. The same receipt
 * data and secret always give the same key, so issuing the same receipt again carries the same key and the
 * tax authority refuses the duplicate instead of authorizing it twice; and without the secret nobody can
 * compute a receipt's key from its public fields (the key is what opens a receipt in the tax authority's
 * public lookup).
 * Returns the key, or the problems that prevent building it (field → what is wrong).
 */
export function reproducibleAccessKey(
	input: AccessKeyInput,
	secret: string,
): { key: string } | { problems: Array<[string, string]> } {
	const problems: Array<[string, string]> = [];
	const date = /^(\d{4})-(\d{2})-(\d{2})/.exec(String(input.fechaEmision ?? '').trim());
	if (!date)
		problems.push([
			'fecha_emision',
			'is required to build a reproducible access key (the emission date is part of the key): give it as YYYY-MM-DD',
		]);
	const ruc = String(input.ruc ?? '').trim();
	if (!/^\d{13}$/.test(ruc))
		problems.push(['emisor.ruc', 'must be the 13-digit RUC to build a reproducible access key']);
	const digits = (value: unknown, length: number, field: string) => {
		const text = String(value ?? '').trim();
		if (!new RegExp(`^\\d{1,${length}}$`).test(text)) {
			problems.push([field, `must be up to ${length} digits to build a reproducible access key`]);
			return '';
		}
		return text.padStart(length, '0');
	};
	const ambiente = digits(input.ambiente, 1, 'ambiente');
	const establecimiento = digits(input.establecimiento, 3, 'emisor.establecimiento.codigo');
	const puntoEmision = digits(input.puntoEmision, 3, 'emisor.establecimiento.punto_emision');
	const secuencial = digits(input.secuencial, 9, 'secuencial');
	const tipoEmision = digits(input.tipoEmision, 1, 'tipo_emision');
	if (secret.length < MIN_ACCESS_KEY_SECRET) {
		problems.push([
			'Access Key Secret (Receipts credential)',
			`${secret ? `has ${secret.length} characters, fewer than ${MIN_ACCESS_KEY_SECRET}` : 'is empty'}: a reproducible access key needs it. Fill it in once with a long random text (at least ${MIN_ACCESS_KEY_SECRET} characters) and keep it: changing it changes every key`,
		]);
	}
	if (problems.length || !date) return { problems };
	const ddmmyyyy = `${date[3]}${date[2]}${date[1]}`;
	const fields = [
		ddmmyyyy,
		input.receiptType,
		ruc,
		ambiente,
		`${establecimiento}${puntoEmision}`,
		secuencial,
		tipoEmision,
	];
	const numericCode = String(
		parseInt(createHmac('sha256', secret).update(fields.join('|')).digest('hex').slice(0, 12), 16) %
			100000000,
	).padStart(8, '0');
	const first48 = `${ddmmyyyy}${input.receiptType}${ruc}${ambiente}${establecimiento}${puntoEmision}${secuencial}${numericCode}${tipoEmision}`;
	return { key: `${first48}${accessKeyCheckDigit(first48)}` };
}
