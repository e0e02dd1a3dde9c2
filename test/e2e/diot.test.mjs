// End-to-end: a real n8n (the pinned version users run; N8N_LINE=1 for 1.x) loads the built package and builds the
// DIOT of a month of received CFDIs (test/simulator/received.js): the files through Read CFDI XML, Check CFDI Status
// (the SAT's simulator knows them: one is cancelled) and DIOT → Build DIOT File, the file read back by n8n's own
// Extract from File; the example examples/sat-diot-last-month.json as `npm run dev` prepares it (last month's CFDIs
// in the file folder); an item that is not a CFDI, named; and the month a real company files (issue 43: credit notes by
// relation, IVA not creditable, 8 % by place, the Suppliers table). Run with `node --test test/e2e/diot.test.mjs`.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { nodeOutput } from '../../scripts/n8n/executions.mjs';
import { fillPlaceholders, requireTestModule } from '../../scripts/n8n/sandbox.mjs';
import { closeSuite, e2eSandbox, startSuiteN8n } from '../../scripts/n8n/suite.mjs';
import { fileItem, itemsWorkflow, node } from '../../scripts/n8n/workflow.mjs';

const PERIOD = '2026-10';

/** @type {Awaited<ReturnType<typeof e2eSandbox>>} */
let sb;
/** @type {Awaited<ReturnType<typeof startSuiteN8n>>} */
let n8n;

const sat = (name, parameters, extra = {}) =>
	node(name, 'n8n-nodes-latam-fiscal.sat', parameters, extra);

/** Files as the items of a Code node (base64 in the item, as n8n keeps binary data it is given). */
const fileItems = (files) => files.map((f) => fileItem(f.xml, f.fileName));

/** The DIOT's parameters: 03 for the fees of CACX7605101P8, the foreign supplier in the USA. */
const diotParameters = {
	resource: 'diot',
	operation: 'build',
	taxpayerRfc: 'EKU9003173C9',
	period: PERIOD,
	operationType: `={{ $json.emisor?.rfc === 'CACX7605101P8' ? '03' : '85' }}`,
	foreignSupplier: {
		country: `={{ $json.emisor?.rfc === 'XEXX010101000' ? 'USA' : '' }}`,
		taxId: `={{ $json.emisor?.rfc === 'XEXX010101000' ? '98-7654321' : '' }}`,
	},
};

function workflows() {
	const { receivedMonth, realMonth, REAL_MONTH_SUPPLIERS } =
		requireTestModule('simulator/received');
	const month = receivedMonth(PERIOD);
	sb.sim.sat.know(month);
	const example = JSON.parse(
		readFileSync(new URL('../../examples/sat-diot-last-month.json', import.meta.url), 'utf8'),
	);
	return [
		itemsWorkflow(
			'e2eDiotMonth',
			'e2e DIOT: a month',
			['CFDIs', fileItems(month)],
			sat('Read CFDI XML', {
				resource: 'cfdi',
				operation: 'readXml',
				xmlSource: 'binary',
				binaryPropertyName: 'data',
			}),
			sat('Check CFDI Status', {
				resource: 'cfdi',
				operation: 'checkStatus',
				inputMode: 'xml',
				xmlSource: 'binary',
				binaryPropertyName: 'data',
				options: { serviceAddress: sb.sim.addresses.sat },
			}),
			sat('DIOT', diotParameters),
			node('File', 'n8n-nodes-base.extractFromFile', {
				operation: 'text',
				binaryPropertyName: 'data',
				destinationKey: 'text',
				options: { stripBOM: false },
			}),
		),
		itemsWorkflow(
			'e2eDiotBad',
			'e2e DIOT: not a CFDI',
			[
				'CFDIs',
				[
					...fileItems(month.slice(0, 2)),
					...fileItems([{ xml: '<factura/>', fileName: 'factura.xml' }]),
				],
			],
			sat('DIOT', diotParameters),
		),
		{ ...fillPlaceholders(example, sb.sim, sb.opts.userFolder), id: 'e2eDiotExample' },
		itemsWorkflow(
			'e2eDiotReal',
			'e2e DIOT: the month a real company files',
			['CFDIs', fileItems(realMonth(PERIOD))],
			sat('Read CFDI XML', {
				resource: 'cfdi',
				operation: 'readXml',
				xmlSource: 'binary',
				binaryPropertyName: 'data',
			}),
			// Version 3: a DIOT with problems leaves by Check First, its file there for review. The per-supplier
			// choices in the Suppliers table, without code.
			sat(
				'DIOT',
				{
					resource: 'diot',
					operation: 'build',
					taxpayerRfc: 'EKU9003173C9',
					period: PERIOD,
					suppliers: { supplier: REAL_MONTH_SUPPLIERS },
				},
				{ typeVersion: 3 },
			),
		),
	];
}

before(async () => {
	sb = await e2eSandbox('e2e-diot');
	await sb.importWorkflows(workflows());
	n8n = await startSuiteN8n(sb);
});

after(() => closeSuite(n8n, sb));

describe('SAT (Mexico) → Build DIOT File in real n8n', () => {
	test('a month through Read CFDI XML and Check CFDI Status: the file is the month computed by hand', async () => {
		const { handComputed, uuidOf } = requireTestModule('simulator/received');
		const run = await n8n.execute('e2eDiotMonth', { timeoutMs: 120_000 });
		assert.equal(run.data.resultData.error, undefined, run.data.resultData.error?.message);
		const out = /** @type {any} */ (nodeOutput(run, 'DIOT')[0]);
		assert.equal(nodeOutput(run, 'DIOT').length, 1);
		assert.equal(out.pairedItem.length, 18);
		const expected = handComputed(PERIOD);
		// The file as n8n stored it, read back by Extract from File: UTF-8, no BOM, LF, 54 fields a line.
		const text = String(nodeOutput(run, 'File')[0].json.text);
		assert.deepEqual(text.split('\n'), expected.lines);
		assert.equal(text.charCodeAt(0), '0'.charCodeAt(0));
		assert.deepEqual(
			out.json.rows.map((r) => r.line),
			expected.lines,
		);
		assert.equal(out.binary.data.fileName, `DIOT-EKU9003173C9-${PERIOD}.txt`);
		for (const [name, why] of Object.entries(expected.leftOut))
			assert.ok(
				out.json.warnings.some((w) => w.includes(uuidOf(name, PERIOD)) && w.includes(why)),
				`${name}: ${why}`,
			);
		assert.deepEqual(out.json.problems, []);
	});

	test('an item that is not a CFDI stops the node, naming the item, and no file is made', async () => {
		const run = await n8n.execute('e2eDiotBad');
		const error = run.data.resultData.error;
		assert.match(
			String(error?.message),
			/^No DIOT was built: items that are not CFDIs: \[item 3\] factura\.xml \(binary field "data"\): it is not a CFDI: its root element is "factura" without a namespace/,
		);
		assert.equal(nodeOutput(run, 'DIOT').length, 0);
	});

	test("the example as npm run dev prepares it: last month's DIOT and its sheet written to the file folder", async () => {
		const { handComputed, lastPeriod } = requireTestModule('simulator/received');
		const run = await n8n.execute('e2eDiotExample', { timeoutMs: 120_000 });
		assert.equal(run.data.resultData.error, undefined, run.data.resultData.error?.message);
		const period = lastPeriod();
		const folder = join(sb.filesFolder, 'cfdi');
		const diot = readFileSync(join(folder, `DIOT-EKU9003173C9-${period}.txt`), 'utf8');
		assert.deepEqual(diot.split('\n'), handComputed(period).lines);
		const sheet = readFileSync(join(folder, `diot-proveedores-${period}.csv`), 'utf8');
		assert.equal(sheet.trim().split('\n').length, 1 + 8);
		// One column for a row's CFDIs (n8n writes an array as cfdis.0, cfdis.1…, a column per CFDI).
		assert.match(sheet.split('\n')[0], /\bcfdis\b/);
		assert.doesNotMatch(sheet.split('\n')[0], /cfdis\.\d/);
	});

	test('the month a real company files: credit notes by relation, IVA not creditable, 8 % from Chiapas south, nothing the SAT refuses — each case named', async () => {
		const { realMonthComputed, uuidOf } = requireTestModule('simulator/received');
		const run = await n8n.execute('e2eDiotReal', { timeoutMs: 120_000 });
		assert.equal(run.data.resultData.error, undefined, run.data.resultData.error?.message);
		// Problems (a credit note to settle by hand, a foreign supplier without a tax ID): Check First, not Ready.
		assert.equal(nodeOutput(run, 'DIOT', 0).length, 0);
		const out = /** @type {any} */ (nodeOutput(run, 'DIOT', 1)[0]);
		const expected = realMonthComputed(PERIOD);
		// The file's lines (a row's line is its text in the file; the file itself is on the item, for review).
		const lines = out.json.rows.map((r) => r.line);
		assert.deepEqual(lines, expected.lines);
		for (const l of lines) assert.equal(l.split('|').length, 54);
		assert.equal(out.binary.data.fileName, `DIOT-EKU9003173C9-${PERIOD}.txt`);
		assert.equal(out.json.ready_to_file, false);
		for (const [name, words] of Object.entries(expected.warnings))
			assert.ok(
				out.json.warnings.some((w) => w.includes(uuidOf(name, PERIOD)) && w.includes(words)),
				`warning about ${name}: ${words}`,
			);
		for (const [name, words] of Object.entries(expected.problems))
			assert.ok(
				out.json.problems.some((p) => p.includes(uuidOf(name, PERIOD)) && p.includes(words)),
				`problem about ${name}: ${words}`,
			);
		assert.deepEqual(
			out.json.to_settle.map((r) => r.cfdi),
			[uuidOf('ure-credit-note-of-last-month', PERIOD)],
		);
	});
});
