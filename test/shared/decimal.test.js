import {
	cents,
	decimalOf,
	decimalText,
	divideRounded,
	equalsUnits,
	rescale,
	times,
} from '../../nodes/shared/decimal';

/**
 * The package's exact decimals (nodes/shared/decimal.ts), the one module every amount goes through: read as the
 * decimal it is written as, rounded half away from zero only where asked.
 */

describe('reading: the decimal written, not its binary neighbour', () => {
	test.each([
		['1160.00', { n: 116000n, scale: 2 }],
		['0.160000', { n: 160000n, scale: 6 }],
		[' -12.5 ', { n: -125n, scale: 1 }],
		['.31', { n: 31n, scale: 2 }],
		['2.', { n: 2n, scale: 0 }],
		['+7', { n: 7n, scale: 0 }],
		[1.005, { n: 1005n, scale: 3 }],
		[0.1 + 0.2, { n: 30000000000000004n, scale: 17 }],
		[1e-7, { n: 1n, scale: 7 }],
	])('%j', (value, expected) => {
		const d = decimalOf(value);
		expect(d && rescale(d, expected.scale)).toBe(expected.n);
	});

	test.each([
		['1,50'],
		['1e3'],
		['12 000'],
		[''],
		['.'],
		['-'],
		[NaN],
		[Infinity],
		[null],
		[[1]],
		[{}],
	])('%j is not a decimal', (value) => expect(decimalOf(value)).toBeUndefined());
});

describe('rounding half away from zero', () => {
	test.each([
		[1.005, 101],
		[4.375, 438],
		[0.1 + 0.2, 30],
		[1910, 191000],
		[150.75, 15075],
		['-0.125', -13],
		['-0.124', -12],
		['abc', undefined],
	])('%j is %j cents', (amount, expected) => expect(cents(amount)).toBe(expected));

	test('division', () => {
		expect([
			divideRounded(5n, 2n),
			divideRounded(-5n, 2n),
			divideRounded(5n, -3n),
			divideRounded(4n, 3n),
		]).toEqual([3n, -3n, -2n, 1n]);
	});

	test('products and comparisons are exact', () => {
		const d = times(/** @type {any} */ (decimalOf('0.335')), /** @type {any} */ (decimalOf('3')));
		expect(rescale(d, 2)).toBe(101n);
		expect(equalsUnits(decimalOf('0.160000'), 160_000n, 6)).toBe(true);
		expect(equalsUnits(decimalOf('0.16'), 160_000n, 6)).toBe(true);
		expect(equalsUnits(decimalOf('0.1600001'), 160_000n, 6)).toBe(false);
		expect(equalsUnits(undefined, 0n, 6)).toBe(false);
	});
});

describe('writing', () => {
	test.each([
		['116000000', 6, 2, '116.00'],
		['123456', 6, 2, '0.123456'],
		['-1250', 2, 2, '-12.50'],
		['5', 2, 2, '0.05'],
		['1200', 6, 0, '0.0012'],
		['7', 0, 2, '7.00'],
	])('%s at scale %d, %d decimals at least → %s', (units, scale, min, text) =>
		expect(decimalText(BigInt(units), scale, min)).toBe(text),
	);
});
