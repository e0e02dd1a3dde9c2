import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
/** @import { IExecuteFunctions, INodeExecutionData, INodeType, IWorkflowBase } from 'n8n-workflow' */
import { withFakeClock } from '../harness/clock';
import { built, Engine, fixture, standIn } from '../harness/engine';
import { handComputed } from '../simulator/received';
import { SatSimulator } from '../simulator/sat';
import { SatBulkSimulator, testEfirma } from '../simulator/satBulk';
import { SimulatorServer } from '../simulator/server';
import { MONTH, NOW, PERIOD } from './bulk-setup';

/**
 * The example examples/sat-bulk-download-monthly-diot.json, as a user imports it, through n8n-core's engine on the
 * fake clock: last month's received CFDIs requested from the bulk download simulator with the test e.firma, the
 * Wait → Check Request → Finished? loop until the simulator finishes the request, the packages downloaded into one
 * item per CFDI, read, checked with the status simulator, the DIOT built and its file written. n8n's Wait, Schedule
 * Trigger and file nodes are played by stand-ins that do what the example asks of them.
 */

/** n8n's Wait node (resume after a time interval): waits on the clock, then passes its items on. */
class Wait {
	description = standIn({
		displayName: 'Wait',
		name: 'wait',
		version: [1, 1.1],
		properties: ['resume', 'amount', 'unit'].map((p) => ({
			displayName: p,
			name: p,
			type: 'string',
			default: '',
		})),
	});

	/** @this {IExecuteFunctions} @returns {Promise<INodeExecutionData[][]>} */
	async execute() {
		const amount = Number(this.getNodeParameter('amount', 0));
		const unit = String(this.getNodeParameter('unit', 0));
		const ms = amount * ({ seconds: 1000, minutes: 60_000, hours: 3_600_000 }[unit] ?? NaN);
		if (!(ms > 0))
			throw new Error(`the Wait stand-in waits seconds, minutes or hours, not ${unit}`);
		waited.push(ms);
		await new Promise((resolve) => setTimeout(resolve, ms));
		return [this.getInputData()];
	}
}

/** n8n's Schedule Trigger: never started by a manual run from the other trigger. */
class ScheduleTrigger {
	description = standIn({
		displayName: 'Schedule Trigger',
		name: 'scheduleTrigger',
		group: ['trigger'],
		version: [1, 1.1, 1.2],
		inputs: [],
		properties: [{ displayName: 'Rule', name: 'rule', type: 'json', default: {} }],
	});
}

/** @type {number[]} */
const waited = [];
const bulk = new SatBulkSimulator();
const sat = new SatSimulator();
/** @type {SimulatorServer} */
let server;
/** @type {Engine} */
let engine;
/** @type {string} */
let dir;

beforeAll(async () => {
	server = await new SimulatorServer([bulk, sat]).start();
	engine = new Engine(
		[built('nodes/Sat/Sat.node', 'Sat')],
		[built('credentials/SatEfirmaApi.credentials', 'SatEfirmaApi')],
	);
	const types = /** @type {{ types: Map<string, INodeType> }} */ (
		/** @type {unknown} */ (engine.nodeTypes)
	).types;
	types.set('n8n-nodes-base.wait', /** @type {INodeType} */ (/** @type {unknown} */ (new Wait())));
	types.set(
		'n8n-nodes-base.scheduleTrigger',
		/** @type {INodeType} */ (/** @type {unknown} */ (new ScheduleTrigger())),
	);
	engine.credentials.set('satEfirmaApi', testEfirma());
});
afterAll(() => server.stop());
beforeEach(() => {
	bulk.reset();
	bulk.know(MONTH);
	sat.reset();
	sat.know(MONTH);
	server.clear();
	waited.length = 0;
	dir = mkdtempSync(join(tmpdir(), 'bulk-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** The example as imported, its folder `dir`, its SAT nodes asking the simulators (what `npm run dev` fills in). */
function example() {
	const workflow = JSON.parse(
		JSON.stringify(fixture('sat-bulk-download-monthly-diot.json')).replaceAll(
			'/home/node/cfdi/',
			`${dir}/`,
		),
	);
	for (const node of workflow.nodes)
		if (
			node.type === 'n8n-nodes-latam-fiscal.sat' &&
			node.parameters.operation !== 'readXml' &&
			node.parameters.resource !== 'diot'
		)
			node.parameters.options = {
				serviceAddress:
					node.parameters.resource === 'bulkDownload'
						? SatBulkSimulator.address(server.url('satbulk'))
						: SatSimulator.address(server.url('sat')),
			};
	return /** @type {IWorkflowBase} */ (workflow);
}

const run = async () => {
	const { result, elapsedMs } = await withFakeClock(
		async () => {
			jest.setSystemTime(NOW);
			return await engine.run(example());
		},
		{ stepMs: 1000, maxMs: 60 * 60 * 1000 },
	);
	return { result, elapsedMs };
};

test('the month: requested, waited for (in process, then finished), downloaded, read, checked, into the DIOT file', async () => {
	const { result } = await run();
	expect(result.error).toBeUndefined();
	// The simulator finishes a request 2 minutes after it is made: one wait of 5 minutes.
	expect(waited).toEqual([5 * 60_000]);
	const downloaded = result.output('Download');
	const vigentes = bulk.cfdis.filter(
		(c) => c.receptorRfc === 'EKU9003173C9' && c.fecha.startsWith(PERIOD) && !c.cancelled,
	);
	expect(downloaded.map((i) => i.json.uuid).sort()).toEqual(vigentes.map((c) => c.uuid).sort());
	expect(result.output('Read CFDI XML')).toHaveLength(vigentes.length);
	// Every CFDI was asked about with the SAT's status service.
	expect(new Set(sat.asked.map((a) => a.params?.id))).toEqual(new Set(vigentes.map((c) => c.uuid)));
	const diot = readFileSync(join(dir, `DIOT-EKU9003173C9-${PERIOD}.txt`), 'utf8').split('\n');
	// The month's DIOT computed by hand, but for its global line: a CFDI issued to the public in general
	// (XAXX010101000) names no receiver, so the SAT's download of the company's received CFDIs does not hold it.
	const lines = handComputed(PERIOD).lines;
	expect(diot).toEqual(lines.filter((line) => !line.includes('|XAXX010101000|')));
	expect(diot).toHaveLength(lines.length - 1);
});

test('a request the SAT refuses (too many CFDIs, 5003): the run stops at Request, before any wait', async () => {
	bulk.maxCfdis = 1;
	const { result } = await run();
	expect(result.error?.message).toMatch(/\[item 1\] The SAT answered 5003/);
	expect(waited).toEqual([]);
});

test('a request still in process after the first wait: waited for again, then downloaded', async () => {
	bulk.delays = { ...bulk.delays, readyMs: 12 * 60_000 };
	const { result } = await run();
	expect(result.error).toBeUndefined();
	expect(waited).toEqual([5 * 60_000, 5 * 60_000, 5 * 60_000]);
	expect(result.output('Build DIOT File')).toHaveLength(1);
});

test('a request the SAT rejects for having no CFDIs: Stop and Error says why', async () => {
	bulk.reset();
	const { result } = await run();
	expect(result.error?.message).toMatch(
		/The SAT did not give last month's CFDIs \(request .*, rejected\): The SAT found no CFDIs/,
	);
});
