/**
 * Mexican RFC (Registro Federal de Contribuyentes) checks.
 * Shape: 3 letters (legal entity, 12 characters) or 4 letters (person, 13 characters), the date
 * YYMMDD, and a 3-character homoclave whose last character is the check digit.
 * Check digit (SAT's published algorithm): pad a 12-character RFC with a leading space, map each of the
 * first 12 characters through "0123456789ABCDEFGHIJKLMN&OPQRSTUVWXYZ Ñ" (values 0..38), weight them
 * 13 down to 2, sum, r = sum mod 11; digit = 0 when r = 0, "A" when 11 - r = 10, else 11 - r.
 * Some real RFCs fail the check digit, so callers only warn on it.
 */
const GENERIC_RFCS = ['XAXX010101000', 'XEXX010101000'];

const SHAPE = /^([A-ZÑ&]{3,4})(\d{2})(\d{2})(\d{2})([A-Z\d]{2})([A\d])$/;
const VALUES = '0123456789ABCDEFGHIJKLMN&OPQRSTUVWXYZ Ñ';

interface RfcCheck {
	/** Why the value is not an RFC at all, or undefined. */
	error?: string;
	/** Why it may still be wrong (check digit), or undefined. */
	warning?: string;
	normalized: string;
}

export function checkDigit(rfc: string): string {
	const padded = rfc.length === 12 ? ` ${rfc}` : rfc;
	let sum = 0;
	for (let i = 0; i < 12; i++) sum += VALUES.indexOf(padded[i]) * (13 - i);
	const r = sum % 11;
	if (r === 0) return '0';
	return 11 - r === 10 ? 'A' : String(11 - r);
}

/**
 * `value` checked as an RFC. `consequence` is what the caller does with an RFC whose check digit is wrong, said in
 * its warning: `sent anyway` where it is sent to a service, what else where nothing is sent (the DIOT builds a file).
 */
export function checkRfc(value: string, consequence = 'sent anyway'): RfcCheck {
	const normalized = value.trim().toUpperCase();
	if (GENERIC_RFCS.includes(normalized)) return { normalized };
	if (normalized.length !== 12 && normalized.length !== 13) {
		return {
			normalized,
			error: `must be 12 (company) or 13 (person) characters long, got ${normalized.length}`,
		};
	}
	const m = SHAPE.exec(normalized);
	if (!m || m[1].length !== normalized.length - 9) {
		return {
			normalized,
			error: 'is not an RFC: expected 3 or 4 letters, a date YYMMDD and a 3-character homoclave',
		};
	}
	const [month, day] = [Number(m[3]), Number(m[4])];
	// 19YY and 20YY agree on leap years except 1900/2000; 2000 is taken, so 29/02/00 is accepted.
	const date = new Date(Date.UTC(2000 + Number(m[2]), month - 1, day));
	const validDate =
		month >= 1 && month <= 12 && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
	if (!validDate) {
		return { normalized, error: `has an impossible date part ${m[2]}${m[3]}${m[4]} (YYMMDD)` };
	}
	const expected = checkDigit(normalized);
	if (expected !== normalized[normalized.length - 1]) {
		return {
			normalized,
			warning: `check digit is ${normalized[normalized.length - 1]} but ${expected} was expected; ${consequence}, verify the RFC`,
		};
	}
	return { normalized };
}
