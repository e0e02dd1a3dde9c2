// Benchmark of parallel issuing, inside the real n8n of bench/run.mjs: N retentions issued against a service
// that takes LATENCY_MS to sign and answer each issue request, by
// - this package with Options → Parallel Requests = P (the default) and = 1,
// - n8n's HTTP Request node paced the way a careful user paces writes: batches of P items every LATENCY_MS,
// against the floor N × LATENCY_MS / P (P requests always in flight, nothing else). Every run must create each
// receipt exactly once: a doubled or missing receipt fails the benchmark.
import { fileURLToPath } from 'node:url';
import { parseCliJson } from '../scripts/n8n/boot.mjs';
import { node, retentionFromItem, rowsWorkflow } from '../scripts/n8n/workflow.mjs';

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const RECEIPTS = Number(process.env.BENCH_ISSUE_RECEIPTS ?? 120);
const LATENCY_MS = Number(process.env.BENCH_ISSUE_LATENCY_MS ?? 150);
const PARALLEL = 5;

const ours = (parallelRequests) =>
	node(
		'Target',
		'n8n-nodes-latam-fiscal.receipts',
		{
			resource: 'retention',
			operation: 'issue',
			inputMode: 'json',
			jsonBody: retentionFromItem(),
			simplify: true,
			options: { parallelRequests },
		},
		{ credentials: { receiptsApi: { id: 'x', name: 'x' } } },
	);

/** The HTTP Request node doing the same POSTs, X-Key and X-Password typed in, P items every LATENCY_MS. */
const httpRequest = (receiptsUrl, credentials) =>
	node(
		'Target',
		'n8n-nodes-base.httpRequest',
		{
			method: 'POST',
			url: `${receiptsUrl}/retentions/issue`,
			sendHeaders: true,
			headerParameters: {
				parameters: [
					{ name: 'X-Key', value: credentials.apiKey },
					{ name: 'X-Password', value: credentials.certificatePassword },
				],
			},
			sendBody: true,
			specifyBody: 'json',
			jsonBody: retentionFromItem(),
			options: { batching: { batch: { batchSize: PARALLEL, batchInterval: LATENCY_MS } } },
		},
		{ typeVersion: 4.2 },
	);

async function execute(sb, id) {
	const r = await sb.cli(['execute', `--id=${id}`, '--rawOutput'], { timeoutMs: 600_000 });
	const run = parseCliJson(r.stdout);
	if (run.data.resultData.error) throw new Error(`${id}: ${run.data.resultData.error.message}`);
	const target = run.data.resultData.runData.Target[0];
	return { ms: target.executionTime, items: target.data.main[0] };
}

/**
 * @param {object} o
 * @param {any} o.sb
 * @param {import('./simulators.mjs').SimulatorProcess} o.sim
 * @param {(m: string) => void} o.log
 * @param {number} o.runs
 */
export async function benchParallelIssuing({ sb, sim, log, runs }) {
	const credentials = sim.credentials.receiptsApi;
	const seqRow = '{ seq: 7000 + i }';
	const cases = [
		{ id: 'benchIssueOursP', label: `this package, Parallel Requests = ${PARALLEL} (default)` },
		{
			id: 'benchIssueHttp',
			label: `HTTP Request node, batches of ${PARALLEL} every ${LATENCY_MS} ms`,
		},
		{ id: 'benchIssueOurs1', label: 'this package, Parallel Requests = 1' },
	];
	await sb.importWorkflows([
		rowsWorkflow('benchIssueOursP', RECEIPTS, seqRow, ours(PARALLEL)),
		rowsWorkflow('benchIssueHttp', RECEIPTS, seqRow, httpRequest(credentials.baseUrl, credentials)),
		rowsWorkflow('benchIssueOurs1', RECEIPTS, seqRow, ours(1)),
	]);

	/** Case → the milliseconds of each round. @type {Record<string, number[]>} */
	const times = Object.fromEntries(cases.map((c) => [c.id, []]));
	const accounting = { doubled: 0, missing: 0 };
	await sim.set('server.delayMs', LATENCY_MS); // every answer of the simulators leaves this long after its request arrived
	try {
		for (let round = 0; round < runs; round++) {
			for (const c of cases) {
				await sim.call('receipts.receipts.clear'); // every run issues the same sequentials
				const r = await execute(sb, c.id);
				/** @type {Map<string, { body: { secuencial: unknown } }>} */
				const receipts = await sim.get('receipts.receipts');
				const made = [...receipts.values()].map((receipt) => Number(receipt.body.secuencial));
				const unique = new Set(made);
				accounting.doubled += made.length - unique.size;
				accounting.missing += RECEIPTS - unique.size;
				if (r.items.length !== RECEIPTS || unique.size !== RECEIPTS || made.length !== RECEIPTS) {
					throw new Error(
						`${c.id}: ${r.items.length} items out, ${made.length} receipts created for ${unique.size} rows`,
					);
				}
				times[c.id].push(r.ms);
				log(`${c.id} round ${round + 1}: ${r.ms} ms`);
			}
		}
	} finally {
		await sim.set('server.delayMs', 0);
		await sim.call('receipts.receipts.clear');
	}

	const floorMs = (RECEIPTS * LATENCY_MS) / PARALLEL;
	const s = (ms) => (ms / 1000).toFixed(2);
	const rows = cases.map((c) => {
		const ms = median(times[c.id]);
		return `| ${c.label} | ${s(ms)} | ${(ms / floorMs).toFixed(2)}× | ${(ms / median(times.benchIssueHttp)).toFixed(2)}× |`;
	});
	return `## Receipts: issuing a batch in parallel (${RECEIPTS} retentions, ${LATENCY_MS} ms per issue)

The simulator answers each issue request ${LATENCY_MS} ms after it arrived (its own work counted in them). The floor keeps ${PARALLEL} requests in flight all the time:
${RECEIPTS} × ${LATENCY_MS} ms / ${PARALLEL} = ${s(floorMs)} s. The HTTP Request node is paced as a careful user paces writes
(Options → Batching: ${PARALLEL} items every ${LATENCY_MS} ms; by default it would fire all ${RECEIPTS} at once). Median of ${runs}
run(s); every run created each receipt exactly once (doubled: ${accounting.doubled}, missing: ${accounting.missing}).

| | seconds | vs. floor | vs. HTTP Request |
|---|---|---|---|
| floor (${PARALLEL} always in flight) | ${s(floorMs)} | 1.00× | ${(floorMs / median(times.benchIssueHttp)).toFixed(2)}× |
${rows.join('\n')}

Target: ≤ 1.25× the floor with Parallel Requests = ${PARALLEL}.
`;
}

// `node bench/issuing.mjs`: this section alone (BENCH_RUNS runs, 3 by default), printed.
if (process.argv[1] === fileURLToPath(import.meta.url)) {
	const { runSectionAlone } = await import('./setup.mjs');
	await runSectionAlone('bench-issuing', benchParallelIssuing);
}
