import { followUntilFinal } from '../../nodes/shared/wait';

/**
 * The one wait rule (nodes/shared/wait.ts) on a clock of its own: the exact times of the checks, the deadline,
 * and what a failed check means. The nodes' use of it runs through the engine (test/receipts/wait.test.js,
 * test/extraction/extraction.test.js).
 */

/** A clock that only moves when the loop sleeps, and a script of check results (a value, or an error to throw). */
function scripted(results, { checkTakesMs = 0 } = {}) {
	let now = 0;
	/** @type {number[]} */
	const checkedAt = [];
	/** @type {number[]} */
	const deadlines = [];
	const clock = { now: () => now, sleep: async (ms) => void (now += ms) };
	const check = async (deadline) => {
		checkedAt.push(now);
		deadlines.push(deadline);
		now += checkTakesMs;
		const next = results.shift();
		if (next instanceof Error) throw next;
		return next;
	};
	return { clock, check, checkedAt, deadlines, now: () => now };
}

const failure = (facts) =>
	Object.assign(new Error(`check failed ${JSON.stringify(facts)}`), { facts });
const follow = (s, settings, extra = {}) =>
	followUntilFinal({
		settings,
		first: 'PENDING',
		check: s.check,
		isFinal: (state) => state === 'DONE',
		path: '/things/1',
		what: 'thing',
		clock: s.clock,
		...extra,
	});

describe('followUntilFinal', () => {
	test('the first check after Poll Interval, each later one 1.5 times later, up to 30 s', async () => {
		const s = scripted(Array(12).fill('PENDING'));
		const followed = await follow(s, { timeoutMs: 200_000, firstMs: 5000 });
		expect(followed).toEqual({ outcome: 'timed-out', state: 'PENDING' });
		// Intervals 5, 7.5, 11.25, 16.875, 25.3125, then 30 each: no check at the deadline itself.
		expect(s.checkedAt).toEqual([
			5000, 12500, 23750, 40625, 65937.5, 95937.5, 125937.5, 155937.5, 185937.5,
		]);
		expect(s.now()).toBe(200_000);
		expect(s.deadlines.every((d) => d === 200_000)).toBe(true);
	});

	test('a Poll Interval above 30 s stays as it is', async () => {
		const s = scripted(Array(5).fill('PENDING'));
		await follow(s, { timeoutMs: 200_000, firstMs: 60_000 });
		expect(s.checkedAt).toEqual([60_000, 120_000, 180_000]);
	});

	test('the time a check takes is not part of the interval; the last sleep ends at the deadline', async () => {
		const s = scripted(Array(5).fill('PENDING'), { checkTakesMs: 1000 });
		const followed = await follow(s, { timeoutMs: 10_000, firstMs: 2000 });
		expect(s.checkedAt).toEqual([2000, 6000]);
		expect(followed.outcome).toBe('timed-out');
		expect(s.now()).toBe(10_000);
	});

	test('a final first state needs no check; a final state ends the wait; merge builds the state', async () => {
		const none = scripted([]);
		expect(
			await followUntilFinal({
				settings: { timeoutMs: 60_000, firstMs: 1000 },
				first: 'DONE',
				check: none.check,
				isFinal: (x) => x === 'DONE',
				path: '',
				what: '',
				clock: none.clock,
			}),
		).toEqual({ outcome: 'final', state: 'DONE' });
		expect(none.checkedAt).toEqual([]);
		const s = scripted([{ s: 'PENDING', a: 1 }, { s: 'DONE' }]);
		const followed = await followUntilFinal({
			settings: { timeoutMs: 60_000, firstMs: 1000 },
			first: { s: 'PENDING', kept: true },
			check: s.check,
			merge: (state, read) => ({ ...state, ...read }),
			isFinal: (x) => x.s === 'DONE',
			path: '',
			what: '',
			clock: s.clock,
		});
		expect(followed).toEqual({ outcome: 'final', state: { s: 'DONE', a: 1, kept: true } });
	});

	test('a final state that is a failure is thrown by isFinal, at once', async () => {
		const s = scripted(['PENDING', 'FAILED', 'DONE']);
		const isFinal = (x) => {
			if (x === 'FAILED') throw new Error('the job failed');
			return x === 'DONE';
		};
		await expect(follow(s, { timeoutMs: 60_000, firstMs: 1000 }, { isFinal })).rejects.toThrow(
			'the job failed',
		);
		expect(s.checkedAt).toHaveLength(2);
	});

	test('a timeout of 0: no check at all', async () => {
		const s = scripted(['DONE']);
		expect(await follow(s, { timeoutMs: 0, firstMs: 1000 })).toEqual({
			outcome: 'timed-out',
			state: 'PENDING',
		});
		expect(s.checkedAt).toEqual([]);
	});

	test('no check could be made before the deadline (a pacing slot came too late): the wait timed out', async () => {
		const s = scripted([undefined, 'DONE']);
		expect(await follow(s, { timeoutMs: 60_000, firstMs: 1000 })).toEqual({
			outcome: 'timed-out',
			state: 'PENDING',
		});
		expect(s.checkedAt).toHaveLength(1);
	});

	test('a check that fails for a reason that may pass does not end the wait; the next answer counts', async () => {
		const s = scripted([
			failure({ status: 404 }),
			failure({ status: 503 }),
			failure({ status: 429 }),
			failure({}),
			'DONE',
		]);
		expect(await follow(s, { timeoutMs: 600_000, firstMs: 1000 })).toEqual({
			outcome: 'final',
			state: 'DONE',
		});
		expect(s.checkedAt).toHaveLength(5);
	});

	test.each([401, 403])('a refused key (%i) ends the wait at once', async (status) => {
		const s = scripted(['PENDING', failure({ status }), 'DONE']);
		const followed = await follow(s, { timeoutMs: 600_000, firstMs: 1000 });
		expect(followed).toMatchObject({ outcome: 'check-failed', state: 'PENDING' });
		expect(
			followed.outcome === 'check-failed' && /** @type {any} */ (followed.error).facts.status,
		).toBe(status);
		expect(s.checkedAt).toHaveLength(2);
	});

	test('the deadline after a failed check: that failure is the outcome; a 404 is explained', async () => {
		const s = scripted(Array(20).fill(failure({ status: 404 })));
		const followed = await follow(s, { timeoutMs: 10_000, firstMs: 1000 });
		expect(followed.outcome).toBe('check-failed');
		expect(/** @type {any} */ (followed).error.description).toBe(
			'GET /things/1 still answered 404 (not found) when the wait ended: the service had not made the new thing visible yet.',
		);
	});

	test('a check cut short by the deadline with no answer is the wait timing out, not a failure of its own', async () => {
		const s = scripted([failure({ status: 503 }), 'PENDING', failure({ cutByDeadline: true })]);
		expect(await follow(s, { timeoutMs: 5000, firstMs: 1000 })).toEqual({
			outcome: 'timed-out',
			state: 'PENDING',
		});
	});

	test('an answer after a failed check clears it: the deadline is then a timeout', async () => {
		const s = scripted([failure({ status: 503 }), 'PENDING', 'PENDING', 'PENDING']);
		expect(await follow(s, { timeoutMs: 6000, firstMs: 1000 })).toEqual({
			outcome: 'timed-out',
			state: 'PENDING',
		});
	});
});
