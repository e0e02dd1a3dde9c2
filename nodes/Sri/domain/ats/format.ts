import { decimalOf, decimalText, equalsUnits, rescale } from '../../../shared/decimal';

/**
 * How the ATS writes values (the SRI's ATS schema, at.xsd, release 2020-12-02), one rule each:
 * - amounts (`monedaType`): an integer or exactly two decimals, never negative, at most 12 integer digits; only
 *   `totalVentas`, `ventasEstab` and `ivaComp` (`totalVentasType`) may be negative. Every amount is read exactly
 *   and added in whole cents (shared/decimal.ts), so no binary fraction piles up over thousands of receipts;
 * - dates (`fechaType`): `dd/mm/yyyy`;
 * - names (`razonSocialType`, `denoProvType`): letters, digits and spaces only — accents and `ñ` reduced to their
 *   letter, `&` to `Y`, `-` and `/` to a space, any other sign dropped (the rule of Odoo Enterprise's ATS name
 *   normalizer, `l10n_ec_reports_ats`; "S.A." becomes "SA"), at most 500 characters;
 * - withholding percentages (`porcentajeAirType`): up to three integer digits and two decimals.
 */

/** The largest amount the schema allows: 999,999,999,999.99. */
const MAX_CENTS = 99_999_999_999_999;

/** Cents as the schema's `monedaType`: `1234.50`. Throws for a negative or too large amount (a bug upstream). */
export function money(cents: number): string {
	if (!Number.isSafeInteger(cents) || cents < 0 || cents > MAX_CENTS)
		throw new RangeError(`amount ${cents / 100} cannot be written in the ATS`);
	return signedMoney(cents);
}

/** Cents as `totalVentasType`, which may be negative: `-12.00`. */
export function signedMoney(cents: number): string {
	return decimalText(BigInt(cents), 2);
}

/** Cents as the dollars a bookkeeper reads in the JSON (`1234.5`). */
export const dollars = (cents: number): number => cents / 100;

/** A percentage as `porcentajeAirType`: `1.75`, `10.00`; undefined when it does not fit (over 100, 3+ decimals). */
export function percentage(value: number): string | undefined {
	const d = decimalOf(value);
	if (!d) return undefined;
	const hundredths = rescale(d, 2);
	if (hundredths < 0n || hundredths > 10_000n || !equalsUnits(d, hundredths, 2)) return undefined;
	return money(Number(hundredths));
}

/** `yyyy-mm-dd` as the schema's `dd/mm/yyyy`. */
export function atsDate(iso: string): string {
	return `${iso.slice(8, 10)}/${iso.slice(5, 7)}/${iso.slice(0, 4)}`;
}

/** The longest name the schema takes (`razonSocialType`, `denoProvType`). */
const MAX_NAME = 500;

/**
 * A name reduced to what the schema allows: `Papelería Central Cía. Ltda.` → `Papeleria Central Cia Ltda`,
 * `Ñandú & Asociados S.A.` → `Nandu Y Asociados SA`. Empty when nothing of it is left.
 */
export function atsName(name: string): string {
	return name
		.normalize('NFD')
		.replace(/[\u0300-\u036f]/g, '')
		.replace(/&/g, ' Y ')
		.replace(/[-/]/g, ' ')
		.replace(/[^a-zA-Z0-9\s]/g, '')
		.replace(/\s+/g, ' ')
		.trim()
		.slice(0, MAX_NAME)
		.trim();
}

/** An identification as the schema takes it (`[0-9a-zA-Z]{3,13}`), or undefined. */
export function schemaId(id: string): string | undefined {
	const cleaned = id.replace(/[^0-9a-zA-Z]/g, '');
	return /^[0-9a-zA-Z]{3,13}$/.test(cleaned) ? cleaned : undefined;
}
