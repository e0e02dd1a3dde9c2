import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
/** @import { IWorkflowBase } from 'n8n-workflow' */
import { withFakeClock } from '../harness/clock';
import { fixture } from '../harness/engine';
import { startExtraction } from './setup';
/** @import { ExtractionEnv } from './setup' */

/** @type {ExtractionEnv} */
let env;
/** @type {string} */
let dir;
// The engine's stand-in for n8n's Read/Write Files from Disk writes the files (test/harness/engine.js).
beforeAll(async () => (env = await startExtraction()));
afterAll(async () => env.stop());
beforeEach(() => {
	env.reset();
	dir = mkdtempSync(join(tmpdir(), 'cfdi-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** @returns {IWorkflowBase} */
function patch(workflow, node, parameters) {
	const n = /** @type {any} */ (workflow.nodes.find((x) => x.name === node));
	n.parameters = /** @type {typeof n.parameters} */ ({ ...n.parameters, ...parameters });
	return workflow;
}

/** Runs a workflow on the fake clock: the examples' own Timeout and Poll Interval, in fake time. */
const run = async (workflow) =>
	(await withFakeClock(() => env.engine.run(workflow), { maxMs: 2 * 3_600_000 })).result;

/** The last month example, its SAT password given (the fixture reads it from an n8n Variable) and its files written to `dir`. */
function lastMonthToDisk() {
	const workflow = fixture('extraction-last-month-invoices-to-disk.json');
	patch(workflow, "Extract last month's invoices", { satPassword: 'S3cr3t-CIEC-pass' });
	patch(workflow, 'Write XML to disk', { fileName: `=${dir}/{{ $binary.data.fileName }}` });
	return workflow;
}

test("fixture: last month's inbound invoices → wait → download all XML → files on disk", async () => {
	env.sim.nextJobs.push({ checks: 2, outcome: 'COMPLETED', documents: 3 });
	const result = await run(lastMonthToDisk());
	expect(result.error).toBeUndefined();

	const [create] = env.calls();
	const period = /** @type {{ options: { period: { from: string; to: string } } }} */ (create.body)
		.options.period;
	expect(period.from).toMatch(/^\d{4}-\d{2}-01$/);
	expect(period.to.slice(0, 7)).toBe(period.from.slice(0, 7));
	expect(new Date(`${period.to}T00:00:00Z`).getTime()).toBeLessThan(Date.now());

	const job = [...env.sim.jobs.values()][0];
	expect(readdirSync(dir).sort()).toEqual(job.documents.map((d) => `${d.id}.xml`).sort());
	for (const doc of job.documents)
		expect(readFileSync(join(dir, `${doc.id}.xml`)).equals(env.sim.content(doc, 'XML'))).toBe(true);
	expect(result.output('Write XML to disk')).toHaveLength(3);
});

test("fixture: last month's invoices, a job not finished within the Timeout: no file, and the run stops saying how to follow it", async () => {
	env.sim.nextJobs.push({ checks: 100_000, outcome: 'COMPLETED', documents: 3 });
	const result = await run(lastMonthToDisk());
	const [job] = [...env.sim.jobs.values()];
	expect(result.output("Extract last month's invoices")[0].json).toMatchObject({
		publicId: job.publicId,
		wait_timed_out: true,
	});
	expect(readdirSync(dir)).toEqual([]);
	expect(result.output('Write XML to disk')).toEqual([]);
	expect(result.error?.message).toMatch(
		new RegExp(
			`^Wait for Completion timed out after 1800 s in state PROCESSING .*follow it with Extraction → Get \\(publicId ${job.publicId}\\)`,
		),
	);
});

test('fixture: get an extraction from webhook-shaped data and download XML and PDF', async () => {
	const job = env.sim.seedJob({ status: 'COMPLETED', documents: 2 });
	const workflow = fixture('extraction-get-and-download-all.json');
	patch(workflow, 'Extractions to fetch', {
		jsCode: `return [{ json: { data: { extractionId: '${job.publicId}' } } }];`,
	});
	const result = await run(workflow);
	expect(result.error).toBeUndefined();
	const out = result.output('Download all documents');
	expect(out.map((o) => Object.keys(o.binary ?? {}).sort())).toEqual([
		['data', 'pdf'],
		['data', 'pdf'],
	]);
	expect(result.output('Verify API key')[0].json.valid).toBe(true);
});
