import { createParams, fastWait, NODE, startExtraction, waitFor } from './setup';
/** @import { ExtractionEnv } from './setup' */

/**
 * Extraction → Create is not idempotent (each create starts a job and spends the hourly creation budget):
 * once the job exists, every later failure of the item carries its publicId; when the answer of the create
 * is lost, the item says a job may exist. Never re-sent after it may have been processed.
 * @type {ExtractionEnv}
 */
let env;
beforeAll(async () => (env = await startExtraction()));
afterAll(async () => env.stop());
beforeEach(() => env.reset());

test('a wait that times out after the job was created: the job is output, marked, with its publicId and what to do', async () => {
	env.sim.nextJobs.push({ checks: 1000, outcome: 'COMPLETED', documents: 1 });
	const result = await env.runTimed(createParams(waitFor(5)), undefined, true);
	const [job] = [...env.sim.jobs.values()];
	const [item] = result.output(NODE);
	expect(item.json).toMatchObject({
		publicId: job.publicId,
		status: 'PROCESSING',
		wait_timed_out: true,
	});
	expect(item.json.error).toBeUndefined();
	expect(String(item.json.warnings)).toContain(
		`This extraction exists: do not create it again; follow it with Extraction → Get (publicId ${job.publicId})`,
	);
	expect(JSON.stringify(item.json)).not.toContain('S3cr3t-CIEC-pass');
});

test('status checks failing after the create: the error still names the job (no "not found" without an id)', async () => {
	env.server.fail({ service: 'extraction', method: 'GET', status: 503, times: 1000 });
	const result = await env.runTimed(createParams(waitFor(60)));
	const [job] = [...env.sim.jobs.values()];
	expect(env.calls().filter((c) => c.method === 'POST')).toHaveLength(1);
	expect(result.error?.message).toMatch(
		new RegExp(
			`^\\[item 1\\] Extraction ${job.publicId} exists, but following it failed: Document Extraction answered 503`,
		),
	);
	expect(result.error?.description).toContain(
		'This execution created 1 extraction before it stopped',
	);
	expect(result.error?.description).toContain(`- item 1: publicId ${job.publicId}`);
});

test.each([
	['processed, then the connection dropped', /** @type {const} */ ('drop-after')],
	['processed, then a 502', /** @type {const} */ ('error-after')],
])(
	'a create whose answer was lost (%s) is not re-sent, and says a job may exist',
	async (_what, mode) => {
		env.server.fail({ service: 'extraction', method: 'POST', mode, times: 1 });
		const result = await env.run(createParams(fastWait), undefined, true);
		expect(env.calls().filter((c) => c.method === 'POST')).toHaveLength(1);
		expect(env.sim.jobs.size).toBe(1);
		const [item] = result.output(NODE);
		expect(item.json).toMatchObject({ extraction_may_exist: true });
		expect(String(item.json.instruction)).toMatch(
			/^The extraction may have been created: the answer was lost\. Check the jobs in the extraction dashboard/,
		);
	},
);

test('a new job the service does not show yet (404 on the first checks) is waited for, not reported as "not found"', async () => {
	env.sim.jobVisibleAfterMs = 4000;
	const result = await env.runTimed(createParams(fastWait));
	const [job] = [...env.sim.jobs.values()];
	expect(result.error).toBeUndefined();
	expect(result.output(NODE)[0].json).toMatchObject({
		publicId: job.publicId,
		status: 'COMPLETED',
	});
	const [post, ...gets] = env.calls();
	// Checks at 1, 2.5 and 4.75 s: the first two while the service still answered 404.
	expect(gets.filter((c) => c.at - post.at < 4000).length).toBeGreaterThanOrEqual(1);
	expect(env.calls().filter((c) => c.method === 'POST')).toHaveLength(1);
});

test('a job that stays invisible until the deadline: the message names the job and says it exists', async () => {
	env.sim.jobVisibleAfterMs = 3_600_000;
	const result = await env.runTimed(createParams(waitFor(5)), undefined, true);
	const [job] = [...env.sim.jobs.values()];
	const [item] = result.output(NODE);
	expect(item.json.error).toMatch(
		new RegExp(
			`^\\[item 1\\] Extraction ${job.publicId} exists, but following it failed: Document Extraction: not found`,
		),
	);
	expect(item.json).toMatchObject({ extraction_exists: true, publicId: job.publicId });
	expect(String(item.json.instruction)).toContain(`Extraction → Get (publicId ${job.publicId})`);
});

test('status checks never keep the item beyond its Timeout, even when each check hangs longer', async () => {
	// Each check answers after an hour; the item must end at its 5 s Timeout, not at the 60 s deadline of a request.
	env.server.fail({
		service: 'extraction',
		method: 'GET',
		mode: 'slow',
		delayMs: 3_600_000,
		times: 100,
	});
	const result = await env.runTimed(createParams(waitFor(5)), undefined, true);
	expect(result.elapsedMs).toBeGreaterThanOrEqual(5000);
	expect(result.elapsedMs).toBeLessThan(60_000);
	const [job] = [...env.sim.jobs.values()];
	const [item] = result.output(NODE);
	// No check answered before the deadline: the wait timed out, and the job is output, marked.
	expect(item.json).toMatchObject({ publicId: job.publicId, wait_timed_out: true });
	expect(String(item.json.warnings)).toMatch(
		/^Wait for Completion timed out after 5 s in state PROCESSING/,
	);
});

test('a create answered 429 was not processed: re-sent after Retry-After, one job', async () => {
	env.server.fail({
		service: 'extraction',
		method: 'POST',
		mode: 'throttle',
		retryAfterSeconds: 1,
		times: 1,
	});
	const result = await env.runTimed(createParams());
	expect(result.error).toBeUndefined();
	const posts = env.calls().filter((c) => c.method === 'POST');
	expect(posts).toHaveLength(2);
	expect(posts[1].at - posts[0].at).toBeGreaterThanOrEqual(1000);
	expect(env.sim.jobs.size).toBe(1);
	expect(result.output(NODE)[0].json.publicId).toBe([...env.sim.jobs.values()][0].publicId);
});
