// End-to-end: SRI (Ecuador) → Received Receipts List → Read in a real n8n (the line N8N_LINE selects; 2 by
// default). The example (examples/sri-received-list-ats.json) as `npm run dev` imports it: last month's list of the
// sandbox's company, as SRI en línea downloads it (windows-1252, CRLF, a credit note without its total, a .31 parking
// ticket), read from the sandbox's folder by Read/Write Files → one item per receipt → Check Authorization fetches
// each one from the SRI simulator (which does not know the parking ticket's key: NO ENCONTRADO) → the ATS held
// against the list, which the SRI's schema accepts and which names the parking ticket in problems, so the run stops
// at Check First; then a second workflow: two overlapping downloads and a file that is not the list (Read and Not Read
// in n8n's own execution data), and a list of no receipts (n8n keeps the node's hint). Run with
// `node --test test/e2e/received-list.test.mjs`.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { nodeOutput } from '../../scripts/n8n/executions.mjs';
import { fillPlaceholders, repoRoot, requireTestModule } from '../../scripts/n8n/sandbox.mjs';
import { closeSuite, e2eSandbox, startSuiteN8n } from '../../scripts/n8n/suite.mjs';
import { chain, fileItem, itemsNode, node } from '../../scripts/n8n/workflow.mjs';

const SRI = 'n8n-nodes-latam-fiscal.sri';
const AT_XSD = join(repoRoot, 'test', 'fixtures', 'sri', 'at.xsd');

/** @type {Awaited<ReturnType<typeof e2eSandbox>>} */
let sb;
/** @type {Awaited<ReturnType<typeof startSuiteN8n>>} */
let n8n;
/** The list the sandbox holds (test/simulator/sri-received-list.js monthList). @type {Record<string, any>} */
let list;

/** Items carrying `files` (`{ name, bytes }`) in the binary field data, as a Code node makes them. */
function filesNode(name, files) {
	return itemsNode(
		name,
		files.map((f) => fileItem(f.bytes, f.name, {}, 'text/plain')),
	);
}

/** Manual Trigger → Code "Files" (items carrying `files`) → Read Received List "List", of a new node (version 2). */
const listWorkflow = (id, what, files) => ({
	id,
	name: `e2e SRI received list: ${what}`,
	settings: { executionOrder: 'v1' },
	nodes: [
		node('Start', 'n8n-nodes-base.manualTrigger', {}),
		filesNode('Files', files),
		node(
			'List',
			SRI,
			{ resource: 'receivedList', operation: 'read', binaryPropertyName: 'data', options: {} },
			{ typeVersion: 2 },
		),
	],
	connections: chain('Start', 'Files', 'List'),
});

before(async () => {
	sb = await e2eSandbox('e2e-received-list');
	list = sb.sim.sriMonth.receivedList;
	const { listFile, CURRENT_LAYOUT } = requireTestModule('simulator/sri-received-list');
	const rows = list.rows;
	const example = JSON.parse(
		readFileSync(join(repoRoot, 'examples', 'sri-received-list-ats.json'), 'utf8'),
	);
	// The example as the sandbox fills it, and a node that saves the ATS that leaves by Check First, for xmllint.
	const filled = fillPlaceholders({ ...example, id: 'e2eListExample' }, sb.sim, sb.opts.userFolder);
	filled.nodes.push(
		node('Save for review', 'n8n-nodes-base.readWriteFile', {
			operation: 'write',
			fileName: `=${sb.filesFolder}/{{ $binary.data.fileName }}`,
			dataPropertyName: 'data',
			options: {},
		}),
	);
	const [ready, checkFirst] = filled.connections['Build the ATS'].main;
	filled.connections['Build the ATS'].main = [
		ready,
		[{ node: 'Save for review', type: 'main', index: 0 }, ...checkFirst],
	];
	await sb.importWorkflows([
		filled,
		listWorkflow('e2eListFiles', 'overlapping downloads, a file that is not the list', [
			{ name: 'recibidos-mes.txt', bytes: listFile(rows) },
			{ name: 'ventas.csv', bytes: Buffer.from('RUC;CLAVE_ACCESO;TOTAL\r\n') },
			{
				name: 'recibidos-semana.txt',
				bytes: listFile(rows.slice(0, 2), { encoding: 'utf-8', bom: true }),
			},
		]),
		listWorkflow('e2eListEmpty', 'a list of no receipts', [
			{ name: 'recibidos-vacio.txt', bytes: Buffer.from(`${CURRENT_LAYOUT.join('\t')}\r\n`) },
		]),
	]);
	n8n = await startSuiteN8n(sb);
});

after(() => closeSuite(n8n, sb));

describe('the example in real n8n: the SRI’s list → each receipt from the SRI → the ATS', () => {
	/** @type {any} */
	let run;
	before(async () => {
		sb.sim.server.clear();
		run = await n8n.execute('e2eListExample');
	});

	test('one item per listed receipt, nothing not read', () => {
		const read = nodeOutput(run, 'Read the list').map(
			(item) => /** @type {Record<string, any>} */ (item.json),
		);
		assert.deepEqual(
			read.map((j) => j.clave_acceso),
			list.keys,
		);
		assert.deepEqual(nodeOutput(run, 'Read the list', 1), []);
		const note = read.find((j) => j.tipo === 'nota_credito') ?? {};
		assert.equal(note.importe_total, null);
		assert.match(note.warnings, /^IMPORTE_TOTAL is empty in the file/);
		const parking = read.find((j) => j.clave_acceso === list.unknownKey) ?? {};
		assert.deepEqual(
			[parking.total_sin_impuestos, parking.iva, parking.importe_total],
			[0.27, 0.04, 0.31],
		);
		assert.ok(read.every((j) => j.file_name === list.fileName));
	});

	test('Check Authorization asked the SRI about every key: all authorized but the one it does not hold, NO ENCONTRADO', () => {
		const { SriSimulator } = requireTestModule('simulator/sri');
		assert.deepEqual(
			SriSimulator.keysAsked(sb.sim.server.received('sri')).sort(),
			[...list.keys].sort(),
		);
		const fetched = nodeOutput(run, 'Fetch each receipt from the SRI').map((item) => item.json);
		assert.deepEqual(
			fetched.filter((j) => !j.authorized).map((j) => [j.clave_acceso, j.estado]),
			[[list.unknownKey, 'NO ENCONTRADO']],
		);
	});

	test('the ATS held against the list: last month, the purchases the SRI holds; the unknown key a problem, so Check First stops the run; the schema accepts it', () => {
		assert.deepEqual(nodeOutput(run, 'Build the ATS', 0), []);
		const [out] = nodeOutput(run, 'Build the ATS', 1);
		const annex = /** @type {Record<string, any>} */ (out.json);
		const { year, month } = sb.sim.sriMonth;
		assert.deepEqual([annex.anio, annex.mes], [String(year), String(month).padStart(2, '0')]);
		assert.deepEqual(
			annex.compras.map((/** @type {any} */ c) => c.clave_acceso).sort(),
			list.keys
				.filter((/** @type {string} */ k) => k !== list.unknownKey && k.slice(8, 10) !== '07')
				.sort(),
		);
		assert.equal(annex.problems.length, 1);
		assert.match(
			annex.problems[0],
			new RegExp(
				`access key ${list.unknownKey}: left out, the SRI gave no receipt for it \\(NO ENCONTRADO\\)`,
			),
		);
		assert.equal(annex.warnings.length, 1);
		assert.match(
			String(run.data.resultData.error?.message),
			/^The ATS is not ready to file: 1 problem\(s\)\. The first: /,
		);
		assert.equal(run.data.resultData.lastNodeExecuted, 'Not ready: check first');
		const file = join(sb.filesFolder, String(annex.file_name));
		assert.ok(existsSync(file), `${file} was not written`);
		execFileSync('xmllint', ['--noout', '--schema', AT_XSD, file], { stdio: 'pipe' });
	});
});

test('overlapping downloads and a file that is not the list: each receipt once, the file named on Not Read', async () => {
	const run = await n8n.execute('e2eListFiles');
	assert.equal(run.data.resultData.error, undefined, run.data.resultData.error?.message);
	const read = nodeOutput(run, 'List');
	assert.deepEqual(
		read.map((item) => [item.json.clave_acceso, item.pairedItem]),
		list.keys.map((/** @type {string} */ k) => [k, { item: 0 }]),
	);
	assert.match(
		String(read[0].json.warnings),
		/Listed again at File "recibidos-semana\.txt", line 2: kept once, here\./,
	);
	const notRead = nodeOutput(run, 'List', 1).map((item) => item.json);
	assert.deepEqual(notRead, [
		{
			error:
				'[item 2] File "ventas.csv": has its columns separated by ";", not by tabs as the SRI writes them: a program (a spreadsheet?) saved it again. Give the file as SRI en línea downloads it',
			item_index: 1,
			file_name: 'ventas.csv',
		},
	]);
});

test('a list of no receipts: no item, and n8n keeps the node’s hint naming the file', async () => {
	const run = await n8n.execute('e2eListEmpty');
	assert.equal(run.data.resultData.error, undefined, run.data.resultData.error?.message);
	assert.deepEqual(nodeOutput(run, 'List'), []);
	const [task] = run.data.resultData.runData.List;
	assert.deepEqual(
		(task.hints ?? []).map((/** @type {{ message: string }} */ h) => h.message),
		[
			'File "recibidos-vacio.txt" lists no receipts (only its header line): the SRI found none for the year, month, day and document type it was downloaded with. If you expected some, download it again from SRI en línea.',
		],
	);
});
