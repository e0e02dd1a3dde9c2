import { binaryKeptSize } from '../../nodes/shared/budget';
import { createParams, fastWait, NODE, startExtraction } from './setup';
/** @import { ExtractionEnv } from './setup' */

/** @type {ExtractionEnv} */
let env;
beforeAll(async () => (env = await startExtraction()));
afterAll(async () => env.stop());
beforeEach(() => env.reset());

const downloads = () => env.calls().filter((c) => c.path.endsWith('/download'));

describe('Download All', () => {
	test('Create → wait → one binary item per document (XML), right MIME type, file name from the document ID, exact bytes', async () => {
		env.sim.nextJobs.push({ checks: 1, outcome: 'COMPLETED', documents: 3 });
		const result = await env.runTimed(
			createParams({ ...fastWait, downloadAll: true, formats: 'XML' }),
		);
		expect(result.error).toBeUndefined();
		const job = [...env.sim.jobs.values()][0];
		const out = result.output(NODE);
		expect(out).toHaveLength(3);
		out.forEach((item, n) => {
			const doc = job.documents[n];
			expect(item.json).toMatchObject({
				publicId: job.publicId,
				documentId: doc.id,
				document: { uuid: doc.uuid, availableFormats: ['XML', 'PDF'] },
			});
			expect(item.json.files).toEqual([
				{
					format: 'XML',
					field: 'data',
					fileName: `${doc.id}.xml`,
					mimeType: 'application/xml',
					fileSize: env.sim.content(doc, 'XML').length,
				},
			]);
			expect(Object.keys(item.binary ?? {})).toEqual(['data']);
			expect(/** @type {NonNullable<typeof item.binary>} */ (item.binary).data).toMatchObject({
				mimeType: 'application/xml',
				fileName: `${doc.id}.xml`,
			});
			expect(
				Buffer.from(
					/** @type {NonNullable<typeof item.binary>} */ (item.binary).data.data,
					'base64',
				).equals(env.sim.content(doc, 'XML')),
			).toBe(true);
			expect(item.pairedItem).toEqual({ item: 0 });
		});
		expect(downloads().map((c) => c.query.type)).toEqual(['XML', 'XML', 'XML']);
	});

	test('XML and PDF go to their own fields; a format a document does not offer is skipped and reported', async () => {
		const job = env.sim.seedJob({ status: 'COMPLETED', documents: 2 });
		job.documents[1].availableFormats = ['XML'];
		const result = await env.run({
			resource: 'extraction',
			operation: 'get',
			extractionId: job.publicId,
			downloadAll: true,
			formats: 'XML,PDF',
			pdfBinaryPropertyName: 'pdfFile',
		});
		expect(result.error).toBeUndefined();
		const [first, second] = result.output(NODE);
		expect(
			Object.keys(/** @type {NonNullable<typeof first.binary>} */ (first.binary)).sort(),
		).toEqual(['data', 'pdfFile']);
		expect(/** @type {NonNullable<typeof first.binary>} */ (first.binary).pdfFile).toMatchObject({
			mimeType: 'application/pdf',
			fileName: `${job.documents[0].id}.pdf`,
		});
		expect(
			Buffer.from(
				/** @type {NonNullable<typeof first.binary>} */ (first.binary).pdfFile.data,
				'base64',
			).equals(env.sim.content(job.documents[0], 'PDF')),
		).toBe(true);
		expect(Object.keys(/** @type {NonNullable<typeof second.binary>} */ (second.binary))).toEqual([
			'data',
		]);
		expect(second.json.skippedFormats).toEqual(['PDF']);
		expect(downloads()).toHaveLength(3);
	});

	test('two input items: every document item is paired to the item whose job it belongs to', async () => {
		const a = env.sim.seedJob({ status: 'COMPLETED', documents: 2 });
		const b = env.sim.seedJob({ status: 'COMPLETED', documents: 1 });
		const result = await env.run(
			{
				resource: 'extraction',
				operation: 'get',
				extractionId: '={{ $json.publicId }}',
				downloadAll: true,
				formats: 'PDF',
			},
			[{ publicId: a.publicId }, { publicId: b.publicId }],
		);
		expect(
			result.output(NODE).map((o) => [o.json.publicId, o.pairedItem, o.binary?.data.mimeType]),
		).toEqual([
			[a.publicId, { item: 0 }, 'application/pdf'],
			[a.publicId, { item: 0 }, 'application/pdf'],
			[b.publicId, { item: 1 }, 'application/pdf'],
		]);
	});

	test('a job that is still PROCESSING is not downloaded (Get without waiting)', async () => {
		const job = env.sim.seedJob({ checks: 5 });
		const result = await env.run({
			resource: 'extraction',
			operation: 'get',
			extractionId: job.publicId,
			downloadAll: true,
		});
		expect(result.error?.message).toBe(
			`[item 1] Download All: extraction ${job.publicId} is PROCESSING, not COMPLETED`,
		);
		expect(downloads()).toHaveLength(0);
	});

	test('a job record without a documents list says what the node assumes', async () => {
		env.sim.listDocuments = false;
		const job = env.sim.seedJob({ status: 'COMPLETED', documents: 2 });
		const result = await env.run({
			resource: 'extraction',
			operation: 'get',
			extractionId: job.publicId,
			downloadAll: true,
		});
		expect(result.error?.message).toMatch(/has no documents list/);
		expect(result.error?.description).toMatch(/expects a "documents" list in the job record/);
	});

	test('files n8n keeps in memory count against the 512 MB one run may keep: 9 MB PDFs stop at the one that would pass it, before the next download', async () => {
		const job = env.sim.seedJob({ status: 'COMPLETED', documents: 30 });
		env.server.fail({
			service: 'extraction',
			method: 'GET',
			path: `/prod/v1/extractions/${job.publicId}/documents/`,
			mode: 'oversize',
			as: 'pdf',
			bytes: 9 * 1024 * 1024,
			times: 30,
		});
		const result = await env.run({
			resource: 'extraction',
			operation: 'get',
			extractionId: job.publicId,
			downloadAll: true,
			formats: 'PDF',
		});
		expect(result.error?.message).toBe(
			'[item 1] Download All: this run would keep more than 512 MB in memory',
		);
		expect(result.error?.description).toMatch(
			/nothing more was read\. Download one format only, extract a shorter period, or download part of the documents with Download Document; or let n8n keep files outside memory \(its binary data mode 'filesystem'/,
		);
		// In memory n8n keeps a file as base64 (12 MB for 9 MB), counted as n8n holds it (budget.ts): the file
		// after the last that fits passes 512 MB.
		const base64 = Buffer.alloc(9 * 1024 * 1024).toString('base64');
		const fits = Math.floor(
			(512 * 1024 * 1024) / binaryKeptSize({ data: base64, mimeType: 'application/pdf' }),
		);
		expect(downloads()).toHaveLength(fits + 1);
	}, 60000);

	test('a completed job with no documents gives no items', async () => {
		const job = env.sim.seedJob({ status: 'COMPLETED', documents: 0 });
		const result = await env.run({
			resource: 'extraction',
			operation: 'get',
			extractionId: job.publicId,
			downloadAll: true,
		});
		expect(result.error).toBeUndefined();
		expect(result.output(NODE)).toEqual([]);
	});

	test('a job needing more than 1,000 downloads is refused before the first download, with the count', async () => {
		const job = env.sim.seedJob({ status: 'COMPLETED', documents: 501 });
		const result = await env.run({
			resource: 'extraction',
			operation: 'get',
			extractionId: job.publicId,
			downloadAll: true,
			formats: 'XML,PDF',
		});
		expect(result.error?.message).toBe(
			`[item 1] Download All: extraction ${job.publicId} needs 1002 downloads, more than this execution may still make`,
		);
		expect(result.error?.description).toMatch(
			/1,000 document downloads per hour, counted here for this execution \(all items together\); 1000 remain\. Nothing was downloaded/,
		);
		expect(downloads()).toHaveLength(0);
	});

	test('items running side by side reserve their downloads: together they never pass 1,000, and the one that does not fit downloads nothing', async () => {
		// 2 × 501 documents: each job fits the budget alone, not both. Checked (not reserved), both items saw
		// 1,000 free, started, and the budget ran out half-way through the second job.
		const jobs = [
			env.sim.seedJob({ status: 'COMPLETED', documents: 501 }),
			env.sim.seedJob({ status: 'COMPLETED', documents: 501 }),
		];
		const result = await env.run(
			{
				resource: 'extraction',
				operation: 'get',
				extractionId: '={{ $json.id }}',
				downloadAll: true,
				formats: 'XML',
				options: { parallelRequests: 2 },
			},
			jobs.map((j) => ({ id: j.publicId })),
			true,
		);
		const out = result.output(NODE);
		const errors = out.filter((o) => o.json.error);
		expect(errors).toHaveLength(1);
		const refused = jobs.find((j) => String(errors[0].json.error).includes(j.publicId));
		expect(errors[0].json.error).toBe(
			`[item ${jobs.indexOf(/** @type {any} */ (refused)) + 1}] Download All: extraction ${refused?.publicId} needs 501 downloads, more than this execution may still make`,
		);
		expect(out.filter((o) => o.binary?.data)).toHaveLength(501);
		expect(downloads()).toHaveLength(501);
		expect(
			downloads().every((d) => !d.path.includes(/** @type {string} */ (refused?.publicId))),
		).toBe(true);
	});

	test('what an item reserved and did not use goes back: a job that failed at its first download leaves the budget to the next', async () => {
		const [broken, next] = [
			env.sim.seedJob({ status: 'COMPLETED', documents: 600 }),
			env.sim.seedJob({ status: 'COMPLETED', documents: 600 }),
		];
		env.server.fail({
			service: 'extraction',
			method: 'GET',
			path: `/prod/v1/extractions/${broken.publicId}/documents/`,
			status: 200,
			raw: '<!DOCTYPE html><html>Login</html>',
			headers: { 'content-type': 'text/html' },
			times: 1,
		});
		const result = await env.run(
			{
				resource: 'extraction',
				operation: 'get',
				extractionId: '={{ $json.id }}',
				downloadAll: true,
				formats: 'XML',
				options: { parallelRequests: 1 },
			},
			[{ id: broken.publicId }, { id: next.publicId }],
			true,
		);
		const out = result.output(NODE);
		expect(out[0].json.error).toMatch(
			new RegExp(
				`^\\[item 1\\] Document ${broken.documents[0].id} of extraction ${broken.publicId} could not be downloaded as XML`,
			),
		);
		// 1 used by the failed download, 599 given back: 999 free for the next job's 600.
		expect(out.slice(1).filter((o) => o.binary?.data)).toHaveLength(600);
	});

	test('same field for XML and PDF is refused before anything is sent', async () => {
		const result = await env.run({
			resource: 'extraction',
			operation: 'get',
			extractionId: 'ext_1',
			downloadAll: true,
			formats: 'XML,PDF',
			xmlBinaryPropertyName: 'f',
			pdfBinaryPropertyName: 'f',
		});
		expect(result.error?.message).toMatch(/pdfBinaryPropertyName: must differ/);
		expect(env.calls()).toHaveLength(0);
	});

	test('a download answered 429 is retried after Retry-After and the file still arrives', async () => {
		const job = env.sim.seedJob({ status: 'COMPLETED', documents: 1 });
		env.server.fail({
			service: 'extraction',
			path: `/prod/v1/extractions/${job.publicId}/documents/`,
			status: 429,
			headers: { 'retry-after': '1' },
			times: 1,
		});
		const result = await env.runTimed({
			resource: 'extraction',
			operation: 'get',
			extractionId: job.publicId,
			downloadAll: true,
		});
		expect(result.error).toBeUndefined();
		const [first, second] = downloads();
		expect(second.at - first.at).toBeGreaterThanOrEqual(1000);
		expect(
			Buffer.from(/** @type {any} */ (result.output(NODE)[0].binary).data.data, 'base64').equals(
				env.sim.content(job.documents[0], 'XML'),
			),
		).toBe(true);
	});
});
