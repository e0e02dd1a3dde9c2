/**
 * The DIOT's money, exact: amounts are kept as whole millionths of a peso (`bigint`), as a CFDI writes them (at most
 * 6 decimals), converted to pesos with exchange rates and equivalences read exactly (up to 10 decimals in Pagos
 * 2.0), added up, and rounded to whole pesos once, at the end (see `wholePesos`). No binary floating point touches
 * an amount, so a sum of thousands of CFDIs is the sum an accountant adds by hand.
 */

/** A decimal read exactly: its value is `n / 10^scale`. */
export interface Decimal {
	n: bigint;
	scale: number;
}

const PLAIN = /^(-?)(\d+)(?:\.(\d+))?$/;

/**
 * A decimal written as text (`"1160.00"`, `"0.160000"`) or as a JSON number (`1160`, `0.16`: Read CFDI XML writes
 * amounts as numbers that hold them exactly), or undefined for anything else (an exponent, a comma, a list).
 */
export function decimalOf(value: unknown): Decimal | undefined {
	let text: string;
	if (typeof value === 'number') {
		if (!Number.isFinite(value)) return undefined;
		text = String(value);
	} else if (typeof value === 'string') text = value.trim();
	else return undefined;
	const m = PLAIN.exec(text);
	if (!m) return undefined;
	const fraction = m[3] ?? '';
	const n = BigInt(m[2] + fraction);
	return { n: m[1] ? -n : n, scale: fraction.length };
}

const TEN = 10n;
const pow10 = (k: number): bigint => TEN ** BigInt(k);

/** `numerator / denominator`, rounded half away from zero. */
function divide(numerator: bigint, denominator: bigint): bigint {
	const negative = numerator < 0n !== denominator < 0n;
	const [a, b] = [
		numerator < 0n ? -numerator : numerator,
		denominator < 0n ? -denominator : denominator,
	];
	const q = (a * 2n + b) / (b * 2n);
	return negative ? -q : q;
}

/** One millionth of a peso is the unit of every amount. */
const MICROS = 1_000_000n;

/** A decimal as millionths (a CFDI amount has at most 6 decimals; more are rounded half away from zero). */
export function toMicros(d: Decimal): bigint {
	return d.scale <= 6 ? d.n * pow10(6 - d.scale) : divide(d.n, pow10(d.scale - 6));
}

/**
 * `micros × multiplier ÷ divisor`, to the nearest millionth: an amount converted to pesos with an exchange rate
 * (`TipoCambio`, `TipoCambioP`) and, for a document paid in another currency, divided by its equivalence
 * (`EquivalenciaDR`: units of the document's currency per unit of the payment's).
 */
export function convert(micros: bigint, multiplier?: Decimal, divisor?: Decimal): bigint {
	const m = multiplier ?? { n: 1n, scale: 0 };
	const d = divisor ?? { n: 1n, scale: 0 };
	return divide(micros * m.n * pow10(d.scale), pow10(m.scale) * d.n);
}

/** True when the decimal is exactly `micros` millionths (a rate: `0.160000` is 160000). */
export function equalsMicros(d: Decimal | undefined, micros: bigint): boolean {
	return d !== undefined && d.n * pow10(6) === micros * pow10(d.scale);
}

/**
 * Whole pesos, by the rule of the Código Fiscal de la Federación (art. 20) for amounts in whole pesos: from 1 to
 * 50 centavos down to the peso below, from 51 to 99 centavos up to the peso above. The DIOT's instructions say only
 * that amounts have no decimals; this is the Mexican rule for dropping them. Negative amounts are rounded by
 * their absolute value.
 */
export function wholePesos(micros: bigint): bigint {
	if (micros < 0n) return -wholePesos(-micros);
	const pesos = micros / MICROS;
	return micros % MICROS > 500_000n ? pesos + 1n : pesos;
}

/** Millionths as a decimal text with 2 decimals at least (`1160.00`, `0.123456`), for messages. */
export function moneyText(micros: bigint): string {
	const negative = micros < 0n;
	const abs = negative ? -micros : micros;
	const fraction = (abs % MICROS)
		.toString()
		.padStart(6, '0')
		.replace(/0{1,4}$/, '');
	return `${negative ? '-' : ''}${abs / MICROS}.${fraction.padEnd(2, '0')}`;
}
