// Benchmark of the authorities' public services at a simulated latency, inside the real n8n of bench/run.mjs: N
// SRI access keys (Check Authorization) and N CFDIs (SAT Check CFDI Status) asked of simulators that take
// LATENCY_MS to answer each question, by
// - this package with Options → Parallel Requests = 1 and = 2 (its default: the SRI and the SAT ask callers to
//   keep their volume low),
// - what a user wires without it: n8n's HTTP Request node POSTing the same SOAP envelope, then n8n's XML node
//   reading the answers into JSON — paced like the package (Options → Batching: P items every LATENCY_MS), and all
//   at once (its default),
// against two floors of P questions in flight:
// - the latency floor, N × LATENCY_MS / P: nothing but the waiting;
// - the physical floor, measured in the same run: a plain node:http client (./minimal-client.mjs, on n8n's Node)
//   POSTing the same envelopes to the same simulators, keeping P in flight and reading each answer whole. It pays
//   what no client avoids (its own requests, the simulator's timer slack, the loopback). It runs twice: keeping its
//   connections open, and opening a new one per question, as n8n's HTTP helper does (it builds a new agent for
//   every request), which no node can change;
// - the node floor, measured in the same run: a trivial community node (./trivial-caller/, loaded beside the
//   package) that awaits n8n's HTTP helper for each question, P in flight, and does nothing else. What the package
//   spends beyond it is the package's own.
//
// `node bench/public-services.mjs` prints this section alone (BENCH_RUNS runs, 3 by default). To look inside the
// n8n process: BENCH_PUBLIC_CASES=bPubSri1,bPubSat1 (the cases to run) and BENCH_N8N_NODE_OPTIONS='--cpu-prof
// --cpu-prof-dir=/tmp/prof' (given to every `n8n execute`).
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { parseCliJson } from '../scripts/n8n/boot.mjs';
import { runtimePaths } from '../scripts/n8n/install.mjs';
import { requireTestModule } from '../scripts/n8n/sandbox.mjs';
import { node, rowsWorkflow } from '../scripts/n8n/workflow.mjs';

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const COUNT = Number(process.env.BENCH_PUBLIC_COUNT ?? 300);
const LATENCY_MS = Number(process.env.BENCH_PUBLIC_LATENCY_MS ?? 20);
const PARALLEL = [1, 2];
const ONLY = process.env.BENCH_PUBLIC_CASES?.split(',').filter(Boolean);
const N8N_NODE_OPTIONS = process.env.BENCH_N8N_NODE_OPTIONS;
const TRIVIAL_CALLER_DIR = fileURLToPath(new URL('./trivial-caller', import.meta.url));

/** The trivial caller (./trivial-caller/) POSTing `envelope` (its `{{ $json.<field> }}` filled from each item). */
const trivialCaller = (url, soapAction, envelope, parallelRequests) =>
	node('Target', 'CUSTOM.trivialCaller', { url, soapAction, envelope, parallelRequests });

/** n8n's HTTP Request node POSTing a SOAP envelope; the answer comes out as text in `data`. */
export const soapPost = (url, soapAction, envelope, options = {}) =>
	node(
		'Target',
		'n8n-nodes-base.httpRequest',
		{
			method: 'POST',
			url,
			sendHeaders: true,
			headerParameters: {
				parameters: [
					{ name: 'SOAPAction', value: soapAction },
					{ name: 'Accept', value: 'text/xml' },
				],
			},
			sendBody: true,
			contentType: 'raw',
			rawContentType: 'text/xml; charset=utf-8',
			body: `=${envelope}`,
			// Response Format stays Autodetect (the answer, text/xml, comes out as text in `data`):
			// 'Text' with a raw body fails in n8n 2.41.1 ("Converting circular structure to JSON").
			options,
		},
		{ typeVersion: 4.2 },
	);

/**
 * HTTP Request POSTing the envelope, then the XML node reading the answers into JSON: what a user wires. Paced with
 * `parallel`: Options → Batching, `parallel` items every LATENCY_MS (n8n's way to keep a service's pace; it paces
 * the starts and does not wait for answers); without it, every item at once.
 */
const httpAndXml = (url, soapAction, envelope, parallel) => [
	soapPost(
		url,
		soapAction,
		envelope,
		parallel ? { batching: { batch: { batchSize: parallel, batchInterval: LATENCY_MS } } } : {},
	),
	node('Xml', 'n8n-nodes-base.xml', { mode: 'xmlToJson', dataPropertyName: 'data', options: {} }),
];

/** The envelope an HTTP Request node's body expression gives for `row` (its `{{ $json.name }}` replaced). */
const filled = (template, row) =>
	template.replace(/\{\{ \$json\.(\w+) \}\}/g, (_, name) => String(row[name]));

/**
 * The two services, each with its rows, the SOAP request a plain client sends, and its cases: `client` (the plain
 * client, on `connection`), `package` (the node) and `http` (HTTP Request + XML), each with its Parallel Requests.
 * @param {{ nodeType: (name: string) => string }} sb
 * @param {import('./simulators.mjs').SimulatorProcess} sim
 */
export function publicServiceCases(sb, sim) {
	// Keys the SRI simulator authorizes, and UUIDs the SAT simulator answers Vigente (test/simulator/sri.js, cfdi.js).
	const { keyFor } = requireTestModule('simulator/sri');
	const { uuidWith } = requireTestModule('simulator/cfdi');
	const keys = Array.from({ length: COUNT }, (_, i) => ({ key: keyFor({ sequential: 5000 + i }) }));
	const cfdis = Array.from({ length: COUNT }, (_, i) => ({
		uuid: uuidWith('A000', i + 1),
		re: 'EKU9003173C9',
		rr: 'XAXX010101000',
		tt: '1160.0', // as the SAT's expression writes a total (no trailing zero but one): the same envelope everywhere
	}));
	// The envelopes the nodes send (nodes/Sri/domain/service.ts, nodes/Sat/domain/service.ts, shared/soap.ts).
	const sriEnvelope =
		'<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body><ec:autorizacionComprobante xmlns:ec="http://ec.gob.sri.ws.autorizacion"><claveAccesoComprobante>{{ $json.key }}</claveAccesoComprobante></ec:autorizacionComprobante></soap:Body></soap:Envelope>';
	const satEnvelope =
		'<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body><Consulta xmlns="http://tempuri.org/"><expresionImpresa>?id={{ $json.uuid }}&amp;re={{ $json.re }}&amp;rr={{ $json.rr }}&amp;tt={{ $json.tt }}</expresionImpresa></Consulta></soap:Body></soap:Envelope>';
	const sri = (parallelRequests) =>
		node('Target', sb.nodeType('sri'), {
			resource: 'receipt',
			operation: 'checkAuthorization',
			accessKey: '={{ $json.key }}',
			options: { serviceAddress: sim.addresses.sri, parallelRequests },
		});
	const sat = (parallelRequests) =>
		node('Target', sb.nodeType('sat'), {
			resource: 'cfdi',
			operation: 'checkStatus',
			uuid: '={{ $json.uuid }}',
			issuerRfc: '={{ $json.re }}',
			receiverRfc: '={{ $json.rr }}',
			total: '={{ $json.tt }}',
			options: { serviceAddress: sim.addresses.sat, parallelRequests },
		});
	const services = [
		{
			id: 'Sri',
			title: `${COUNT} SRI authorization checks (Receipt → Check Authorization)`,
			ours: (p) => `SRI (Ecuador), Parallel Requests = ${p}${p === 2 ? ' (default)' : ''}`,
			rows: keys,
			url: `${sim.addresses.sri}/comprobantes-electronicos-ws/AutorizacionComprobantesOffline`,
			soapAction: '""',
			envelope: sriEnvelope,
			target: sri,
		},
		{
			id: 'Sat',
			title: `${COUNT} CFDI status checks (SAT → CFDI → Check CFDI Status)`,
			ours: (p) => `SAT (Mexico), Parallel Requests = ${p}${p === 2 ? ' (default)' : ''}`,
			rows: cfdis,
			url: sim.addresses.sat,
			soapAction: 'http://tempuri.org/IConsultaCFDIService/Consulta',
			envelope: satEnvelope,
			target: sat,
		},
	];
	return services.map((s) => {
		const row = `${JSON.stringify(s.rows)}[i]`;
		const cases = [
			...PARALLEL.flatMap((p) => [
				{ id: `bPub${s.id}Ka${p}`, kind: 'client', parallel: p, connection: 'keep-alive' },
				{ id: `bPub${s.id}New${p}`, kind: 'client', parallel: p, connection: 'new' },
				{
					id: `bPub${s.id}Node${p}`,
					kind: 'trivial',
					parallel: p,
					workflow: rowsWorkflow(
						`bPub${s.id}Node${p}`,
						COUNT,
						row,
						trivialCaller(s.url, s.soapAction, s.envelope, p),
					),
				},
				{
					id: `bPub${s.id}${p}`,
					kind: 'package',
					parallel: p,
					label: s.ours(p),
					workflow: rowsWorkflow(`bPub${s.id}${p}`, COUNT, row, s.target(p)),
				},
				{
					id: `bPub${s.id}Http${p}`,
					kind: 'http',
					parallel: p,
					label: `HTTP Request, Batching: ${p} item${p > 1 ? 's' : ''} every ${LATENCY_MS} ms (the package's pace) + XML node`,
					workflow: rowsWorkflow(
						`bPub${s.id}Http${p}`,
						COUNT,
						row,
						...httpAndXml(s.url, s.soapAction, s.envelope, p),
					),
				},
			]),
			{
				id: `bPub${s.id}Http`,
				kind: 'http',
				parallel: undefined,
				connection: undefined,
				label: 'HTTP Request, all at once (its default) + XML node',
				workflow: rowsWorkflow(
					`bPub${s.id}Http`,
					COUNT,
					row,
					...httpAndXml(s.url, s.soapAction, s.envelope),
				),
			},
		].filter((c) => !ONLY || ONLY.includes(c.id));
		return {
			title: s.title,
			cases,
			request: {
				url: s.url,
				headers: {
					'Content-Type': 'text/xml; charset=utf-8',
					SOAPAction: s.soapAction,
					Accept: 'text/xml',
				},
				bodies: s.rows.map((r) => filled(s.envelope, r)),
			},
		};
	});
}

/**
 * Runs the plain client (./minimal-client.mjs) in a process of its own on n8n's Node: the milliseconds from its first
 * question to its last answer.
 */
async function plainClient(request, parallel, connection) {
	const dir = mkdtempSync(join(tmpdir(), 'bench-client-'));
	try {
		const job = join(dir, 'job.json');
		writeFileSync(job, JSON.stringify({ ...request, parallel, connection }));
		const { stdout } = await promisify(execFile)(runtimePaths().node, [
			fileURLToPath(new URL('./minimal-client.mjs', import.meta.url)),
			job,
		]);
		const result = JSON.parse(stdout);
		const ok = result.statuses['200'] ?? 0;
		if (ok !== request.bodies.length)
			throw new Error(`plain client: ${ok} answers 200 of ${request.bodies.length}`);
		return Math.round(result.ms);
	} finally {
		rmSync(dir, { recursive: true, force: true });
	}
}

/**
 * @param {object} o
 * @param {any} o.sb
 * @param {import('./simulators.mjs').SimulatorProcess} o.sim
 * @param {(m: string) => void} o.log
 * @param {number} o.runs
 */
export async function benchPublicServices({ sb, sim, log, runs }) {
	const services = publicServiceCases(sb, sim);
	await sb.importWorkflows(services.flatMap((s) => s.cases.flatMap((c) => c.workflow ?? [])));
	// The package and the trivial caller as custom extensions of the same n8n, for every case: one folder holding
	// links to both (every custom folder is n8n's package "CUSTOM", so a second folder would replace the first).
	const extensionsDir = join(sb.opts.userFolder, 'bench-public-extensions');
	rmSync(extensionsDir, { recursive: true, force: true });
	mkdirSync(extensionsDir, { recursive: true });
	symlinkSync(sb.opts.extensionsDir, join(extensionsDir, 'package'));
	symlinkSync(TRIVIAL_CALLER_DIR, join(extensionsDir, 'trivial-caller'));

	/** The time of the run's measured nodes (Target, and Xml when there is one), and the items out. */
	const execute = async (id) => {
		const r = await sb.cli(['execute', `--id=${id}`, '--rawOutput'], {
			extensionsDir,
			timeoutMs: 600_000,
			...(N8N_NODE_OPTIONS ? { env: { NODE_OPTIONS: N8N_NODE_OPTIONS } } : {}),
		});
		const run = parseCliJson(r.stdout);
		if (run.data.resultData.error) throw new Error(`${id}: ${run.data.resultData.error.message}`);
		const data = run.data.resultData.runData;
		const last = data.Xml ?? data.Target;
		const ms = data.Target[0].executionTime + (data.Xml?.[0].executionTime ?? 0);
		const items = last[0].data.main[0];
		if (items.length !== COUNT) throw new Error(`${id}: ${items.length} items out of ${COUNT}`);
		return ms;
	};

	const sections = [];
	await sim.set('server.delayMs', LATENCY_MS); // every answer leaves this long after its question arrived
	try {
		for (const service of services) {
			/** @type {Record<string, number[]>} */
			const times = Object.fromEntries(service.cases.map((c) => [c.id, []]));
			for (let round = 0; round < runs; round++) {
				for (const c of service.cases) {
					const ms =
						c.kind === 'client'
							? await plainClient(service.request, c.parallel, c.connection)
							: await execute(c.id);
					times[c.id].push(ms);
					log(`${c.id} round ${round + 1}: ${ms} ms`);
				}
			}
			sections.push(table(service, times));
		}
	} finally {
		await sim.set('server.delayMs', 0);
	}
	return `## The public services at ${LATENCY_MS} ms per answer (${COUNT} questions each)

The simulators answer every question ${LATENCY_MS} ms after it arrived (a timer in their own process; their own work
is counted in those ${LATENCY_MS} ms, as a real service's latency counts its work). Three floors for Parallel Requests =
P, each with P questions in flight all the time:
- the **latency floor**, ${COUNT} × ${LATENCY_MS} ms / P: nothing but the waiting;
- the **physical floor**, measured: a plain node:http client (\`bench/minimal-client.mjs\`, on n8n's Node) POSTing the
  same envelopes to the same simulators and reading each answer whole. It pays what no client avoids: its own
  requests, the simulator's timer slack, the loopback. It runs keeping its connections open (the floor of the
  ratios), and again opening a new connection per question, as n8n's HTTP helper does for every node (a new agent
  per request): the difference is n8n's, not a node's;
- the **node floor**, measured: a trivial community node (\`bench/trivial-caller/\`, loaded beside the package, never
  shipped) that awaits n8n's HTTP helper for each question and does nothing else — no expression, no parsing, no
  file. It pays what every node that waits for its answers pays in n8n; what the package spends beyond it is its own.

Beside them, what a user wires without the package: n8n's HTTP Request node, then its XML node reading the answers
into JSON (the time of both nodes) — paced as the package keeps its pace (Options → Batching: P items every
${LATENCY_MS} ms, which paces the starts and does not wait for answers), and all at once (its default; the SRI and the
SAT ask callers not to). ${runs} round(s), each measuring every case back to back, each n8n case in a fresh \`n8n
execute\`; seconds are medians, a ratio to a measured floor the median of the rounds' ratios. Every run gave ${COUNT}
items (every answer of the plain client was 200).

${sections.join('\n\n')}

Targets: ≤ 1.15× the latency floor with Parallel Requests = 1 and ≤ 1.25× with 2, for both services.
`;
}

/**
 * A service's table: each P's floors, then the package and HTTP Request against them; all at once last. Seconds are
 * medians; a ratio to a measured floor is the median of the rounds' ratios (every round measures each case back to
 * back), so a slow spell of the machine touches both sides of a ratio alike.
 */
function table(service, times) {
	const s = (ms) => (ms / 1000).toFixed(2);
	const at = (kind, p, connection) =>
		service.cases.find(
			(c) =>
				c.kind === kind &&
				c.parallel === p &&
				(connection === undefined || c.connection === connection),
		);
	const rows = [];
	for (const p of PARALLEL) {
		const latency = (COUNT * LATENCY_MS) / p;
		const physical = at('client', p, 'keep-alive');
		const trivial = at('trivial', p);
		/** `c`'s ratio to a measured floor (the median of the rounds'), or to the latency floor. */
		const x = (c, floor) => {
			if (!c || !floor) return '—';
			if (typeof floor === 'number') return `${(median(times[c.id]) / floor).toFixed(2)}×`;
			return `${median(times[c.id].map((ms, round) => ms / times[floor.id][round])).toFixed(2)}×`;
		};
		const b = (text, bold) => (bold && text !== '—' ? `**${text}**` : text);
		const row = (label, c, bold = false) =>
			c
				? [
						`| ${label} | ${s(median(times[c.id]))} | ${b(x(c, latency), bold)} | ${b(x(c, physical), bold)} | ${b(x(c, trivial), bold)} |`,
					]
				: [];
		const ours = at('package', p);
		const paced = at('http', p);
		rows.push(
			`| latency floor, ${p} in flight | ${s(latency)} | 1.00× | — | — |`,
			...row(`physical floor: plain node:http client, ${p} in flight, connections kept`, physical),
			...row(
				`plain node:http client, ${p} in flight, a new connection per question (n8n's helper's way)`,
				at('client', p, 'new'),
			),
			...row(
				`node floor: trivial community node, ${p} in flight, awaiting n8n's HTTP helper and nothing else`,
				trivial,
			),
			...row(ours?.label, ours, true),
			...row(paced?.label, paced),
		);
	}
	const all = service.cases.find((c) => c.kind === 'http' && !c.parallel);
	if (all) rows.push(`| ${all.label} | ${s(median(times[all.id]))} | — | — | — |`);
	return `### ${service.title}

| | seconds | vs. latency floor | vs. physical floor | vs. node floor |
|---|---|---|---|---|
${rows.join('\n')}`;
}

// `node bench/public-services.mjs`: this section alone (BENCH_RUNS runs, 3 by default), printed.
if (process.argv[1] === fileURLToPath(import.meta.url)) {
	const { runSectionAlone } = await import('./setup.mjs');
	await runSectionAlone('bench-public', benchPublicServices);
}
