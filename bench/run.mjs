#!/usr/bin/env node
// `npm run bench`: measures this package inside a real n8n (the pinned 2.41.1) against the local simulators,
// next to n8n's own HTTP Request and Webhook nodes doing the same work, and writes BENCHMARKS.md.
// Numbers are for comparison within one run on one machine; nothing here fails on speed.
import { execFileSync } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { parseCliJson, runCli } from '../scripts/n8n/boot.mjs';
import { NODE_VERSION, selectedVersion } from '../scripts/n8n/install.mjs';
import { prepareSandbox, repoRoot, userFolderFor } from '../scripts/n8n/sandbox.mjs';
import { chain, node } from '../scripts/n8n/workflow.mjs';
import { benchParallelIssuing } from './issuing.mjs';
import { benchTrustedIssuing } from './trust.mjs';
import { benchWebhooks } from './webhooks.mjs';

const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const ITEMS = Number(process.env.BENCH_ITEMS ?? 1000);
const userFolder = userFolderFor('bench');
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const log = (m) => process.stderr.write(`[bench] ${m}\n`);

rmSync(userFolder, { recursive: true, force: true });
const sb = await prepareSandbox({ userFolder, quiet: true });
const { sim } = sb;
const partnersUrl = sim.credentials.partnersApi.baseUrl;

// Data: plans to read, a client to update. One bearer token for the HTTP Request node's credential.
const plans = sim.partners.seedProducts(50, 'Bench');
const token = /** @type {{ access_token: string }} */ (
	await (
		await fetch(`${partnersUrl}/v1/auth/token`, {
			method: 'POST',
			headers: { 'content-type': 'application/json', 'F-Sandbox-Mode': 'true' },
			body: JSON.stringify({
				grant_type: 'client_credentials',
				client_id: sim.partners.clientId,
				client_secret: sim.partners.clientSecret,
			}),
		})
	).json()
).access_token;
const credFile = join(userFolder, 'bench-credentials.json');
writeFileSync(
	credFile,
	JSON.stringify([
		{
			id: 'benchHeaderAuth',
			name: 'Bench header auth',
			type: 'httpHeaderAuth',
			data: { name: 'Authorization', value: `Bearer ${token}` },
		},
	]),
);
await sb.cli(['import:credentials', `--input=${credFile}`], { check: true });

const input = node(
	'Items',
	'n8n-nodes-base.code',
	{
		jsCode: `const ids = ${JSON.stringify(plans.map((p) => p.uuid))};\nreturn Array.from({ length: ${ITEMS} }, (_, i) => ({ json: { id: ids[i % ids.length], i } }));`,
	},
	{ typeVersion: 2 },
);
const manual = node('Start', 'n8n-nodes-base.manualTrigger', {});
const wf = (id, target) => ({
	id,
	name: id,
	settings: { executionOrder: 'v1' },
	nodes: [manual, input, { ...target, name: 'Target' }],
	connections: chain('Start', 'Items', 'Target'),
});
const partners = (parameters) =>
	node('Target', 'n8n-nodes-latam-fiscal.partners', parameters, {
		credentials: { partnersApi: { id: 'x', name: 'x' } },
	});
const httpRequest = (method, auth, extra = {}) =>
	node(
		'Target',
		'n8n-nodes-base.httpRequest',
		{
			method,
			url: `=${partnersUrl}/v1/products/{{ $json.id }}`,
			...(auth
				? { authentication: 'genericCredentialType', genericAuthType: 'httpHeaderAuth' }
				: {}),
			sendHeaders: true,
			headerParameters: {
				parameters: [
					{ name: 'F-Sandbox-Mode', value: 'true' },
					...(auth ? [] : [{ name: 'Authorization', value: `Bearer ${token}` }]),
				],
			},
			options: {},
			...extra,
		},
		{
			typeVersion: 4.2,
			...(auth
				? { credentials: { httpHeaderAuth: { id: 'benchHeaderAuth', name: 'Bench header auth' } } }
				: {}),
		},
	);

const writeBody = {
	name: 'Bench plan',
	vigencies: [{ folios: 10, vigency: 'Mensual', price: 1 }],
	services: { api: true },
};
const cases = [
	{
		id: 'bReadHttpInline',
		kind: 'read',
		label: 'HTTP Request, header typed inline (floor)',
		target: httpRequest('GET', false),
	},
	{
		id: 'bReadHttpCred',
		kind: 'read',
		label: 'HTTP Request + Header Auth credential (peer)',
		target: httpRequest('GET', true),
		peer: true,
	},
	{
		id: 'benchReadOurs1',
		kind: 'read',
		label: 'Partners Plan Get, Parallel Requests = 1',
		target: partners({
			resource: 'plan',
			operation: 'get',
			plan: { __rl: true, mode: 'id', value: '={{ $json.id }}' },
			options: { parallelRequests: 1 },
		}),
	},
	{
		id: 'benchReadOurs5',
		kind: 'read',
		label: 'Partners Plan Get, Parallel Requests = 5 (default)',
		target: partners({
			resource: 'plan',
			operation: 'get',
			plan: { __rl: true, mode: 'id', value: '={{ $json.id }}' },
		}),
	},
	{
		id: 'bWriteHttpCred',
		kind: 'write',
		label: 'HTTP Request PATCH + Header Auth credential (peer)',
		target: httpRequest('PATCH', true, {
			sendBody: true,
			specifyBody: 'json',
			jsonBody: JSON.stringify(writeBody),
		}),
		peer: true,
	},
	{
		id: 'benchWriteOurs',
		kind: 'write',
		label: 'Partners Plan Update (sequential)',
		target: partners({
			resource: 'plan',
			operation: 'update',
			plan: { __rl: true, mode: 'id', value: '={{ $json.id }}' },
			name: 'Bench plan',
			vigencies: { vigency: [{ vigency: 'Mensual', folios: 10, price: 1 }] },
			services: { api: true },
		}),
	},
];

const getManyWf = {
	id: 'benchGetMany',
	name: 'benchGetMany',
	settings: { executionOrder: 'v1' },
	nodes: [manual, partners({ resource: 'plan', operation: 'getMany', returnAll: true })],
	connections: chain('Start', 'Target'),
};
await sb.importWorkflows([...cases.map((c) => wf(c.id, c.target)), getManyWf]);

/** Runs a workflow through `n8n execute`, sampling the CLI process's resident memory. */
async function execute(id) {
	let peakKb = 0;
	const sampler = setInterval(() => {
		try {
			for (const pid of execFileSync('pgrep', ['-f', `execute --id=${id}`], { encoding: 'utf8' })
				.trim()
				.split('\n')) {
				const m = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
				if (m) peakKb = Math.max(peakKb, Number(m[1]));
			}
		} catch {
			// not started yet, or already gone
		}
	}, 100);
	const r = await sb.cli(['execute', `--id=${id}`, '--rawOutput'], { timeoutMs: 600_000 });
	clearInterval(sampler);
	const run = parseCliJson(r.stdout);
	if (run.data.resultData.error) throw new Error(`${id}: ${run.data.resultData.error.message}`);
	const target = run.data.resultData.runData.Target[0];
	return { ms: target.executionTime, items: target.data.main[0].length, peakMb: peakKb / 1024 };
}

const results = {};
for (let round = 0; round < RUNS; round++) {
	for (const c of cases) {
		sim.server.clear();
		const before = sim.partners.tokensIssued;
		const r = await execute(c.id);
		if (r.items !== ITEMS) throw new Error(`${c.id}: ${r.items} items out`);
		(results[c.id] ??= { ...c, ms: [], tokens: [] }).ms.push(r.ms);
		results[c.id].tokens.push(sim.partners.tokensIssued - before);
		log(`${c.id} round ${round + 1}: ${r.ms} ms`);
	}
}

// Token requests for a fresh credential (token emptied) over a 1000-item run.
const fresh = JSON.parse(readFileSync(join(userFolder, 'sandbox-credentials.json'), 'utf8')).filter(
	(c) => c.type === 'partnersApi',
);
writeFileSync(join(userFolder, 'fresh.json'), JSON.stringify(fresh));
await sb.cli(['import:credentials', `--input=${join(userFolder, 'fresh.json')}`], { check: true });
sim.partners.expireTokens();
const tokensBefore = sim.partners.tokensIssued;
await execute('benchReadOurs1');
const tokensFor1000 = sim.partners.tokensIssued - tokensBefore;

// Trusted issuing: a batch of receipts waiting for their final state; one token refresh for every request in flight.
const trustSection = await benchTrustedIssuing({ sb, log, runs: RUNS });

// Parallel issuing: N receipts at a simulated issue latency, against the floor and the paced HTTP Request node.
const issuingSection = await benchParallelIssuing({ sb, log, runs: RUNS });

// Get Many, Return All: 1,000 then 10,000 plans.
const getManyRows = [];
for (const total of [1000, 10000]) {
	sim.partners.reset();
	sim.partners.seedProducts(total, 'Many');
	sim.server.clear();
	const r = await execute('benchGetMany');
	getManyRows.push({
		total,
		ms: r.ms,
		items: r.items,
		pages: sim.server.received('partners').filter((q) => q.path === '/v1/products').length,
		peakMb: r.peakMb,
	});
	sim.server.clear();
	log(`getMany ${total}: ${r.ms} ms, ${r.peakMb.toFixed(0)} MB`);
}

// Webhooks: the Extraction Trigger against a trivial community trigger (the floor) and n8n's Webhook node.
const webhooks = await benchWebhooks({ sb, log });

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
await sb.stop();

// Report.
const peerMs = (kind) => median(Object.values(results).find((r) => r.kind === kind && r.peer).ms);
const rows = Object.values(results).map((r) => {
	const ms = median(r.ms);
	return `| ${r.kind} | ${r.label} | ${ms} | ${(ms / ITEMS).toFixed(2)} | ${(ms / peerMs(r.kind)).toFixed(2)}× |`;
});
const cpus = os.cpus();
const md = `# Benchmarks

Measured by \`npm run bench\` (bench/run.mjs) on ${new Date().toISOString().slice(0, 10)}, on a machine with ${cpus.length} cores and
${(os.totalmem() / 2 ** 30).toFixed(0)} GiB of memory; n8n ${selectedVersion()} on Node ${NODE_VERSION} (\`execute\` CLI, SQLite),
simulators on 127.0.0.1 in the benchmark's own process (Node ${process.versions.node}). Times are the target node's
\`executionTime\` from n8n's run data, median of ${RUNS} runs; ratios compare with the credentialed HTTP Request node
doing the same requests in the same run. Absolute numbers vary between machines; compare ratios.

## ${ITEMS} items, one request each

| kind | node | ms | ms/item | vs. peer |
|---|---|---|---|---|
${rows.join('\n')}

Targets: reads ≤ 0.8× and sequential writes ≤ 1.0× the credentialed HTTP Request node.

## Token requests (Partners)

A ${ITEMS}-item run with an empty stored token made **${tokensFor1000}** token request(s); runs with a stored token made
${[
	...new Set(
		Object.values(results)
			.filter((r) => r.id.startsWith('benchReadOurs') || r.id === 'benchWriteOurs')
			.flatMap((r) => r.tokens),
	),
].join('/')}.

${trustSection}
${issuingSection}
## Plan → Get Many, Return All

| plans | pages | ms | ms per 1,000 plans | peak RSS of the n8n process |
|---|---|---|---|---|
${getManyRows.map((r) => `| ${r.total} | ${r.pages} | ${r.ms} | ${((r.ms / r.total) * 1000).toFixed(0)} | ${r.peakMb.toFixed(0)} MB |`).join('\n')}

${webhooks.markdown}
## Package

Packed: ${(pack.size / 1024).toFixed(0)} kB (${pack.entryCount} files, ${(pack.unpackedSize / 1024).toFixed(0)} kB unpacked).
\`n8n export:nodes\` wall time with the package loaded: ${median(loadTimes.with)} ms, without: ${median(loadTimes.without)} ms
(difference ≈ ${median(loadTimes.with) - median(loadTimes.without)} ms, within the noise of a whole n8n start-up).
`;
writeFileSync(join(repoRoot, 'BENCHMARKS.md'), md);
process.stdout.write(md);
