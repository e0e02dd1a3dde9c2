// The headline section of BENCHMARKS.md: this package's nodes against n8n's HTTP Request node making the same
// requests, item by item, inside one running n8n (`n8n start`, as users run it) — not a fresh `n8n execute` per run.
//
// Method (why each part is there: BENCHMARKS.md, "Method"):
// - the simulators run in a process of their own (bench/simulators.mjs), like a real service;
// - every case is a workflow Webhook → Items (Code) → Target, published before n8n starts; a POST to its webhook
//   runs it and answers when it is done; the time is the Target node's `executionTime` in the saved execution
//   (public API), so neither the webhook nor the Items node counts;
// - one warm-up run of every case first (not counted), then `rounds` rounds; each round runs every case once, in
//   an order that rotates from round to round, so a slow spell of the machine touches every case alike and each
//   ratio is taken between runs seconds apart (per-round ratio to the peer of the same round; the table gives their
//   median and range, and each case's min/median/max);
// - beside the time: the CPU time of n8n's main thread per item (what the node costs n8n, which other work on the
//   machine hardly changes), how long that thread waited for a CPU (the machine's noise), and what reached the
//   simulator (requests, bytes each way), which shows that both sides of a ratio made the same requests.
import { randomUUID } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { freePort } from '../scripts/n8n/boot.mjs';
import { ownerApiKey, requireTestModule } from '../scripts/n8n/sandbox.mjs';
import { chain, node } from '../scripts/n8n/workflow.mjs';
import { soapPost } from './public-services.mjs';

/** The middle value (the mean of the two middle ones for an even count). */
const median = (xs) => {
	const s = [...xs].sort((a, b) => a - b);
	const mid = Math.floor(s.length / 2);
	return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
};

/**
 * CPU time and time spent runnable but waiting for a CPU (milliseconds) of a process's main thread, from
 * /proc/<pid>/schedstat (Linux); undefined where the kernel does not keep it.
 */
function schedOf(pid) {
	const file = `/proc/${pid}/schedstat`;
	if (!existsSync(file)) return undefined;
	const [onCpu, waiting] = readFileSync(file, 'utf8').split(' ').map(Number);
	return { cpuMs: onCpu / 1e6, waitMs: waiting / 1e6 };
}

/**
 * Gives every thread of the processes `pids` the scheduling priority `nice` (lower: sooner on a CPU), so that work of
 * other processes on the machine does not sit between a request and its answer. Needs root or CAP_SYS_NICE for a
 * negative value; returns whether it worked.
 */
function prioritize(pids, nice) {
	try {
		const threads = pids.flatMap((pid) => readdirSync(`/proc/${pid}/task`));
		execFileSync('renice', ['-n', String(nice), '-p', ...threads], { stdio: 'ignore' });
		return true;
	} catch {
		return false;
	}
}

/** A workflow started by a POST to `path`, which answers when the run ends: Webhook → Items → Target. */
function webhookWorkflow(id, path, itemsCode, target) {
	const hook = node(
		'Hook',
		'n8n-nodes-base.webhook',
		{ httpMethod: 'POST', path, responseMode: 'lastNode', responseData: 'noData', options: {} },
		{ typeVersion: 2, webhookId: randomUUID() },
	);
	const items = node('Items', 'n8n-nodes-base.code', { jsCode: itemsCode }, { typeVersion: 2 });
	return {
		id,
		name: id,
		settings: { executionOrder: 'v1', saveDataSuccessExecution: 'all' },
		nodes: [hook, items, { ...target, name: 'Target' }],
		connections: chain('Hook', 'Items', 'Target'),
	};
}

/**
 * The cases, grouped by kind; each kind's `peer` is the reference of its ratios.
 * @param {object} o
 * @param {import('./simulators.mjs').SimulatorProcess} o.sim
 * @param {string} o.token A Partners bearer token (the Header Auth credential holds the same).
 * @param {string[]} o.planIds
 * @param {string[]} o.sriKeys
 * @param {number} o.items
 * @param {(name: string) => string} o.nodeType
 * @param {{ id: string, name: string }} o.headerAuth The Header Auth credential.
 */
function casesFor({ sim, token, planIds, sriKeys, items, nodeType, headerAuth }) {
	const partnersUrl = sim.credentials.partnersApi.baseUrl;
	const planItems = `const ids = ${JSON.stringify(planIds)};\nreturn Array.from({ length: ${items} }, (_, i) => ({ json: { id: ids[i % ids.length], i } }));`;
	const keyItems = `return ${JSON.stringify(sriKeys)}.map((key) => ({ json: { key } }));`;
	const partners = (parameters) =>
		node('Target', nodeType('partners'), parameters, {
			credentials: { partnersApi: { id: 'latamPartnersSim', name: 'Partners (simulator)' } },
		});
	const httpRequest = (method, credential, extra = {}) =>
		node(
			'Target',
			'n8n-nodes-base.httpRequest',
			{
				method,
				url: `=${partnersUrl}/v1/products/{{ $json.id }}`,
				...(credential
					? { authentication: 'genericCredentialType', genericAuthType: 'httpHeaderAuth' }
					: {}),
				sendHeaders: true,
				headerParameters: {
					parameters: [
						{ name: 'F-Sandbox-Mode', value: 'true' },
						...(credential ? [] : [{ name: 'Authorization', value: `Bearer ${token}` }]),
					],
				},
				options: {},
				...extra,
			},
			{
				typeVersion: 4.2,
				...(credential ? { credentials: { httpHeaderAuth: headerAuth } } : {}),
			},
		);
	const planGet = (options) =>
		partners({
			resource: 'plan',
			operation: 'get',
			plan: { __rl: true, mode: 'id', value: '={{ $json.id }}' },
			options,
		});
	// The same SOAP request the SRI node sends (nodes/Sri/domain/service.ts authorizationQuestion, shared/soap.ts).
	const sriUrl = `${sim.addresses.sri}/comprobantes-electronicos-ws/AutorizacionComprobantesOffline`;
	const envelope =
		'<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body><ec:autorizacionComprobante xmlns:ec="http://ec.gob.sri.ws.autorizacion"><claveAccesoComprobante>{{ $json.key }}</claveAccesoComprobante></ec:autorizacionComprobante></soap:Body></soap:Envelope>';
	return [
		{
			kind: 'read',
			title: `${items} Partners reads: Plan → Get, one GET per item`,
			count: items,
			itemsCode: planItems,
			cases: [
				{
					id: 'bReadInline',
					label:
						'HTTP Request, bearer token typed into a header (the floor: a secret in the workflow)',
					target: httpRequest('GET', false),
				},
				{
					id: 'bReadCred',
					label: 'HTTP Request + Header Auth credential (the peer)',
					target: httpRequest('GET', true),
					peer: true,
				},
				{
					id: 'bReadOurs1',
					label: 'Partners Plan → Get, Parallel Requests = 1',
					target: planGet({ parallelRequests: 1 }),
					ours: true,
				},
				{
					id: 'bReadOurs5',
					label: 'Partners Plan → Get, Parallel Requests = 5 (default)',
					target: planGet({}),
					ours: true,
				},
			],
		},
		{
			kind: 'write',
			title: `${items} Partners writes: Plan → Update, one PATCH per item`,
			count: items,
			itemsCode: planItems,
			cases: [
				{
					id: 'bWriteCred',
					label: 'HTTP Request PATCH + Header Auth credential (the peer)',
					target: httpRequest('PATCH', true, {
						sendBody: true,
						specifyBody: 'json',
						jsonBody: JSON.stringify({
							name: 'Bench plan',
							vigencies: [{ folios: 10, vigency: 'Mensual', price: 1 }],
							services: { api: true },
						}),
					}),
					peer: true,
				},
				{
					id: 'bWriteOurs',
					label: 'Partners Plan → Update (one at a time, as every Partners write)',
					target: partners({
						resource: 'plan',
						operation: 'update',
						plan: { __rl: true, mode: 'id', value: '={{ $json.id }}' },
						name: 'Bench plan',
						vigencies: { vigency: [{ vigency: 'Mensual', folios: 10, price: 1 }] },
						services: { api: true },
					}),
					ours: true,
				},
			],
		},
		{
			kind: 'sri',
			title: `${sriKeys.length} SRI authorization checks: one SOAP POST per access key`,
			count: sriKeys.length,
			itemsCode: keyItems,
			cases: [
				{
					id: 'bSriHttp',
					label:
						'HTTP Request POST of the same SOAP envelope, answer as text (the peer; no credential on either side)',
					target: soapPost(sriUrl, '""', envelope),
					peer: true,
				},
				{
					id: 'bSriOurs',
					label:
						'SRI (Ecuador) Receipt → Check Authorization, Parallel Requests = 2 (default): key checked, answer read into fields',
					target: node('Target', nodeType('sri'), {
						resource: 'receipt',
						operation: 'checkAuthorization',
						accessKey: '={{ $json.key }}',
						options: { serviceAddress: sim.addresses.sri },
					}),
					ours: true,
				},
				{
					id: 'bSriOurs10',
					label: 'the same, Parallel Requests = 10 (its maximum)',
					target: node('Target', nodeType('sri'), {
						resource: 'receipt',
						operation: 'checkAuthorization',
						accessKey: '={{ $json.key }}',
						options: { serviceAddress: sim.addresses.sri, parallelRequests: 10 },
					}),
					ours: true,
				},
			],
		},
	];
}

/**
 * One measured run: the Target's time, n8n's main thread (CPU, waiting for a CPU; undefined without schedstat) and
 * what reached the simulator.
 * @typedef {object} Run
 * @property {number} ms
 * @property {number} wallMs
 * @property {number | undefined} cpuMs
 * @property {number | undefined} waitMs
 * @property {number} requests
 * @property {number} connections
 * @property {number} bytesIn
 * @property {number} bytesOut
 * @property {number} simLagP99
 * @property {number} tokens
 */

/**
 * A case of the section and its runs.
 * @typedef {object} Case
 * @property {string} id
 * @property {string} label
 * @property {string} kind
 * @property {number} count Items per run.
 * @property {boolean} peer
 * @property {boolean} ours
 * @property {object} workflow
 * @property {Run[]} runs
 */

/**
 * Runs the section in its own n8n (started here, stopped at the end) and returns its markdown.
 * @param {object} o
 * @param {any} o.sb The sandbox (scripts/n8n/sandbox.mjs), its n8n stopped.
 * @param {import('./simulators.mjs').SimulatorProcess} o.sim
 * @param {(m: string) => void} o.log
 * @param {number} o.rounds
 * @param {number} o.items
 * @param {number} o.sriKeyCount
 * @param {string} o.token
 * @param {{ id: string, name: string }} o.headerAuth
 * @param {number} o.nice The scheduling priority of n8n and the simulators while they are measured (0: as started).
 */
export async function benchItems({
	sb,
	sim,
	log,
	rounds,
	items,
	sriKeyCount,
	token,
	headerAuth,
	nice,
}) {
	const plans = await sim.call('partners.seedProducts', 50, 'Bench');
	const { keyFor } = requireTestModule('simulator/sri');
	const sriKeys = Array.from({ length: sriKeyCount }, (_, i) => keyFor({ sequential: i + 1 }));
	const kinds = casesFor({
		sim,
		token,
		planIds: plans.map((p) => p.uuid),
		sriKeys,
		items,
		nodeType: sb.nodeType,
		headerAuth,
	});
	/** @type {Case[]} */
	const all = kinds.flatMap((k) =>
		k.cases.map((c) => ({
			id: c.id,
			label: c.label,
			kind: k.kind,
			count: k.count,
			peer: c.peer === true,
			ours: c.ours === true,
			workflow: webhookWorkflow(c.id, `bench-${c.id}`, k.itemsCode, c.target),
			runs: [],
		})),
	);
	await sb.importWorkflows(all.map((c) => c.workflow));
	await sb.activate(all.map((c) => c.id));

	const port = await freePort();
	const n8n = await sb.start({ port, env: { WEBHOOK_URL: `http://127.0.0.1:${port}/` } });
	const { headers } = await ownerApiKey(n8n.url);
	const pid = n8n.child.pid;
	const prioritized = nice !== 0 && prioritize([pid, sim.pid], nice);
	if (nice !== 0 && !prioritized) log(`could not give n8n and the simulators priority ${nice}`);
	/** Workflow → the newest execution ID read so far. @type {Map<string, string>} */
	const seen = new Map();

	/** The execution a POST just ran: the newest of its workflow, once it is not the one read before. */
	async function lastExecution(id) {
		for (let tries = 0; tries < 200; tries++) {
			const list = /** @type {{ data?: { id: string, stoppedAt?: string | null }[] }} */ (
				await (
					await fetch(`${n8n.url}/api/v1/executions?workflowId=${id}&limit=1`, { headers })
				).json()
			);
			const newest = list.data?.[0];
			if (newest && newest.id !== seen.get(id) && newest.stoppedAt) {
				seen.set(id, newest.id);
				return await (
					await fetch(`${n8n.url}/api/v1/executions/${newest.id}?includeData=true`, { headers })
				).json();
			}
			await new Promise((resolve) => setTimeout(resolve, 50));
		}
		throw new Error(`${id}: its execution never showed up`);
	}

	/**
	 * One run of a case: POST its webhook, read what the run took and what reached the simulator; undefined while
	 * n8n has not registered the webhook yet.
	 * @param {Case} c
	 * @returns {Promise<Run | undefined>}
	 */
	async function runOnce(c) {
		const before = {
			sched: schedOf(pid),
			sim: await sim.stats(),
			tokens: await sim.get('partners.tokensIssued'),
		};
		const started = performance.now();
		const res = await fetch(`${n8n.url}/webhook/bench-${c.id}`, { method: 'POST' });
		await res.text();
		const wallMs = performance.now() - started;
		const after = {
			sched: schedOf(pid),
			sim: await sim.stats(),
			tokens: await sim.get('partners.tokensIssued'),
		};
		if (res.status === 404) return undefined; // not registered yet
		/** @type {any} the execution as n8n's public API gives it (data.resultData.runData.<node>) */
		const execution = await lastExecution(c.id);
		const error = execution.data?.resultData?.error;
		const target = execution.data?.resultData?.runData?.Target?.[0];
		const out = target?.data?.main?.[0] ?? [];
		if (res.status !== 200 || error || out.length !== c.count || out.some((i) => i.json?.error))
			throw new Error(
				`${c.id}: HTTP ${res.status}, ${out.length}/${c.count} items out${error ? `: ${error.message}` : ''}`,
			);
		if (c.kind === 'sri' && c.ours && !out.every((i) => i.json.authorized === true))
			throw new Error(`${c.id}: not every key was authorized`);
		const d = (k) => after.sim[k] - before.sim[k];
		return {
			ms: target.executionTime,
			wallMs,
			cpuMs: after.sched && before.sched ? after.sched.cpuMs - before.sched.cpuMs : undefined,
			waitMs: after.sched && before.sched ? after.sched.waitMs - before.sched.waitMs : undefined,
			requests: d('requests'),
			connections: d('connections'),
			bytesIn: d('bytesIn'),
			bytesOut: d('bytesOut'),
			simLagP99: after.sim.lagP99Ms,
			tokens: after.tokens - before.tokens,
		};
	}

	const loadBefore = readFileSync('/proc/loadavg', 'utf8').split(' ')[0];
	try {
		// Warm-up, not counted: the first POST of each case also tells when n8n has registered its webhook.
		for (const c of all) {
			let run;
			for (let tries = 0; !run && tries < 120; tries++) {
				run = await runOnce(c);
				if (!run) await new Promise((resolve) => setTimeout(resolve, 500));
			}
			if (!run) throw new Error(`${c.id}: its webhook was never registered`);
			log(`warm-up ${c.id}: ${run.ms} ms`);
		}
		for (let round = 0; round < rounds; round++) {
			const order = all.map((_, n) => all[(n + round) % all.length]);
			for (const c of order) {
				const run = await runOnce(c);
				if (!run) throw new Error(`${c.id}: webhook gone`);
				c.runs.push(run);
				log(`round ${round + 1}/${rounds} ${c.id}: ${run.ms} ms`);
			}
		}
	} finally {
		await n8n.stop();
	}
	const loadAfter = readFileSync('/proc/loadavg', 'utf8').split(' ')[0];

	const fixed = (x, digits) => (x === undefined || Number.isNaN(x) ? '–' : x.toFixed(digits));
	const sections = kinds.map((k) => {
		const peer = all.find((c) => c.kind === k.kind && c.peer);
		if (!peer) throw new Error(`no peer for ${k.kind}`);
		const rows = all
			.filter((c) => c.kind === k.kind)
			.map((c) => {
				const ms = c.runs.map((r) => r.ms);
				const ratios = c.runs.map((r, n) => r.ms / peer.runs[n].ms);
				const cpu = c.runs.every((r) => r.cpuMs !== undefined)
					? median(c.runs.map((r) => r.cpuMs)) / c.count
					: undefined;
				const ratio = c.peer
					? '1.00×'
					: `**${fixed(median(ratios), 2)}×** (${fixed(Math.min(...ratios), 2)}–${fixed(Math.max(...ratios), 2)})`;
				// What reached the simulator, summed over the counted rounds.
				const sum = (key) => c.runs.reduce((n, r) => n + r[key], 0);
				const wire = `${fixed(sum('requests') / (c.count * c.runs.length), 2)} · ${fixed(sum('connections') / sum('requests'), 2)} · ${fixed(sum('bytesIn') / sum('requests'), 0)} / ${fixed(sum('bytesOut') / sum('requests'), 0)}`;
				return `| ${c.label} | ${Math.round(median(ms))} (${Math.min(...ms)}–${Math.max(...ms)}) | ${fixed(median(ms) / c.count, 2)} | ${ratio} | ${fixed(cpu, 2)} | ${wire} |`;
			});
		return `### ${k.title}

| node | ms: median (min–max) | ms/item | vs. the peer: median of the per-round ratios (range) | n8n CPU ms/item | requests/item · connections/request · bytes sent / received per request |
|---|---|---|---|---|---|
${rows.join('\n')}
`;
	});
	const waits = all.flatMap((c) =>
		c.runs.flatMap((r) => (r.waitMs === undefined ? [] : [r.waitMs / r.wallMs])),
	);
	const lags = all.flatMap((c) => c.runs.map((r) => r.simLagP99));
	const ourTokens = [
		...new Set(
			all.filter((c) => c.kind !== 'sri' && c.ours).flatMap((c) => c.runs.map((r) => r.tokens)),
		),
	];
	const priority = prioritized
		? `n8n and the simulators ran at scheduling priority ${nice} (nice), ahead of the machine's other work`
		: 'n8n and the simulators ran at the priority they were started with';
	const noise = waits.length
		? `n8n's main thread waited for a CPU (runnable, but other processes had both cores) for a median ${fixed(100 * median(waits), 0)} % of a run's time (runs ranged ${fixed(100 * Math.min(...waits), 0)}–${fixed(100 * Math.max(...waits), 0)} %)`
		: 'this kernel does not say how long n8n waited for a CPU';
	return {
		ourTokens,
		markdown: `## Item by item, against n8n's HTTP Request node (${rounds} rounds)

Each row is one workflow Webhook → Items (Code) → Target in one running n8n; the time is the Target node's
\`executionTime\` in the saved execution. After one warm-up run of every case, ${rounds} rounds ran every case once, in an
order that rotates each round; the ratio is taken within each round against the peer's run of that round.
n8n's HTTP Request node sends all of its items' requests at once (its default, no batching); this package's nodes
keep at most Parallel Requests in flight and give the items back in order. n8n CPU ms/item: CPU time of n8n's main
thread over the whole run, per item (what the node costs n8n; less sensitive than the time to other work on the
machine). The last column is what reached the simulator: both sides of a ratio make the same requests.

${sections.join('\n')}
Noise: load average ${loadBefore} before and ${loadAfter} after this section (${os.cpus().length} cores); ${priority}; ${noise}; the
simulator's event loop ran late by at most ${fixed(Math.max(...lags), 0)} ms at the 99th percentile of a run.
Runs of this package's Partners nodes with the token stored in the credential made ${ourTokens.join('/')} token request(s).

Targets: reads ≤ 0.8× and writes ≤ 1.0× the credentialed HTTP Request node.
`,
	};
}

// Run alone: `node bench/items.mjs` (builds, starts the simulators and a throw-away n8n, prints the section).
if (process.argv[1] === fileURLToPath(import.meta.url)) {
	const { benchSandbox, HEADER_AUTH } = await import('./setup.mjs');
	const { sb, sim, token } = await benchSandbox('bench-items');
	try {
		const { markdown } = await benchItems({
			sb,
			sim,
			log: (m) => process.stderr.write(`[bench] ${m}\n`),
			rounds: Number(process.env.BENCH_ROUNDS ?? 10),
			nice: Number(process.env.BENCH_NICE ?? -10),
			items: Number(process.env.BENCH_ITEMS ?? 1000),
			sriKeyCount: Number(process.env.BENCH_SRI_KEYS ?? 100),
			token,
			headerAuth: HEADER_AUTH,
		});
		process.stdout.write(markdown);
	} finally {
		await sim.stop();
	}
}
