import * as n8nWorkflow from 'n8n-workflow';

/**
 * The one source of time of the package: every wait, deadline, limiter, timestamp and date of the shipped code
 * takes `now` and `sleep` from `clock`, and nothing else reads the time (test/shared/clock.test.js checks the
 * sources). `now` is the wall clock, `sleep` n8n's own (shipped code may not use timers: n8n-node lint); both are
 * read at each call, so the fake clock of the tests (test/harness/clock.js: Jest's fake timers) drives every one
 * of them through the engine, and a unit test can hand a loop a `Clock` of its own.
 */
export interface Clock {
	/** Milliseconds since the epoch. */
	now(): number;
	/**
	 * Resolves after `ms` milliseconds; with `signal`, rejects as soon as it aborts, and its timer is gone (a
	 * deadline's timer ends with the exchange it guards, instead of staying until the deadline).
	 */
	sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

/**
 * n8n's cancellable sleep on both lines: n8n-workflow 1.x has `sleepWithAbort(ms, signal)` and a `sleep(ms)` that
 * ignores a signal (checked against n8n 1.123.x); n8n-workflow 2.x's `sleep(ms, signal)` takes the signal itself
 * and has no `sleepWithAbort` (2.41). The built package runs with the n8n-workflow of the n8n that loads it.
 */
const sleepWithAbort = (
	n8nWorkflow as { sleepWithAbort?: (ms: number, signal?: AbortSignal) => Promise<void> }
).sleepWithAbort;

export const clock: Clock = {
	now: () => Date.now(),
	sleep: async (ms, signal) =>
		signal && sleepWithAbort
			? await sleepWithAbort(ms, signal)
			: await n8nWorkflow.sleep(ms, signal),
};
