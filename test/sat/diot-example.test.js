import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
/** @import { IDataObject, IExecuteFunctions, INodeExecutionData, INodeType, IWorkflowBase } from 'n8n-workflow' */
import { withFakeClock } from '../harness/clock';
import { built, Engine, fixture, standIn } from '../harness/engine';
import { handComputed, lastPeriod, receivedMonth, uuidOf } from '../simulator/received';
import { SatSimulator } from '../simulator/sat';
import { SimulatorServer } from '../simulator/server';

/**
 * The example examples/sat-diot-last-month.json, as a user imports it, through n8n-core's engine: last month's
 * received CFDIs read from a folder, read and checked with the SAT's simulator (which knows them: one is
 * cancelled), the DIOT built, its file and a per-supplier sheet written to the folder. n8n's file nodes are played
 * by stand-ins that do what the example asks of them (Read/Write Files: the harness's).
 */

/** A stand-in's description: the parameters it reads. */
const describeNode = (name, properties) =>
	standIn({
		displayName: name,
		name,
		version: [1, 1.1],
		properties: properties.map((p) => ({ displayName: p, name: p, type: 'string', default: '' })),
	});

/** n8n's Split Out: an item per entry of a list field. */
class SplitOut {
	description = describeNode('splitOut', ['fieldToSplitOut', 'include', 'options']);

	/** @this {IExecuteFunctions} @returns {Promise<INodeExecutionData[][]>} */
	async execute() {
		const field = /** @type {string} */ (this.getNodeParameter('fieldToSplitOut', 0));
		return [
			this.getInputData().flatMap((item, i) =>
				/** @type {IDataObject[]} */ (item.json[field]).map((json) => ({
					json,
					pairedItem: { item: i },
				})),
			),
		];
	}
}

/** n8n's Convert to File → CSV: every item one row (nested values flattened to `a.0`, as n8n does), one file. */
class ConvertToCsv {
	description = describeNode('convertToFile', ['operation', 'binaryPropertyName', 'options']);

	/** @this {IExecuteFunctions} @returns {Promise<INodeExecutionData[][]>} */
	async execute() {
		if (this.getNodeParameter('operation', 0) !== 'csv') throw new Error('the stand-in writes CSV');
		const flat = (/** @type {IDataObject} */ o, prefix = '') =>
			Object.entries(o).flatMap(([k, v]) =>
				v && typeof v === 'object'
					? flat(/** @type {IDataObject} */ (v), `${prefix}${k}.`)
					: [[`${prefix}${k}`, v]],
			);
		const rows = this.getInputData().map((i) => Object.fromEntries(flat(i.json)));
		const columns = [...new Set(rows.flatMap((r) => Object.keys(r)))];
		const cell = (v) => (v === undefined ? '' : JSON.stringify(v));
		const csv = [columns.join(','), ...rows.map((r) => columns.map((c) => cell(r[c])).join(','))];
		const options = /** @type {{ fileName: string }} */ (this.getNodeParameter('options', 0));
		return [
			[
				{
					json: {},
					binary: {
						data: await this.helpers.prepareBinaryData(
							Buffer.from(csv.join('\n')),
							options.fileName,
							'text/csv',
						),
					},
				},
			],
		];
	}
}

const sat = new SatSimulator();
/** @type {SimulatorServer} */
let server;
/** @type {Engine} */
let engine;
/** @type {string} */
let dir;

beforeAll(async () => {
	server = await new SimulatorServer([sat]).start();
	engine = new Engine([built('nodes/Sat/Sat.node', 'Sat')], []);
	const types = /** @type {{ types: Map<string, INodeType> }} */ (
		/** @type {unknown} */ (engine.nodeTypes)
	).types;
	types.set('n8n-nodes-base.splitOut', new SplitOut());
	types.set('n8n-nodes-base.convertToFile', new ConvertToCsv());
});
afterAll(() => server.stop());
beforeEach(() => {
	dir = mkdtempSync(join(tmpdir(), 'diot-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** The example, its folder `dir`, asking the simulator (what `npm run dev` fills in). */
function example() {
	const text = JSON.stringify(fixture('sat-diot-last-month.json')).replaceAll(
		'/home/node/cfdi/',
		`${dir}/`,
	);
	const workflow = JSON.parse(text);
	for (const node of workflow.nodes)
		if (node.parameters.operation === 'checkStatus')
			node.parameters.options = { serviceAddress: SatSimulator.address(server.url('sat')) };
	return /** @type {IWorkflowBase} */ (workflow);
}

test("the example: last month's received CFDIs in a folder → the DIOT file and a per-supplier sheet beside them", async () => {
	// On 15 November 2026 (Mexico City), last month is October: the folder holds October's CFDIs, as npm run dev
	// writes them.
	const now = Date.parse('2026-11-15T18:00:00Z');
	const period = lastPeriod(now);
	expect(period).toBe('2026-10');
	const files = receivedMonth(period);
	mkdirSync(join(dir, 'recibidos'));
	for (const f of files) writeFileSync(join(dir, 'recibidos', f.fileName), f.xml);
	sat.know(files);

	const { result } = await withFakeClock(async () => {
		jest.setSystemTime(now);
		return await engine.run(example());
	});
	expect(result.error).toBeUndefined();

	// Every CFDI was asked about once; the cancelled one is left out of the DIOT, named.
	expect(new Set(sat.asked.map((a) => a.params?.id))).toEqual(new Set(files.map((f) => f.uuid)));
	const built = /** @type {any} */ (result.output('Build DIOT File')[0].json);
	expect(built.warnings).toContainEqual(
		expect.stringContaining(
			`${uuidOf('xia-cancelled', period)} from XIA190128J61: left out, the SAT says it is cancelled`,
		),
	);

	// The DIOT file, as the bookkeeper uploads it: the month computed by hand.
	const diot = readFileSync(join(dir, `DIOT-EKU9003173C9-${period}.txt`), 'utf8');
	expect(diot.split('\n')).toEqual(handComputed(period).lines);

	// The sheet: a row per line, its fields in words.
	const [header, ...rows] = readFileSync(join(dir, `diot-proveedores-${period}.csv`), 'utf8').split(
		'\n',
	);
	expect(rows).toHaveLength(8);
	expect(header.split(',')).toEqual(
		expect.arrayContaining(['supplier_type', 'rfc', 'paid_16', 'creditable_iva_16', 'line']),
	);
	expect(rows[0]).toContain('"CACX7605101P8"');
});

test('the example on the wrong month: the DIOT leaves by Check First, the run stops red at "Not ready: check first", and no file is saved', async () => {
	// The bookkeeper files November; the folder holds October's CFDIs (last month's, a month late).
	const files = receivedMonth('2026-10');
	mkdirSync(join(dir, 'recibidos'));
	for (const f of files) writeFileSync(join(dir, 'recibidos', f.fileName), f.xml);
	sat.know(files);

	const workflow = example();
	for (const node of workflow.nodes)
		if (node.parameters.operation === 'build') node.parameters.period = '2026-11';
	const result = await engine.run(workflow);
	expect(result.output('Build DIOT File', 0)).toEqual([]);
	const [check] = result.output('Build DIOT File', 1);
	expect(check.json.ready_to_file).toBe(false);
	expect(result.error?.message).toMatch(
		/^The DIOT is not ready to file: 1 problem\(s\)\. The first: \d+ of the \d+ CFDIs are of other months than 2026-11/,
	);
	expect(readdirSync(dir).filter((f) => f.startsWith('DIOT') || f.endsWith('.csv'))).toEqual([]);
});

test('both DIOT examples choose per supplier without code: the Suppliers table, and a note that says what to fill', () => {
	for (const file of ['sat-diot-last-month.json', 'sat-bulk-download-monthly-diot.json']) {
		const workflow = /** @type {any} */ (fixture(file));
		const diot = workflow.nodes.find((n) => n.parameters.resource === 'diot');
		// No expression anywhere in the DIOT's form.
		expect({ file, code: JSON.stringify(diot.parameters).includes('={{') }).toEqual({
			file,
			code: false,
		});
		expect(diot.parameters.suppliers.supplier).toEqual([
			{ rfc: 'CACX7605101P8', operationType: '03' },
			{ rfc: 'NORTHWIND CLOUD SERVICES LLC', country: 'USA', taxId: '98-7654321' },
		]);
		const note = workflow.nodes.find((n) => n.type === 'n8n-nodes-base.stickyNote').parameters
			.content;
		for (const words of ['Suppliers table', 'Type of Operation', 'IVA Treatment', 'Tax ID'])
			expect({ file, words, said: note.includes(words) }).toEqual({ file, words, said: true });
	}
});
