import { withFakeClock } from '../harness/clock';
import { credentialsIn, everythingOf, leaks } from '../harness/hostile';
import { invoiceBody, jsonIssue, retentionBody, useReceipts } from './setup';

/**
 * Receipts through n8n-core's engine against a hostile network and service (test/simulator/server.js): a
 * redirect to another origin, an answer dripped one byte at a time, an oversized answer, refusals that echo
 * the secrets they were sent, IDs that would change the address.
 */
const env = useReceipts();

/** An API key and a certificate password whose escaped and encoded forms differ from the raw ones. */
const KEY = 'rk_"live"/ñ+ &k=1';
const PASSWORD = 'firma "2026"/ñ? &p=2';

function useHostileSecrets() {
	env.receipts.apiKey = KEY;
	env.receipts.certificatePassword = PASSWORD;
	env.setCredential({ apiKey: KEY, certificatePassword: PASSWORD });
}

const download = (receiptId, extra = {}) =>
	env.run({ resource: 'document', operation: 'download', receiptId, file: 'ride', ...extra });

describe('a credential goes only to its own origin', () => {
	test('Document → Authorize answered 307 to another host: not followed, X-Key and X-Password never reach it', async () => {
		const r = env.receipts.seed('retention', retentionBody(), 'CREADO');
		env.server.fail({
			service: 'receipts',
			method: 'POST',
			path: `/edocs/${r.id}/issue`,
			mode: 'redirect',
			times: 1,
		});
		const result = await env.run({ resource: 'document', operation: 'authorize', receiptId: r.id });
		expect(result.error?.message).toBe(
			`[item 1] Receipts answered POST /edocs/${r.id}/issue with a redirect (HTTP 307), which was not followed`,
		);
		expect(env.calls()).toHaveLength(1);
		expect(env.calls()[0].headers['x-password']).toBe(env.receipts.certificatePassword);
		expect(env.server.receivedAt(env.filesOrigin)).toEqual([]);
	});

	test('Document → Get answered 302: not followed', async () => {
		const r = env.receipts.seed('retention', retentionBody(), 'AUTORIZADO');
		env.server.fail({
			service: 'receipts',
			method: 'GET',
			path: '/edocs/',
			mode: 'redirect',
			status: 302,
			times: 1,
		});
		const result = await env.run({ resource: 'document', operation: 'get', receiptId: r.id });
		expect(result.error?.message).toMatch(/with a redirect \(HTTP 302\), which was not followed$/);
		expect(env.server.receivedAt(env.filesOrigin)).toEqual([]);
	});

	test('a file address on the credential’s host redirecting to another host: the key goes on the first hop only, the file still arrives', async () => {
		env.receipts.filesBaseUrl = env.server.url('receipts');
		const r = env.receipts.seed('invoice', invoiceBody(), 'AUTORIZADO');
		env.server.fail({
			service: 'receipts',
			method: 'GET',
			path: '/ver/',
			mode: 'redirect',
			status: 302,
			times: 1,
		});
		const result = await download(r.id);
		expect(result.error).toBeUndefined();
		const [, home, away] = env.calls();
		expect([home.origin, home.headers['x-key']]).toEqual([
			`http://127.0.0.1:${env.server.port}`,
			env.receipts.apiKey,
		]);
		expect(away.origin).toBe(env.filesOrigin);
		expect(credentialsIn(away)).toEqual([]);
		expect(result.output('Receipts')[0].json.fileSize).toBe(env.receipts.file(r, 'pdf').length);
	});

	test('more than 5 redirects: stopped, with an error that says so', async () => {
		const r = env.receipts.seed('invoice', invoiceBody(), 'AUTORIZADO');
		env.server.fail({
			service: 'receipts',
			method: 'GET',
			path: '/ver/',
			mode: 'redirect',
			times: 100,
		});
		const result = await download(r.id);
		expect(result.error?.message).toMatch(
			/^\[item 1\] Could not download the printable form \(RIDE\) of receipt \w+ from http:\/\/127\.0\.0\.1:\d+: Receipts: more than 5 redirects/,
		);
		expect(/** @type {any} */ (result.error).facts.hops).toBe(5);
		expect(env.calls().filter((c) => c.path.startsWith('/ver/'))).toHaveLength(6);
		expect(env.server.receivedAt(env.filesOrigin).flatMap(credentialsIn)).toEqual([]);
	});

	test('a redirect to an address that is not http(s) is not followed', async () => {
		const r = env.receipts.seed('invoice', invoiceBody(), 'AUTORIZADO');
		env.server.fail({
			service: 'receipts',
			method: 'GET',
			path: '/ver/',
			mode: 'redirect',
			location: 'file:///etc/passwd',
			times: 1,
		});
		const result = await download(r.id);
		expect(result.error?.message).toMatch(
			/a redirect \(HTTP 307\) to "file:\/\/\/etc\/passwd", which is not an http\(s\) address$/,
		);
		expect(env.calls().filter((c) => c.path.startsWith('/ver/'))).toHaveLength(1);
	});
});

describe('Request Timeout and the wait’s Timeout are deadlines (fake clock)', () => {
	test('Document → Get with Request Timeout 2 s against one byte every 400 ms: cut at 2 s, not retried past it', async () => {
		const r = env.receipts.seed('retention', retentionBody(), 'AUTORIZADO');
		env.server.fail({
			service: 'receipts',
			method: 'GET',
			path: '/edocs/',
			mode: 'drip',
			intervalMs: 400,
			times: 10,
		});
		const { result, elapsedMs } = await withFakeClock(() =>
			env.run({
				resource: 'document',
				operation: 'get',
				receiptId: r.id,
				options: { requestTimeout: 2 },
			}),
		);
		expect(result.error?.message).toBe(
			'[item 1] Receipts did not answer in time (no complete answer within 2 s)',
		);
		expect(result.error?.description).toMatch(
			/the most one request may take \(Options → Request Timeout\), retries included/,
		);
		const drips = await env.server.delivered();
		expect(drips).toHaveLength(1);
		expect(drips[0].closedEarly).toBe(true);
		expect(elapsedMs).toBeGreaterThanOrEqual(2000);
		expect(elapsedMs).toBeLessThan(drips[0].total * 400);
	});

	test('Document → Download of a dripping printable form: cut at the Request Timeout', async () => {
		const r = env.receipts.seed('invoice', invoiceBody(), 'AUTORIZADO');
		env.server.fail({
			service: 'receipts',
			method: 'GET',
			path: '/ver/',
			mode: 'drip',
			intervalMs: 400,
			times: 1,
		});
		const { result, elapsedMs } = await withFakeClock(() =>
			download(r.id, { options: { requestTimeout: 3 } }),
		);
		expect(result.error?.message).toMatch(
			/: Receipts did not answer in time \(no complete answer within 3 s\)$/,
		);
		expect((await env.server.delivered())[0].closedEarly).toBe(true);
		expect(elapsedMs).toBeLessThan(60_000);
	});

	test('Wait for Final State whose status checks drip: the item ends at the wait’s Timeout, in its last state', async () => {
		env.receipts.advanceOnRead = false;
		env.server.fail({
			service: 'receipts',
			method: 'GET',
			path: '/edocs/',
			mode: 'drip',
			intervalMs: 400,
			times: 100,
		});
		const { result, elapsedMs } = await withFakeClock(() =>
			env.run(
				jsonIssue('retention', retentionBody(), {
					waitForFinalState: true,
					waitTimeout: 5,
					options: { pollInterval: 0.5 },
				}),
			),
		);
		expect(result.error).toBeUndefined();
		const [item] = result.output('Receipts');
		expect(item.json.wait_timed_out).toBe(true);
		expect(elapsedMs).toBeGreaterThanOrEqual(5000);
		expect(elapsedMs).toBeLessThan(60_000);
		expect((await env.server.delivered()).every((d) => d.closedEarly)).toBe(true);
	});
});

describe('every answer has a size cap', () => {
	test('a 300 MB “printable form”: refused at Max File Size (10 MB by default), never read whole', async () => {
		const r = env.receipts.seed('invoice', invoiceBody(), 'AUTORIZADO');
		env.server.fail({
			service: 'receipts',
			method: 'GET',
			path: '/ver/',
			mode: 'oversize',
			as: 'pdf',
			declareLength: false,
			times: 1,
		});
		const result = await download(r.id);
		expect(result.error?.message).toMatch(
			/: Receipts: the file is larger than 10 MB \(more than 10 MB arrived\)$/,
		);
		expect(result.error?.description).toMatch(/raise Max File Size/);
		const [stream] = await env.server.delivered();
		expect(stream.closedEarly).toBe(true);
		expect(stream.sent).toBeLessThan(64 * 1024 * 1024);
	});

	test('Max File Size is an option: a 2 MB form is refused at 1 MB and downloaded at 5 MB', async () => {
		const r = env.receipts.seed('invoice', invoiceBody(), 'AUTORIZADO');
		env.server.fail({
			service: 'receipts',
			method: 'GET',
			path: '/ver/',
			mode: 'oversize',
			as: 'pdf',
			bytes: 2 * 1024 * 1024,
			times: 2,
		});
		const small = await download(r.id, { options: { maxFileSize: 1 } });
		expect(small.error?.message).toMatch(/the file is larger than 1 MB \(it announced 2 MB\)$/);
		const large = await download(r.id, { options: { maxFileSize: 5 } });
		expect(large.error).toBeUndefined();
		expect(large.output('Receipts')[0].json.fileSize).toBe(2 * 1024 * 1024);
	});

	test('a Max File Size out of range stops the item before anything is sent', async () => {
		const result = await download('abc', { options: { maxFileSize: 0 } });
		expect(result.error?.message).toBe(
			'[item 1] Options → Max File Size (MB): must be a number from 1 to 500, got 0',
		);
		expect(env.calls()).toHaveLength(0);
	});

	test('a 300 MB JSON answer is refused at 16 MB', async () => {
		env.server.fail({
			service: 'receipts',
			method: 'GET',
			path: '/edocs/',
			mode: 'oversize',
			times: 1,
		});
		const result = await env.run({ resource: 'document', operation: 'get', receiptId: 'abc' });
		expect(result.error?.message).toBe(
			'[item 1] Receipts: the answer is larger than 16 MB (it announced 300 MB)',
		);
		expect((await env.server.delivered())[0].closedEarly).toBe(true);
	});
});

describe('secrets a service echoes stay out of the run', () => {
	test.each([
		['JSON', undefined],
		['an HTML page', 'text'],
	])(
		'an issue refused (%s) repeating X-Key and X-Password in every spelling (as values, keys, a validation error)',
		async (_what, as) => {
			useHostileSecrets();
			env.server.fail({
				service: 'receipts',
				method: 'POST',
				mode: 'echo-secrets',
				status: 400,
				as,
				times: 1,
			});
			const result = await env.run(jsonIssue('retention', retentionBody()));
			expect(env.calls()[0].headers['x-password']).toBe(PASSWORD);
			expect(result.error?.message).toMatch(/^\[item 1\] Receipts rejected the request/);
			expect(leaks(everythingOf(result), [KEY, PASSWORD])).toEqual([]);
		},
	);

	test('a read refused 401 with the key in its answer, Continue On Fail: the error item has no form of it either', async () => {
		useHostileSecrets();
		env.server.fail({ service: 'receipts', method: 'GET', mode: 'echo-secrets', times: 2 });
		const result = await env.run(
			{ resource: 'document', operation: 'get', receiptId: 'abc' },
			[{}, {}],
			true,
		);
		expect(result.output('Receipts').map((o) => o.json.error)).toEqual(
			expect.arrayContaining([expect.stringMatching(/^\[item 1\] Receipts refused the API key/)]),
		);
		expect(leaks(everythingOf(result), [KEY, PASSWORD])).toEqual([]);
	});
});

describe('an ID that goes into the address is checked before anything is sent', () => {
	test.each(['..', '.', '%2e%2e', '..%2fissue', 'abc#x', 'a\\b'])(
		'Authorize with Receipt ID %j: nothing sent (no POST {base}/issue with X-Password)',
		async (receiptId) => {
			const result = await env.run({ resource: 'document', operation: 'authorize', receiptId });
			expect(result.error?.message).toMatch(/^\[item 1\] receiptId: ".*" is not an ID/);
			expect(env.calls()).toHaveLength(0);
		},
	);

	test('an ID the service answered that would change the address: the status check is not sent, the receipt is named', async () => {
		env.server.fail({
			service: 'receipts',
			method: 'POST',
			status: 200,
			body: { id: '../issue', estado: 'RECIBIDO' },
			times: 1,
		});
		const result = await env.runTimed(
			jsonIssue('retention', retentionBody(), {
				waitForFinalState: true,
				waitTimeout: 5,
				options: { pollInterval: 1 },
			}),
		);
		expect(result.error?.message).toMatch(
			/^\[item 1\] Receipt ID \.\.\/issue exists, but following it failed: Not sent to Receipts: "\.\.\/issue" is not an ID/,
		);
		expect(env.calls().filter((c) => c.method === 'GET')).toHaveLength(0);
	});
});

test('the hostile modes can be switched at run time over HTTP, as `npm run dev` users do (POST /_control/fail)', async () => {
	useHostileSecrets();
	const control = env.server.url('_control');
	const queued = await fetch(`${control}/fail`, {
		method: 'POST',
		body: JSON.stringify({ service: 'receipts', mode: 'echo-secrets', times: 1 }),
	});
	expect(queued.status).toBe(200);
	const result = await env.run({ resource: 'document', operation: 'get', receiptId: 'abc' });
	expect(result.error?.httpCode).toBe('401');
	expect(leaks(everythingOf(result), [KEY])).toEqual([]);
	const listed = /** @type {{ injected: Array<{ mode: string }> }} */ (
		await (await fetch(`${control}/faults`)).json()
	);
	expect(listed.injected.map((f) => f.mode)).toEqual(['echo-secrets']);
});
