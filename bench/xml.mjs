#!/usr/bin/env node
// `node bench/xml.mjs` (after `npm run build`): throughput of the package's XML reader (nodes/shared/xml.ts) on a
// CFDI of about 9.5 MB (thousands of conceptos, data in attributes), parse and toJson, and the time each hostile
// input takes to be refused. Standalone: no n8n, no simulator. Target: every hostile input refused within a
// second on one core; nothing here fails on speed.
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
/** @type {typeof import('../nodes/shared/xml.js')} */
const { parseXml, toJson } = require('../dist/nodes/shared/xml.js');

const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
/** @param {() => unknown} f */
const timed = (f) => {
	const started = performance.now();
	try {
		f();
	} catch {
		// a refusal is the expected outcome of the hostile inputs
	}
	return performance.now() - started;
};

const concepto =
	'<cfdi:Concepto ClaveProdServ="84111506" Cantidad="1.00" ClaveUnidad="E48" Descripcion="Servicio de consultoría &amp; soporte" ValorUnitario="100.00" Importe="100.00" ObjetoImp="02"><cfdi:Impuestos><cfdi:Traslados><cfdi:Traslado Base="100.00" Impuesto="002" TipoFactor="Tasa" TasaOCuota="0.160000" Importe="16.00"/></cfdi:Traslados></cfdi:Impuestos></cfdi:Concepto>\n';
const count = Math.floor(9.5e6 / concepto.length);
const cfdi = `<?xml version="1.0" encoding="UTF-8"?><cfdi:Comprobante xmlns:cfdi="http://www.sat.gob.mx/cfd/4" Version="4.0" Total="1"><cfdi:Conceptos>${concepto.repeat(count)}</cfdi:Conceptos></cfdi:Comprobante>`;
const mb = Buffer.byteLength(cfdi) / (1024 * 1024);

const parse = [];
const json = [];
for (let k = 0; k < RUNS; k++) {
	let root;
	parse.push(timed(() => (root = parseXml(cfdi))));
	json.push(
		timed(() => toJson(root, { arrays: ['Concepto', 'Traslado'], numbers: ['Importe', 'Base'] })),
	);
}
console.log(
	`CFDI, ${count} conceptos, ${mb.toFixed(1)} MB: parse ${median(parse).toFixed(0)} ms (${(mb / (median(parse) / 1000)).toFixed(0)} MB/s), toJson ${median(json).toFixed(0)} ms (median of ${RUNS})`,
);

const laughs = `<!DOCTYPE l [<!ENTITY a "lol">${Array.from({ length: 9 }, (_, k) => `<!ENTITY ${String.fromCharCode(98 + k)} "${`&${String.fromCharCode(97 + k)};`.repeat(10)}">`).join('')}]><l>&j;</l>`;
const hostile = {
	'50,000 nested elements': `${'<a>'.repeat(50000)}${'</a>'.repeat(50000)}`,
	'a million attributes (100 MB allowed)': `<a ${Array.from({ length: 1e6 }, (_, k) => `a${k}="1"`).join(' ')}/>`,
	'100,000 unclosed tags': '<a>'.repeat(100000),
	'a 10 MB attribute value': `<a b="${'x'.repeat(10_000_000)}"/>`,
	'a billion laughs': laughs,
	'an external entity': '<!DOCTYPE r [<!ENTITY x SYSTEM "file:///etc/passwd">]><r>&x;</r>',
	'5 million "&"': `<a>${'&'.repeat(5e6)}</a>`,
	'a million empty elements': `<a>${'<b/>'.repeat(1e6)}</a>`,
};
for (const [what, input] of Object.entries(hostile)) {
	const ms = median(
		Array.from({ length: RUNS }, () =>
			timed(() => parseXml(input, { maxBytes: 100 * 1024 * 1024 })),
		),
	);
	console.log(`${what}: refused in ${ms.toFixed(1)} ms`);
}
