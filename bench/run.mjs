#!/usr/bin/env node
// `npm run bench`: measures this package inside a real n8n (the pinned 2.41.1) against the service simulators (in a
// process of their own), next to n8n's own HTTP Request and Webhook nodes doing the same work, and writes the whole
// of BENCHMARKS.md (date, machine, n8n, method at its top). Numbers are for comparison within one run on one machine;
// nothing here fails on speed. About 25 minutes on a quiet 2-core machine.
//
//   npm run bench
//   BENCH_ROUNDS=20 npm run bench      # more rounds of the item-by-item section where the machine is noisy
//   BENCH_RUNS=5 BENCH_ITEMS=2000 BENCH_SRI_KEYS=20 npm run bench
//   BENCH_NICE=0 npm run bench         # n8n and the simulators at normal priority (the default raises it: root only)
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { parseCliJson, runCli } from '../scripts/n8n/boot.mjs';
import { NODE_VERSION, selectedVersion } from '../scripts/n8n/install.mjs';
import { repoRoot } from '../scripts/n8n/sandbox.mjs';
import { chain, node, partnersGetById, rowsWorkflow } from '../scripts/n8n/workflow.mjs';
import { benchAts } from './ats.mjs';
import { METHOD_HISTORY } from './history.mjs';
import { benchItems } from './items.mjs';
import { benchMemory, benchMemoryInN8n } from './memory.mjs';
import { benchParallelIssuing } from './issuing.mjs';
import { benchPublicServices } from './public-services.mjs';
import { benchSandbox, HEADER_AUTH } from './setup.mjs';
import { benchTrustedIssuing, emptyPartnersToken } from './trust.mjs';
import { benchWebhooks } from './webhooks.mjs';
import { benchXml } from './xml.mjs';
import { benchDiot } from './diot.mjs';

const RUNS = Number(process.env.BENCH_RUNS ?? 3); // runs of the sections that run `n8n execute`
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 10); // rounds of the item-by-item section
const ITEMS = Number(process.env.BENCH_ITEMS ?? 1000);
const SRI_KEYS = Number(process.env.BENCH_SRI_KEYS ?? 100);
const NICE = Number(process.env.BENCH_NICE ?? -10); // priority of n8n and the simulators in the item-by-item section
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const log = (m) => process.stderr.write(`[bench] ${m}\n`);
const startedAt = new Date();

const { sb, sim, token } = await benchSandbox('bench');
const userFolder = sb.opts.userFolder;

// Item by item, in a running n8n: reads, writes and SRI checks against n8n's HTTP Request node.
const items = await benchItems({
	sb,
	sim,
	log,
	rounds: ROUNDS,
	items: ITEMS,
	sriKeyCount: SRI_KEYS,
	token,
	headerAuth: HEADER_AUTH,
	nice: NICE,
});

const manual = node('Start', 'n8n-nodes-base.manualTrigger', {});
const partners = (parameters) =>
	node('Target', 'n8n-nodes-latam-fiscal.partners', parameters, {
		credentials: { partnersApi: { id: 'x', name: 'x' } },
	});
const plans = await sim.call('partners.seedProducts', 50, 'Tokens');
await sb.importWorkflows([
	rowsWorkflow(
		'bTokenFresh',
		ITEMS,
		`{ id: ${JSON.stringify(plans.map((p) => p.uuid))}[i % ${plans.length}] }`,
		partnersGetById(1),
	),
	{
		id: 'benchGetMany',
		name: 'benchGetMany',
		settings: { executionOrder: 'v1' },
		nodes: [manual, partners({ resource: 'plan', operation: 'getMany', returnAll: true })],
		connections: chain('Start', 'Target'),
	},
]);

/**
 * Runs a workflow through `n8n execute` (a fresh n8n process); with `sampleMemory`, samples that process's resident
 * memory every 100 ms.
 */
async function execute(id, { sampleMemory = false } = {}) {
	let peakKb = 0;
	const sampler = sampleMemory
		? setInterval(() => {
				try {
					for (const pid of execFileSync('pgrep', ['-f', `execute --id=${id}`], {
						encoding: 'utf8',
					})
						.trim()
						.split('\n')) {
						const m = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
						if (m) peakKb = Math.max(peakKb, Number(m[1]));
					}
				} catch {
					// not started yet, or already gone
				}
			}, 100)
		: undefined;
	const r = await sb.cli(['execute', `--id=${id}`, '--rawOutput'], { timeoutMs: 600_000 });
	clearInterval(sampler);
	const run = parseCliJson(r.stdout);
	if (run.data.resultData.error) throw new Error(`${id}: ${run.data.resultData.error.message}`);
	const target = run.data.resultData.runData.Target[0];
	return { ms: target.executionTime, items: target.data.main[0].length, peakMb: peakKb / 1024 };
}

// Token requests of a run that starts without a stored token (the credential's token emptied).
await emptyPartnersToken(sb, sim);
const tokensBefore = await sim.get('partners.tokensIssued');
await execute('bTokenFresh');
const tokensForFresh = (await sim.get('partners.tokensIssued')) - tokensBefore;
log(`fresh credential: ${tokensForFresh} token request(s)`);

// Trusted issuing: a batch of receipts waiting for their final state; one token refresh for every request in flight.
const trustSection = await benchTrustedIssuing({ sb, sim, log, runs: RUNS });

// Parallel issuing: N receipts at a simulated issue latency, against the floor and the paced HTTP Request node.
const issuingSection = await benchParallelIssuing({ sb, sim, log, runs: RUNS });
const publicSection = await benchPublicServices({ sb, sim, log, runs: RUNS }); // SRI and SAT at 20 ms a question

// Get Many, Return All: 1,000 then 10,000 plans; the n8n process's memory sampled meanwhile.
const getManyRows = [];
for (const total of [1000, 10000]) {
	await sim.call('partners.reset');
	await sim.call('partners.seedProducts', total, 'Many');
	await sim.call('server.clear');
	const r = await execute('benchGetMany', { sampleMemory: true });
	/** @type {{ path: string }[]} */
	const received = await sim.call('server.received', 'partners');
	getManyRows.push({
		total,
		ms: r.ms,
		items: r.items,
		pages: received.filter((q) => q.path === '/v1/products').length,
		peakMb: r.peakMb,
	});
	await sim.call('server.clear');
	log(`getMany ${total}: ${r.ms} ms, ${r.peakMb.toFixed(0)} MB`);
}

// Webhooks: the Extraction Trigger against a trivial community trigger (the floor) and n8n's Webhook node.
const webhooks = await benchWebhooks({
	sb,
	secret: sim.credentials.extractionWebhookApi.secret,
	log,
});

// Package: packed size, and the time n8n takes to load it (export:nodes with and without the package).
const pack = JSON.parse(
	execFileSync('npm', ['pack', '--dry-run', '--json'], { cwd: repoRoot, encoding: 'utf8' }),
)[0];
const loadTimes = { with: [], without: [] };
for (let i = 0; i < RUNS; i++) {
	for (const [key, extensionsDir] of [
		['with', sb.opts.extensionsDir],
		['without', undefined],
	]) {
		const r = await runCli(['export:nodes', `--output=${join(userFolder, 'nodes.json')}`], {
			userFolder,
			extensionsDir,
			check: true,
		});
		loadTimes[key].push(r.ms);
	}
}
/**
 * A section that fails says so in BENCHMARKS.md, with its error, instead of losing the numbers of every other
 * section of a run of half an hour.
 */
async function section(title, make) {
	try {
		return await make();
	} catch (error) {
		log(`${title}: ${error instanceof Error ? error.stack : String(error)}`);
		return `## ${title}\n\nNot measured in this run: ${error instanceof Error ? error.message : String(error)}\n`;
	}
}

// What n8n holds for the SAT node's largest outputs, against what the memory budget counts.
const memoryN8nSection = await section('Memory in n8n', () =>
	benchMemoryInN8n({ sb, log, runs: RUNS }),
);
await sim.stop();
const memorySection = benchMemory();

// The XML reader alone (no n8n): CPU only, so last, when nothing else of the bench runs.
const xmlSection = benchXml({ runs: 5 });

// Report.
const cpus = os.cpus();
const md = `# Benchmarks

Measured by \`npm run bench\` (bench/run.mjs) on ${startedAt.toISOString().slice(0, 10)}: ${cpus.length} cores (${cpus[0]?.model.trim() ?? 'unknown CPU'}),
${(os.totalmem() / 2 ** 30).toFixed(0)} GiB of memory, load average ${os.loadavg()[0].toFixed(1)} at the end of the run; n8n ${selectedVersion()} on
Node ${NODE_VERSION} (SQLite); the service simulators on 127.0.0.1 in a process of their own (Node ${process.versions.node}).
Absolute numbers vary between machines and with what else runs on them; compare ratios, each taken against n8n's own
nodes in the same run.

## Method

- **Item by item** (the first section, the ratios against n8n's HTTP Request node): one running n8n (\`n8n start\`,
  as users run it); each case is a workflow Webhook → Items → Target, run by a POST to its webhook; the time is the
  Target node's \`executionTime\` in the saved execution. One warm-up run of every case, then ${ROUNDS} rounds, each
  running every case once in an order that rotates; every ratio is taken within a round, against the peer's run of
  the same round, and the tables give the median and the range of those ratios beside each case's min/median/max.
  n8n and the simulators run at a raised scheduling priority (nice ${NICE}; \`BENCH_NICE=0\` leaves it) so that
  other work on the machine does not sit between a request and its answer; how long n8n still waited for a CPU is
  reported as the section's noise.
- **The other sections** run each workflow with \`n8n execute\` (a fresh n8n per run), median of ${RUNS} runs; the
  webhook section runs rounds in one n8n.
- The simulators run in a process of their own, and nothing of the bench samples or blocks anything while a run is
  measured, except Get Many, whose point is the memory of the n8n process.

${METHOD_HISTORY}
${items.markdown}
## Token requests (Partners)

A ${ITEMS}-item run (Plan → Get, Parallel Requests = 1) starting with an empty stored token made **${tokensForFresh}**
token request(s); the item-by-item runs, with the token stored, made ${items.ourTokens.join('/')}.

${trustSection}
${issuingSection}
${publicSection}
## Plan → Get Many, Return All

| plans | pages | ms | ms per 1,000 plans | peak RSS of the n8n process |
|---|---|---|---|---|
${getManyRows.map((r) => `| ${r.total} | ${r.pages} | ${r.ms} | ${((r.ms / r.total) * 1000).toFixed(0)} | ${r.peakMb.toFixed(0)} MB |`).join('\n')}

${webhooks.markdown}
${memorySection}
${memoryN8nSection}
${await section('DIOT', () => benchDiot({ sb, log, runs: RUNS }))}
${xmlSection}
${await section('ATS', () => benchAts({ sb, log, runs: RUNS }))}
## Package

Packed: ${(pack.size / 1024).toFixed(0)} kB (${pack.entryCount} files, ${(pack.unpackedSize / 1024).toFixed(0)} kB unpacked).
\`n8n export:nodes\` wall time with the package loaded: ${median(loadTimes.with)} ms, without: ${median(loadTimes.without)} ms
(difference ≈ ${median(loadTimes.with) - median(loadTimes.without)} ms, within the noise of a whole n8n start-up).
`;
writeFileSync(join(repoRoot, 'BENCHMARKS.md'), md);
process.stdout.write(md);
