#!/usr/bin/env node
// The ATS section of BENCHMARKS.md: a month of 5,000 receipts (test/fixtures/sri/month.js `manyReceipts`: purchases,
// the company's retentions on a quarter of them, sales) as files in the sandbox's folder → Read/Write Files → the
// ATS (SRI (Ecuador) → Monthly Annex → Build, reading each file itself) → the file written, and the same through
// Read XML first, in one running n8n (`n8n start`, as users run it; runs through its REST API): each node's time,
// the ATS's size, the n8n process's resident memory, median of `runs` runs. Nothing fails on speed; the target (a
// few seconds for the ATS node, within the run's memory budget of 512 MB) is read from the table.
//
//   node bench/ats.mjs                 # alone, in a sandbox of its own (builds the package first)
//   BENCH_ATS_RECEIPTS=10000 BENCH_RUNS=1 node bench/ats.mjs
import { mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { nodeOutput } from '../scripts/n8n/executions.mjs';
import { prepareSandbox, requireTestModule, userFolderFor } from '../scripts/n8n/sandbox.mjs';
import { startSuiteN8n } from '../scripts/n8n/suite.mjs';
import { chain, node } from '../scripts/n8n/workflow.mjs';

const SRI = 'n8n-nodes-latam-fiscal.sri';
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/**
 * Resident memory (MB) of process `pid`, sampled every 100 ms until `stop()`, which returns the memory when the
 * sampling started and the peak.
 */
function residentMemory(pid) {
	const read = () =>
		Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
	const startKb = read();
	let peakKb = startKb;
	const timer = setInterval(() => (peakKb = Math.max(peakKb, read())), 100);
	return () => {
		clearInterval(timer);
		return { startMb: startKb / 1024, peakMb: Math.max(peakKb, read()) / 1024 };
	};
}

/**
 * Runs the section in sandbox `sb` (scripts/n8n/sandbox.mjs, its n8n not running: this starts one and stops it) and
 * returns its Markdown.
 * @param {{ sb: any, log?: (m: string) => void, runs?: number, count?: number }} o
 */
export async function benchAts({ sb, log = () => {}, runs = 3, count = 5000 }) {
	const { INFORMANT, manyReceipts } = requireTestModule('fixtures/sri/month');
	const folder = join(sb.filesFolder, 'ats-bench');
	rmSync(folder, { recursive: true, force: true });
	mkdirSync(join(folder, 'received'), { recursive: true });
	const receipts = manyReceipts({ year: 2026, month: 10, count });
	for (const r of receipts) writeFileSync(join(folder, 'received', r.fileName), r.file);
	const ats = node('ATS', SRI, {
		resource: 'monthlyAnnex',
		operation: 'build',
		informantRuc: INFORMANT.ruc,
		informantName: INFORMANT.name,
		filing: 'monthly',
		period: 'chosen',
		yearMonth: '2026-10',
		taxSupport: '01',
		electronicSales: 'include',
		options: {},
	});
	const files = node('Files', 'n8n-nodes-base.readWriteFile', {
		operation: 'read',
		fileSelector: `${folder}/received/*.xml`,
		options: {},
	});
	const save = node('Save', 'n8n-nodes-base.readWriteFile', {
		operation: 'write',
		fileName: `=${folder}/{{ $binary.data.fileName }}`,
		dataPropertyName: 'data',
		options: {},
	});
	const readXml = node('Read XML', SRI, {
		resource: 'receipt',
		operation: 'readXml',
		xmlSource: 'binary',
		binaryPropertyName: 'data',
		options: {},
	});
	const direct = 'benchAtsFiles';
	const throughReadXml = 'benchAtsReadXml';
	const start = node('Start', 'n8n-nodes-base.manualTrigger', {});
	await sb.importWorkflows([
		{
			id: direct,
			name: direct,
			settings: { executionOrder: 'v1' },
			nodes: [start, files, ats, save],
			connections: chain('Start', 'Files', 'ATS', 'Save'),
		},
		{
			id: throughReadXml,
			name: throughReadXml,
			settings: { executionOrder: 'v1' },
			nodes: [start, files, readXml, ats, save],
			connections: chain('Start', 'Files', 'Read XML', 'ATS', 'Save'),
		},
	]);
	const n8n = await startSuiteN8n(sb);
	const rows = [];
	let summary = /** @type {Record<string, any>} */ ({});
	try {
		for (const id of [direct, throughReadXml]) await n8n.execute(id, { timeoutMs: 600_000 }); // warm-up
		for (let k = 0; k < runs; k++) {
			for (const id of [direct, throughReadXml]) {
				const stop = residentMemory(/** @type {number} */ (n8n.process.child.pid));
				const run = await n8n.execute(id, { timeoutMs: 600_000 });
				const { startMb, peakMb } = stop();
				if (run.data.resultData.error)
					throw new Error(`ATS bench: ${run.data.resultData.error.message}`);
				const runData = run.data.resultData.runData;
				const time = (name) => runData[name]?.[0]?.executionTime ?? 0;
				summary = /** @type {Record<string, any>} */ (nodeOutput(run, 'ATS')[0].json);
				rows.push({
					id,
					files: time('Files'),
					read: time('Read XML'),
					ats: time('ATS'),
					startMb,
					peakMb,
				});
				log(`ats ${count} (${id}): the ATS node ${time('ATS')} ms, n8n at ${peakMb.toFixed(0)} MB`);
			}
		}
	} finally {
		await n8n.stop();
	}
	const xmlBytes = statSync(join(folder, String(summary.file_name))).size;
	const jsonBytes = Buffer.byteLength(JSON.stringify(summary));
	const pick = (id, key) => median(rows.filter((r) => r.id === id).map((r) => r[key]));
	const line = (id, what) =>
		`| ${what} | ${pick(id, 'files')} | ${id === direct ? '—' : pick(id, 'read')} | **${pick(id, 'ats')}** | ${pick(id, 'startMb').toFixed(0)} → ${pick(id, 'peakMb').toFixed(0)} MB |`;
	return `## ATS: a month of ${count.toLocaleString('en-US')} receipts

One running n8n (\`n8n start\`), runs through its REST API, one warm-up run, then the median of ${runs} runs of each
workflow (bench/ats.mjs): Read/Write Files reads ${count.toLocaleString('en-US')} XML files (authorization files and bare
receipts), the ATS (Monthly Annex → Build) is built from them and written to disk. The annex: ${summary.counts?.compras} purchases
(${summary.counts?.retenciones_emitidas} withheld by the company), ${summary.counts?.ventas_comprobantes} sales in ${summary.counts?.ventas_grupos} groups;
the file ${(xmlBytes / 2 ** 20).toFixed(1)} MB, its JSON ${(jsonBytes / 2 ** 20).toFixed(1)} MB (a run may keep 512 MB).

| workflow | Read/Write Files (ms) | Read XML (ms) | **ATS node (ms)** | n8n's resident memory, run's start → peak |
|---|---|---|---|---|
${line(direct, 'Files → ATS (the ATS reads each file)')}
${line(throughReadXml, 'Files → Read XML → ATS')}

Target: the ATS node at or under 2.5 s for 5,000 receipts (it took 4.9 s when the ATS still built Read XML's summary of each receipt and read one file at a time).
`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
	const sb = await prepareSandbox({ userFolder: userFolderFor('bench-ats'), quiet: true });
	try {
		process.stdout.write(
			await benchAts({
				sb,
				log: (m) => process.stderr.write(`[bench] ${m}\n`),
				runs: Number(process.env.BENCH_RUNS ?? 3),
				count: Number(process.env.BENCH_ATS_RECEIPTS ?? 5000),
			}),
		);
	} finally {
		await sb.stop(); // the simulators prepareSandbox started (the ATS asks none)
	}
}
