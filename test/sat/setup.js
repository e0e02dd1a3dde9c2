/** @import { IDataObject, INodeExecutionData, IWorkflowBase } from 'n8n-workflow' */
import { withFakeClock } from '../harness/clock';
import { built, Engine, PACKAGE } from '../harness/engine';
/** @import { RunResult } from '../harness/engine' */
import { cfdiXml } from '../simulator/cfdi';
/** @import { CfdiSpec } from '../simulator/cfdi' */
import { SatSimulator } from '../simulator/sat';
import { SimulatorServer } from '../simulator/server';

export const NODE = 'SAT (Mexico)';

/**
 * An input item carrying a CFDI's XML as a binary field (`data` unless told), as Document Extraction, Read
 * Files or an e-mail trigger hand it on: n8n's binary data kept in the item (base64).
 * @param {string | Buffer} xml
 * @returns {INodeExecutionData}
 */
export function fileItem(xml, { field = 'data', fileName = 'cfdi.xml', json = {} } = {}) {
	const bytes = Buffer.isBuffer(xml) ? xml : Buffer.from(xml, 'utf8');
	return {
		json,
		binary: {
			[field]: {
				data: bytes.toString('base64'),
				mimeType: 'application/xml',
				fileName,
				fileExtension: 'xml',
			},
		},
	};
}

/** An input item with the XML of the CFDI `spec` describes (cfdi.js). @param {CfdiSpec} spec */
export const cfdiItem = (spec = {}) => fileItem(cfdiXml(spec).xml);

/**
 * The workflow a user would build: Manual Trigger → Code (emits `items`, binary data included) → SAT (Mexico)
 * with `parameters`. No credential: the node takes none.
 * @returns {IWorkflowBase}
 */
export function satWorkflow(
	parameters,
	items,
	continueOnFail = false,
	jsCode = `return ${JSON.stringify(items)};`,
	typeVersion = 1,
) {
	return /** @type {IWorkflowBase} */ (
		/** @type {unknown} */ ({
			id: 'wf',
			name: 'test sat',
			active: false,
			isArchived: false,
			activeVersionId: null,
			createdAt: new Date(),
			updatedAt: new Date(),
			settings: { executionOrder: 'v1' },
			nodes: [
				{
					id: 't',
					name: 'Start',
					type: 'n8n-nodes-base.manualTrigger',
					typeVersion: 1,
					position: [0, 0],
					parameters: {},
				},
				{
					id: 'c',
					name: 'Input',
					type: 'n8n-nodes-base.code',
					typeVersion: 2,
					position: [200, 0],
					parameters: { jsCode },
				},
				{
					id: 'n',
					name: NODE,
					type: `${PACKAGE}.sat`,
					typeVersion,
					position: [400, 0],
					parameters,
					...(continueOnFail ? { onError: 'continueRegularOutput' } : {}),
				},
			],
			connections: {
				Start: { main: [[{ node: 'Input', type: 'main', index: 0 }]] },
				Input: { main: [[{ node: NODE, type: 'main', index: 0 }]] },
			},
		})
	);
}

/** The SAT simulator on a random loopback port and an engine with the built node. */
export async function startSat() {
	const sat = new SatSimulator();
	const server = await new SimulatorServer([sat]).start();
	// "Another host", for a redirect.
	const otherOrigin = await server.addOrigin();
	const engine = new Engine([built('nodes/Sat/Sat.node', 'Sat')], []);
	const address = SatSimulator.address(server.url('sat'));
	/**
	 * Check CFDI Status (or any parameters) for `items` (JSON objects, or full items with binary data), asking
	 * the simulator unless `parameters.options.serviceAddress` says otherwise; the node at `typeVersion` (1, as
	 * saved workflows carry it, unless told).
	 * @returns {Promise<RunResult>}
	 */
	const run = (parameters, items = [{}], continueOnFail = false, typeVersion = 1) => {
		const list = items.map((item) => ('json' in item || 'binary' in item ? item : { json: item }));
		return engine.run(
			satWorkflow(
				{
					...parameters,
					options: { serviceAddress: address, ...(parameters.options ?? {}) },
				},
				list,
				continueOnFail,
				`return ${JSON.stringify(list)};`,
				typeVersion,
			),
		);
	};
	/**
	 * Like `run`, the input items made by `jsCode` (the Code node's JavaScript, which returns them): for inputs
	 * too large to write into the workflow.
	 * @returns {Promise<RunResult>}
	 */
	const runCode = (parameters, jsCode, continueOnFail = false) =>
		engine.run(
			satWorkflow(
				{ ...parameters, options: { serviceAddress: address, ...(parameters.options ?? {}) } },
				[],
				continueOnFail,
				jsCode,
			),
		);
	/** `run` on the fake clock (test/harness/clock.js): for runs that wait (a late answer, a re-send). */
	const runTimed = async (parameters, items = [{}], continueOnFail = false) => {
		const { result, elapsedMs } = await withFakeClock(() => run(parameters, items, continueOnFail));
		return { ...result, elapsedMs };
	};
	const calls = () => server.received('sat');
	const reset = () => {
		sat.reset();
		server.clear();
	};
	return {
		sat,
		server,
		engine,
		address,
		otherOrigin,
		run,
		runCode,
		runTimed,
		calls,
		reset,
		stop: () => server.stop(),
	};
}

/** @typedef {Awaited<ReturnType<typeof startSat>>} SatEnv */

/** Check CFDI Status parameters for the Fields input. @returns {IDataObject} */
export const fields = (extra = {}) => ({
	resource: 'cfdi',
	operation: 'checkStatus',
	inputMode: 'fields',
	uuid: '={{ $json.uuid }}',
	issuerRfc: '={{ $json.re }}',
	receiverRfc: '={{ $json.rr }}',
	total: '={{ $json.tt }}',
	seal: '={{ $json.fe }}',
	...extra,
});

/** Check CFDI Status parameters for a CFDI XML in the binary field `data`. @returns {IDataObject} */
export const fromXml = (extra = {}) => ({
	resource: 'cfdi',
	operation: 'checkStatus',
	inputMode: 'xml',
	xmlSource: 'binary',
	binaryPropertyName: 'data',
	...extra,
});

/** Read CFDI XML parameters for the binary field `data`. @returns {IDataObject} */
export const readXml = (extra = {}) => ({
	resource: 'cfdi',
	operation: 'readXml',
	xmlSource: 'binary',
	binaryPropertyName: 'data',
	...extra,
});

/** The data of the CFDI `spec` describes, as the Fields input's item (uuid, re, rr, tt, fe). */
export function fieldsOf(spec = {}) {
	const c = cfdiXml(spec);
	return { uuid: c.uuid, re: c.emisorRfc, rr: c.receptorRfc, tt: c.total, fe: c.sello.slice(-8) };
}
