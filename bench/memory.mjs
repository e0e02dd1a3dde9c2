#!/usr/bin/env node
// What the memory budget (nodes/shared/budget.ts) counts for an output, against what it takes: each kind of output
// (rows of conceptos, a CFDI's summary with its conceptos and `comprobante` tree, SRI receipts read, pages of plans,
// a file kept as base64) built by the package's own code in a Node process of its own (`node --expose-gc`), held as
// the router holds it (scrubbed copy, paired): its heap after a garbage collection against `heldSize` (the estimate
// budget.ts makes from its shape), the process's resident growth while it was built and held, and what the budget
// counts (`keptSize`). Standalone (`npm run build` first): `node bench/memory.mjs`; `npm run bench` adds the section.
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
*counted* is what the budget counts now, the estimate times N8N_HOLDS (3: n8n holds the output in its run data and
serializes it again when it saves the execution). The budget stops a run past 128 MB counted.

| output | items | JSON | heap | resident | estimate | estimate / heap | counted |
|---|---|---|---|---|---|---|---|
${rows.map((r) => `| ${r.name} | ${r.items.toLocaleString('en-US')} | ${mb(r.jsonText)} MB | ${mb(r.heap)} MB | ${mb(r.resident)} MB | ${mb(r.held)} MB | ${(r.held / r.heap).toFixed(2)} | ${mb(r.counted)} MB |`).join('\n')}
`;
}

/** The section of BENCHMARKS.md (`npm run bench`). */
export function benchMemory() {
	return benchMemoryHeap();
}

if (process.argv[1] === here) {
	const at = process.argv.indexOf('--kind');
	if (at > 0) process.stdout.write(JSON.stringify(measureKind(process.argv[at + 1])));
	else process.stdout.write(benchMemory());
}
