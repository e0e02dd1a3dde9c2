import { createHmac } from 'node:crypto';
import { createServer } from 'node:http';
/** @import { AddressInfo } from 'node:net' */
import { SlidingWindowLimiter } from '../../nodes/shared/rateLimit';
import { documentsOf, downloadQuery, fileNameFor } from '../../nodes/Extraction/domain/documents';
import {
	baseUrlFor,
	credentialProblem,
	ecuadorCredentialProblem,
} from '../../nodes/Extraction/domain/environment';
import { permissionFor } from '../../nodes/Extraction/domain/limits';
import { jobIdIn, normalizeDirection, normalizeRecord } from '../../nodes/Extraction/domain/names';
import { toDate } from '../../nodes/Extraction/actions/extraction/extractionInput';
import { ExtractionSimulator } from '../simulator/extraction';

describe('SlidingWindowLimiter', () => {
	const fake = () => {
		let now = 0;
		/** @type {number[]} */
		const waits = [];
		const limiter = new SlidingWindowLimiter(3, 60_000, {
			now: () => now,
			sleep: async (ms) => {
				waits.push(ms);
				now += ms;
			},
		});
		return { limiter, waits, advance: (ms) => (now += ms), now: () => now };
	};

	test('lets `max` through at once, then waits until the oldest leaves the window', async () => {
		const { limiter, waits, advance } = fake();
		for (let n = 0; n < 3; n++) expect(await limiter.acquire()).toEqual({ ok: true, waitedMs: 0 });
		advance(10_000);
		expect(limiter.available()).toBe(0);
		expect(await limiter.acquire()).toEqual({ ok: true, waitedMs: 50_000 });
		expect(waits).toEqual([50_000]);
	});

	test('never more than `max` in any window, whatever the order of callers', async () => {
		const { limiter, now } = fake();
		/** @type {number[]} */
		const stamps = [];
		for (let n = 0; n < 10; n++) {
			await limiter.acquire();
			stamps.push(now());
		}
		for (const t of stamps)
			expect(stamps.filter((s) => s > t - 60_000 && s <= t).length).toBeLessThanOrEqual(3);
	});

	test('refuses without taking a slot when the wait is longer than allowed', async () => {
		const { limiter } = fake();
		for (let n = 0; n < 3; n++) await limiter.acquire();
		expect(await limiter.acquire(1000)).toEqual({ ok: false, waitMs: 60_000 });
		expect(limiter.available()).toBe(0);
	});

	test('a reservation holds its slots at once, all or none', async () => {
		const { limiter } = fake();
		const first = limiter.reserve(2);
		expect(first?.remaining).toBe(2);
		expect(limiter.available()).toBe(1);
		// A second caller that needs 2 sees 1 free, and holds nothing.
		expect(limiter.reserve(2)).toBeUndefined();
		expect(limiter.available()).toBe(1);
		expect(await limiter.acquire()).toEqual({ ok: true, waitedMs: 0 });
		// Held slots are not free to anyone else: the next slot is the used one, a window later.
		expect(await limiter.acquire(1000)).toEqual({ ok: false, waitMs: 60_000 });
	});

	test('when reservations hold the whole budget, no slot frees by waiting', async () => {
		const { limiter } = fake();
		const all = limiter.reserve(3);
		expect(limiter.reserve(1)).toBeUndefined();
		expect(await limiter.acquire()).toEqual({ ok: false, waitMs: Infinity });
		all?.release();
		expect(await limiter.acquire()).toEqual({ ok: true, waitedMs: 0 });
	});

	test('a held slot counts in the window from when it is used; what is not used goes back', async () => {
		const { limiter, advance } = fake();
		const held = /** @type {NonNullable<ReturnType<typeof limiter.reserve>>} */ (
			limiter.reserve(3)
		);
		advance(30_000);
		expect(held.use()).toBe(true);
		held.release();
		expect(held.remaining).toBe(0);
		expect(held.use()).toBe(false);
		expect(limiter.available()).toBe(2);
		// The used slot frees a window after its use, not after the reservation.
		advance(59_000);
		expect(limiter.available()).toBe(2);
		advance(1_000);
		expect(limiter.available()).toBe(3);
	});
});

describe('environment', () => {
	const base = { productionBaseUrl: 'https://api.x/', stagingBaseUrl: 'https://stg.x' };
	test('base URL per environment, trailing slashes removed', () => {
		expect(baseUrlFor({ ...base, environment: 'production' })).toBe('https://api.x');
		expect(baseUrlFor({ ...base, environment: 'staging' })).toBe('https://stg.x');
	});
	test('staging/production key mismatch says which setting to change', () => {
		expect(
			credentialProblem({ ...base, environment: 'production', apiKey: 'staging_abc' }),
		).toMatch(/set Environment to Staging/);
		expect(credentialProblem({ ...base, environment: 'staging', apiKey: 'live_abc' })).toMatch(
			/set Environment to Production/,
		);
		expect(
			credentialProblem({ ...base, environment: 'staging', apiKey: 'staging_abc' }),
		).toBeUndefined();
		expect(
			credentialProblem({ ...base, environment: 'production', apiKey: 'live_abc' }),
		).toBeUndefined();
		expect(credentialProblem({ ...base, apiKey: ' ' })).toMatch(/no Mexico API Key/);
	});
	test('the Ecuador API has its own address per environment, and its own fields to check', () => {
		const ecuador = {
			ecuadorProductionBaseUrl: ' https://ec.x// ',
			ecuadorStagingBaseUrl: 'https://stg.ec.x',
			ecuadorApiKey: 'ec_live',
			ecuadorOrganizationId: 'org',
		};
		expect(baseUrlFor({ ...base, ...ecuador }, 'ecuador')).toBe('https://ec.x');
		expect(baseUrlFor({ ...base, ...ecuador, environment: 'staging' }, 'ecuador')).toBe(
			'https://stg.ec.x',
		);
		expect(ecuadorCredentialProblem({ ...ecuador })).toBeUndefined();
		// The Mexico fields are not the Ecuador API's business.
		expect(ecuadorCredentialProblem({ ...ecuador, apiKey: 'staging_mx' })).toBeUndefined();
		expect(
			ecuadorCredentialProblem({ ...ecuador, environment: 'staging', ecuadorApiKey: 'staging_ec' }),
		).toBeUndefined();
		expect(ecuadorCredentialProblem({ ...ecuador, environment: 'staging' })).toMatch(
			/Environment is Staging but the Ecuador API Key is not a staging key/,
		);
		expect(ecuadorCredentialProblem({ ...base, apiKey: 'live' })).toMatch(
			/has no Ecuador Production Base URL, Ecuador API Key and Ecuador Organization ID: fill them/,
		);
		expect(
			ecuadorCredentialProblem({ ...ecuador, ecuadorApiKey: 7, ecuadorOrganizationId: '' }),
		).toMatch(/has no Ecuador API Key and Ecuador Organization ID: fill them/);
	});
});

describe('names', () => {
	test('beta direction values map to current ones', () => {
		expect(normalizeDirection('RECEIVED')).toBe('INBOUND');
		expect(normalizeDirection('issued')).toBe('OUTBOUND');
		expect(normalizeDirection('inbound')).toBe('INBOUND');
		expect(normalizeDirection('SIDEWAYS')).toBe('SIDEWAYS');
	});
	test('records get current names at every depth; unknown fields pass through', () => {
		expect(
			normalizeRecord({
				extractionId: 'e1',
				status: 'COMPLETED',
				x: 1,
				options: { direction: 'ISSUED' },
				list: [{ extractionId: 'e2', publicId: 'p2' }],
			}),
		).toEqual({
			publicId: 'e1',
			status: 'COMPLETED',
			x: 1,
			options: { direction: 'OUTBOUND' },
			list: [{ publicId: 'p2' }],
		});
	});
	test('the job ID of an item under either name, at the top or under data', () => {
		expect(jobIdIn({ publicId: 'a' })).toBe('a');
		expect(jobIdIn({ extractionId: 'b' })).toBe('b');
		expect(jobIdIn({ event: {}, data: { extractionId: 'c' } })).toBe('c');
		expect(jobIdIn({})).toBeUndefined();
	});
});

describe('documents (the one place of the two assumptions)', () => {
	test('format is chosen by the query parameter type', () => {
		expect(downloadQuery('XML')).toEqual({ type: 'XML' });
		expect(downloadQuery('PDF')).toEqual({ type: 'PDF' });
	});
	test('file names come from the document ID, made safe', () => {
		expect(fileNameFor('doc_1', 'XML')).toBe('doc_1.xml');
		expect(fileNameFor('../a/b c', 'PDF')).toBe('__a_b_c.pdf');
	});
	test('documents list: records (id or documentId) or bare IDs; formats read case-insensitively; absent list → undefined', () => {
		expect(
			documentsOf({
				documents: [
					{ id: 'a', availableFormats: ['xml'], extra: 1 },
					'b',
					{ documentId: 'c' },
					{ nope: 1 },
				],
			}),
		).toEqual([
			{ id: 'a', formats: ['XML'], record: { id: 'a', availableFormats: ['xml'], extra: 1 } },
			{ id: 'b', record: { id: 'b' } },
			{ id: 'c', formats: undefined, record: { documentId: 'c' } },
		]);
		expect(documentsOf({ status: 'COMPLETED' })).toBeUndefined();
	});
});

describe('permissions and dates', () => {
	test('permission per endpoint', () => {
		expect(permissionFor('POST', '/v1/extractions')).toBe('extractions:create');
		expect(permissionFor('GET', '/v1/extractions/e1')).toBe('extractions:read');
		expect(permissionFor('GET', '/v1/extractions/e1/documents/d1/download')).toBe(
			'documents:download',
		);
		expect(permissionFor('POST', '/taxpayers')).toBeUndefined();
	});
	test('dates: YYYY-MM-DD from text, date-times and Date objects; impossible dates refused', () => {
		expect(toDate('2026-10-31')).toBe('2026-10-31');
		expect(toDate('2026-10-31T00:00:00')).toBe('2026-10-31');
		expect(toDate(new Date('2026-10-31T12:00:00Z'))).toBe('2026-10-31');
		expect(toDate('2026-02-30')).toBeUndefined();
		expect(toDate('31/10/2026')).toBeUndefined();
	});
});

describe('simulator webhook delivery', () => {
	test('signs HMAC-SHA256(secret, `${timestamp}.${rawBody}`) as sha256=<hex>; tamper breaks it', async () => {
		/** @type {Array<{ headers: Record<string, unknown>; body: string }>} */
		const received = [];
		const server = createServer((req, res) => {
			/** @type {Buffer[]} */
			const chunks = [];
			req.on('data', (c) => chunks.push(c));
			req.on('end', () => {
				received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
				res.writeHead(204).end();
			});
		});
		await /** @type {Promise<void>} */ (new Promise((r) => server.listen(0, '127.0.0.1', r)));
		const url = `http://127.0.0.1:${/** @type {AddressInfo} */ (server.address()).port}/hook`;
		try {
			const sim = new ExtractionSimulator();
			const job = sim.seedJob({ status: 'COMPLETED', documents: 2 });
			const sent = await sim.deliver('extraction.completed', sim.completedEventData(job), {
				secret: 'whsec_1',
				url,
				timestamp: 1795000000,
			});
			expect(sent.status).toBe(204);
			const [ok] = received;
			const expected = createHmac('sha256', 'whsec_1')
				.update(`1795000000.${ok.body}`)
				.digest('hex');
			expect(ok.headers['x-svc-signature']).toBe(`sha256=${expected}`);
			expect(ok.headers['x-svc-timestamp']).toBe('1795000000');
			const envelope = JSON.parse(ok.body);
			expect(envelope.event).toMatchObject({ type: 'extraction.completed', version: '1.0' });
			expect(envelope.data).toMatchObject({
				extractionId: job.publicId,
				status: 'COMPLETED',
				summary: { totalDocuments: 2 },
			});

			await sim.deliver('extraction.completed', sim.completedEventData(job), {
				secret: 'whsec_1',
				url,
				timestamp: 1795000000,
				tamper: true,
			});
			const tampered = received[1];
			const recomputed = createHmac('sha256', 'whsec_1')
				.update(`1795000000.${tampered.body}`)
				.digest('hex');
			expect(tampered.headers['x-svc-signature']).not.toBe(`sha256=${recomputed}`);
		} finally {
			server.close();
		}
	});
});
