import { SecretCache } from '../../nodes/Triggers/secretCache';

describe('SecretCache', () => {
	test('reads once per key within the TTL, again after it, and on refresh', async () => {
		const cache = new SecretCache(1000);
		let reads = 0;
		const read = async () => `s${++reads}`;
		expect(await cache.get('k', read, 0)).toEqual({ value: 's1', cached: false });
		expect(await cache.get('k', read, 999)).toEqual({ value: 's1', cached: true });
		expect(await cache.get('other', read, 999)).toEqual({ value: 's2', cached: false });
		expect(await cache.get('k', read, 1000)).toEqual({ value: 's3', cached: false });
		expect(await cache.refresh('k', read, 1001)).toBe('s4');
		expect(await cache.get('k', read, 1500)).toEqual({ value: 's4', cached: true });
	});

	test('keeps a bounded number of entries, forgetting the oldest', async () => {
		const cache = new SecretCache(1000, 2);
		let reads = 0;
		const read = async () => `s${++reads}`;
		await cache.get('a', read, 0);
		await cache.get('b', read, 0);
		await cache.get('c', read, 0);
		expect(await cache.get('a', read, 1)).toEqual({ value: 's4', cached: false });
		expect(await cache.get('c', read, 1)).toEqual({ value: 's3', cached: true });
	});
});
