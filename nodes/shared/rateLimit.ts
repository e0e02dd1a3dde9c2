import { clock, type Clock } from './clock';

/**
 * A sliding-window request budget: at most `max` requests in any `windowMs`. One instance lives for one
 * node execution and is shared by all its items, so parallel items together stay inside the budget; other
 * executions running at the same time have budgets of their own (the service's 429 is then the limit).
 * `acquire` waits until a slot frees when that is at most `maxWaitMs` away, and otherwise reports how long
 * it would have to wait without taking a slot, so the caller can stop with a clear message instead of
 * sitting for an hour. `reserve` holds several slots at once, all or none, for work that must not stop
 * half-way (Download All: every download of a job).
 */
export class SlidingWindowLimiter {
	private readonly stamps: number[] = [];
	/** Slots held by reservations and not used yet: taken from the budget, stamped when used. */
	private held = 0;

	constructor(
		readonly max: number,
		readonly windowMs: number,
		private readonly time: Clock = clock,
	) {}

	private prune(now: number): void {
		while (this.stamps.length && this.stamps[0] <= now - this.windowMs) this.stamps.shift();
	}

	/** Slots free right now (neither used within the window nor held by a reservation). */
	available(): number {
		this.prune(this.time.now());
		return Math.max(0, this.max - this.stamps.length - this.held);
	}

	/**
	 * Milliseconds until the next slot frees (0 when one is free now); Infinity when the reservations alone
	 * hold the whole budget (a slot frees only when one is released).
	 */
	delayUntilFree(): number {
		const now = this.time.now();
		this.prune(now);
		const over = this.stamps.length + this.held - this.max;
		if (over < 0) return 0;
		if (over >= this.stamps.length) return Infinity;
		return this.stamps[over] + this.windowMs - now;
	}

	/**
	 * Takes one slot, waiting for it when needed. Returns `{ ok: true, waitedMs }`, or `{ ok: false, waitMs }`
	 * when the wait would exceed `maxWaitMs` (nothing taken).
	 */
	async acquire(
		maxWaitMs = Infinity,
	): Promise<{ ok: true; waitedMs: number } | { ok: false; waitMs: number }> {
		let waited = 0;
		for (;;) {
			const delay = this.delayUntilFree();
			if (delay <= 0) {
				this.stamps.push(this.time.now());
				return { ok: true, waitedMs: waited };
			}
			if (delay === Infinity || waited + delay > maxWaitMs) return { ok: false, waitMs: delay };
			await this.time.sleep(delay);
			waited += delay;
		}
	}

	/**
	 * Holds `count` slots now, all or none: a Reservation, or undefined when fewer are free (nothing held).
	 * Each slot is counted in the window from the moment it is used (`Reservation.use`); what is not used goes
	 * back with `Reservation.release`.
	 */
	reserve(count: number): Reservation | undefined {
		if (count > this.available()) return undefined;
		this.held += count;
		return new Reservation(
			count,
			() => {
				this.held--;
				this.stamps.push(this.time.now());
			},
			(left) => {
				this.held -= left;
			},
		);
	}
}

/** Slots held for one piece of work (see SlidingWindowLimiter.reserve). */
export class Reservation {
	constructor(
		private left: number,
		private readonly stamp: () => void,
		private readonly giveBack: (left: number) => void,
	) {}

	/** Slots still held. */
	get remaining(): number {
		return this.left;
	}

	/** Uses one held slot (counted in the window from now); false when none is left. */
	use(): boolean {
		if (this.left <= 0) return false;
		this.left--;
		this.stamp();
		return true;
	}

	/** Gives back every slot not used. */
	release(): void {
		if (this.left > 0) this.giveBack(this.left);
		this.left = 0;
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

	/** How many tasks wait for a place. */
	get waiting(): number {
		return this.queue.length;
	}

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
