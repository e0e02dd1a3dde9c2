import { createParams, fastWait, NODE, startExtraction } from './setup';
/** @import { ExtractionEnv } from './setup' */

/** @type {ExtractionEnv} */
let env;
beforeAll(async () => (env = await startExtraction()));
afterAll(async () => env.stop());
beforeEach(() => env.reset());

const SECRET = 'S3cr3t-CIEC-pass';

describe('Extraction: Create', () => {
	test('sends SAT credentials nested, options, period and the emitter filter; outputs the job', async () => {
		const result = await env.run(createParams({ emitterFilter: { emitter: { operator: 'in', value: 'AAA010101AAA, BBB020202BB1' } } }));
		expect(result.error).toBeUndefined();
		const [call] = env.calls();
		expect([call.method, call.path]).toEqual(['POST', '/prod/v1/extractions']);
		expect(call.body).toEqual({
			SAT: { rfc: 'EKU9003173C9', password: SECRET },
			options: { informationType: 'INVOICE', period: { from: '2026-10-01', to: '2026-10-31' }, direction: 'INBOUND' },
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
		const result = await env.run(createParams({ direction: '={{ $json.direction }}' }), [{ direction: 'RECEIVED' }]);
		expect(result.error).toBeUndefined();
		expect(/** @type {{ options: { direction: string } }} */ (env.calls()[0].body).options.direction).toBe('INBOUND');
	});

	test('validation stops the item before anything is sent, naming item and fields', async () => {
		const result = await env.run(
			createParams({ rfc: 'EKU90031', satPassword: '={{ "" }}', periodFrom: '2026-10-31', periodTo: '2026-10-01', emitterFilter: { emitter: { operator: 'in', value: ' , ' } } }),
		);
		expect(result.error?.message).toBe('[item 1] SAT.rfc: "EKU90031" must be 12 (company) or 13 (person) characters long, got 8');
		expect(result.error?.description).toContain('SAT.password: is required');
		expect(result.error?.description).toContain('options.period: from 2026-10-31 is after to 2026-10-01');
		expect(result.error?.description).toContain('filters.emitter.value: operator "in" takes a list');
		expect(env.calls()).toHaveLength(0);
	});

	test('a date that is not a date is refused; the second item is named, and no job of the batch is created', async () => {
		const result = await env.run(createParams({ periodTo: '={{ $json.to }}' }), [{ to: '2026-10-31' }, { to: '2026-02-30' }]);
		expect(result.error?.message).toBe('[item 2] options.period.to: "2026-02-30" is not a date (YYYY-MM-DD)');
		expect(env.calls()).toHaveLength(0);
	});

	test('an RFC with a wrong check digit is sent with a warning in the output', async () => {
		const result = await env.run(createParams({ rfc: 'eku9003173c8' }));
		expect(result.error).toBeUndefined();
		expect(/** @type {{ SAT: { rfc: string } }} */ (env.calls()[0].body).SAT.rfc).toBe('EKU9003173C8');
		expect(result.output(NODE)[0].json.warnings).toEqual([expect.stringMatching(/^SAT\.rfc: check digit/)]);
	});

	test('a service that echoes the SAT password: it appears neither in the output nor in errors', async () => {
		env.sim.echoSecrets = true;
		const ok = await env.run(createParams());
		expect(ok.error).toBeUndefined();
		expect(JSON.stringify(ok.output(NODE))).not.toContain(SECRET);
		expect(ok.output(NODE)[0].json.SAT).toEqual({ rfc: 'EKU9003173C9', password: '[redacted]' });

		// Force a 400 that echoes the credentials: a TAX_STATUS body with a direction the simulator rejects.
		const echoed = await env.run(createParams({ additionalBody: JSON.stringify({ options: { direction: 'SIDEWAYS' } }), informationType: 'TAX_STATUS' }));
		expect(echoed.error?.message).toMatch(/rejected the request: options.direction is invalid \(received .*\[redacted\]/);
		// Everything of the error but `node`, which n8n attaches to every node error: the workflow's own parameters.
		const error = { .../** @type {Record<string, unknown>} */ (/** @type {unknown} */ (echoed.error)) };
		delete error.node;
		const everything = JSON.stringify({ ...error, message: echoed.error?.message, description: echoed.error?.description, stack: echoed.error?.stack });
		expect(everything).toContain('[redacted]');
		expect(everything).not.toContain(SECRET);
	});

	test('is not re-sent after a 5xx or 429 (it may have created a job)', async () => {
		env.server.fail({ service: 'extraction', method: 'POST', path: '/prod/v1/extractions', status: 503, times: 1 });
		const result = await env.run(createParams());
		expect(result.error?.message).toMatch(/answered 503/);
		expect(env.calls()).toHaveLength(1);
	});
});

describe('Extraction: Get', () => {
	test('reads the job by publicId', async () => {
		const job = env.sim.seedJob({ checks: 3, documents: 4 });
		const result = await env.run({ resource: 'extraction', operation: 'get', extractionId: job.publicId });
		expect(result.error).toBeUndefined();
		expect(env.calls().map((c) => `${c.method} ${c.path}`)).toEqual([`GET /prod/v1/extractions/${job.publicId}`]);
		expect(result.output(NODE)[0].json).toMatchObject({ publicId: job.publicId, status: 'PROCESSING', discoveryCount: 4, completedCount: 1 });
	});

	test('takes the ID from the input item under the beta name (webhook data) and outputs current names', async () => {
		env.sim.betaNames = true;
		const created = await env.run(createParams({ direction: 'OUTBOUND' }));
		expect(created.output(NODE)[0].json).not.toHaveProperty('extractionId');
		const publicId = /** @type {string} */ (created.output(NODE)[0].json.publicId);
		expect(publicId).toMatch(/^ext_/);
		const result = await env.run({ resource: 'extraction', operation: 'get' }, [{ data: { extractionId: publicId } }]);
		expect(result.error).toBeUndefined();
		const json = result.output(NODE)[0].json;
		expect(json.publicId).toBe(publicId);
		expect(json).not.toHaveProperty('extractionId');
		expect(/** @type {{ direction: string }} */ (json.options).direction).toBe('OUTBOUND');
	});

	test('runs several items in parallel and keeps the order and pairing', async () => {
		const jobs = [1, 2, 3, 4].map(() => env.sim.seedJob());
		const result = await env.run(
			{ resource: 'extraction', operation: 'get', extractionId: '={{ $json.id }}', options: { parallelRequests: 3 } },
			jobs.map((j) => ({ id: j.publicId })),
		);
		expect(result.output(NODE).map((o) => [o.json.publicId, o.pairedItem])).toEqual(jobs.map((j, i) => [j.publicId, { item: i }]));
	});

	test('an unknown job is a 404 with the item named', async () => {
		const result = await env.run({ resource: 'extraction', operation: 'get', extractionId: 'ext_missing' });
		expect(result.error?.message).toMatch(/^\[item 1\] Document Extraction: not found \(Extraction ext_missing not found\) \[NOT_FOUND\]/);
	});
});

describe('Extraction: wait for completion', () => {
	test('Create waits until COMPLETED and outputs the final job', async () => {
		env.sim.nextJobs.push({ checks: 2, outcome: 'COMPLETED', documents: 3 });
		const result = await env.run(createParams(fastWait));
		expect(result.error).toBeUndefined();
		const json = result.output(NODE)[0].json;
		expect(json).toMatchObject({ status: 'COMPLETED', discoveryCount: 3, completedCount: 3 });
		expect(json.documents).toHaveLength(3);
		expect(env.calls().map((c) => c.method)).toEqual(['POST', 'GET', 'GET', 'GET']);
		expect(JSON.stringify(json)).not.toContain(SECRET);
	});

	test('Get waits too, and a job already finished needs one check', async () => {
		const job = env.sim.seedJob({ status: 'COMPLETED', documents: 1 });
		const result = await env.run({ resource: 'extraction', operation: 'get', extractionId: job.publicId, ...fastWait });
		expect(result.output(NODE)[0].json.status).toBe('COMPLETED');
		expect(env.calls()).toHaveLength(1);
	});

	test('FAILED stops with a clear error naming the job and the SAT error code', async () => {
		env.sim.nextJobs.push({ checks: 1, outcome: 'FAILED', documents: 0, error: { code: 'INVALID_CREDENTIALS', message: 'SAT rejected the credentials', details: { satResponse: 'Contraseña incorrecta' } } });
		const result = await env.run(createParams(fastWait));
		const publicId = [...env.sim.jobs.keys()][0];
		expect(result.error?.message).toBe(`[item 1] Extraction ${publicId} FAILED: INVALID_CREDENTIALS - SAT rejected the credentials`);
		expect(result.error?.description).toMatch(/Contraseña incorrecta.*check the RFC and the SAT password/);
	});

	test('FAILED with Continue On Fail gives an error item and the next item still runs', async () => {
		env.sim.nextJobs.push({ checks: 0, outcome: 'FAILED', documents: 0 }, { checks: 0, outcome: 'COMPLETED', documents: 1 });
		const result = await env.run(createParams(fastWait), [{}, {}], true);
		const out = result.output(NODE);
		expect(out).toHaveLength(2);
		expect(out[0].json.error).toMatch(/FAILED: INVALID_CREDENTIALS/);
		expect(out[1].json.status).toBe('COMPLETED');
		expect(out.map((o) => o.pairedItem)).toEqual([{ item: 0 }, { item: 1 }]);
	});

	test('timeout stops with an error that says where the job is and how to resume', async () => {
		env.sim.nextJobs.push({ checks: 1000, outcome: 'COMPLETED', documents: 5 });
		const started = Date.now();
		const result = await env.run(createParams({ ...fastWait, pollInterval: 0.2, timeout: 1 }));
		const elapsed = Date.now() - started;
		const publicId = [...env.sim.jobs.keys()][0];
		expect(result.error?.message).toBe(`[item 1] Extraction ${publicId} did not finish within 1 s`);
		expect(result.error?.description).toMatch(/Last state: PROCESSING \(discoveryCount 5, completedCount 0\).*Get \(publicId/);
		expect(elapsed).toBeLessThan(6000); // without the deadline: 1000 checks
		const checks = env.calls().filter((c) => c.method === 'GET').length;
		expect(checks).toBeGreaterThanOrEqual(3);
		expect(checks).toBeLessThanOrEqual(6);
	});
});

describe('Extraction: Download Document', () => {
	test('XML (the default): query type=XML, application/xml, file named after the document ID, exact bytes', async () => {
		const job = env.sim.seedJob({ status: 'COMPLETED', documents: 2 });
		const doc = job.documents[1];
		const result = await env.run({ resource: 'extraction', operation: 'downloadDocument', extractionId: job.publicId, documentId: doc.id });
		expect(result.error).toBeUndefined();
		const [call] = env.calls();
		expect(call.path).toBe(`/prod/v1/extractions/${job.publicId}/documents/${doc.id}/download`);
		expect(call.query).toEqual({ type: 'XML' });
		const [item] = result.output(NODE);
		expect(item.json).toMatchObject({ publicId: job.publicId, documentId: doc.id, format: 'XML', fileName: `${doc.id}.xml`, mimeType: 'application/xml' });
		expect(item.binary?.data).toMatchObject({ mimeType: 'application/xml', fileName: `${doc.id}.xml`, fileExtension: 'xml' });
		expect(Buffer.from(/** @type {NonNullable<typeof item.binary>} */ (item.binary).data.data, 'base64').equals(env.sim.content(doc, 'XML'))).toBe(true);
		expect(item.pairedItem).toEqual({ item: 0 });
	});

	test('PDF into a chosen field', async () => {
		const job = env.sim.seedJob({ status: 'COMPLETED', documents: 1 });
		const doc = job.documents[0];
		const result = await env.run({ resource: 'extraction', operation: 'downloadDocument', extractionId: job.publicId, documentId: doc.id, format: 'PDF', binaryPropertyName: 'factura' });
		expect(env.calls()[0].query).toEqual({ type: 'PDF' });
		const bin = /** @type {any} */ (result.output(NODE)[0].binary).factura;
		expect(bin).toMatchObject({ mimeType: 'application/pdf', fileName: `${doc.id}.pdf` });
		expect(Buffer.from(bin.data, 'base64').equals(env.sim.content(doc, 'PDF'))).toBe(true);
	});

	test('a missing document ID is refused before sending', async () => {
		const result = await env.run({ resource: 'extraction', operation: 'downloadDocument', extractionId: 'ext_1', documentId: ' ' });
		expect(result.error?.message).toBe('[item 1] documentId: is required');
		expect(env.calls()).toHaveLength(0);
	});
});
