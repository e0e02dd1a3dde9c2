import { clock } from '../shared/clock';
import { sha256Hex } from './signature';

/**
 * Whether a genuine delivery is new: a small in-process memory of the keys already seen, bounded by size
 * and age. It is fast and needs no database, and it is honest about its reach: one n8n process, until that
 * process restarts. Across restarts and several webhook processes, de-duplication is the workflow's job
 * (n8n's Remove Duplicates node on the trigger's `eventId`, which n8n keeps in its database; see docs/scale.md).
 */

export interface DedupOptions {
	/** Entries kept at most; the oldest are forgotten first. */
	maxEntries?: number;
	/** How long a key is remembered, in milliseconds. */
	ttlMs?: number;
}

/**
 * Remembers keys for a while, in this process only. `claim` answers "first time?" and records the key.
 * Bounded by size and age: memory cannot grow without limit, and an entry older than the TTL is forgotten.
 * Keys are stored hashed, so their size does not matter.
 */
export class DedupStore {
	readonly maxEntries: number;
	readonly ttlMs: number;
	/** key hash → time it was recorded. Insertion order is time order (entries are never refreshed). */
	private readonly seen = new Map<string, number>();

	constructor(options: DedupOptions = {}) {
		this.maxEntries = Math.max(1, options.maxEntries ?? 10000);
		this.ttlMs = Math.max(1, options.ttlMs ?? 24 * 60 * 60 * 1000);
	}

	private prune(nowMs: number): void {
		for (const [key, at] of this.seen) {
			if (nowMs - at < this.ttlMs) break;
			this.seen.delete(key);
		}
		while (this.seen.size > this.maxEntries) {
			const oldest = this.seen.keys().next().value as string;
			this.seen.delete(oldest);
		}
	}

	/**
	 * Whether the key was recorded within the TTL, without recording it: for a trigger that must do work
	 * that can fail (ask the service) before it knows whether to record the delivery as received.
	 */
	has(key: string, nowMs = clock.now()): boolean {
		this.prune(nowMs);
		return this.seen.has(sha256Hex(key));
	}

	/** Records the key. Returns true when it is new, false when it was already seen within the TTL. */
	claim(key: string, nowMs = clock.now()): boolean {
		this.prune(nowMs);
		const hashed = sha256Hex(key);
		if (this.seen.has(hashed)) return false;
		this.seen.set(hashed, nowMs);
		this.prune(nowMs);
		return true;
	}
}

/**
 * Process-wide stores by namespace (e.g. workflow id + node id + purpose). n8n keeps a node's module loaded
 * for the life of the process, so these outlive a single request — unlike static data written inside
 * `webhook()`, which n8n does not save. The number of namespaces is bounded too.
 */
export class DedupRegistry {
	private readonly stores = new Map<string, DedupStore>();

	constructor(private readonly maxNamespaces = 1000) {}

	get(namespace: string, options?: DedupOptions): DedupStore {
		let store = this.stores.get(namespace);
		if (store) {
			// move to the end: most recently used
			this.stores.delete(namespace);
			this.stores.set(namespace, store);
			return store;
		}
		store = new DedupStore(options);
		this.stores.set(namespace, store);
		while (this.stores.size > this.maxNamespaces) {
			this.stores.delete(this.stores.keys().next().value as string);
		}
		return store;
	}
}

/** The one registry of this process, shared by every trigger node of the package. */
export const deliveryMemory = new DedupRegistry();
