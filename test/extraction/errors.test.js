import { createParams, fastWait, NODE, startExtraction } from './setup';
/** @import { ExtractionEnv } from './setup' */

/** @type {ExtractionEnv} */
let env;
beforeAll(async () => (env = await startExtraction()));
afterAll(async () => env.stop());
beforeEach(() => env.reset());

const statusChecks = () =>
	env.calls().filter((c) => c.method === 'GET' && /^\/prod\/v1\/extractions\/[^/]+$/.test(c.path));

describe('401 and 403', () => {
	test('401: says the key is wrong, and is not retried', async () => {
		env.useCredential({ apiKey: 'live_revoked' });
		const result = await env.run({
			resource: 'extraction',
			operation: 'get',
			extractionId: 'ext_1',
		});
		expect(result.error?.message).toBe(
			'[item 1] Document Extraction refused the API key: it is missing, invalid or expired [INVALID_API_KEY]',
		);
		expect(result.error?.description).toMatch(
			/Check the Mexico API Key.*Environment.*Mexico Auth Scheme/,
		);
		expect(result.error?.httpCode).toBe('401');
		expect(env.calls()).toHaveLength(1);
	});

	test('401 when the service does not accept the chosen header', async () => {
		env.sim.acceptedSchemes = ['x-api-key'];
		const result = await env.run({ resource: 'account', operation: 'verifyApiKey' });
		expect(result.error?.message).toMatch(/refused the API key.*\[UNAUTHORIZED\]/);
	});

	test('403: names the missing permission and the ones the key has (from the verify result), not retried', async () => {
		env.sim.addKey('live_reader', { env: 'prod', permissions: ['extractions:read'] });
		env.useCredential({ apiKey: 'live_reader' });
		const result = await env.run(createParams());
		expect(result.error?.message).toBe(
			'[item 1] Document Extraction: the API key lacks the permission "extractions:create"',
		);
		expect(result.error?.description).toMatch(
			/^The key of Contadores Unidos SC has: extractions:read\. Add "extractions:create" to the key/,
		);
		expect(result.error?.httpCode).toBe('403');
		expect(env.calls().map((c) => `${c.method} ${c.path}`)).toEqual([
			'POST /prod/v1/extractions',
			'GET /prod/v1/auth/verify',
		]);
	});

	test('403 on a download names documents:download; the key is looked up once per execution', async () => {
		const job = env.sim.seedJob({ status: 'COMPLETED', documents: 1 });
		env.sim.addKey('live_nodl', {
			env: 'prod',
			permissions: ['extractions:create', 'extractions:read'],
		});
		env.useCredential({ apiKey: 'live_nodl' });
		const result = await env.run(
			{
				resource: 'extraction',
				operation: 'downloadDocument',
				extractionId: job.publicId,
				documentId: job.documents[0].id,
			},
			[{}, {}],
			true,
		);
		expect(result.output(NODE).map((o) => o.json.error)).toEqual([
			'[item 1] Document Extraction: the API key lacks the permission "documents:download"',
			'[item 2] Document Extraction: the API key lacks the permission "documents:download"',
		]);
		expect(env.calls().filter((c) => c.path.endsWith('/auth/verify'))).toHaveLength(1);
	});
});

describe('429 and 5xx', () => {
	test('status checks answered 429 are retried with exponential backoff and jitter', async () => {
		const job = env.sim.seedJob({ checks: 0 });
		env.server.fail({
			service: 'extraction',
			method: 'GET',
			path: `/prod/v1/extractions/${job.publicId}`,
			status: 429,
			times: 2,
		});
		const result = await env.runTimed(
			{ resource: 'extraction', operation: 'get', extractionId: job.publicId },
			undefined,
			false,
			{ stepMs: 10 },
		);
		expect(result.error).toBeUndefined();
		expect(result.output(NODE)[0].json.status).toBe('COMPLETED');
		const [a, b, c] = statusChecks().map((r) => r.at);
		// Fake time, which an exchange on the wire does not move: attempt 2 after 250–500 ms, attempt 3 after
		// 500–1000 ms (the jitter's exact range: test/shared/transport.test.js).
		expect(b - a).toBeGreaterThanOrEqual(250);
		expect(c - b).toBeGreaterThanOrEqual(500);
		expect(c - a).toBeLessThan(2000);
	});

	test('Retry-After is honoured', async () => {
		const job = env.sim.seedJob({ checks: 0 });
		env.server.fail({
			service: 'extraction',
			method: 'GET',
			path: '/prod/v1/extractions/',
			status: 429,
			headers: { 'retry-after': '2' },
			times: 1,
		});
		const result = await env.runTimed({
			resource: 'extraction',
			operation: 'get',
			extractionId: job.publicId,
		});
		expect(result.error).toBeUndefined();
		const [a, b] = statusChecks().map((r) => r.at);
		expect(b - a).toBeGreaterThanOrEqual(2000);
	});

	test('a 5xx during wait-for-completion is retried and the wait goes on', async () => {
		env.sim.nextJobs.push({ checks: 1, outcome: 'COMPLETED', documents: 1 });
		env.server.fail({
			service: 'extraction',
			method: 'GET',
			path: '/prod/v1/extractions/',
			status: 502,
			headers: { 'retry-after': '0' },
			times: 1,
		});
		const result = await env.runTimed(createParams(fastWait));
		expect(result.error).toBeUndefined();
		expect(result.output(NODE)[0].json.status).toBe('COMPLETED');
	});

	test('429 that does not go away ends with a rate-limit message after the last attempt', async () => {
		env.server.fail({
			service: 'extraction',
			method: 'GET',
			status: 429,
			headers: { 'retry-after': '0' },
			times: 10,
		});
		const result = await env.run({ resource: 'account', operation: 'verifyApiKey' });
		expect(result.error?.message).toBe(
			'[item 1] Document Extraction: rate limit exceeded [injected]',
		);
		expect(result.error?.description).toMatch(/100 status checks per minute/);
		expect(env.calls()).toHaveLength(4);
	});

	test("the plan's hourly budget: the simulator answers 429 once it is used up", async () => {
		env.sim.addKey('live_tiny', { env: 'prod', requestsPerHour: 1 });
		env.useCredential({ apiKey: 'live_tiny' });
		const ok = await env.run({ resource: 'account', operation: 'verifyApiKey' });
		expect(ok.output(NODE)[0].json.rateLimit).toEqual({
			plan: 'business',
			requestsPerHour: 1,
			remaining: 0,
		});
		const limited = await env.run(createParams());
		expect(limited.error?.message).toMatch(/rate limit exceeded \[RATE_LIMIT_EXCEEDED\]/);
		// Its Retry-After (the rest of the hour) is longer than the client waits: reported, not re-sent.
		expect(env.calls().filter((c) => c.method === 'POST')).toHaveLength(1);
	});
});
