/**
 * Ecuadorian identification numbers. Some real RUCs fail these checks (the SRI has issued numbers that
 * do not follow the published algorithm), so callers only warn.
 * - Cédula: 10 digits; province 01..24, 30 (Ecuadorians abroad) or 50; third digit 0..6 (6: foreigners);
 *   last digit = modulo 10 with coefficients 2,1,2,1,2,1,2,1,2 (products over 9 minus 9).
 * - RUC: 13 digits. Third digit 0..5: natural person, cédula + establishment (not 000). 6: public entity,
 *   modulo 11 over 8 digits with 3,2,7,6,5,4,3,2, check in position 9, then 4-digit establishment (not
 *   0000); a RUC that fails that rule is tried as a natural person's (a foreigner's cédula also starts
 *   with a third digit 6). 9: private company, modulo 11 over 9 digits with 4,3,2,7,6,5,4,3,2, check in
 *   position 10; a RUC that passes the public-entity rule instead is valid too (public entities have been
 *   given numbers in the company format, e.g. 1793221293001).
 * Source: the rules and doctests of python-stdnum's `ec/ci` and `ec/ruc` modules; the public-entity rule
 * for a third digit 9 follows `stdnum/ec/ruc.py` since its commit "Support Ecuador public RUC with juridical
 * format" (2025-02-15, python-stdnum issue #457), whose doctest lists 1793221293001.
 */

/** SRI identification type codes (table 6 of the ficha técnica). */
export const ID_TYPES = {
	ruc: '04',
	cedula: '05',
	passport: '06',
	finalConsumer: '07',
	foreign: '08',
} as const;

function provinceOk(digits: string): boolean {
	const province = Number(digits.slice(0, 2));
	return (province >= 1 && province <= 24) || province === 30 || province === 50;
}

function modulo11(digits: string, coefficients: number[]): number {
	const sum = coefficients.reduce((acc, c, i) => acc + c * Number(digits[i]), 0);
	const r = sum % 11;
	return r === 0 ? 0 : 11 - r;
}

/** Why `value` does not look like a valid cédula, or undefined. */
export function cedulaProblem(value: string): string | undefined {
	if (!/^\d{10}$/.test(value)) return 'is not a cédula: it must be 10 digits';
	if (!provinceOk(value))
		return `is not a cédula: province code ${value.slice(0, 2)} does not exist`;
	if (Number(value[2]) > 6) return 'is not a cédula: the third digit must be 0 to 6';
	let sum = 0;
	for (let i = 0; i < 9; i++) {
		let p = Number(value[i]) * (i % 2 === 0 ? 2 : 1);
		if (p > 9) p -= 9;
		sum += p;
	}
	const expected = (10 - (sum % 10)) % 10;
	return expected === Number(value[9])
		? undefined
		: `cédula check digit is ${value[9]} but ${expected} was expected`;
}

/** Why `value` does not look like a valid RUC, or undefined. */
export function rucProblem(value: string): string | undefined {
	if (!/^\d{13}$/.test(value)) return 'is not a RUC: it must be 13 digits';
	if (!provinceOk(value)) return `is not a RUC: province code ${value.slice(0, 2)} does not exist`;
	const third = Number(value[2]);
	const natural = (): string | undefined => {
		const cedula = cedulaProblem(value.slice(0, 10));
		if (cedula) return cedula.replace('cédula', 'RUC (natural person)');
		return value.slice(10) === '000' ? 'RUC establishment number must not be 000' : undefined;
	};
	if (third <= 5) return natural();
	/** The public-entity rule: check digit in position 9, then a 4-digit establishment (not 0000). */
	const publicEntity = (): string | undefined => {
		const expected = modulo11(value, [3, 2, 7, 6, 5, 4, 3, 2]);
		if (expected === 10 || expected !== Number(value[8])) {
			return `RUC (public entity) check digit is ${value[8]} but ${expected === 10 ? 'no valid digit' : expected} was expected`;
		}
		return value.slice(9) === '0000' ? 'RUC establishment number must not be 0000' : undefined;
	};
	if (third === 6) {
		const publicProblem = publicEntity();
		return publicProblem && natural() ? publicProblem : undefined;
	}
	if (third === 9) {
		if (!publicEntity()) return undefined;
		const expected = modulo11(value, [4, 3, 2, 7, 6, 5, 4, 3, 2]);
		if (expected === 10 || expected !== Number(value[9]))
			return `RUC (company) check digit is ${value[9]} but ${expected === 10 ? 'no valid digit' : expected} was expected`;
		return value.slice(10) === '000' ? 'RUC establishment number must not be 000' : undefined;
	}
	return `is not a RUC: the third digit ${third} is not 0-6 or 9`;
}

/** The identification of the final consumer (consumidor final): thirteen nines (SRI, Ficha técnica). */
const FINAL_CONSUMER_ID = '9999999999999';

/**
 * The identification type an identification number shows by its shape, or undefined when it shows none:
 * 9999999999999 → 07 (final consumer), 13 digits ending in 001 → 04 (RUC: a cédula or company number plus
 * establishment 001, the main one), 10 digits → 05 (cédula). Passports and foreign ids (06, 08) cannot be told.
 */
export function idTypeOf(identificacion: unknown): { code: string; why: string } | undefined {
	if (typeof identificacion !== 'string' && typeof identificacion !== 'number') return undefined;
	const id = String(identificacion).trim();
	if (id === FINAL_CONSUMER_ID)
		return { code: ID_TYPES.finalConsumer, why: 'final consumer, from 9999999999999' };
	if (/^\d{10}001$/.test(id))
		return { code: ID_TYPES.ruc, why: 'RUC, from 13 digits ending in 001' };
	if (/^\d{10}$/.test(id)) return { code: ID_TYPES.cedula, why: 'cédula, from 10 digits' };
	return undefined;
}

/**
 * Warning for a party's identification, judged by its type code (04 RUC, 05 cédula) or, when the type is
 * missing, by its length (13 or 10 digits). Passports and foreign IDs are not checked.
 */
export function identificationWarning(identificacion: unknown, tipo: unknown): string | undefined {
	if (typeof identificacion !== 'string' && typeof identificacion !== 'number') return undefined;
	const id = String(identificacion).trim();
	const type = tipo === undefined || tipo === null ? '' : String(tipo).padStart(2, '0');
	if (type === ID_TYPES.ruc || (type === '' && /^\d{13}$/.test(id))) return rucProblem(id);
	if (type === ID_TYPES.cedula || (type === '' && /^\d{10}$/.test(id))) return cedulaProblem(id);
	return undefined;
}
