/** @import { IDataObject, INodeExecutionData } from 'n8n-workflow' */
import { withFakeClock } from '../harness/clock';
import { built, Engine, workflowWith } from '../harness/engine';
/** @import { RunResult } from '../harness/engine' */
import { lastPeriod, receivedMonth } from '../simulator/received';
import { SatBulkSimulator, testEfirma } from '../simulator/satBulk';
import { SimulatorServer } from '../simulator/server';

export const NODE = 'SAT (Mexico)';

/** The tests' "now": 15 November 2026, noon in Mexico City; last month is October 2026. */
export const NOW = Date.parse('2026-11-15T18:00:00Z');
export const PERIOD = lastPeriod(NOW);

/** The month of CFDIs the test e.firma's taxpayer (EKU9003173C9) received in PERIOD (received.js). */
export const MONTH = receivedMonth(PERIOD);

/** Request parameters (received XML, last month unless told). @returns {IDataObject} */
export const request = (extra = {}) => ({
	resource: 'bulkDownload',
	operation: 'request',
	direction: 'received',
	content: 'CFDI',
	period: 'lastMonth',
	...extra,
});

/** Check Request parameters (the input item's request_id unless told). @returns {IDataObject} */
export const check = (extra = {}) => ({
	resource: 'bulkDownload',
	operation: 'checkRequest',
	...extra,
});

/** Download parameters (the input item's package_ids unless told). @returns {IDataObject} */
export const download = (extra = {}) => ({
	resource: 'bulkDownload',
	operation: 'download',
	...extra,
});

/**
 * The bulk download simulator holding MONTH, on a random loopback port, and an engine with the built node and
 * credential (the test e.firma). Every run is on the fake clock, at `at` (NOW unless told).
 */
export async function startBulk() {
	const sim = new SatBulkSimulator();
	const server = await new SimulatorServer([sim]).start();
	const otherOrigin = await server.addOrigin();
	const engine = new Engine(
		[built('nodes/Sat/Sat.node', 'Sat')],
		[built('credentials/SatEfirmaApi.credentials', 'SatEfirmaApi')],
	);
	const address = SatBulkSimulator.address(server.url('satbulk'));
	/**
	 * Runs `parameters` over `items` (JSON objects), asking the simulator unless Options → Service
	 * Address says otherwise, at `at` on the fake clock.
	 * @returns {Promise<RunResult & { elapsedMs: number }>}
	 */
	const run = async (parameters, items = [{}], { continueOnFail = false, at = NOW } = {}) => {
		// Manual Trigger → Code (emits the items) → SAT (Mexico) version 2 with the e.firma credential.
		const workflow = workflowWith({
			nodeType: 'sat',
			name: NODE,
			typeVersion: 2,
			credentialType: 'satEfirmaApi',
			continueOnFail,
			input: items,
			parameters: {
				...parameters,
				options: { serviceAddress: address, ...(parameters.options ?? {}) },
			},
		});
		const { result, elapsedMs } = await withFakeClock(async () => {
			jest.setSystemTime(at);
			return await engine.run(workflow);
		});
		return { ...result, elapsedMs };
	};
	const reset = () => {
		sim.reset();
		sim.know(MONTH);
		server.clear();
		engine.credentials.set('satEfirmaApi', testEfirma());
	};
	reset();
	/** What reached the simulator, as `path` (and SOAPAction's last part). */
	const calls = () => server.received('satbulk');
	return {
		sim,
		server,
		engine,
		address,
		otherOrigin,
		run,
		reset,
		calls,
		stop: () => server.stop(),
	};
}

/** @typedef {Awaited<ReturnType<typeof startBulk>>} BulkEnv */

/** The output items of the node in a run. @returns {INodeExecutionData[]} */
export const out = (/** @type {RunResult} */ result) => result.output(NODE);

/**
 * Request (received XML of last month), then Check Request once the simulator finished it, then: the Check
 * Request item. `sim.delays` decide when it is finished.
 * @returns {Promise<IDataObject & { request_id: string, package_ids: string[], cfdi_count: number }>}
 */
export async function finishedRequest(/** @type {BulkEnv} */ env, parameters = request()) {
	const asked = await env.run(parameters);
	expect(asked.error).toBeUndefined();
	const item = out(asked)[0].json;
	const checked = await env.run(check(), [item], { at: NOW + env.sim.delays.readyMs + 1000 });
	expect(checked.error).toBeUndefined();
	const json = out(checked)[0].json;
	// What the tests go on with: a finished request has its id, its packages and its count (Check Request's item).
	expect(json).toMatchObject({
		request_id: expect.any(String),
		package_ids: expect.any(Array),
		cfdi_count: expect.any(Number),
	});
	return /** @type {IDataObject & { request_id: string, package_ids: string[], cfdi_count: number }} */ (
		json
	);
}
