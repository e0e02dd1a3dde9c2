// The received-documents flow as a bookkeeper meets it, in the real n8n editor (headless Chromium) against the
// sandbox: the nodes found by what users type ("SRI", "XML SRI", "ATS" → SRI; "CFDI", "DIOT" → SAT), then three
// supplier files from the sandbox's file folder — an authorized invoice, an altered copy of it, a file that is no
// receipt — through Read XML → Check Authorization in one run with no On Error setting changed: the unreadable file
// leaves by Not Read named by its file name, the altered copy is flagged as not matching what the SRI authorized,
// and Convert to File makes a purchases sheet of at most 26 columns with the bases per IVA rate; finally both
// examples, imported as `npm run dev` imports them, run green from their manual trigger.
// Run with `npm run test:e2e:browser` (it needs Debian's chromium package).
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import {
	fillPlaceholders,
	loadExamples,
	prepareSandbox,
	requireTestModule,
	userFolderFor,
} from '../../scripts/n8n/sandbox.mjs';
import { startEditor } from './editor.mjs';

const userFolder = userFolderFor('e2e-browser-received');

let sb;
/** @type {() => Promise<void>} */
let stop;
/** @type {import('./editor.mjs').Editor} */
let editor;
/** The supplier files' folder, inside the one n8n may read here. */
let inbox;
/** The authorized invoice's access key (one the SRI simulator holds). */
let key;
/** The examples, by file, with the IDs they were imported under. */
const examples = new Map();

before(async () => {
	rmSync(userFolder, { recursive: true, force: true });
	sb = await prepareSandbox({
		userFolder,
		skipBuild: process.env.E2E_SKIP_BUILD === '1',
		quiet: true,
	});
	const { keyFor, receiptXml, entryXml } = requireTestModule('simulator/sri');
	key = keyFor({ sequential: 4521, series: '001002' });
	const authorized = `<?xml version="1.0" encoding="UTF-8"?>\n${entryXml({ estado: 'AUTORIZADO', key, comprobante: receiptXml(key), fecha: '21/10/2026 10:15:42' })}`;
	inbox = join(sb.filesFolder, 'recibidos');
	mkdirSync(inbox, { recursive: true });
	writeFileSync(join(inbox, 'factura-andina.xml'), authorized);
	writeFileSync(
		join(inbox, 'factura-andina-reenviada.xml'),
		authorized.replace('<importeTotal>28.00</importeTotal>', '<importeTotal>33.75</importeTotal>'),
	);
	writeFileSync(
		join(inbox, 'RIDE-andina.xml'),
		'<Authorization><Status>OK</Status></Authorization>',
	);
	// The two examples, as `npm run dev` imports them.
	const files = ['sri-check-supplier-receipts.json', 'sat-check-received-cfdis.json'];
	const chosen = loadExamples().filter((e) => files.includes(e.file));
	for (const { file, workflow } of chosen) examples.set(file, workflow);
	await sb.importWorkflows(
		chosen.map(({ workflow }) => fillPlaceholders(workflow, sb.sim, userFolder)),
	);
	({ editor, stop } = await startEditor(sb));
});

after(async () => {
	await (stop ? stop() : sb?.stop());
});

describe('received documents, as a bookkeeper meets them in the editor', () => {
	test('what users type lists the right node first: SRI for "SRI", "XML SRI", "ATS"; SAT for "CFDI", "DIOT"', async (t) => {
		await editor.newWorkflow();
		await editor.addTrigger('manual', 'Manual Trigger');
		await editor.page.getByTestId('node-creator-plus-button').click();
		const first = {};
		for (const search of ['SRI', 'XML SRI', 'ATS', 'CFDI', 'DIOT']) {
			const entries = await editor.searchNodes(search);
			first[search] = entries[0]?.split('\n')[0];
			t.diagnostic(
				`"${search}": ${entries
					.slice(0, 3)
					.map((e) => e.split('\n')[0])
					.join(' | ')}`,
			);
		}
		await editor.page.keyboard.press('Escape');
		assert.deepEqual(first, {
			SRI: 'SRI',
			'XML SRI': 'SRI',
			ATS: 'SRI',
			CFDI: 'SAT (Mexico)',
			DIOT: 'SAT (Mexico)',
		});
	});

	test('three files, one unreadable, through Read XML → Check Authorization in one run: Not Read names the file; the altered copy does not match', async () => {
		await editor.newWorkflow();
		await editor.addTrigger('manual', 'Manual Trigger');
		await editor.addAction(
			'Read/Write Files from Disk',
			'Read/Write Files from Disk',
			'Read File(s) From Disk',
		);
		await editor.node.fill('fileSelector', `${inbox}/*.xml`);
		await editor.closeNodeView();
		await editor.addAction('XML SRI', 'SRI', 'Read a receipt XML');
		await editor.closeNodeView();
		await editor.addAction('SRI', 'SRI', 'Check the authorization of a receipt');
		// The sandbox's one setting: its SRI is the simulator (npm run dev fills it in the examples).
		await editor.node.addOption('Service Address');
		await editor.node.fill('serviceAddress', sb.sim.addresses.sri);
		await editor.closeNodeView();

		sb.sim.server.clear();
		await editor.executeWorkflow();
		await editor.openNode(/Read XML|read a receipt/i);
		const branch = await editor.outputBranch('Not Read');
		assert.match(branch, /1 item/, branch.slice(0, 400));
		const [notRead] = await editor.outputJson();
		assert.equal(notRead.file_name, 'RIDE-andina.xml');
		assert.match(notRead.error, /^\[item \d\] File "RIDE-andina\.xml": is not an SRI receipt/);
		assert.doesNotMatch(notRead.error, /<[A-Za-z]/);
		await editor.closeNodeView();

		await editor.openNode(/Check|authorization/i);
		const checked = await editor.outputJson();
		const byFile = Object.fromEntries(checked.map((c) => [c.file_name, c]));
		assert.equal(byFile['factura-andina.xml'].matches_file, true, JSON.stringify(checked));
		assert.equal(byFile['factura-andina-reenviada.xml'].matches_file, false);
		assert.match(
			byFile['factura-andina-reenviada.xml'].warnings,
			/infoFactura\.importeTotal is 33\.75 in the file, 28 at the SRI/,
		);
		assert.equal(sb.sim.server.received('sri').length, 2);
		await editor.closeNodeView();
	});

	test('Convert to File makes a purchases sheet of at most 26 columns, with the bases per IVA rate', async () => {
		await editor.addAction('Convert to File', 'Convert to File', 'Convert to CSV');
		await editor.closeNodeView();
		await editor.addAction(
			'Read/Write Files from Disk',
			'Read/Write Files from Disk',
			'Write File to Disk',
		);
		const sheet = join(sb.filesFolder, 'compras.csv');
		await editor.node.fill('fileName', sheet);
		await editor.closeNodeView();
		await editor.executeWorkflow();
		assert.ok(existsSync(sheet), 'the sheet was written');
		const [header, ...rows] = readFileSync(sheet, 'utf8').trim().split('\n');
		const columns = header.split(',');
		assert.ok(columns.length <= 26, `${columns.length} columns: ${header}`);
		for (const c of [
			'base_iva_15',
			'base_iva_0',
			'base_no_objeto_iva',
			'base_exento_iva',
			'iva',
			'ice',
		])
			assert.ok(columns.includes(c), `${c} in ${header}`);
		assert.equal(rows.length, 2);
		const cells = rows[0].split(',');
		assert.equal(cells[columns.indexOf('base_iva_15')], '20');
		assert.equal(cells[columns.indexOf('base_iva_0')], '5');
		assert.equal(cells[columns.indexOf('clave_acceso')], key);
	});

	test('both examples run green in the sandbox from their manual trigger', async (t) => {
		for (const [file, trigger, folder] of [
			['sri-check-supplier-receipts.json', 'Try it: three sample files', 'compras'],
			['sat-check-received-cfdis.json', "When clicking 'Execute workflow'", 'cfdi'],
		]) {
			const workflow = examples.get(file);
			await editor.openWorkflow(workflow.id);
			const run = await editor.runFromTrigger(trigger);
			assert.equal(run.status, 'success', `${file}: ${JSON.stringify(run).slice(0, 600)}`);
			const written = readdirSync(join(sb.filesFolder, folder));
			t.diagnostic(`${file}: wrote ${written.join(', ')}`);
			assert.ok(
				written.some((f) => f.startsWith('compras-')),
				`${file}: a purchases sheet (${written})`,
			);
			assert.ok(
				written.some((f) => f.startsWith('para-revisar-')),
				`${file}: a review list (${written})`,
			);
		}
	});
});
