// Benchmarks of trusted issuing, inside the real n8n of bench/run.mjs:
// - a batch of receipts with Wait for Final State, where the simulator decides about 10 s after each issue:
//   the run's time against its floor (10 s + the batch's issue requests) and against waiting one receipt
//   after another;
// - Partners reads while tokens expire every 100 requests: token requests at 1, 5 and 20 parallel requests.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseCliJson } from '../scripts/n8n/boot.mjs';
import { CREDENTIAL_IDS } from '../scripts/n8n/sandbox.mjs';
import {
	node,
	partnersGetById,
	retentionFromItem,
	rowsWorkflow,
} from '../scripts/n8n/workflow.mjs';

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const RECEIPTS = Number(process.env.BENCH_RECEIPTS ?? 100);
const DECIDE_MS = 10_000;
const READS = 1000;

/** A retention per row, its secuencial from the row (the body users write in JSON mode). */
const issueRetention = (wait) =>
	node(
		'Target',
		'n8n-nodes-latam-fiscal.receipts',
		{
			resource: 'retention',
			operation: 'issue',
			inputMode: 'json',
			jsonBody: retentionFromItem(),
			waitForFinalState: wait,
			waitTimeout: 300,
			simplify: true,
		},
		{ credentials: { receiptsApi: { id: 'x', name: 'x' } } },
	);

async function execute(sb, id) {
	const r = await sb.cli(['execute', `--id=${id}`, '--rawOutput'], { timeoutMs: 900_000 });
	const run = parseCliJson(r.stdout);
	if (run.data.resultData.error) throw new Error(`${id}: ${run.data.resultData.error.message}`);
	const target = run.data.resultData.runData.Target[0];
	return { ms: target.executionTime, items: target.data.main[0] };
}

/**
 * Empties the Partners credential's stored token (as a first run, or after the token was revoked): the credential
 * imported again with the simulator's values alone.
 * @param {any} sb
 * @param {import('./simulators.mjs').SimulatorProcess} sim
 */
export async function emptyPartnersToken(sb, sim) {
	const out = join(sb.opts.userFolder, 'bench-fresh-partners.json');
	const fresh = {
		...CREDENTIAL_IDS.partnersApi,
		type: 'partnersApi',
		data: sim.credentials.partnersApi,
	};
	writeFileSync(out, JSON.stringify([fresh]));
	await sb.cli(['import:credentials', `--input=${out}`], { check: true });
}

/**
 * @param {object} o
 * @param {any} o.sb
 * @param {import('./simulators.mjs').SimulatorProcess} o.sim
 * @param {(m: string) => void} o.log
 * @param {number} o.runs
 */
export async function benchTrustedIssuing({ sb, sim, log, runs }) {
	const [plan] = await sim.call('partners.seedProducts', 1, 'Token bench');
	const seqRow = '{ seq: 5000 + i }';
	await sb.importWorkflows([
		rowsWorkflow('benchBatchWait', RECEIPTS, seqRow, issueRetention(true)),
		rowsWorkflow('bBatchIssueOnly', RECEIPTS, seqRow, issueRetention(false)),
		rowsWorkflow('benchOneWait', 1, seqRow, issueRetention(true)),
		...[1, 5, 20].map((parallel) =>
			rowsWorkflow(
				`benchTokenP${parallel}`,
				READS,
				`{ id: ${JSON.stringify(plan.uuid)} }`,
				partnersGetById(parallel),
			),
		),
	]);

	// Batch wait: the simulator decides ~10 s after each issue, whoever asks.
	await sim.set('receipts.decideAfterMs', DECIDE_MS);
	const batch = [];
	const issueOnly = [];
	const one = [];
	// Every run issues the same sequentials; the SRI (and the simulator) would return a repeat with 45, so each run
	// starts from a service that holds none of them.
	const fresh = () => sim.call('receipts.receipts.clear');
	for (let round = 0; round < runs; round++) {
		await fresh();
		const b = await execute(sb, 'benchBatchWait');
		if (b.items.length !== RECEIPTS || !b.items.every((i) => i.json.estado === 'AUTORIZADO'))
			throw new Error('benchBatchWait: not every receipt was authorized');
		batch.push(b.ms);
		await fresh();
		issueOnly.push((await execute(sb, 'bBatchIssueOnly')).ms);
		await fresh();
		one.push((await execute(sb, 'benchOneWait')).ms);
		log(
			`batch wait round ${round + 1}: ${batch.at(-1)} ms (issue only ${issueOnly.at(-1)} ms, one receipt ${one.at(-1)} ms)`,
		);
	}
	await sim.set('receipts.decideAfterMs', undefined);
	const batchMs = median(batch);
	const perIssueMs = median(issueOnly) / RECEIPTS;
	const floorMs = DECIDE_MS + RECEIPTS * perIssueMs;
	const oneByOneMs = RECEIPTS * median(one);

	// Token refresh: tokens stop working after 100 requests; the run starts without a stored token.
	const tokens = [];
	for (const parallel of [1, 5, 20]) {
		await emptyPartnersToken(sb, sim);
		await sim.set('partners.tokenMaxUses', 100);
		await sim.call('server.clear');
		const before = await sim.get('partners.tokensIssued');
		const r = await execute(sb, `benchTokenP${parallel}`);
		await sim.set('partners.tokenMaxUses', undefined);
		/** @type {{ path: string }[]} */
		const received = await sim.call('server.received', 'partners');
		const refused = received.filter((q) => q.path !== '/v1/auth/token').length - READS;
		if (r.items.length !== READS || r.items.some((i) => i.json.error))
			throw new Error(`benchTokenP${parallel}: not every read succeeded`);
		const measured = {
			parallel,
			tokenRequests: (await sim.get('partners.tokensIssued')) - before,
			resent: refused,
			ms: r.ms,
		};
		tokens.push(measured);
		log(`token refresh, ${parallel} parallel: ${measured.tokenRequests} token requests`);
	}

	const s = (ms) => (ms / 1000).toFixed(1);
	return `## Receipts: a batch with Wait for Final State (${RECEIPTS} retentions)

The simulator decides each receipt about ${DECIDE_MS / 1000} s after its issue request, whoever asks (clock mode). The node
issues the ${RECEIPTS} receipts (Parallel Requests = 5, the default), then follows them together (Parallel Status Checks =
10, default Poll Interval 5 s growing by half). Median of ${runs} run(s).

| | seconds | ratio to the floor |
|---|---|---|
| floor: ${DECIDE_MS / 1000} s + issuing the ${RECEIPTS} receipts (${perIssueMs.toFixed(1)} ms per receipt, measured without waiting) | ${s(floorMs)} | 1.00× |
| this package, Wait for Final State on the whole batch | **${s(batchMs)}** | **${(batchMs / floorMs).toFixed(2)}×** (target ≤ 1.5×) |
| one after another (${RECEIPTS} × one receipt's issue + wait, measured ${s(median(one))} s; computed, not run) | ${s(oneByOneMs)} | ${(oneByOneMs / floorMs).toFixed(1)}× |

## Partners: one token refresh for every request in flight

${READS} Plan → Get reads in one run, starting without a stored token, while the simulator's tokens stop working after
100 requests each (so at least ${Math.ceil(READS / 100)} tokens are needed). Requests answered 401 with the old token are re-sent once
with the new one; only the first of them fetches it.

| Parallel Requests | token requests | requests re-sent after a 401 | run time (ms) |
|---|---|---|---|
${tokens.map((t) => `| ${t.parallel} | **${t.tokenRequests}** | ${t.resent} | ${t.ms} |`).join('\n')}

Target: at most ${Math.ceil(READS / 100) + 1} token requests at 1, 5 and 20 parallel requests.
`;
}
