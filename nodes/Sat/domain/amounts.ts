import {
	decimalText,
	divideRounded,
	equalsUnits,
	rescale,
	type Decimal,
} from '../../shared/decimal';

/**
 * A CFDI's money, exact (the package's exact decimals, shared/decimal.ts): amounts are kept as whole millionths of
 * a peso (`bigint`), as a CFDI writes them (at most 6 decimals), converted to pesos with exchange rates and
 * equivalences read exactly (up to 10 decimals in Pagos 2.0), added up, and rounded to whole pesos once, at the end
 * (see `wholePesos`). What a Mexican declaration (the DIOT, a monthly IVA worksheet) and the CFDI reader share.
 */

/** One millionth of a peso is the unit of every amount. */
const MICROS = 1_000_000n;

/** A decimal as millionths (a CFDI amount has at most 6 decimals; more are rounded half away from zero). */
export function toMicros(d: Decimal): bigint {
	return rescale(d, 6);
}

/**
 * `micros × multiplier ÷ divisor`, to the nearest millionth: an amount converted to pesos with an exchange rate
 * (`TipoCambio`, `TipoCambioP`) and, for a document paid in another currency, divided by its equivalence
 * (`EquivalenciaDR`: units of the document's currency per unit of the payment's).
 */
export function convert(micros: bigint, multiplier?: Decimal, divisor?: Decimal): bigint {
	const m = multiplier ?? { n: 1n, scale: 0 };
	const d = divisor ?? { n: 1n, scale: 0 };
	return divideRounded(micros * m.n * 10n ** BigInt(d.scale), 10n ** BigInt(m.scale) * d.n);
}

/** True when the decimal is exactly `micros` millionths (a rate: `0.160000` is 160000). */
export function equalsMicros(d: Decimal | undefined, micros: bigint): boolean {
	return equalsUnits(d, micros, 6);
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
	return decimalText(micros, 6);
}
