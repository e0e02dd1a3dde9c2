import { DedupRegistry, DedupStore } from '../../nodes/Triggers/dedup';
import { safeEqual, verifySignature } from '../../nodes/Triggers/signature';
import { createHmac } from 'node:crypto';

/** Independent of the code under test: HMAC-SHA256 over `${ts}.${raw}`. */
const sign = (key, ts, raw) =>
	`sha256=${createHmac('sha256', key).update(`${ts}.${raw}`).digest('hex')}`;

const secret = 'shhh-this-is-the-secret';
const body =
	'{"event":{"type":"extraction.completed","timestamp":"2026-11-22T09:00:00.000Z","version":"1.0"},"data":{"extractionId":"e1"}}';
const now = 1_800_000_000; // seconds
const at = (s) => s * 1000;

function check(overrides = {}) {
	return verifySignature({
		secret,
		rawBody: Buffer.from(body),
		signature: sign(secret, now, body),
		timestamp: String(now),
		nowMs: at(now),
		...overrides,
	});
}

describe('verifySignature', () => {
	it('accepts the HMAC-SHA256 of `${timestamp}.${rawBody}` and returns the digest', () => {
		const result = check();
		expect(result).toEqual({ ok: true, timestamp: now, digest: sign(secret, now, body).slice(7) });
	});

	it('accepts upper-case hex and a string body', () => {
		const sig = sign(secret, now, body);
		expect(check({ signature: `sha256=${sig.slice(7).toUpperCase()}`, rawBody: body }).ok).toBe(
			true,
		);
	});

	it.each([
		['no secret configured', { secret: '' }],
		['no secret configured', { secret: undefined }],
		['raw body unavailable', { rawBody: undefined }],
		['missing signature header', { signature: undefined }],
		['missing signature header', { signature: '' }],
		['missing timestamp header', { timestamp: undefined }],
		['malformed signature header', { signature: 'sha1=abc' }],
		['malformed signature header', { signature: 'deadbeef' }],
		['malformed signature header', { signature: `sha256=${'g'.repeat(64)}` }],
		[
			'malformed signature header',
			{ signature: [sign(secret, now, body), sign(secret, now, body)] },
		],
		['malformed timestamp header', { timestamp: '2026-11-22T09:00:00Z' }],
		['malformed timestamp header', { timestamp: '-5' }],
		['malformed timestamp header', { timestamp: '1.5' }],
	])('refuses with "%s"', (reason, overrides) => {
		expect(check(/** @type {never} */ (overrides))).toEqual({ ok: false, reason });
	});

	it('refuses a wrong secret, other body bytes, another timestamp', () => {
		expect(check({ secret: 'other' })).toEqual({ ok: false, reason: 'signature mismatch' });
		expect(check({ rawBody: Buffer.from(body.replace('e1', 'e2')) })).toEqual({
			ok: false,
			reason: 'signature mismatch',
		});
		// same JSON, other bytes (re-serialized with spaces): the signature covers bytes, not meaning
		expect(check({ rawBody: Buffer.from(JSON.stringify(JSON.parse(body), null, 1)) })).toEqual({
			ok: false,
			reason: 'signature mismatch',
		});
		expect(check({ timestamp: String(now + 1) })).toEqual({
			ok: false,
			reason: 'signature mismatch',
		});
	});

	it('keeps a 300 s window in both directions', () => {
		const signedAt = (ts) => check({ timestamp: String(ts), signature: sign(secret, ts, body) });
		expect(signedAt(now - 300).ok).toBe(true);
		expect(signedAt(now + 300).ok).toBe(true);
		expect(signedAt(now - 301)).toEqual({ ok: false, reason: 'stale timestamp' });
		expect(signedAt(now + 301)).toEqual({ ok: false, reason: 'timestamp in the future' });
		expect(check({ toleranceSeconds: 10, nowMs: at(now + 11) })).toEqual({
			ok: false,
			reason: 'stale timestamp',
		});
	});

	it('never throws, whatever it is given', () => {
		const weird = [null, 42, {}, [], Symbol('x')];
		for (const v of weird) {
			expect(() =>
				verifySignature({
					secret: /** @type {never} */ (v),
					rawBody: /** @type {never} */ (v),
					signature: /** @type {never} */ (v),
					timestamp: /** @type {never} */ (v),
				}),
			).not.toThrow();
			expect(
				verifySignature({
					secret: /** @type {never} */ (v),
					rawBody: /** @type {never} */ (v),
					signature: /** @type {never} */ (v),
					timestamp: /** @type {never} */ (v),
				}).ok,
			).toBe(false);
		}
		expect(
			verifySignature({
				secret,
				rawBody: /** @type {never} */ (12),
				signature: sign(secret, now, body),
				timestamp: String(now),
				nowMs: at(now),
			}),
		).toEqual({
			ok: false,
			reason: 'verification error',
		});
	});
});

describe('safeEqual', () => {
	it('compares strings of any length, refusing empty and non-strings', () => {
		expect(safeEqual('abc', 'abc')).toBe(true);
		expect(safeEqual('abc', 'abd')).toBe(false);
		expect(safeEqual('abc', 'abcd')).toBe(false);
		expect(safeEqual('', '')).toBe(false);
		expect(safeEqual(undefined, undefined)).toBe(false);
		expect(safeEqual(123, '123')).toBe(false);
	});
});

describe('DedupStore', () => {
	it('claims a key once', () => {
		const store = new DedupStore();
		expect(store.claim('a', 0)).toBe(true);
		expect(store.claim('a', 1)).toBe(false);
		expect(store.claim('b', 3)).toBe(true);
		expect(store.claim('b', 4)).toBe(false);
	});

	it('forgets a key after its TTL', () => {
		const store = new DedupStore({ ttlMs: 1000 });
		expect(store.claim('a', 0)).toBe(true);
		expect(store.claim('a', 999)).toBe(false);
		expect(store.claim('a', 1000)).toBe(true);
	});

	it('is bounded: the oldest keys go first', () => {
		const store = new DedupStore({ maxEntries: 3 });
		for (const k of ['a', 'b', 'c', 'd']) store.claim(k, 0);
		expect(store.claim('d', 0)).toBe(false); // kept
		expect(store.claim('a', 0)).toBe(true); // forgotten: the oldest of four with room for three
	});

	it('stays bounded under many keys', () => {
		const store = new DedupStore({ maxEntries: 100 });
		for (let i = 0; i < 5000; i++) store.claim(`k${i}`, i);
		// the last 100 are remembered, the 101st from the end is not
		expect(store.claim('k4999', 5000)).toBe(false);
		expect(store.claim('k4900', 5000)).toBe(false);
		expect(store.claim('k4899', 5000)).toBe(true);
	});
});

describe('DedupRegistry', () => {
	it('keeps one store per namespace, bounded in number', () => {
		const registry = new DedupRegistry(2);
		const a = registry.get('a');
		a.claim('x');
		expect(registry.get('a')).toBe(a);
		registry.get('b');
		registry.get('c');
		expect(registry.get('a')).not.toBe(a); // evicted as least recently used
	});
});
