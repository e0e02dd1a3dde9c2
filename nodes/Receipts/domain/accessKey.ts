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

export interface AccessKeyParts {
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
	if (!/^\d{49}$/.test(key)) return `must be exactly 49 digits, got ${/^\d*$/.test(key) ? `${key.length} digits` : `"${key.slice(0, 60)}"`}`;
	const expected = accessKeyCheckDigit(key.slice(0, 48));
	if (String(expected) !== key[48]) return `has check digit ${key[48]} but the SRI modulo-11 check gives ${expected}: the key is mistyped`;
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
