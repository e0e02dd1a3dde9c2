/** @import { INode } from 'n8n-workflow' */
import { Checker, decimals, parseJsonParameter } from '../../nodes/shared/validate';

const node = /** @type {INode} */ ({
	name: 'N',
	type: 't',
	typeVersion: 1,
	position: [0, 0],
	parameters: {},
	id: '1',
});

describe('Checker', () => {
	test('collects every problem and reports the first in the message, the rest in the description', () => {
		const c = new Checker();
		c.email('a.email', 'abc')
			.integer('b', 1.5)
			.string('c', 'x'.repeat(301), { max: 300 })
			.oneOf('d', 3, [1, 2]);
		expect(c.ok).toBe(false);
		// The router names the item (`[item N]`, see test/shared/router.test.js); the checker names the field.
		expect(() => c.throwIfFailed(node, 4)).toThrow(/^a\.email: "abc" is not an e-mail address$/);
		try {
			c.throwIfFailed(node, 4);
		} catch (e) {
			const d = /** @type {{ description: string }} */ (e).description;
			expect(d).toContain('b: must be a whole number, got 1.5');
			expect(d).toContain('c: must be at most 300 characters long, got 301');
			expect(d).toContain('d: must be one of 1, 2, got 3');
		}
	});

	test('absent optional values pass, absent required ones fail', () => {
		const c = new Checker();
		c.email('opt', undefined)
			.integer('opt2', null)
			.number('opt3', undefined)
			.isoDate('opt4', null)
			.string('opt5', '');
		expect(c.ok).toBe(true);
		c.integer('req', undefined, { required: true }).number('req2', '  ', { required: true });
		expect(c.problems).toEqual(['req: is required', 'req2: is required']);
	});

	test('an empty text is not an absent number: it would be sent as it is', () => {
		const c = new Checker();
		c.integer('a', '').number('b', '  ');
		expect(c.problems).toEqual([
			'a: must be a number or left out, got ""',
			'b: must be a number or left out, got "  "',
		]);
	});

	test.each([
		['hexadecimal', '0x64'],
		['an exponent', '1e2'],
		['surrounding spaces', ' 100'],
		['a trailing space', '100 '],
		['a plus sign', '+100'],
		['a list of one number', [100]],
		['an object', { value: 100 }],
		['a boolean', true],
		['not a finite number', Number.NaN],
		['infinity', Number.POSITIVE_INFINITY],
		['a text with a unit', '5s'],
	])('numbers: %s is refused', (_what, value) => {
		const c = new Checker();
		c.number('n', value).integer('i', value);
		expect(c.problems).toHaveLength(2);
		expect(c.problems[0]).toMatch(/^n: must be a number, got /);
		expect(c.problems[1]).toMatch(/^i: must be a whole number, got /);
	});

	test('numbers: JSON numbers and plain decimal texts are accepted', () => {
		const c = new Checker();
		c.number('a', 12.5)
			.number('b', '12.50')
			.number('c', '-3')
			.number('d', '007.10')
			.integer('e', '42')
			.integer('f', 42);
		expect(c.problems).toEqual([]);
		expect(new Checker().integer('g', '42.0').problems).toEqual([
			'g: must be a whole number, got "42.0"',
		]);
		expect(new Checker().number('h', '1,50').problems).toEqual([
			'h: must be a number, got "1,50" (write decimals with a point, e.g. 1.50)',
		]);
	});

	test('numbersInto: an accepted numeric text is replaced by its number at its path; nothing else changes', () => {
		const body = { a: '12.50', list: [{ n: '3' }, { n: 'x' }], keep: '7', nested: { z: '0x10' } };
		const c = new Checker().numbersInto(body);
		c.number('a', body.a)
			.integer('list[0].n', body.list[0].n)
			.integer('list[1].n', body.list[1].n)
			.number('nested.z', body.nested.z)
			.number('elsewhere', body.keep);
		expect(body).toEqual({
			a: 12.5,
			list: [{ n: 3 }, { n: 'x' }],
			keep: '7',
			nested: { z: '0x10' },
		});
	});

	test('oneOf: a list or an object is not one value, even when it reads as one', () => {
		const c = new Checker();
		c.oneOf('a', [2], [1, 2])
			.oneOf('b', { v: 2 }, [1, 2])
			.oneOf('c', '2', [1, 2])
			.oneOf('d', 2, [1, 2]);
		expect(c.problems).toEqual([
			'a: must be one of 1, 2, got a list',
			'b: must be one of 1, 2, got an object',
		]);
	});

	test('integers accept digit strings and enforce the range', () => {
		const c = new Checker();
		c.integer('a', '12', { min: 1, max: 999999999 })
			.integer('b', 1000000000, { min: 1, max: 999999999 })
			.integer('c', 0, { min: 1 });
		expect(c.problems).toEqual([
			'b: must be at most 999999999, got 1000000000',
			'c: must be at least 1, got 0',
		]);
	});

	test('decimals are counted on the value as given', () => {
		expect(decimals(10)).toBe(0);
		expect(decimals(10.25)).toBe(2);
		expect(decimals('10.250')).toBe(3);
		expect(decimals(0.0000001)).toBe(7);
		const c = new Checker();
		c.number('x', 10.123, { maxDecimals: 2 })
			.number('y', '1.1234567', { maxDecimals: 6 })
			.number('z', 'abc');
		expect(c.problems).toEqual([
			'x: must have at most 2 decimals, got 10.123',
			'y: must have at most 6 decimals, got 1.1234567',
			'z: must be a number, got "abc"',
		]);
	});

	test('ISO dates and date-times', () => {
		const c = new Checker();
		c.isoDate('ok1', '2024-02-29')
			.isoDate('ok2', '2024-05-01T10:20:30-05:00')
			.isoDate('bad1', '01/05/2024')
			.isoDate('bad2', '2024-13-01');
		// Days that do not exist, which Date.parse rolls over into the next month.
		c.isoDate('bad3', '2026-02-30')
			.isoDate('bad4', '2025-02-29T08:00:00Z')
			.isoDate('bad5', '2026-04-31');
		expect(c.problems.map((p) => p.split(':')[0])).toEqual([
			'bad1',
			'bad2',
			'bad3',
			'bad4',
			'bad5',
		]);
	});

	test('warnings do not fail the check', () => {
		const c = new Checker();
		c.warn('ruc', 'check digit');
		expect(c.ok).toBe(true);
		expect(c.warnings).toEqual(['ruc: check digit']);
	});

	test('JSON parameters: text is parsed, objects pass through, bad JSON names the field', () => {
		expect(parseJsonParameter(node, 0, 'body', '{"a":1}')).toEqual({ a: 1 });
		expect(parseJsonParameter(node, 0, 'body', { a: 1 })).toEqual({ a: 1 });
		expect(() => parseJsonParameter(node, 3, 'body', '{a:1}')).toThrow(/^body: is not valid JSON/);
	});
});
