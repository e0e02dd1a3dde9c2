// Benchmark of the authorities' public services at a simulated latency, inside the real n8n of bench/run.mjs: N
// SRI access keys (Check Authorization) and N CFDIs (SAT Check CFDI Status) asked of simulators that take
// LATENCY_MS to answer each question, by
// - this package with Options → Parallel Requests = 1 and = 2 (its default: the SRI and the SAT ask callers to
//   keep their volume low),
// - what a user wires without it: n8n's HTTP Request node POSTing the same SOAP envelope (all at once, its
//   default), then n8n's XML node reading the answers into JSON,
// against the latency floor N × LATENCY_MS / P (P questions always in flight, nothing else).
import { fileURLToPath } from 'node:url';
import { parseCliJson } from '../scripts/n8n/boot.mjs';
import { requireTestModule } from '../scripts/n8n/sandbox.mjs';
import { node, rowsWorkflow } from '../scripts/n8n/workflow.mjs';

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const COUNT = Number(process.env.BENCH_PUBLIC_COUNT ?? 300);
const LATENCY_MS = Number(process.env.BENCH_PUBLIC_LATENCY_MS ?? 20);

/** n8n's HTTP Request node POSTing a SOAP envelope; the answer comes out as text in `data`. */
export const soapPost = (url, soapAction, envelope) =>
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
			options: {},
		},
		{ typeVersion: 4.2 },
	);

/** HTTP Request POSTing the envelope, then the XML node reading the answers into JSON: what a user wires. */
const httpAndXml = (url, soapAction, envelope) => [
	soapPost(url, soapAction, envelope),
	node('Xml', 'n8n-nodes-base.xml', { mode: 'xmlToJson', dataPropertyName: 'data', options: {} }),
];

/**
 * @param {object} o
 * @param {any} o.sb
 * @param {import('./simulators.mjs').SimulatorProcess} o.sim
 * @param {(m: string) => void} o.log
 * @param {number} o.runs
 */
export async function benchPublicServices({ sb, sim, log, runs }) {
	const nodeType = (name) => sb.nodeType(name);
	// Keys the SRI simulator authorizes, and UUIDs the SAT simulator answers Vigente (test/simulator/sri.js, cfdi.js).
	const { keyFor } = requireTestModule('simulator/sri');
	const { uuidWith } = requireTestModule('simulator/cfdi');
	const keys = Array.from({ length: COUNT }, (_, i) => keyFor({ sequential: 5000 + i }));
	const cfdis = Array.from({ length: COUNT }, (_, i) => ({
		uuid: uuidWith('A000', i + 1),
		re: 'EKU9003173C9',
		rr: 'XAXX010101000',
		tt: '1160.00',
	}));
	const sriUrl = `${sim.addresses.sri}/comprobantes-electronicos-ws/AutorizacionComprobantesOffline`;
	const satUrl = sim.addresses.sat;
	// The envelopes the nodes send (nodes/Sri/domain/service.ts, nodes/Sat/domain/service.ts, shared/soap.ts).
	const sriEnvelope =
		'<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body><ec:autorizacionComprobante xmlns:ec="http://ec.gob.sri.ws.autorizacion"><claveAccesoComprobante>{{ $json.key }}</claveAccesoComprobante></ec:autorizacionComprobante></soap:Body></soap:Envelope>';
	const satEnvelope =
		'<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body><Consulta xmlns="http://tempuri.org/"><expresionImpresa>?re={{ $json.re }}&amp;rr={{ $json.rr }}&amp;tt={{ $json.tt }}&amp;id={{ $json.uuid }}</expresionImpresa></Consulta></soap:Body></soap:Envelope>';
	const sri = (parallelRequests) =>
		node('Target', nodeType('sri'), {
			resource: 'receipt',
			operation: 'checkAuthorization',
			accessKey: '={{ $json.key }}',
			options: { serviceAddress: sim.addresses.sri, parallelRequests },
		});
	const sat = (parallelRequests) =>
		node('Target', nodeType('sat'), {
			resource: 'cfdi',
			operation: 'checkStatus',
			uuid: '={{ $json.uuid }}',
			issuerRfc: '={{ $json.re }}',
			receiverRfc: '={{ $json.rr }}',
			total: '={{ $json.tt }}',
			options: { serviceAddress: sim.addresses.sat, parallelRequests },
		});
	const keyRow = `{ key: ${JSON.stringify(keys)}[i] }`;
	const cfdiRow = `${JSON.stringify(cfdis)}[i]`;
	const services = [
		{
			title: `${COUNT} SRI authorization checks (Receipt → Check Authorization)`,
			cases: [
				{ id: 'bPubSri1', parallel: 1, label: 'SRI (Ecuador), Parallel Requests = 1' },
				{ id: 'bPubSri2', parallel: 2, label: 'SRI (Ecuador), Parallel Requests = 2 (default)' },
				{
					id: 'bPubSriHttp',
					label:
						'HTTP Request (all at once, its default) + XML node: the same SOAP POST, the answer as JSON',
				},
			],
			workflows: [
				rowsWorkflow('bPubSri1', COUNT, keyRow, sri(1)),
				rowsWorkflow('bPubSri2', COUNT, keyRow, sri(2)),
				rowsWorkflow('bPubSriHttp', COUNT, keyRow, ...httpAndXml(sriUrl, '""', sriEnvelope)),
			],
		},
		{
			title: `${COUNT} CFDI status checks (SAT → CFDI → Check CFDI Status)`,
			cases: [
				{ id: 'bPubSat1', parallel: 1, label: 'SAT (Mexico), Parallel Requests = 1' },
				{ id: 'bPubSat2', parallel: 2, label: 'SAT (Mexico), Parallel Requests = 2 (default)' },
				{
					id: 'bPubSatHttp',
					label:
						'HTTP Request (all at once, its default) + XML node: the same SOAP POST, the answer as JSON',
				},
			],
			workflows: [
				rowsWorkflow('bPubSat1', COUNT, cfdiRow, sat(1)),
				rowsWorkflow('bPubSat2', COUNT, cfdiRow, sat(2)),
				rowsWorkflow(
					'bPubSatHttp',
					COUNT,
					cfdiRow,
					...httpAndXml(satUrl, 'http://tempuri.org/IConsultaCFDIService/Consulta', satEnvelope),
				),
			],
		},
	];
	await sb.importWorkflows(services.flatMap((s) => s.workflows));

	/** The time of the run's measured nodes (Target, and Xml when there is one), and the items out. */
	const execute = async (id) => {
		const r = await sb.cli(['execute', `--id=${id}`, '--rawOutput'], { timeoutMs: 600_000 });
		const run = parseCliJson(r.stdout);
		if (run.data.resultData.error) throw new Error(`${id}: ${run.data.resultData.error.message}`);
		const data = run.data.resultData.runData;
		const last = data.Xml ?? data.Target;
		const ms = data.Target[0].executionTime + (data.Xml?.[0].executionTime ?? 0);
		return { ms, items: last[0].data.main[0] };
	};

	const sections = [];
	await sim.set('server.delayMs', LATENCY_MS); // every question takes this long to answer
	try {
		for (const service of services) {
			/** @type {Record<string, number[]>} */
			const times = Object.fromEntries(service.cases.map((c) => [c.id, []]));
			for (let round = 0; round < runs; round++) {
				for (const c of service.cases) {
					const r = await execute(c.id);
					if (r.items.length !== COUNT)
						throw new Error(`${c.id}: ${r.items.length} items out of ${COUNT}`);
					times[c.id].push(r.ms);
					log(`${c.id} round ${round + 1}: ${r.ms} ms`);
				}
			}
			const s = (ms) => (ms / 1000).toFixed(2);
			const rows = service.cases.flatMap((c) => {
				const ms = median(times[c.id]);
				const floor = c.parallel ? (COUNT * LATENCY_MS) / c.parallel : undefined;
				return [
					...(floor ? [`| latency floor, ${c.parallel} in flight | ${s(floor)} | 1.00× |`] : []),
					`| ${c.label} | ${s(ms)} | ${floor ? `**${(ms / floor).toFixed(2)}×**` : '—'} |`,
				];
			});
			sections.push(`### ${service.title}

| | seconds | vs. its latency floor |
|---|---|---|
${rows.join('\n')}`);
		}
	} finally {
		await sim.set('server.delayMs', 0);
	}
	return `## The public services at ${LATENCY_MS} ms per answer (${COUNT} questions each)

The simulators take ${LATENCY_MS} ms to answer every question. The floor of Parallel Requests = P keeps P questions
in flight all the time and does nothing else: ${COUNT} × ${LATENCY_MS} ms / P. Beside it, what a user wires without
the package: n8n's HTTP Request node sends every question at once (the SRI and the SAT ask callers not to), then
its XML node reads the answers into JSON (the time of both nodes). Median of ${runs} run(s), each in a fresh
\`n8n execute\`; every run gave ${COUNT} items.

${sections.join('\n\n')}

Targets: ≤ 1.15× the floor with Parallel Requests = 1 and ≤ 1.25× with 2, for both services.
`;
}

// `node bench/public-services.mjs`: this section alone (BENCH_RUNS runs, 3 by default), printed.
if (process.argv[1] === fileURLToPath(import.meta.url)) {
	const { benchSandbox } = await import('./setup.mjs');
	const { sb, sim } = await benchSandbox('bench-public');
	try {
		process.stdout.write(
			await benchPublicServices({
				sb,
				sim,
				log: (m) => process.stderr.write(`[bench] ${m}\n`),
				runs: Number(process.env.BENCH_RUNS ?? 3),
			}),
		);
	} finally {
		await sim.stop();
	}
}
