import { withFakeClock } from '../harness/clock';
import { credentialsIn, everythingOf, leaks } from '../harness/hostile';
import { createParams, NODE, startExtraction } from './setup';
/** @import { ExtractionEnv } from './setup' */

/**
 * Document Extraction through n8n-core's engine against a hostile network and service
 * (test/simulator/server.js): a redirect to another origin, an answer dripped one byte at a time, an
 * oversized answer, refusals that echo the secrets they were sent, downloads that are not what was asked,
 * IDs that would change the address.
 */

/** @type {ExtractionEnv} */
let env;
beforeAll(async () => (env = await startExtraction()));
afterAll(async () => env.stop());
beforeEach(() => env.reset());

/** A SAT password whose escaped and encoded forms differ from the raw one. */
const SAT_PASSWORD = 'ciec "Ñu"/+ &s=3';

const downloadParams = (job, extra = {}) => ({
	resource: 'extraction',
	operation: 'downloadDocument',
	extractionId: job.publicId,
	documentId: job.documents[0].id,
	...extra,
});

describe('a credential goes only to its own origin', () => {
	test('Extraction → Get answered 307 to another host: not followed, the key never reaches it', async () => {
		const job = env.sim.seedJob();
		env.server.fail({ service: 'extraction', method: 'GET', mode: 'redirect', times: 1 });
		const result = await env.run({
			resource: 'extraction',
			operation: 'get',
			extractionId: job.publicId,
		});
		expect(result.error?.message).toBe(
			`[item 1] Document Extraction answered GET /v1/extractions/${job.publicId} with a redirect (HTTP 307), which was not followed`,
		);
		expect(env.server.receivedAt(env.otherOrigin)).toEqual([]);
	});

	test.each([
		['Bearer', 'bearer'],
		['x-api-key', 'xApiKey'],
	])(
		'Download Document redirected to another host (%s): the second hop carries no key',
		async (_what, authScheme) => {
			env.useCredential({ authScheme });
			const job = env.sim.seedJob({ status: 'COMPLETED', documents: 1 });
			env.server.fail({
				service: 'extraction',
				method: 'GET',
				path: `/prod/v1/extractions/${job.publicId}/documents/`,
				mode: 'redirect',
				status: 302,
				times: 1,
			});
			const result = await env.run(downloadParams(job));
			const [home, away] = env.calls();
			expect(credentialsIn(home)).toEqual([
				authScheme === 'bearer' ? 'authorization' : 'x-api-key',
			]);
			expect(away.origin).toBe(env.otherOrigin);
			expect(credentialsIn(away)).toEqual([]);
			// The other host wants the key, which it does not get: the error says none was sent.
			expect(result.error?.message).toBe('[item 1] HTTP 401 to a request without the API key');
			expect(result.error?.description).toMatch(
				/the API key was not sent there \(it is never sent to another host\)/,
			);
		},
	);

	test('Download Document redirected to the Ecuador host: the second hop carries neither key', async () => {
		const job = env.sim.seedJob({ status: 'COMPLETED', documents: 1 });
		env.server.fail({
			service: 'extraction',
			method: 'GET',
			path: `/prod/v1/extractions/${job.publicId}/documents/`,
			mode: 'redirect',
			status: 302,
			to: env.ecuadorOrigin,
			times: 1,
		});
		await env.run(downloadParams(job));
		const [home, away] = env.server.received();
		expect(credentialsIn(home)).toEqual(['authorization']);
		expect(away.origin).toBe(env.ecuadorOrigin);
		expect(credentialsIn(away)).toEqual([]);
		expect(away.headers['x-organization-id']).toBeUndefined();
	});

	test('Taxpayer → Register answered 307 by the Ecuador host, pointing at the Mexico host: not followed, no key reaches it', async () => {
		const mexicoOrigin = new URL(env.baseUrl('prod')).origin;
		env.server.fail({
			service: 'extraction-ec',
			method: 'POST',
			mode: 'redirect',
			to: mexicoOrigin,
			times: 1,
		});
		const result = await env.run({
			resource: 'taxpayer',
			operation: 'register',
			taxpayer: '{"identification":"1790012345001"}',
		});
		expect(result.error?.message).toBe(
			'[item 1] Document Extraction (Ecuador API) answered POST /taxpayers with a redirect (HTTP 307), which was not followed',
		);
		expect(result.error?.description).toMatch(
			/Check the Ecuador Production Base URL of the Document Extraction credential/,
		);
		expect(env.server.received().map((r) => r.origin)).toEqual([env.ecuadorOrigin]);
	});
});

describe('every request has a wall-clock deadline (fake clock)', () => {
	test('Create + Wait for Completion whose status checks drip: the item ends at the wait’s Timeout, the job output and marked', async () => {
		env.sim.nextJobs.push({ checks: 100, outcome: 'COMPLETED', documents: 1 });
		env.server.fail({
			service: 'extraction',
			method: 'GET',
			path: '/prod/v1/extractions/',
			mode: 'drip',
			intervalMs: 400,
			times: 100,
		});
		const { result, elapsedMs } = await withFakeClock(() =>
			env.run(
				createParams({ waitForCompletion: true, waitTimeout: 5, options: { pollInterval: 1 } }),
			),
		);
		const [job] = [...env.sim.jobs.values()];
		// The checks were cut by the wait's deadline, never answered: the wait timed out, and says where the job is.
		expect(result.error).toBeUndefined();
		expect(result.output(NODE)[0].json).toMatchObject({
			publicId: job.publicId,
			wait_timed_out: true,
		});
		expect(elapsedMs).toBeGreaterThanOrEqual(5000);
		expect(elapsedMs).toBeLessThan(60_000);
		expect((await env.server.delivered()).every((d) => d.closedEarly)).toBe(true);
	});

	test('Taxpayer → Register whose answer drips from the Ecuador host is cut at 60 s', async () => {
		// Its answer (about 75 bytes) would take 150 s to arrive.
		env.server.fail({
			service: 'extraction-ec',
			method: 'POST',
			mode: 'drip',
			intervalMs: 2000,
			times: 1,
		});
		const { result, elapsedMs } = await withFakeClock(() =>
			env.run({
				resource: 'taxpayer',
				operation: 'register',
				taxpayer: '{"identification":"1790012345001"}',
			}),
		);
		expect(result.error?.message).toBe(
			'[item 1] Document Extraction (Ecuador API) did not answer in time (no complete answer within 60 s)',
		);
		expect(result.error?.description).toMatch(/check in the service before sending it again/);
		expect(elapsedMs).toBeGreaterThanOrEqual(60_000);
		const [drip] = await env.server.delivered();
		expect(drip.closedEarly).toBe(true);
		expect(elapsedMs).toBeLessThan(drip.total * 2000);
	});

	test('a document dripping one byte every 400 ms is cut at 60 s', async () => {
		const job = env.sim.seedJob({ status: 'COMPLETED', documents: 1 });
		env.server.fail({
			service: 'extraction',
			method: 'GET',
			path: `/prod/v1/extractions/${job.publicId}/documents/`,
			mode: 'drip',
			intervalMs: 400,
			times: 1,
		});
		const { result, elapsedMs } = await withFakeClock(() => env.run(downloadParams(job)));
		expect(result.error?.message).toBe(
			'[item 1] Document Extraction did not answer in time (no complete answer within 60 s)',
		);
		expect(elapsedMs).toBeGreaterThanOrEqual(60_000);
		const [drip] = await env.server.delivered();
		expect(drip.closedEarly).toBe(true);
		expect(elapsedMs).toBeLessThan(drip.total * 400);
	});
});

describe('every answer has a size cap', () => {
	test('Download Document of a 300 MB “PDF”: refused at Max File Size, never read whole', async () => {
		const job = env.sim.seedJob({ status: 'COMPLETED', documents: 1 });
		env.server.fail({
			service: 'extraction',
			method: 'GET',
			path: `/prod/v1/extractions/${job.publicId}/documents/`,
			mode: 'oversize',
			as: 'pdf',
			declareLength: false,
			times: 1,
		});
		const result = await env.run(downloadParams(job, { format: 'PDF' }));
		expect(result.error?.message).toBe(
			'[item 1] Document Extraction: the file is larger than 10 MB (more than 10 MB arrived)',
		);
		const [stream] = await env.server.delivered();
		expect(stream.closedEarly).toBe(true);
		expect(stream.sent).toBeLessThan(64 * 1024 * 1024);
	});

	test('Download All: Max File Size applies to every document, and a larger one can be allowed', async () => {
		const job = env.sim.seedJob({ status: 'COMPLETED', documents: 1 });
		env.server.fail({
			service: 'extraction',
			method: 'GET',
			path: `/prod/v1/extractions/${job.publicId}/documents/`,
			mode: 'oversize',
			as: 'pdf',
			bytes: 3 * 1024 * 1024,
			times: 2,
		});
		const params = {
			resource: 'extraction',
			operation: 'get',
			extractionId: job.publicId,
			downloadAll: true,
			formats: 'PDF',
		};
		const refused = await env.run({ ...params, maxFileSize: 2 });
		expect(refused.error?.message).toBe(
			'[item 1] Document Extraction: the file is larger than 2 MB (it announced 3 MB)',
		);
		const allowed = await env.run({ ...params, maxFileSize: 4 });
		expect(allowed.error).toBeUndefined();
		expect(/** @type {any} */ (allowed.output(NODE)[0].json.files)[0].fileSize).toBe(
			3 * 1024 * 1024,
		);
	});

	test('a 300 MB answer to Taxpayer → Register is refused at 16 MB', async () => {
		env.server.fail({ service: 'extraction-ec', method: 'POST', mode: 'oversize', times: 1 });
		const result = await env.run({
			resource: 'taxpayer',
			operation: 'register',
			taxpayer: '{"identification":"1790012345001"}',
		});
		expect(result.error?.message).toBe(
			'[item 1] Document Extraction (Ecuador API): the answer is larger than 16 MB (it announced 300 MB)',
		);
		const [stream] = await env.server.delivered();
		expect(stream.closedEarly).toBe(true);
	});

	test('a 300 MB job record is refused at 16 MB', async () => {
		const job = env.sim.seedJob();
		env.server.fail({ service: 'extraction', method: 'GET', mode: 'oversize', times: 1 });
		const result = await env.run({
			resource: 'extraction',
			operation: 'get',
			extractionId: job.publicId,
		});
		expect(result.error?.message).toBe(
			'[item 1] Document Extraction: the answer is larger than 16 MB (it announced 300 MB)',
		);
	});
});

describe('the bytes of a download are checked, and the type comes from what arrived', () => {
	const LOGIN = '<!DOCTYPE html><html><body>Iniciar sesión</body></html>';

	test.each([
		[
			'PDF',
			'an HTML login page',
			LOGIN,
			'text/html',
			/could not be downloaded as PDF: the answer is not a PDF \(content-type text\/html, starting with "‹!DOCTYPE html>‹html"\)$/,
		],
		[
			'XML',
			'an HTML login page',
			LOGIN,
			'text/html',
			/could not be downloaded as XML: the answer is not XML \(content-type text\/html/,
		],
		[
			'PDF',
			'XML that calls itself a PDF',
			'<?xml version="1.0"?><cfdi:Comprobante/>',
			'application/pdf',
			/the answer is not a PDF \(content-type application\/pdf, starting with "‹\?xml version=\\"1\.0\\"\?"\)$/,
		],
		[
			'XML',
			'an empty answer',
			'',
			'application/xml',
			/the answer is not XML \(content-type application\/xml, empty\)$/,
		],
	])(
		'Download Document as %s answered %s: an error, no file',
		async (format, _what, raw, type, says) => {
			const job = env.sim.seedJob({ status: 'COMPLETED', documents: 1 });
			env.server.fail({
				service: 'extraction',
				method: 'GET',
				path: `/prod/v1/extractions/${job.publicId}/documents/`,
				status: 200,
				raw,
				headers: { 'content-type': type },
				times: 1,
			});
			const result = await env.run(downloadParams(job, { format }));
			expect(result.error?.message).toMatch(
				new RegExp(`^\\[item 1\\] Document ${job.documents[0].id} of extraction ${job.publicId} `),
			);
			expect(result.error?.message).toMatch(says);
			expect(result.output(NODE)).toEqual([]);
		},
	);

	test('Download All answered a login page for one document: the item fails, naming the document', async () => {
		const job = env.sim.seedJob({ status: 'COMPLETED', documents: 2 });
		env.server.fail({
			service: 'extraction',
			method: 'GET',
			path: `/prod/v1/extractions/${job.publicId}/documents/${job.documents[1].id}`,
			status: 200,
			raw: LOGIN,
			headers: { 'content-type': 'text/html' },
			times: 1,
		});
		const result = await env.run({
			resource: 'extraction',
			operation: 'get',
			extractionId: job.publicId,
			downloadAll: true,
			formats: 'XML',
		});
		expect(result.error?.message).toMatch(
			new RegExp(
				`^\\[item 1\\] Document ${job.documents[1].id} of extraction ${job.publicId} could not be downloaded as XML: the answer is not XML`,
			),
		);
	});

	test('a PDF served as application/octet-stream is a PDF: the output says application/pdf', async () => {
		const job = env.sim.seedJob({ status: 'COMPLETED', documents: 1 });
		const pdf = env.sim.content(job.documents[0], 'PDF').toString('latin1');
		env.server.fail({
			service: 'extraction',
			method: 'GET',
			path: `/prod/v1/extractions/${job.publicId}/documents/`,
			status: 200,
			raw: pdf,
			headers: { 'content-type': 'application/octet-stream' },
			times: 1,
		});
		const result = await env.run(downloadParams(job, { format: 'PDF' }));
		expect(result.error).toBeUndefined();
		expect(result.output(NODE)[0].json.mimeType).toBe('application/pdf');
		expect(result.output(NODE)[0].binary?.data.mimeType).toBe('application/pdf');
	});
});

describe('secrets a service echoes stay out of the run', () => {
	test('a create refused while repeating the SAT password and the API key in every spelling', async () => {
		env.server.fail({
			service: 'extraction',
			method: 'POST',
			mode: 'echo-secrets',
			status: 400,
			times: 1,
		});
		const result = await env.run(createParams({ satPassword: SAT_PASSWORD }));
		expect(JSON.stringify(env.calls()[0].body)).toContain(
			JSON.stringify(SAT_PASSWORD).slice(1, -1),
		);
		expect(result.error?.message).toMatch(/^\[item 1\] Document Extraction rejected the request/);
		// The node n8n attaches to the error (with its parameters, where the password was typed) included.
		expect(leaks(everythingOf(result), [SAT_PASSWORD, env.sim.prodKey])).toEqual([]);
	});

	test('Taxpayer → Register refused while repeating its Secret Fields and the Ecuador key (Continue On Fail): the error item has none of them', async () => {
		env.server.fail({
			service: 'extraction-ec',
			method: 'POST',
			mode: 'echo-secrets',
			as: 'text',
			status: 422,
			times: 1,
		});
		const result = await env.run(
			{
				resource: 'taxpayer',
				operation: 'register',
				taxpayer: '{"identification":"1790012345001"}',
				secretFields: { field: [{ path: 'credentials.password', value: SAT_PASSWORD }] },
			},
			undefined,
			true,
		);
		expect(String(result.output(NODE)[0].json.error)).toMatch(
			/^\[item 1\] Document Extraction \(Ecuador API\) rejected the request/,
		);
		// The refusal repeated what it got: the Ecuador key was among it, the Mexico key was not.
		const echoed = JSON.stringify(env.server.received()[0].headers);
		expect(echoed).toContain(env.sim.ecuador.prodKey);
		expect(echoed).not.toContain(env.sim.prodKey);
		expect(
			leaks(everythingOf(result), [SAT_PASSWORD, env.sim.ecuador.prodKey, env.sim.prodKey]),
		).toEqual([]);
	});
});

describe('an ID that goes into the address is checked before anything is sent', () => {
	test.each([
		[{ extractionId: '..' }, /^\[item 1\] extractionId: "\.\." is not an ID/],
		[
			{ extractionId: 'ext_1/documents' },
			/^\[item 1\] extractionId: "ext_1\/documents" is not an ID: it contains "\/"/,
		],
	])('Get with %j', async (params, says) => {
		const result = await env.run({ resource: 'extraction', operation: 'get', ...params });
		expect(result.error?.message).toMatch(says);
		expect(env.calls()).toHaveLength(0);
	});

	test('an ID from the input item (webhook data) is checked the same way, naming where it came from', async () => {
		const result = await env.run({ resource: 'extraction', operation: 'get' }, [
			{ publicId: '../auth/verify' },
		]);
		expect(result.error?.message).toMatch(
			/^\[item 1\] publicId \(from the input item\): "\.\.\/auth\/verify" is not an ID/,
		);
		expect(env.calls()).toHaveLength(0);
	});

	test('Download Document with a document ID that would change the address', async () => {
		const result = await env.run({
			resource: 'extraction',
			operation: 'downloadDocument',
			extractionId: 'ext_1',
			documentId: '%2e%2e',
		});
		expect(result.error?.message).toBe(
			'[item 1] documentId: "%2e%2e" is not an ID: it contains "%", which would change which address is called',
		);
		expect(env.calls()).toHaveLength(0);
	});

	test('Download All with a document ID the service listed that would change the address: not sent', async () => {
		const job = env.sim.seedJob({ status: 'COMPLETED', documents: 1 });
		job.documents[0].id = '../../auth/verify';
		const result = await env.run({
			resource: 'extraction',
			operation: 'get',
			extractionId: job.publicId,
			downloadAll: true,
			formats: 'XML',
		});
		expect(result.error?.message).toMatch(
			/^\[item 1\] Not sent to Document Extraction: "\.\.\/\.\.\/auth\/verify" is not an ID/,
		);
		expect(env.calls().map((c) => c.path)).toEqual([`/prod/v1/extractions/${job.publicId}`]);
	});
});
