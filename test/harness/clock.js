/**
 * A fake clock for engine tests where time matters: n8n's `sleep`, `setTimeout` and `Date` are Jest's fake
 * timers while `run` executes, and the clock is moved forward step by step until the run ends, so a test of a
 * 60-second deadline takes milliseconds and no timed bound depends on the machine's speed. Sockets, `nextTick`
 * and `setImmediate` stay real: the simulators and n8n's HTTP helper talk over real connections; the
 * simulators' own timers (a dripping answer, a late one) run on the same fake clock.
 * @template T
 * @param {() => Promise<T>} run
 * @param {{ stepMs?: number; maxMs?: number }} [opts] How far to move the clock at a time, and at most in all.
 * @returns {Promise<{ result: T; elapsedMs: number }>} The run's result and the fake time it took.
 */
export async function withFakeClock(run, { stepMs = 100, maxMs = 30 * 60 * 1000 } = {}) {
	jest.useFakeTimers({ doNotFake: ['nextTick', 'setImmediate', 'queueMicrotask', 'hrtime', 'performance'] });
	const started = Date.now();
	let done = false;
	try {
		const running = run().finally(() => (done = true));
		while (!done && Date.now() - started < maxMs) {
			await jest.advanceTimersByTimeAsync(stepMs);
			// Lets the sockets deliver what the timers just wrote.
			await new Promise((resolve) => setImmediate(resolve));
		}
		if (!done) throw new Error(`the run did not end within ${maxMs} ms of fake time`);
		const result = await running;
		return { result, elapsedMs: Date.now() - started };
	} finally {
		jest.useRealTimers();
	}
}
