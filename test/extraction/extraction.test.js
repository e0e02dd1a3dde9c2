import { createParams, fastWait, NODE, startExtraction, waitFor } from './setup';
/** @import { ExtractionEnv } from './setup' */

/** @type {ExtractionEnv} */
let env;
beforeAll(async () => (env = await startExtraction()));
afterAll(async () => env.stop());
beforeEach(() => env.reset());

const SECRET = 'S3cr3t-CIEC-pass';

describe('Extraction: Create', () => {
	test('sends SAT credentials nested, options, period and the emitter filter; outputs the job', async () => {
		const result = await env.run(
			createParams({
				emitterFilter: { emitter: { operator: 'in', value: 'AAA010101AAA, BBB020202BB1' } },
			}),
		);
		expect(result.error).toBeUndefined();
		const [call] = env.calls();
		expect([call.method, call.path]).toEqual(['POST', '/prod/v1/extractions']);
		expect(call.body).toEqual({
			SAT: { rfc: 'EKU9003173C9', password: SECRET },
			options: {
				informationType: 'INVOICE',
				period: { from: '2026-10-01', to: '2026-10-31' },
				direction: 'INBOUND',
			},
			filters: { emitter: { operator: 'in', value: ['AAA010101AAA', 'BBB020202BB1'] } },
		});
		const [item] = result.output(NODE);
		expect(item.json).toMatchObject({ status: 'PROCESSING', discoveryCount: 0, completedCount: 0 });
		expect(item.json.publicId).toBe([...env.sim.jobs.keys()][0]);
		expect(JSON.stringify(item.json)).not.toContain(SECRET);
	});

	test('FIEL credentials: certificate, private key and key password in SAT; TAX_STATUS sends no direction', async () => {
		const result = await env.run(
			createParams({
				satCredentialType: 'fiel',
				satPassword: undefined,
				fielCertificate: 'MIIFuzCCA6OgAwIBAgIUMzAwMDEwMDAwMDA0MDAwMDI0MzQ=',
				fielPrivateKey: 'MIIFDjBABgkqhkiG9w0BBQ0wMzAbBgkqhkiG9w0BBQwwDgQI',
				fielPassword: 'fiel-key-pass',
				informationType: 'TAX_STATUS',
				periodFrom: '2026-10-01T00:00:00',
				periodTo: '2026-10-01T00:00:00',
			}),
		);
		expect(result.error).toBeUndefined();
		expect(env.calls()[0].body).toEqual({
			SAT: {
				rfc: 'EKU9003173C9',
				certificate: 'MIIFuzCCA6OgAwIBAgIUMzAwMDEwMDAwMDA0MDAwMDI0MzQ=',
				privateKey: 'MIIFDjBABgkqhkiG9w0BBQ0wMzAbBgkqhkiG9w0BBQwwDgQI',
				password: 'fiel-key-pass',
			},
			options: { informationType: 'TAX_STATUS', period: { from: '2026-10-01', to: '2026-10-01' } },
		});
	});

	test('beta direction RECEIVED from an expression is sent as INBOUND', async () => {
		const result = await env.run(createParams({ direction: '={{ $json.direction }}' }), [
			{ direction: 'RECEIVED' },
		]);
		expect(result.error).toBeUndefined();
		expect(
			/** @type {{ options: { direction: string } }} */ (env.calls()[0].body).options.direction,
		).toBe('INBOUND');
	});

	test('validation stops the item before anything is sent, naming item and fields', async () => {
		const result = await env.run(
			createParams({
				rfc: 'EKU90031',
				satPassword: '={{ "" }}',
				periodFrom: '2026-10-31',
				periodTo: '2026-10-01',
				emitterFilter: { emitter: { operator: 'in', value: ' , ' } },
			}),
		);
		expect(result.error?.message).toBe(
			'[item 1] SAT.rfc: "EKU90031" must be 12 (company) or 13 (person) characters long, got 8',
		);
		expect(result.error?.description).toContain('SAT.password: is required');
		expect(result.error?.description).toContain(
			'options.period: from 2026-10-31 is after to 2026-10-01',
		);
		expect(result.error?.description).toContain(
			'filters.emitter.value: operator "in" takes a list',
		);
		expect(env.calls()).toHaveLength(0);
	});

	test('a date that is not a date is refused; the second item is named, and no job of the batch is created', async () => {
		const result = await env.run(createParams({ periodTo: '={{ $json.to }}' }), [
			{ to: '2026-10-31' },
			{ to: '2026-02-30' },
		]);
		expect(result.error?.message).toBe(
			'[item 2] options.period.to: "2026-02-30" is not a date (YYYY-MM-DD)',
		);
		expect(env.calls()).toHaveLength(0);
	});

	test('an RFC with a wrong check digit is sent with a warning in the output', async () => {
		const result = await env.run(createParams({ rfc: 'eku9003173c8' }));
		expect(result.error).toBeUndefined();
		expect(/** @type {{ SAT: { rfc: string } }} */ (env.calls()[0].body).SAT.rfc).toBe(
			'EKU9003173C8',
		);
		expect(result.output(NODE)[0].json.warnings).toEqual([
			expect.stringMatching(/^SAT\.rfc: check digit/),
		]);
	});

	test('a service that echoes the SAT password: it appears neither in the output nor in errors', async () => {
		env.sim.echoSecrets = true;
		const ok = await env.run(createParams());
		expect(ok.error).toBeUndefined();
		expect(JSON.stringify(ok.output(NODE))).not.toContain(SECRET);
		expect(ok.output(NODE)[0].json.SAT).toEqual({ rfc: 'EKU9003173C9', password: '[redacted]' });

		// Force a 400 that echoes the credentials: a TAX_STATUS body with a direction the simulator rejects.
		const echoed = await env.run(
			createParams({
				additionalBody: JSON.stringify({ options: { direction: 'SIDEWAYS' } }),
				informationType: 'TAX_STATUS',
			}),
		);
		expect(echoed.error?.message).toMatch(
			/rejected the request: options.direction is invalid \(received .*\[redacted\]/,
		);
		// Everything of the error but `node`, which n8n attaches to every node error: the workflow's own parameters.
		const error = {
			.../** @type {Record<string, unknown>} */ (/** @type {unknown} */ (echoed.error)),
		};
		delete error.node;
		const everything = JSON.stringify({
			...error,
			message: echoed.error?.message,
			description: echoed.error?.description,
			stack: echoed.error?.stack,
		});
		expect(everything).toContain('[redacted]');
		expect(everything).not.toContain(SECRET);
	});

	test('is not re-sent after a 5xx or 429 (it may have created a job)', async () => {
		env.server.fail({
			service: 'extraction',
			method: 'POST',
			path: '/prod/v1/extractions',
			status: 503,
			times: 1,
		});
		const result = await env.run(createParams());
		expect(result.error?.message).toMatch(/answered 503/);
		expect(env.calls()).toHaveLength(1);
	});
});

describe('Extraction: Get', () => {
	test('reads the job by publicId', async () => {
		const job = env.sim.seedJob({ checks: 3, documents: 4 });
		const result = await env.run({
			resource: 'extraction',
			operation: 'get',
			extractionId: job.publicId,
		});
		expect(result.error).toBeUndefined();
		expect(env.calls().map((c) => `${c.method} ${c.path}`)).toEqual([
			`GET /prod/v1/extractions/${job.publicId}`,
		]);
		expect(result.output(NODE)[0].json).toMatchObject({
			publicId: job.publicId,
			status: 'PROCESSING',
			discoveryCount: 4,
			completedCount: 1,
		});
	});

	test('takes the ID from the input item under the beta name (webhook data) and outputs current names', async () => {
		env.sim.betaNames = true;
		const created = await env.run(createParams({ direction: 'OUTBOUND' }));
		expect(created.output(NODE)[0].json).not.toHaveProperty('extractionId');
		const publicId = /** @type {string} */ (created.output(NODE)[0].json.publicId);
		expect(publicId).toMatch(/^ext_/);
		const result = await env.run({ resource: 'extraction', operation: 'get' }, [
			{ data: { extractionId: publicId } },
		]);
		expect(result.error).toBeUndefined();
		const json = result.output(NODE)[0].json;
		expect(json.publicId).toBe(publicId);
		expect(json).not.toHaveProperty('extractionId');
		expect(/** @type {{ direction: string }} */ (json.options).direction).toBe('OUTBOUND');
	});

	test('runs several items in parallel and keeps the order and pairing', async () => {
		const jobs = [1, 2, 3, 4].map(() => env.sim.seedJob());
		const result = await env.run(
			{
				resource: 'extraction',
				operation: 'get',
				extractionId: '={{ $json.id }}',
				options: { parallelRequests: 3 },
			},
			jobs.map((j) => ({ id: j.publicId })),
		);
		expect(result.output(NODE).map((o) => [o.json.publicId, o.pairedItem])).toEqual(
			jobs.map((j, i) => [j.publicId, { item: i }]),
		);
	});

	test('an unknown job is a 404 with the item named', async () => {
		const result = await env.run({
			resource: 'extraction',
			operation: 'get',
			extractionId: 'ext_missing',
		});
		expect(result.error?.message).toMatch(
			/^\[item 1\] Document Extraction: not found \(Extraction ext_missing not found\) \[NOT_FOUND\]/,
		);
	});
});

describe('Extraction: wait for completion (fake clock)', () => {
	const checks = () => env.calls().filter((c) => c.method === 'GET');

	test('Create waits until COMPLETED and outputs the final job', async () => {
		env.sim.nextJobs.push({ checks: 2, outcome: 'COMPLETED', documents: 3 });
		const result = await env.runTimed(createParams(fastWait));
		expect(result.error).toBeUndefined();
		const json = result.output(NODE)[0].json;
		expect(json).toMatchObject({ status: 'COMPLETED', discoveryCount: 3, completedCount: 3 });
		expect(json.documents).toHaveLength(3);
		expect(json.wait_timed_out).toBeUndefined();
		expect(env.calls().map((c) => c.method)).toEqual(['POST', 'GET', 'GET', 'GET']);
		expect(JSON.stringify(json)).not.toContain(SECRET);
	});

	test('Get waits too, and a job already finished needs one check', async () => {
		const job = env.sim.seedJob({ status: 'COMPLETED', documents: 1 });
		const result = await env.runTimed({
			resource: 'extraction',
			operation: 'get',
			extractionId: job.publicId,
			...fastWait,
		});
		expect(result.output(NODE)[0].json.status).toBe('COMPLETED');
		expect(env.calls()).toHaveLength(1);
	});

	test('FAILED stops with a clear error naming the job and the SAT error code', async () => {
		env.sim.nextJobs.push({
			checks: 1,
			outcome: 'FAILED',
			documents: 0,
			error: {
				code: 'INVALID_CREDENTIALS',
				message: 'SAT rejected the credentials',
				details: { satResponse: 'Contraseña incorrecta' },
			},
		});
		const result = await env.runTimed(createParams(fastWait));
		const publicId = [...env.sim.jobs.keys()][0];
		expect(result.error?.message).toBe(
			`[item 1] Extraction ${publicId} FAILED: INVALID_CREDENTIALS - SAT rejected the credentials`,
		);
		expect(result.error?.description).toMatch(
			/Contraseña incorrecta.*check the RFC and the SAT password/,
		);
	});

	test('FAILED with Continue On Fail gives an error item and the next item still runs', async () => {
		env.sim.nextJobs.push(
			{ checks: 0, outcome: 'FAILED', documents: 0 },
			{ checks: 0, outcome: 'COMPLETED', documents: 1 },
		);
		const result = await env.runTimed(createParams(fastWait), [{}, {}], true);
		const out = result.output(NODE);
		expect(out).toHaveLength(2);
		expect(out[0].json.error).toMatch(/FAILED: INVALID_CREDENTIALS/);
		expect(out[1].json.status).toBe('COMPLETED');
		expect(out.map((o) => o.pairedItem)).toEqual([{ item: 0 }, { item: 1 }]);
	});

	test('every job of a run is created before the first is followed, then they are followed together', async () => {
		env.sim.nextJobs.push(
			{ checks: 3, outcome: 'COMPLETED', documents: 1 },
			{ checks: 3, outcome: 'COMPLETED', documents: 1 },
			{ checks: 3, outcome: 'COMPLETED', documents: 1 },
		);
		const result = await env.runTimed(createParams(waitFor(600, 10)), [{}, {}, {}]);
		expect(result.error).toBeUndefined();
		const posts = env.calls().filter((c) => c.method === 'POST');
		expect(Math.max(...posts.map((c) => c.at))).toBeLessThanOrEqual(
			Math.min(...checks().map((c) => c.at)),
		);
		// One after another, three jobs of four checks each would take 3 × (10 + 15 + 22.5 + 33.75) s.
		expect(result.elapsedMs).toBeLessThan(2 * (10 + 15 + 22.5 + 30) * 1000);
		expect(result.output(NODE).map((o) => [o.json.status, o.pairedItem])).toEqual(
			[0, 1, 2].map((item) => ['COMPLETED', { item }]),
		);
	});

	test('the Timeout outputs the job in its last state, marked, with how to follow it; checks back off', async () => {
		env.sim.nextJobs.push({ checks: 1000, outcome: 'COMPLETED', documents: 5 });
		const result = await env.runTimed(createParams(waitFor(10, 1)), undefined, false, {
			stepMs: 10,
		});
		const publicId = [...env.sim.jobs.keys()][0];
		expect(result.error).toBeUndefined();
		const [item] = result.output(NODE);
		expect(item.json).toMatchObject({
			publicId,
			status: 'PROCESSING',
			discoveryCount: 5,
			wait_timed_out: true,
		});
		expect(item.json.warnings).toEqual([
			`Wait for Completion timed out after 10 s in state PROCESSING (discoveryCount 5, completedCount ${item.json.completedCount}). This extraction exists: do not create it again; follow it with Extraction → Get (publicId ${publicId}), or start a workflow from its extraction.completed webhook.`,
		]);
		expect(result.elapsedMs).toBeGreaterThanOrEqual(10_000);
		// Checks 1, 1.5, 2.25 and 3.375 s apart (at 1, 2.5, 4.75 and 8.125 s); at a fixed 1 s they would be 9.
		const [post] = env.calls();
		const at = checks().map((c) => c.at - post.at);
		expect(at).toHaveLength(4);
		[1000, 2500, 4750, 8125].forEach((due, n) => expect(at[n]).toBeGreaterThanOrEqual(due));
	});

	test('a Timeout of 0: the created job is output at once, marked, without a check', async () => {
		const result = await env.runTimed(createParams(waitFor(0)));
		expect(result.output(NODE)[0].json).toMatchObject({
			status: 'PROCESSING',
			wait_timed_out: true,
		});
		expect(checks()).toHaveLength(0);
	});

	test('Download All after a Timeout: the job is output, marked, and nothing is downloaded', async () => {
		env.sim.nextJobs.push({ checks: 1000, outcome: 'COMPLETED', documents: 2 });
		const result = await env.runTimed(createParams({ ...waitFor(5), downloadAll: true }));
		const [item, ...more] = result.output(NODE);
		expect(more).toEqual([]);
		expect(item.binary).toBeUndefined();
		expect(item.json).toMatchObject({ status: 'PROCESSING', wait_timed_out: true });
		expect(String(item.json.warnings)).toMatch(
			/Nothing was downloaded: run Get with Download All once the job is COMPLETED\.$/,
		);
		expect(env.calls().filter((c) => c.path.endsWith('/download'))).toHaveLength(0);
	});

	test('Get: a job that does not finish in time is output, marked, with how to read it again', async () => {
		const job = env.sim.seedJob({ checks: 1000 });
		const result = await env.runTimed({
			resource: 'extraction',
			operation: 'get',
			extractionId: job.publicId,
			...waitFor(5),
		});
		expect(result.output(NODE)[0].json).toMatchObject({
			publicId: job.publicId,
			status: 'PROCESSING',
			wait_timed_out: true,
		});
		expect(String(result.output(NODE)[0].json.warnings)).toContain(
			`The job continues on the service: read it again later with Extraction → Get (publicId ${job.publicId})`,
		);
	});
});

describe('Extraction: a workflow saved before the one wait rule keeps working', () => {
	// What such a workflow carries: Timeout as `timeout`, Check Every as `pollInterval` (not in Options).
	const saved = { waitForCompletion: true, timeout: 5, pollInterval: 2 };

	test('its Timeout and interval are read from the old names (n8n passes them on because the node still lists them, hidden)', async () => {
		env.sim.nextJobs.push({ checks: 1000, outcome: 'COMPLETED', documents: 1 });
		const result = await env.runTimed(createParams(saved), undefined, false, { stepMs: 10 });
		const [item] = result.output(NODE);
		expect(item.json.wait_timed_out).toBe(true);
		expect(String(item.json.warnings)).toMatch(/^Wait for Completion timed out after 5 s /);
		// First check 2 s after the create (the default would be 15 s), the next due at 5 s: the deadline.
		const [post, ...gets] = env.calls();
		expect(gets.map((c) => c.at - post.at)).toEqual([expect.any(Number)]);
		expect(gets[0].at - post.at).toBeGreaterThanOrEqual(2000);
		expect(result.elapsedMs).toBeLessThan(15_000);
	});

	test('the fields the form shows win once they are set', async () => {
		env.sim.nextJobs.push({ checks: 1000, outcome: 'COMPLETED', documents: 1 });
		const result = await env.runTimed(
			createParams({ ...saved, waitTimeout: 3, options: { pollInterval: 1 } }),
			undefined,
			false,
			{ stepMs: 10 },
		);
		expect(String(result.output(NODE)[0].json.warnings)).toMatch(
			/^Wait for Completion timed out after 3 s /,
		);
		// At 1 and 2.5 s; the old 2 s interval would give one check.
		expect(env.calls().filter((c) => c.method === 'GET')).toHaveLength(2);
	});

	test('an old value that is not a number is refused before anything is sent, naming the old field', async () => {
		const result = await env.run(createParams({ ...saved, pollInterval: '={{ "5s" }}' }));
		expect(result.error?.message).toBe(
			'[item 1] Check Every (Seconds) (a field of an earlier version of this node; set Options → Poll Interval (Seconds) instead): must be a number from 0.01 to 3600, got "5s"',
		);
		expect(env.calls()).toHaveLength(0);
	});
});

describe('Extraction: Download Document', () => {
	test('XML (the default): query type=XML, application/xml, file named after the document ID, exact bytes', async () => {
		const job = env.sim.seedJob({ status: 'COMPLETED', documents: 2 });
		const doc = job.documents[1];
		const result = await env.run({
			resource: 'extraction',
			operation: 'downloadDocument',
			extractionId: job.publicId,
			documentId: doc.id,
		});
		expect(result.error).toBeUndefined();
		const [call] = env.calls();
		expect(call.path).toBe(`/prod/v1/extractions/${job.publicId}/documents/${doc.id}/download`);
		expect(call.query).toEqual({ type: 'XML' });
		const [item] = result.output(NODE);
		expect(item.json).toMatchObject({
			publicId: job.publicId,
			documentId: doc.id,
			format: 'XML',
			fileName: `${doc.id}.xml`,
			mimeType: 'application/xml',
		});
		expect(item.binary?.data).toMatchObject({
			mimeType: 'application/xml',
			fileName: `${doc.id}.xml`,
			fileExtension: 'xml',
		});
		expect(
			Buffer.from(
				/** @type {NonNullable<typeof item.binary>} */ (item.binary).data.data,
				'base64',
			).equals(env.sim.content(doc, 'XML')),
		).toBe(true);
		expect(item.pairedItem).toEqual({ item: 0 });
	});

	test('PDF into a chosen field', async () => {
		const job = env.sim.seedJob({ status: 'COMPLETED', documents: 1 });
		const doc = job.documents[0];
		const result = await env.run({
			resource: 'extraction',
			operation: 'downloadDocument',
			extractionId: job.publicId,
			documentId: doc.id,
			format: 'PDF',
			binaryPropertyName: 'factura',
		});
		expect(env.calls()[0].query).toEqual({ type: 'PDF' });
		const bin = /** @type {any} */ (result.output(NODE)[0].binary).factura;
		expect(bin).toMatchObject({ mimeType: 'application/pdf', fileName: `${doc.id}.pdf` });
		expect(Buffer.from(bin.data, 'base64').equals(env.sim.content(doc, 'PDF'))).toBe(true);
	});

	test('a missing document ID is refused before sending', async () => {
		const result = await env.run({
			resource: 'extraction',
			operation: 'downloadDocument',
			extractionId: 'ext_1',
			documentId: ' ',
		});
		expect(result.error?.message).toBe('[item 1] documentId: is required');
		expect(env.calls()).toHaveLength(0);
	});
});
