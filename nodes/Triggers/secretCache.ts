import { clock } from '../shared/clock';
/**
 * A trigger's secret (or the few fields of its credential a delivery needs), kept in this process for at most
 * `ttlMs` after it was read from the credential. Both triggers read their credential through one: the Extraction
 * Trigger's webhook secret, the Receipts Trigger's account key and address (its deliveries are not signed, so
 * every one, genuine or not, would otherwise cost a credential read).
 *
 * Why: n8n reads and decrypts a credential from its database on every `getCredentials` call, which is the
 * largest cost of a verified delivery that is ours (see BENCHMARKS.md). Why it is safe: an entry lives one
 * second at most, so a secret rotated in the credential stops being accepted within a second, and a
 * delivery that fails verification with a cached secret is verified again with a fresh read, so the new
 * secret works at once. Entries are per workflow, node and credential; the number of entries is bounded.
 */
export class SecretCache<T = string | undefined> {
	private readonly entries = new Map<string, { value: T; readAt: number }>();

	constructor(
		readonly ttlMs = 1000,
		private readonly maxEntries = 1000,
	) {}

	/** The secret and whether it came from the cache; `read` is called when there is no fresh entry. */
	async get(
		key: string,
		read: () => Promise<T>,
		nowMs = clock.now(),
	): Promise<{ value: T; cached: boolean }> {
		const entry = this.entries.get(key);
		if (entry && nowMs - entry.readAt < this.ttlMs) return { value: entry.value, cached: true };
		return { value: await this.refresh(key, read, nowMs), cached: false };
	}

	/** Reads the secret now and keeps it. */
	async refresh(key: string, read: () => Promise<T>, nowMs = clock.now()): Promise<T> {
		const value = await read();
		this.entries.delete(key);
		this.entries.set(key, { value, readAt: nowMs });
		while (this.entries.size > this.maxEntries)
			this.entries.delete(this.entries.keys().next().value as string);
		return value;
	}
}
