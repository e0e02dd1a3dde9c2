#!/usr/bin/env node
// What the memory budget (nodes/shared/budget.ts) counts for an output, against what it takes: each kind of output
// (rows of conceptos, a CFDI's summary with its conceptos and `comprobante` tree, SRI receipts read, pages of plans,
// a file kept as base64) built by the package's own code in a Node process of its own (`node --expose-gc`), held as
// the router holds it (scrubbed copy, paired): its heap after a garbage collection against `heldSize` (the estimate
// budget.ts makes from its shape), the process's resident growth while it was built and held, and what the budget
// counts (`keptSize`). Part 2 does the same in a real n8n: the SAT node reading a large CFDI in `n8n execute`, whose
// peak resident memory is set against the same run reading the file alone. Standalone (`npm run build` first):
// `node bench/memory.mjs` (part 1), `node bench/memory.mjs --n8n` (part 2); `npm run bench` adds both.
import { execFileSync } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseCliJson } from '../scripts/n8n/boot.mjs';
import { chain, node } from '../scripts/n8n/workflow.mjs';

const require = createRequire(import.meta.url);
const here = fileURLToPath(import.meta.url);
const MB = 1024 * 1024;
const mb = (bytes) => (bytes / MB).toFixed(1);

/**
 * A CFDI 4.0 of about `bytes` bytes: conceptos of about 120 bytes each (a short description, data in attributes),
 * so a 10 MB file holds about 80,000 of them, as the largest CFDIs do.
 */
function bigCfdi(bytes = 10 * 1000 * 1000) {
	const concepto = (n) =>
		`<cfdi:Concepto ClaveProdServ="01010101" Cantidad="1" ClaveUnidad="H87" Descripcion="Art ${n}" ValorUnitario="1" Importe="1" ObjetoImp="01"/>\n`;
	const head =
		'<?xml version="1.0" encoding="UTF-8"?><cfdi:Comprobante xmlns:cfdi="http://www.sat.gob.mx/cfd/4" Version="4.0" Serie="A" Folio="1" Fecha="2026-01-01T00:00:00" SubTotal="1" Moneda="MXN" Total="1" TipoDeComprobante="I" Exportacion="01" MetodoPago="PUE" LugarExpedicion="01000"><cfdi:Emisor Rfc="EKU9003173C9" Nombre="ESCUELA KEMPER URGATE" RegimenFiscal="601"/><cfdi:Receptor Rfc="XAXX010101000" Nombre="PUBLICO EN GENERAL" DomicilioFiscalReceptor="01000" RegimenFiscalReceptor="616" UsoCFDI="S01"/><cfdi:Conceptos>';
	const tail = '</cfdi:Conceptos></cfdi:Comprobante>';
	const parts = [head];
	let size = head.length + tail.length;
	for (let n = 0; size < bytes; n++) {
		const c = concepto(n);
		parts.push(c);
		size += c.length;
	}
	parts.push(tail);
	return parts.join('');
}

/** The outputs measured in part 1: each builds the JSON objects of its items with the package's code. */
const KINDS = {
	'SAT Read CFDI XML, One Item per Concepto (10 MB CFDI)': () => {
		const { readCfdi } = require('../dist/nodes/Sat/domain/cfdi.js');
		const { conceptoRows } = require('../dist/nodes/Sat/actions/cfdi/output.js');
		return conceptoRows(
			/** @type {any} */ ({ reading: readCfdi(bigCfdi(), { maxBytes: 11 * MB }) }),
		);
	},
	'SAT Read CFDI XML, one item: summary, conceptos, comprobante (10 MB CFDI)': () => {
		const { readCfdi } = require('../dist/nodes/Sat/domain/cfdi.js');
		const { cfdiOutput } = require('../dist/nodes/Sat/actions/cfdi/output.js');
		return cfdiOutput(
			/** @type {any} */ ({ reading: readCfdi(bigCfdi(), { maxBytes: 11 * MB }) }),
		).map((i) => i.json);
	},
	'SRI Read XML: 300 receipts of 120 lines (comprobante trees)': () => {
		const { parseReceipt } = require('../dist/nodes/Sri/domain/receipt.js');
		const { presentReceipt } = require('../dist/nodes/Sri/domain/result.js');
		const lines = Array.from(
			{ length: 120 },
			(_, n) =>
				`<detalle><codigoPrincipal>P${n}</codigoPrincipal><descripcion>Producto ${n} de la línea</descripcion><cantidad>1.00</cantidad><precioUnitario>10.00</precioUnitario><descuento>0.00</descuento><precioTotalSinImpuesto>10.00</precioTotalSinImpuesto><impuestos><impuesto><codigo>2</codigo><codigoPorcentaje>4</codigoPorcentaje><tarifa>15.00</tarifa><baseImponible>10.00</baseImponible><valor>1.50</valor></impuesto></impuestos></detalle>`,
		).join('');
		const xml = `<factura id="comprobante" version="2.1.0"><infoTributaria><ambiente>1</ambiente><tipoEmision>1</tipoEmision><razonSocial>Distribuidora Andina S.A.</razonSocial><ruc>1792146739001</ruc><codDoc>01</codDoc><estab>001</estab><ptoEmi>002</ptoEmi><secuencial>000000123</secuencial><dirMatriz>Quito</dirMatriz></infoTributaria><infoFactura><fechaEmision>31/03/2026</fechaEmision><totalSinImpuestos>1200.00</totalSinImpuestos><importeTotal>1380.00</importeTotal></infoFactura><detalles>${lines}</detalles></factura>`;
		return Array.from({ length: 300 }, () => presentReceipt(parseReceipt(xml)).json);
	},
	'Partners Plan → Get Many: 10,000 plans': () =>
		Array.from({ length: 10_000 }, (_, n) => ({
			uuid: `6f1c${String(n).padStart(4, '0')}-8b7a-4c1e-9a55-0c2f9d1e7b${String(n % 100).padStart(2, '0')}`,
			name: `Plan ${n}`,
			status: 'active',
			vigencies: [{ uuid: `v-${n}`, vigency: 'Mensual', folios: 100, price: 199.5 }],
			services: { extra_rfc: 0, extra_user: 1, pdf_templates: ['classic'] },
		})),
	'A 20 MB file kept in memory (base64)': () => [
		{
			fileName: 'document.pdf',
			data: Buffer.alloc(20 * MB, 7).toString('base64'),
		},
	],
};

/** Part 1, in this process (run as a child with --expose-gc): one kind's heap against heldSize and the old count. */
function measureKind(name) {
	const { heldSize, keptSize } = require('../dist/nodes/shared/budget.js');
	const { redact } = require('../dist/nodes/shared/redact.js');
	const gc = /** @type {() => void} */ (globalThis.gc);
	gc();
	gc();
	// Large strings made from bytes (a file's base64) live outside V8's heap, as external strings: counted too.
	const used = () => process.memoryUsage().heapUsed + process.memoryUsage().external;
	const before = used();
	const rssBefore = process.memoryUsage().rss;
	// As the router keeps them: the scrubber's copy (redact.ts copies every object), paired with its input item.
	const items = KINDS[name]().map((json) => ({
		json: redact(json, ['a-secret-of-the-run']),
		pairedItem: { item: 0 },
	}));
	gc();
	gc();
	const heap = used() - before;
	const resident = process.resourceUsage().maxRSS * 1024 - rssBefore;
	let held = 0;
	let counted = 0;
	let jsonText = 0;
	for (const item of items) {
		held += heldSize(item);
		counted += keptSize(item.json);
		jsonText += Buffer.byteLength(JSON.stringify(item.json));
	}
	return { name, items: items.length, jsonText, heap, resident, held, counted };
}

/** Part 1 for every kind, each in a fresh process. */
export function measureKinds() {
	return Object.keys(KINDS).map((name) =>
		JSON.parse(
			execFileSync(process.execPath, ['--expose-gc', here, '--kind', name], {
				encoding: 'utf8',
				maxBuffer: 16 * MB,
			}),
		),
	);
}

/** The markdown of part 1. */
export function benchMemoryHeap() {
	const rows = measureKinds();
	return `## Memory: what the budget counts, against the heap

\`node bench/memory.mjs\`: each output built by the package's code in a Node process of its own, held as the router
holds it. *JSON* is what the budget counted before (the items' JSON text); *heap* is what the items take after a
garbage collection; *resident* is how much the process grew while it read and held them (reading a large XML takes
memory of its own while it is read); *estimate* is \`heldSize\` (nodes/shared/budget.ts), from the items' shape;
*counted* is what the budget counts, the estimate times N8N_HOLDS (16: what n8n's resident memory grows by for an
output's objects, measured in n8n: the next section). The budget stops a run past 512 MB counted.

| output | items | JSON | heap | resident | estimate | estimate / heap | counted |
|---|---|---|---|---|---|---|---|
${rows.map((r) => `| ${r.name} | ${r.items.toLocaleString('en-US')} | ${mb(r.jsonText)} MB | ${mb(r.heap)} MB | ${mb(r.resident)} MB | ${mb(r.held)} MB | ${(r.held / r.heap).toFixed(2)} | ${mb(r.counted)} MB |`).join('\n')}
`;
}

/**
 * Loaded into every `n8n execute` of part 2 (NODE_OPTIONS=--require): at exit, the process's peak resident memory
 * goes to the file BENCH_PEAK_FILE names, a JSON line with the process's arguments. Its stdout, a pipe, is made
 * blocking: n8n exits as soon as it has written the run, and a pipe written asynchronously loses the end of a
 * large one.
 */
const PEAK_RECORDER = `process.stdout._handle?.setBlocking?.(true);
const stringify = JSON.stringify;
let beforePrint;
JSON.stringify = function (value, replacer, space) {
  if (beforePrint === undefined && space === 2 && value?.data?.resultData)
    beforePrint = process.resourceUsage().maxRSS * 1024;
  return stringify.call(this, value, replacer, space);
};
process.on('exit', () => require('node:fs').appendFileSync(process.env.BENCH_PEAK_FILE,
  stringify({ argv: process.argv.slice(1).join(' '), peak: process.resourceUsage().maxRSS * 1024, beforePrint }) + '\\n'));`;

/** The CFDIs of part 2, by the size of their file. */
const N8N_SIZES = [1, 1.5].map((megabytes) => megabytes * 1000 * 1000);

/**
 * Part 2: in the real n8n of `sb` (bench/setup.mjs), a workflow reads a large CFDI from the files folder and the SAT
 * node reads it (One Item per Concepto, then one item per CFDI). Each run is a fresh `n8n execute`; its peak
 * resident memory is set against the peak of the same workflow without the SAT node (start-up, the file read): the
 * difference is what n8n held for the node's output (its run data, the execution saved, the output printed),
 * against what the budget counted for it (`keptSize` of every item out). Median of `runs` runs.
 * @param {{ sb: any, log: (m: string) => void, runs: number }} o
 */
export async function benchMemoryInN8n({ sb, log, runs }) {
	const { keptSize } = require('../dist/nodes/shared/budget.js');
	const recorder = join(tmpdir(), `bench-peak-${process.pid}.cjs`);
	const peaks = join(tmpdir(), `bench-peak-${process.pid}.jsonl`);
	writeFileSync(recorder, PEAK_RECORDER);
	const read = (size, onePerConcepto) =>
		node(
			'Target',
			sb.nodeType('sat'),
			{
				resource: 'cfdi',
				operation: 'readXml',
				xmlSource: 'binary',
				binaryPropertyName: 'data',
				onePerConcepto,
			},
			{ typeVersion: 2 },
		);
	const cases = N8N_SIZES.flatMap((size) => {
		const file = join(sb.filesFolder, `memory-${size}.xml`);
		writeFileSync(file, bigCfdi(size));
		const files = node('Files', 'n8n-nodes-base.readWriteFile', {
			operation: 'read',
			fileSelector: file,
			options: {},
		});
		const workflow = (id, ...target) => ({
			id,
			name: id,
			settings: { executionOrder: 'v1' },
			nodes: [node('Start', 'n8n-nodes-base.manualTrigger', {}), files, ...target],
			connections: chain('Start', 'Files', ...target.map((t) => t.name)),
		});
		const mbs = `${size / 1000 / 1000} MB`;
		return [
			{ id: `bMemFile${size}`, size, workflow: workflow(`bMemFile${size}`) },
			{
				id: `bMemRows${size}`,
				size,
				label: `SAT Read CFDI XML, One Item per Concepto (${mbs} CFDI)`,
				workflow: workflow(`bMemRows${size}`, read(size, true)),
			},
			{
				id: `bMemOne${size}`,
				size,
				label: `SAT Read CFDI XML, one item: summary, conceptos, comprobante (${mbs} CFDI)`,
				workflow: workflow(`bMemOne${size}`, read(size, false)),
			},
		];
	});
	await sb.importWorkflows(cases.map((c) => c.workflow));
	const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
	/**
	 * One `n8n execute`: its peak resident bytes when the run was over and saved (before the CLI prints it) and at
	 * exit, and what the budget counts for the Target node's items.
	 */
	const execute = async (id) => {
		rmSync(peaks, { force: true });
		const r = await sb.cli(['execute', `--id=${id}`, '--rawOutput'], {
			timeoutMs: 600_000,
			env: { NODE_OPTIONS: `--require ${recorder}`, BENCH_PEAK_FILE: peaks },
		});
		const run = parseCliJson(r.stdout);
		if (run.data.resultData.error) throw new Error(`${id}: ${run.data.resultData.error.message}`);
		const lines = readFileSync(peaks, 'utf8')
			.trim()
			.split('\n')
			.map((l) => JSON.parse(l));
		const cli = lines.find((l) => l.argv.includes('execute') && l.beforePrint !== undefined);
		if (!cli) throw new Error(`${id}: no peak recorded for the n8n execute process`);
		const items = run.data.resultData.runData.Target?.[0].data.main[0] ?? [];
		const counted = items.reduce((sum, item) => sum + keptSize(item.json), 0);
		return { run: cli.beforePrint, peak: cli.peak, items: items.length, counted };
	};
	/** @type {Record<string, { run: number[], peak: number[], items: number, counted: number }>} */
	const results = {};
	try {
		for (let round = 0; round < runs; round++)
			for (const c of cases) {
				const r = await execute(c.id);
				results[c.id] ??= { run: [], peak: [], items: r.items, counted: r.counted };
				results[c.id].run.push(r.run);
				results[c.id].peak.push(r.peak);
				log(
					`${c.id} round ${round + 1}: ${mb(r.run)} MB at the run's end, ${mb(r.peak)} MB at exit, ${r.items} items, ${mb(r.counted)} MB counted`,
				);
			}
	} finally {
		rmSync(recorder, { force: true });
		rmSync(peaks, { force: true });
	}
	const rows = cases
		.filter((c) => c.label)
		.map((c) => {
			const r = results[c.id];
			const file = results[`bMemFile${c.size}`];
			const held = median(r.run) - median(file.run);
			const printed = median(r.peak) - median(file.peak);
			return `| ${c.label} | ${r.items.toLocaleString('en-US')} | ${mb(r.counted)} MB | ${mb(held)} MB | **${(held / r.counted).toFixed(2)}** | ${mb(printed)} MB | ${(printed / r.counted).toFixed(2)} |`;
		});
	return `## Memory in n8n: what the budget counts, against what n8n holds

The same outputs in a real n8n: \`n8n execute\` of a workflow that reads a large CFDI from the files folder (Read/Write
Files from Disk) and gives it to the SAT node. *Held* is the process's peak resident memory when the run is over and
saved (before the CLI prints it) less the same peak of the workflow without the SAT node (n8n's start-up and the file
read): what reading the CFDI and holding, saving the node's output took. *With the print* adds what \`n8n execute\`
alone does after that (the run written out as JSON on its output). *Counted* is what the budget counted for those
items (\`keptSize\`). Held / counted at or below 1 means the budget stops a run before n8n holds more than it
allows. Median of ${runs} run(s), each in a fresh process.

| output | items | counted | held | held / counted | with the print | with the print / counted |
|---|---|---|---|---|---|---|
${rows.join('\n')}
`;
}

/** The section of BENCHMARKS.md (`npm run bench`). */
export function benchMemory() {
	return benchMemoryHeap();
}

if (process.argv[1] === here) {
	const at = process.argv.indexOf('--kind');
	if (at > 0) process.stdout.write(JSON.stringify(measureKind(process.argv[at + 1])));
	else if (process.argv.includes('--n8n')) {
		const { runSectionAlone } = await import('./setup.mjs');
		await runSectionAlone('bench-memory', benchMemoryInN8n);
	} else process.stdout.write(benchMemory());
}
