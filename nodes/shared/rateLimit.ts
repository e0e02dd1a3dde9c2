import { clock, type Clock } from './wait';

/**
 * A sliding-window request budget: at most `max` requests in any `windowMs`. One instance lives for one
 * node execution and is shared by all its items, so parallel items together stay inside the budget.
 * `acquire` waits until a slot frees when that is at most `maxWaitMs` away, and otherwise reports how long
 * it would have to wait without taking a slot, so the caller can stop with a clear message instead of
 * sitting for an hour.
 */
export class SlidingWindowLimiter {
	private readonly stamps: number[] = [];

	constructor(
		readonly max: number,
		readonly windowMs: number,
		private readonly time: Clock = clock,
	) {}

	private prune(now: number): void {
		while (this.stamps.length && this.stamps[0] <= now - this.windowMs) this.stamps.shift();
	}

	/** Slots free right now. */
	available(): number {
		this.prune(this.time.now());
		return Math.max(0, this.max - this.stamps.length);
	}

	/** Milliseconds until the next slot frees (0 when one is free now). */
	delayUntilFree(): number {
		const now = this.time.now();
		this.prune(now);
		if (this.stamps.length < this.max) return 0;
		return this.stamps[this.stamps.length - this.max] + this.windowMs - now;
	}

	/**
	 * Takes one slot, waiting for it when needed. Returns `{ ok: true, waitedMs }`, or `{ ok: false, waitMs }`
	 * when the wait would exceed `maxWaitMs` (nothing taken).
	 */
	async acquire(maxWaitMs = Infinity): Promise<{ ok: true; waitedMs: number } | { ok: false; waitMs: number }> {
		let waited = 0;
		for (;;) {
			const delay = this.delayUntilFree();
			if (delay <= 0) {
				this.stamps.push(this.time.now());
				return { ok: true, waitedMs: waited };
			}
			if (waited + delay > maxWaitMs) return { ok: false, waitMs: delay };
			await this.time.sleep(delay);
			waited += delay;
		}
	}
}

/**
 * At most `max` tasks at once, first come first served: bounds how many requests of one execution are in
 * flight together (e.g. the status checks of a batch of receipts waiting for their authorization).
 */
export class Semaphore {
	private active = 0;
	private readonly queue: Array<() => void> = [];

	constructor(readonly max: number) {}

	async run<T>(task: () => Promise<T>): Promise<T> {
		if (this.active >= this.max) await new Promise<void>((resolve) => this.queue.push(resolve));
		else this.active++;
		try {
			return await task();
		} finally {
			const next = this.queue.shift();
			if (next) next();
			else this.active--;
		}
	}
}
