import { DEFAULT_RETRY, retryDelay } from '../../nodes/shared/failures';

describe('retryDelay', () => {
	test('grows exponentially with jitter between half and the full step, capped', () => {
		expect(retryDelay(1, undefined, DEFAULT_RETRY, () => 0)).toBe(250);
		expect(retryDelay(1, undefined, DEFAULT_RETRY, () => 1)).toBe(500);
		expect(retryDelay(3, undefined, DEFAULT_RETRY, () => 1)).toBe(2000);
		expect(retryDelay(10, undefined, DEFAULT_RETRY, () => 1)).toBe(DEFAULT_RETRY.maxDelayMs);
	});

	test('honours Retry-After in seconds or as an HTTP date', () => {
		expect(retryDelay(1, '3', DEFAULT_RETRY)).toBe(3000);
		const inTwoSeconds = new Date(Date.now() + 2000).toUTCString();
		expect(retryDelay(1, inTwoSeconds, DEFAULT_RETRY)).toBeGreaterThan(500);
	});

	test('a Retry-After beyond the limit means: do not wait, report', () => {
		expect(retryDelay(1, '3600', DEFAULT_RETRY)).toBeUndefined();
	});
});
