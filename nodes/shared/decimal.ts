/**
 * Exact decimals: the package's one way of reading, adding and rounding money. An amount is read as the decimal it
 * is written as (`0.335` is 335 thousandths, not its binary neighbour), kept as a whole number of units of its
 * scale (`bigint`: cents for the SRI's receipts, millionths of a peso for a CFDI) and rounded half away from zero
 * only where a rule says to round. No binary floating point touches an amount on its way, so a sum of thousands of
 * documents is the sum an accountant adds by hand. What each authority rounds to (whole pesos, cents) stays with
 * that authority's rules; this module only computes.
 */

/** A decimal read exactly: its value is `n / 10^scale`. */
export interface Decimal {
	n: bigint;
	scale: number;
}

/** A plain decimal: an optional sign, digits, an optional fraction (`12`, `-0.5`, `.31`, `2.`), nothing else. */
const PLAIN = /^([+-]?)(\d*)(?:\.(\d*))?$/;

/**
 * A decimal written as text (`"1160.00"`, `".31"`, `"0.160000"`) or a JSON number (`1160`, `0.16`: the shortest text
 * that gives the number back, so a number holds the decimal it was written as), or undefined for anything else: an
 * exponent in text, a decimal comma, thousands separators, a list, nothing.
 */
export function decimalOf(value: unknown): Decimal | undefined {
	let text: string;
	if (typeof value === 'number') {
		if (!Number.isFinite(value)) return undefined;
		text = String(value);
		// A number small or large enough that JavaScript writes it with an exponent: its digits, fixed.
		if (/e/i.test(text)) text = value.toFixed(20);
	} else if (typeof value === 'string') text = value.trim();
	else return undefined;
	const m = PLAIN.exec(text);
	if (!m || (m[2] === '' && !m[3])) return undefined;
	const fraction = m[3] ?? '';
	const n = BigInt(`${m[2] || '0'}${fraction}`);
	return { n: m[1] === '-' ? -n : n, scale: fraction.length };
}

const pow10 = (k: number): bigint => 10n ** BigInt(k);

/** `numerator / denominator`, rounded half away from zero. */
export function divideRounded(numerator: bigint, denominator: bigint): bigint {
	const negative = numerator < 0n !== denominator < 0n;
	const a = numerator < 0n ? -numerator : numerator;
	const b = denominator < 0n ? -denominator : denominator;
	const q = (a * 2n + b) / (b * 2n);
	return negative ? -q : q;
}

/** `d` as a whole number of units of 10^-`scale`, rounded half away from zero (`1.005` at 2 → 101). */
export function rescale(d: Decimal, scale: number): bigint {
	return d.scale <= scale
		? d.n * pow10(scale - d.scale)
		: divideRounded(d.n, pow10(d.scale - scale));
}

/** `a × b`, exactly. */
export function times(a: Decimal, b: Decimal): Decimal {
	return { n: a.n * b.n, scale: a.scale + b.scale };
}

/** True when `d` is exactly `units` × 10^-`scale` (a rate `0.160000` is 160000 millionths). */
export function equalsUnits(d: Decimal | undefined, units: bigint, scale: number): boolean {
	return d !== undefined && d.n * pow10(scale) === units * pow10(d.scale);
}

/** Whole cents of an amount (rounded half away from zero), or undefined when it is not a number. */
export function cents(value: unknown): number | undefined {
	const d = decimalOf(value);
	return d === undefined ? undefined : Number(rescale(d, 2));
}

/**
 * `units` × 10^-`scale` as decimal text, for files and messages: `minDecimals` decimals at least, the zeros after
 * them dropped (`1160.00`, `0.123456` for millionths with 2; `12.30` for cents with 2).
 */
export function decimalText(units: bigint, scale: number, minDecimals = 2): string {
	const negative = units < 0n;
	const abs = negative ? -units : units;
	const unit = pow10(scale);
	const fraction = (abs % unit).toString().padStart(scale, '0');
	let kept = fraction.length;
	while (kept > minDecimals && fraction[kept - 1] === '0') kept--;
	const decimals = fraction.slice(0, kept).padEnd(minDecimals, '0');
	return `${negative ? '-' : ''}${abs / unit}${decimals ? `.${decimals}` : ''}`;
}
