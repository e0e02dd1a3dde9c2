/** @import { IDataObject, INodeExecutionData, IWorkflowBase } from 'n8n-workflow' */
import { FOREIGN_SUPPLIER, receivedMonth, TAXPAYER } from '../simulator/received';
import { fileItem, satWorkflow } from './setup';
/** @import { SatEnv } from './setup' */

/**
 * The DIOT's runs through n8n-core's engine, shared by its tests: the month the tests declare, the form as a
 * bookkeeper fills it, and the chain Start → Input → [Read CFDI XML →] [Check CFDI Status →] DIOT.
 */

/** The month the tests declare (test/simulator/received.js makes its CFDIs for any month). */
export const PERIOD = '2026-10';

/** The DIOT's parameters for the month: per-item choices by expression, as a bookkeeper writes them. */
export const diotParameters = (extra = {}) => ({
	resource: 'diot',
	operation: 'build',
	taxpayerRfc: TAXPAYER.rfc,
	period: PERIOD,
	operationType: `={{ $json.emisor?.rfc === 'CACX7605101P8' ? '03' : '85' }}`,
	foreignSupplier: {
		country: `={{ $json.emisor?.rfc === 'XEXX010101000' ? '${FOREIGN_SUPPLIER.country}' : '' }}`,
		taxId: `={{ $json.emisor?.rfc === 'XEXX010101000' ? '${FOREIGN_SUPPLIER.taxId}' : '' }}`,
	},
	...extra,
});

/**
 * Start → Input (the items) → [Read CFDI XML →] [Check CFDI Status →] DIOT, as a bookkeeper wires them: the SAT's
 * test workflow (setup.js) with the steps before the DIOT put in.
 * @param {SatEnv} env
 * @param {INodeExecutionData[]} items
 * @param {IDataObject} diot
 * @returns {IWorkflowBase}
 */
export function diotChain(
	env,
	items,
	diot,
	{ read = true, check = true, continueOnFail = false } = {},
) {
	const workflow = satWorkflow(diot, items, continueOnFail);
	const sat = (id, name, parameters) => ({ ...workflow.nodes[2], id, name, parameters });
	const steps = [
		...(read
			? [
					sat('r', 'Read CFDI XML', {
						resource: 'cfdi',
						operation: 'readXml',
						xmlSource: 'binary',
						binaryPropertyName: 'data',
					}),
				]
			: []),
		...(check
			? [
					sat('k', 'Check CFDI Status', {
						resource: 'cfdi',
						operation: 'checkStatus',
						inputMode: 'xml',
						xmlSource: 'binary',
						binaryPropertyName: 'data',
						options: { serviceAddress: env.address },
					}),
				]
			: []),
	].map(({ onError: _, ...node }) => node);
	workflow.nodes[2].name = 'DIOT';
	workflow.nodes.splice(2, 0, ...steps);
	const names = ['Start', 'Input', ...steps.map((s) => s.name), 'DIOT'];
	workflow.connections = Object.fromEntries(
		names
			.slice(0, -1)
			.map((n, k) => [n, { main: [[{ node: names[k + 1], type: 'main', index: 0 }]] }]),
	);
	return workflow;
}

/**
 * The month's files as input items, and the SAT's simulator told what it answers for each.
 * @param {SatEnv} env
 */
export function monthItems(env, period = PERIOD) {
	const files = receivedMonth(period);
	env.sat.know(files);
	return files.map((f) => fileItem(f.xml, { fileName: f.fileName }));
}

/**
 * Runs the chain; returns the DIOT's one output item (or the run's error).
 * @param {SatEnv} env
 * @param {INodeExecutionData[]} items
 */
export async function runDiot(env, items, parameters = diotParameters(), opts = {}) {
	const result = await env.engine.run(diotChain(env, items, parameters, opts));
	const out = result.output('DIOT');
	return {
		result,
		error: result.error,
		json: /** @type {any} */ (out[0]?.json),
		item: out[0],
		count: out.length,
	};
}

/** The DIOT file of an output item, as text. */
export const fileText = (/** @type {INodeExecutionData} */ item) =>
	Buffer.from(/** @type {any} */ (item.binary).data.data, 'base64').toString('utf8');
