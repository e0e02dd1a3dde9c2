// The DIOT section of BENCHMARKS.md: a month of 5,000 received CFDIs (files in n8n's file folder) turned into one
// DIOT file by SAT (Mexico) → Build DIOT File inside a running n8n (`n8n start`, runs as the editor starts them and
// read back from the executions n8n stored: `n8n execute` cannot print a run this large whole), read straight
// from the files and after Read CFDI XML (which passes the files along). Beside the time: the peak resident memory
// of the n8n process, and the output's size against the memory one run of a node may keep (nodes/shared/budget.ts,
// 512 MB). Target: 5,000 CFDIs in a few seconds. Nothing here fails on speed.
//
//   node bench/diot.mjs              # alone (builds, prepares its own sandbox); npm run bench adds the section
import { createRequire } from 'node:module';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { prepareSandbox, requireTestModule, userFolderFor } from '../scripts/n8n/sandbox.mjs';
import { startSuiteN8n } from '../scripts/n8n/suite.mjs';
import { chain, node } from '../scripts/n8n/workflow.mjs';

const PERIOD = '2026-10';

/**
 * How many of the month's files the workflow with Read CFDI XML reads: one run of that node keeps each CFDI whole
 * (summary, conceptos, `comprobante`), and 5,000 of them pass the memory one run of a node may keep (about 2,700
 * fit); a user splits them with Loop Over Items, or gives the files to Build DIOT File straight.
 */
const READ_COUNT = 2000;
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const require = createRequire(import.meta.url);
/** @type {typeof import('../nodes/shared/tax/rfc.js')} */
const { checkDigit } = require('../dist/nodes/shared/tax/rfc.js');

/** `count` RFCs of companies with valid check digits (3 letters, a date, a homoclave), one per supplier. */
function supplierRfcs(count) {
	return Array.from({ length: count }, (_, k) => {
		const letters = [k % 26, Math.floor(k / 26) % 26, 7]
			.map((n) => String.fromCharCode(65 + n))
			.join('');
		const body = `${letters}${String(10 + (k % 80)).padStart(2, '0')}0101A${k % 10}`;
		return body + checkDigit(body);
	});
}

/**
 * The month: 5,000 CFDIs from 250 suppliers — for every 10, six PUE invoices at 16 %, one at 8 % with an exempt
 * concepto, a credit note, a PPD invoice and its payment in the month.
 */
export function benchMonth(count = 5000) {
	const { receivedCfdi } = requireTestModule('simulator/received');
	const rfcs = supplierRfcs(250);
	const files = [];
	for (let k = 0; k < count; k++) {
		const emisor = {
			rfc: rfcs[Math.floor(k / 10) % rfcs.length],
			nombre: `PROVEEDOR ${Math.floor(k / 10) % rfcs.length}`,
			regimen: '601',
		};
		const day = String(1 + (k % 28)).padStart(2, '0');
		const base = {
			name: `bench-${k}`,
			fecha: `${PERIOD}-${day}T10:00:00`,
			serie: 'B',
			folio: String(k),
			emisor,
		};
		const concepto = (importe, tasa) => ({
			clave: '43211503',
			descripcion: 'Artículo de oficina',
			cantidad: '1',
			valorUnitario: importe,
			importe,
			traslados: [{ base: importe, tasa, importe: (Number(importe) * Number(tasa)).toFixed(2) }],
		});
		const kind = k % 10;
		const spec =
			kind < 6
				? {
						...base,
						tipo: 'I',
						metodo: 'PUE',
						conceptos: [concepto(`${100 + k}.50`, '0.160000'), concepto('20.00', '0.160000')],
					}
				: kind === 6
					? {
							...base,
							tipo: 'I',
							metodo: 'PUE',
							conceptos: [
								concepto('300.00', '0.080000'),
								{
									clave: '55101500',
									descripcion: 'Libro',
									cantidad: '1',
									valorUnitario: '80.00',
									importe: '80.00',
									traslados: [{ base: '80.00', exento: true }],
								},
							],
						}
					: kind === 7
						? { ...base, tipo: 'E', metodo: 'PUE', conceptos: [concepto('10.00', '0.160000')] }
						: kind === 8
							? { ...base, tipo: 'I', metodo: 'PPD', conceptos: [concepto('1000.00', '0.160000')] }
							: {
									...base,
									tipo: 'P',
									pagos: [
										{
											fecha: `${PERIOD}-${day}T12:00:00`,
											monto: '1160.00',
											docs: [
												{
													of: `bench-${k - 1}`,
													parcialidad: 1,
													saldoAnterior: '1160.00',
													pagado: '1160.00',
													insoluto: '0.00',
													traslados: [{ base: '1000.00', tasa: '0.160000', importe: '160.00' }],
												},
											],
										},
									],
								};
		const { uuid, xml } = receivedCfdi(spec, PERIOD);
		files.push({ fileName: `${uuid}.xml`, xml });
	}
	return { files, suppliers: rfcs.length };
}

/** Peak resident memory (MB) of process `pid` while `run` runs, sampled every 100 ms from /proc (Linux). */
async function withPeakRss(pid, run) {
	let peakKb = 0;
	const sample = () => {
		try {
			const kb = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
			peakKb = Math.max(peakKb, Number(kb ?? 0));
		} catch {
			// no /proc here
		}
	};
	sample();
	const timer = setInterval(sample, 100);
	try {
		return { result: await run(), peakMb: peakKb / 1024 };
	} finally {
		clearInterval(timer);
	}
}

/**
 * The section: `runs` runs of each workflow on a sandbox `sb` (scripts/n8n/sandbox.mjs prepareSandbox), median.
 * @param {{ sb: any; log?: (m: string) => void; runs?: number; count?: number }} options
 */
export async function benchDiot({ sb, log = () => {}, runs = 3, count = 5000 }) {
	const { files, suppliers } = benchMonth(count);
	const folder = join(sb.filesFolder, 'diot-bench');
	rmSync(folder, { recursive: true, force: true });
	mkdirSync(folder, { recursive: true });
	for (const f of files) writeFileSync(join(folder, f.fileName), f.xml);
	const readCount = Math.min(count, READ_COUNT);
	const readFolder = join(sb.filesFolder, 'diot-bench-read');
	rmSync(readFolder, { recursive: true, force: true });
	mkdirSync(readFolder, { recursive: true });
	for (const f of files.slice(0, readCount)) writeFileSync(join(readFolder, f.fileName), f.xml);
	const diot = node('Target', 'n8n-nodes-latam-fiscal.sat', {
		resource: 'diot',
		operation: 'build',
		taxpayerRfc: 'EKU9003173C9',
		period: PERIOD,
	});
	const readFiles = node('Files', 'n8n-nodes-base.readWriteFile', {
		operation: 'read',
		fileSelector: `${folder}/*.xml`,
		options: {},
	});
	const readXml = node('Read CFDI XML', 'n8n-nodes-latam-fiscal.sat', {
		resource: 'cfdi',
		operation: 'readXml',
		xmlSource: 'binary',
		binaryPropertyName: 'data',
	});
	const readSome = node('Files', 'n8n-nodes-base.readWriteFile', {
		operation: 'read',
		fileSelector: `${readFolder}/*.xml`,
		options: {},
	});
	const start = node('Start', 'n8n-nodes-base.manualTrigger', {});
	await sb.importWorkflows([
		{
			id: 'bDiotFiles',
			name: 'bDiotFiles',
			settings: { executionOrder: 'v1' },
			nodes: [start, readFiles, diot],
			connections: chain('Start', 'Files', 'Target'),
		},
		{
			id: 'bDiotRead',
			name: 'bDiotRead',
			settings: { executionOrder: 'v1' },
			nodes: [start, readSome, readXml, diot],
			connections: chain('Start', 'Files', 'Read CFDI XML', 'Target'),
		},
	]);
	const n8n = await startSuiteN8n(sb);
	const rows = [];
	try {
		for (const { id, what, cfdis } of [
			{
				id: 'bDiotFiles',
				what: 'Read Files → Build DIOT File (each CFDI read from its file)',
				cfdis: count,
			},
			{
				id: 'bDiotRead',
				what: 'Read Files → Read CFDI XML → Build DIOT File (from the files passed along)',
				cfdis: readCount,
			},
		]) {
			const ms = [];
			const rss = [];
			const readMs = [];
			let out;
			for (let r = 0; r < runs; r++) {
				const { result: run, peakMb } = await withPeakRss(n8n.process.child.pid, () =>
					n8n.execute(id, { timeoutMs: 600_000 }),
				);
				if (run.data.resultData.error)
					throw new Error(`${id}: ${run.data.resultData.error.message}`);
				const target = run.data.resultData.runData.Target?.[0];
				if (!target)
					throw new Error(
						`${id}: the run has no Target node (nodes run: ${Object.keys(run.data.resultData.runData).join(', ')}; last: ${run.data.resultData.lastNodeExecuted})`,
					);
				ms.push(target.executionTime);
				const read = run.data.resultData.runData['Read CFDI XML']?.[0];
				if (read) readMs.push(read.executionTime);
				rss.push(peakMb);
				out = target.data.main[0][0].json;
				log(`${id}: ${target.executionTime} ms, ${peakMb.toFixed(0)} MB`);
			}
			rows.push({
				what,
				cfdis,
				ms: median(ms),
				readMs: readMs.length ? median(readMs) : undefined,
				peakMb: median(rss),
				lines: out.totals.lines,
				outKb: JSON.stringify(out).length / 1024,
			});
		}
	} finally {
		await n8n.stop();
	}
	return `## DIOT: a month of ${count.toLocaleString('en-US')} CFDIs (SAT (Mexico) → Build DIOT File)

${count.toLocaleString('en-US')} CFDI 4.0 files from ${suppliers} suppliers (PUE at 16 % and 8 %, exempt, credit notes, PPD invoices with
their Pagos 2.0 payments) in n8n's file folder, read by n8n's Read/Write Files from Disk; one running n8n, median of ${runs} runs. The time is the DIOT node's \`executionTime\`; the output (one item: the file and a row per supplier) is
far below the 512 MB one run of a node may keep. Target: a few seconds. The workflow with Read CFDI XML reads the first
${readCount.toLocaleString('en-US')} files: that node keeps each CFDI whole, and the ${count.toLocaleString('en-US')} pass what one run of a node may keep (a
user splits them with Loop Over Items, or gives the files to Build DIOT File straight).

| workflow | CFDIs | DIOT node (ms) | ms per 1,000 CFDIs | Read CFDI XML (ms) | lines | output JSON | peak RSS of the n8n process |
|---|---|---|---|---|---|---|---|
${rows.map((r) => `| ${r.what} | ${r.cfdis.toLocaleString('en-US')} | ${r.ms} | ${((r.ms / r.cfdis) * 1000).toFixed(0)} | ${r.readMs ?? '—'} | ${r.lines} | ${r.outKb.toFixed(0)} kB | ${r.peakMb.toFixed(0)} MB |`).join('\n')}
`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
	const userFolder = userFolderFor('bench-diot');
	rmSync(userFolder, { recursive: true, force: true });
	const sb = await prepareSandbox({ userFolder, quiet: true });
	const log = (m) => process.stderr.write(`[bench diot] ${m}\n`);
	try {
		process.stdout.write(
			await benchDiot({
				sb,
				log,
				runs: Number(process.env.BENCH_RUNS ?? 3),
				count: Number(process.env.BENCH_DIOT_CFDIS ?? 5000),
			}),
		);
	} finally {
		await sb.stop();
	}
}
