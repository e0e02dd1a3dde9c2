// End-to-end: the XML readers' version 2 in a real n8n (the line N8N_LINE selects: 2 by default, 1 for 1.x), one
// workflow, one run. Each reader gets three files made by n8n's own Convert to File — two it reads, one it cannot —
// and has the two outputs n8n computes from its `outputs` expression: Read goes on (SRI: into Check Authorization,
// which compares each file with the receipt the SRI authorized), Not Read names the file. A version 1 node, as saved
// workflows carry it, keeps one output. Run with `node --test test/e2e/readers.test.mjs`.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { nodeOutput } from '../../scripts/n8n/executions.mjs';
import { requireTestModule } from '../../scripts/n8n/sandbox.mjs';
import { closeSuite, e2eSandbox, startSuiteN8n } from '../../scripts/n8n/suite.mjs';
import { node } from '../../scripts/n8n/workflow.mjs';

const SRI = 'n8n-nodes-latam-fiscal.sri';
const SAT = 'n8n-nodes-latam-fiscal.sat';

/** @type {Awaited<ReturnType<typeof e2eSandbox>>} */
let sb;
/** @type {Awaited<ReturnType<typeof startSuiteN8n>>} */
let n8n;
let run;
let key;

/** Code "name" (files as `{ archivo, xml }` items) → Convert to File "name as files" (each item's xml as its file). */
function files(name, list) {
	return [
		node(
			name,
			'n8n-nodes-base.code',
			{ jsCode: `return ${JSON.stringify(list.map((json) => ({ json })))};` },
			{ typeVersion: 2 },
		),
		node(
			`${name} as files`,
			'n8n-nodes-base.convertToFile',
			{
				operation: 'toText',
				sourceProperty: 'xml',
				binaryPropertyName: 'data',
				options: { fileName: '={{ $json.archivo }}' },
			},
			{ typeVersion: 1.1 },
		),
	];
}

const to = (name, index = 0) => ({ node: name, type: 'main', index });

before(async () => {
	sb = await e2eSandbox('e2e-readers');
	const { keyFor, receiptXml, entryXml } = requireTestModule('simulator/sri');
	const { cfdiXml } = requireTestModule('simulator/cfdi');
	key = keyFor({ sequential: 4521, series: '001002' });
	const authorized = entryXml({ estado: 'AUTORIZADO', key, comprobante: receiptXml(key) });
	const altered = authorized.replace(
		'<importeTotal>28.00</importeTotal>',
		'<importeTotal>33.75</importeTotal>',
	);
	const read = {
		resource: 'receipt',
		operation: 'readXml',
		xmlSource: 'binary',
		binaryPropertyName: 'data',
	};
	await sb.importWorkflows([
		{
			id: 'e2eReaders',
			name: 'e2eReaders',
			settings: { executionOrder: 'v1' },
			nodes: [
				node('Start', 'n8n-nodes-base.manualTrigger', {}),
				...files('Supplier files', [
					{ archivo: 'factura.xml', xml: authorized },
					{ archivo: 'factura (copia).xml', xml: altered },
					{ archivo: 'RIDE.xml', xml: '<Authorization><Status>OK</Status></Authorization>' },
				]),
				node('Read XML', SRI, read, { typeVersion: 2 }),
				node(
					'Check',
					SRI,
					{
						resource: 'receipt',
						operation: 'checkAuthorization',
						options: { serviceAddress: sb.sim.addresses.sri },
					},
					{ typeVersion: 2 },
				),
				node('SRI Not Read', 'n8n-nodes-base.noOp', {}),
				node('Read XML v1', SRI, read, { onError: 'continueRegularOutput' }),
				...files('CFDI files', [
					{ archivo: 'proveedor-1.xml', xml: cfdiXml({ folio: '1' }).xml },
					{ archivo: 'acuse.xml', xml: '<Acuse><Folio>1</Folio></Acuse>' },
					{ archivo: 'proveedor-2.xml', xml: cfdiXml({ folio: '2' }).xml },
				]),
				node(
					'Read CFDI XML',
					SAT,
					{
						resource: 'cfdi',
						operation: 'readXml',
						xmlSource: 'binary',
						binaryPropertyName: 'data',
					},
					{ typeVersion: 2 },
				),
				node('SAT Read', 'n8n-nodes-base.noOp', {}),
				node('SAT Not Read', 'n8n-nodes-base.noOp', {}),
			],
			connections: {
				Start: { main: [[to('Supplier files'), to('CFDI files')]] },
				'Supplier files': { main: [[to('Supplier files as files')]] },
				'Supplier files as files': { main: [[to('Read XML'), to('Read XML v1')]] },
				'Read XML': { main: [[to('Check')], [to('SRI Not Read')]] },
				'CFDI files': { main: [[to('CFDI files as files')]] },
				'CFDI files as files': { main: [[to('Read CFDI XML')]] },
				'Read CFDI XML': { main: [[to('SAT Read')], [to('SAT Not Read')]] },
			},
		},
	]);
	n8n = await startSuiteN8n(sb);
	sb.sim.server.clear();
	run = await n8n.execute('e2eReaders');
});

after(() => closeSuite(n8n, sb));

describe('the XML readers’ version 2 in real n8n: Read and Not Read', () => {
	test('the run ends without error', () => {
		assert.equal(run.data.resultData.error, undefined, run.data.resultData.error?.message);
	});

	test('SRI: two files go on to Check Authorization, which matches the first and not its altered copy; the third leaves by Not Read, named', () => {
		const checked = nodeOutput(run, 'Check').map((i) => i.json);
		assert.deepEqual(
			checked.map((c) => [c.file_name, c.clave_acceso, c.authorized, c.matches_file]),
			[
				['factura.xml', key, true, true],
				['factura (copia).xml', key, true, false],
			],
		);
		assert.match(
			String(checked[1].warnings),
			/infoFactura\.importeTotal is 33\.75 in the file, 28 at the SRI/,
		);
		assert.equal(checked[0].base_iva_15, 20);
		const notRead = nodeOutput(run, 'SRI Not Read');
		assert.deepEqual(
			notRead.map((i) => [i.json.file_name, i.json.item_index]),
			[['RIDE.xml', 2]],
		);
		assert.match(
			String(notRead[0].json.error),
			/^\[item 3\] File "RIDE\.xml": is not an SRI receipt/,
		);
		assert.equal(sb.sim.server.received('sri').length, 2);
	});

	test('SAT: the CFDIs go on a row per concepto, each with its file’s name; the acknowledgment leaves by Not Read', () => {
		const rows = nodeOutput(run, 'SAT Read').map((i) => i.json);
		assert.deepEqual(
			rows.map((r) => [r.folio, r.concepto_numero, r.file_name]),
			[
				['1', 1, 'proveedor-1.xml'],
				['1', 2, 'proveedor-1.xml'],
				['2', 1, 'proveedor-2.xml'],
				['2', 2, 'proveedor-2.xml'],
			],
		);
		const notRead = nodeOutput(run, 'SAT Not Read').map((i) => i.json);
		assert.deepEqual(
			notRead.map((j) => [j.file_name, j.item_index]),
			[['acuse.xml', 1]],
		);
	});

	test('version 1, as saved: one output, the bad file an error item of it (Continue On Fail)', () => {
		const out = nodeOutput(run, 'Read XML v1');
		assert.equal(out.length, 3);
		assert.deepEqual(Object.keys(out[2].json), ['error']);
		assert.equal(nodeOutput(run, 'Read XML v1', 1).length, 0);
	});
});
