#!/usr/bin/env node
// What the memory budget (nodes/shared/budget.ts) counts for an output, against what it really takes:
// 1. the heap, in a Node process of its own (`node --expose-gc`): each kind of output built by the package's own
//    code (rows of conceptos, a CFDI's summary with its conceptos and `comprobante` tree, SRI receipts read, pages of
//    plans, a file kept as base64), held as the router holds it (scrubbed copy, paired), its heap after a garbage
//    collection against `heldSize`, the estimate budget.ts makes from its shape;
// 2. in real n8n (`npm run bench`, benchMemoryInN8n): the resident memory an `n8n execute` of SAT → Read CFDI XML on a
//    10 MB CFDI reaches, minus that of the same workflow without the node, against what the budget counts — the
//    measure of N8N_HOLDS.
// Standalone (`npm run build` first): `node bench/memory.mjs` prints part 1.
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const here = fileURLToPath(import.meta.url);
const MB = 1024 * 1024;
const mb = (bytes) => (bytes / MB).toFixed(1);

/**
 * A CFDI 4.0 of about `bytes` bytes: conceptos of about 120 bytes each (a short description, data in attributes),
 * so a 10 MB file holds about 80,000 of them, as the largest CFDIs do.
 */
export function bigCfdi(bytes = 10 * 1000 * 1000) {
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
		return conceptoRows({ reading: readCfdi(bigCfdi(), { maxBytes: 11 * MB }) });
	},
	'SAT Read CFDI XML, one item: summary, conceptos, comprobante (10 MB CFDI)': () => {
		const { readCfdi } = require('../dist/nodes/Sat/domain/cfdi.js');
		const { cfdiOutput } = require('../dist/nodes/Sat/actions/cfdi/output.js');
		return cfdiOutput({ reading: readCfdi(bigCfdi(), { maxBytes: 11 * MB }) }).map((i) => i.json);
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
	// As the router keeps them: the scrubber's copy (redact.ts copies every object), paired with its input item.
	const items = KINDS[name]().map((json) => ({
		json: redact(json, ['a-secret-of-the-run']),
		pairedItem: { item: 0 },
	}));
	gc();
	gc();
	const heap = used() - before;
	let held = 0;
	let counted = 0;
	let jsonText = 0;
	for (const item of items) {
		held += heldSize(item);
		counted += keptSize(item.json);
		jsonText += Buffer.byteLength(JSON.stringify(item.json));
	}
	return { name, items: items.length, jsonText, heap, held, counted };
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
holds it, its heap measured after a garbage collection. *JSON* is what the budget counted before (the items' JSON
text); *estimate* is \`heldSize\` (nodes/shared/budget.ts), from the items' shape; *counted* is what the budget counts
now, the estimate times what n8n makes of it (N8N_HOLDS, measured in the next table).

| output | items | JSON | heap after GC | estimate | estimate / heap | counted |
|---|---|---|---|---|---|---|
${rows.map((r) => `| ${r.name} | ${r.items.toLocaleString('en-US')} | ${mb(r.jsonText)} MB | ${mb(r.heap)} MB | ${mb(r.held)} MB | ${(r.held / r.heap).toFixed(2)} | ${mb(r.counted)} MB |`).join('\n')}
`;
}

/**
 * Part 2, in real n8n: SAT → Read CFDI XML on a 10 MB CFDI given as text by a Code node, one item and One Item per
 * Concepto, each against the same workflow with a No Op instead of the node (the Code node's 10 MB are n8n's in both).
 * `execute(id)` runs a workflow with `n8n execute`, sampling the process's resident memory (bench/run.mjs).
 * @param {{ sb: any, execute: (id: string, o: { sampleMemory: boolean }) => Promise<{ peakMb: number, items: number }>, log: (m: string) => void, runs?: number }} o
 */
export async function benchMemoryInN8n({ sb, execute, log, runs = 3 }) {
	const { node, chain } = await import('../scripts/n8n/workflow.mjs');
	const { readCfdi } = require('../dist/nodes/Sat/domain/cfdi.js');
	const { conceptoRows, cfdiOutput } = require('../dist/nodes/Sat/actions/cfdi/output.js');
	const { keptSize } = require('../dist/nodes/shared/budget.js');
	const code = `const c = (n) => '<cfdi:Concepto ClaveProdServ="01010101" Cantidad="1" ClaveUnidad="H87" Descripcion="Art ' + n + '" ValorUnitario="1" Importe="1" ObjetoImp="01"/>\\n';
const parts = [${JSON.stringify(bigCfdi(0).replace('</cfdi:Conceptos></cfdi:Comprobante>', ''))}];
let size = parts[0].length;
for (let n = 0; size < 10000000; n++) { const s = c(n); parts.push(s); size += s.length; }
parts.push('</cfdi:Conceptos></cfdi:Comprobante>');
return [{ json: { xml: parts.join('') } }];`;
	const workflow = (id, target) => ({
		id,
		name: id,
		settings: { executionOrder: 'v1' },
		nodes: [
			node('Start', 'n8n-nodes-base.manualTrigger', {}),
			node('Cfdi', 'n8n-nodes-base.code', { jsCode: code }, { typeVersion: 2 }),
			{ ...target, name: 'Target' },
		],
		connections: chain('Start', 'Cfdi', 'Target'),
	});
	const sat = (onePerConcepto) =>
		node('Target', 'n8n-nodes-latam-fiscal.sat', {
			resource: 'cfdi',
			operation: 'readXml',
			xmlSource: 'text',
			xml: '={{ $json.xml }}',
			onePerConcepto,
		});
	await sb.importWorkflows([
		workflow('bMemNoOp', node('Target', 'n8n-nodes-base.noOp', {})),
		workflow('bMemSummary', sat(false)),
		workflow('bMemRows', sat(true)),
	]);
	const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
	const peak = async (id) => {
		const peaks = [];
		let items = 0;
		for (let k = 0; k < runs; k++) {
			const r = await execute(id, { sampleMemory: true });
			peaks.push(r.peakMb);
			items = r.items;
		}
		log(`memory ${id}: ${median(peaks).toFixed(0)} MB`);
		return { peakMb: median(peaks), items };
	};
	const base = await peak('bMemNoOp');
	const reading = readCfdi(bigCfdi(), { maxBytes: 11 * MB });
	const cases = [
		[
			'SAT Read CFDI XML, one item (10 MB CFDI)',
			'bMemSummary',
			cfdiOutput({ reading }).map((i) => i.json),
		],
		[
			'SAT Read CFDI XML, One Item per Concepto (10 MB CFDI)',
			'bMemRows',
			conceptoRows({ reading }),
		],
	];
	const rows = [];
	for (const [name, id, json] of cases) {
		const r = await peak(id);
		const counted = json.reduce((sum, j) => sum + keptSize(j), 0);
		const jsonText = json.reduce((sum, j) => sum + Buffer.byteLength(JSON.stringify(j)), 0);
		rows.push({ name, items: r.items, jsonText, counted, growthMb: r.peakMb - base.peakMb });
	}
	return `## Memory in n8n: counted against resident

\`n8n execute\` of Code (a 10 MB CFDI as text) → the node, its process's resident memory sampled every 100 ms, median
of ${runs} runs; *resident growth* is its peak minus the peak of the same workflow with a No Op instead of the node
(${base.peakMb.toFixed(0)} MB). Reading the CFDI itself (its tree while it is read) is part of the growth, as it is of
what n8n needs; the budget stops a run when *counted* passes 128 MB.

| output | items | JSON (counted before) | counted now | resident growth |
|---|---|---|---|---|
${rows.map((r) => `| ${r.name} | ${r.items.toLocaleString('en-US')} | ${mb(r.jsonText)} MB | ${mb(r.counted)} MB | ${r.growthMb.toFixed(0)} MB |`).join('\n')}
`;
}

/** Both parts, for `npm run bench` (bench/run.mjs). */
export async function benchMemory(o) {
	return `${benchMemoryHeap()}\n${await benchMemoryInN8n(o)}`;
}

if (process.argv[1] === here) {
	const at = process.argv.indexOf('--kind');
	if (at > 0) process.stdout.write(JSON.stringify(measureKind(process.argv[at + 1])));
	else process.stdout.write(benchMemoryHeap());
}
