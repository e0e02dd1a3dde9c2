/** @import { IDataObject, IWorkflowBase } from 'n8n-workflow' */
import { withFakeClock } from '../harness/clock';
import { built, Engine, workflowWith } from '../harness/engine';
/** @import { RunResult } from '../harness/engine' */
import { SimulatorServer } from '../simulator/server';
import { SriSimulator } from '../simulator/sri';

export const NODE = 'SRI (Ecuador)';

/**
 * The SRI simulator on a random loopback port (both of the SRI's hosts: the key's environment digit chooses
 * the answer's), another origin for redirects, and an engine with the built SRI (Ecuador) node, which takes no
 * credential.
 */
export async function startSri() {
	const sim = new SriSimulator();
	const server = await new SimulatorServer([sim]).start();
	const otherOrigin = await server.addOrigin();
	const engine = new Engine([built('nodes/Sri/Sri.node', 'Sri')], []);
	const address = server.url(sim.prefix);
	/** @returns {Promise<RunResult>} */
	const run = (parameters, input, continueOnFail = false, typeVersion = 1) =>
		engine.run(
			workflowWith({ nodeType: 'sri', parameters, input, continueOnFail, name: NODE, typeVersion }),
		);
	/**
	 * `run` on the fake clock (test/harness/clock.js): for runs that wait (a late answer, retries, Request
	 * Timeout), so their time is the code's, never the machine's.
	 * @returns {Promise<RunResult & { elapsedMs: number }>}
	 */
	const runTimed = async (parameters, input, continueOnFail = false, clock = {}) => {
		const { result, elapsedMs } = await withFakeClock(
			() => run(parameters, input, continueOnFail),
			clock,
		);
		return { ...result, elapsedMs };
	};
	/** Check Authorization of `key` (an expression reads it from the item when `key` is undefined), asking the simulator. */
	const check = (options = {}, accessKey = '={{ $json.key }}') => ({
		resource: 'receipt',
		operation: 'checkAuthorization',
		accessKey,
		options: { serviceAddress: address, ...options },
	});
	/** Read XML of the item's `xml` text. */
	const readText = (options = {}) => ({
		resource: 'receipt',
		operation: 'readXml',
		xmlSource: 'text',
		xml: '={{ $json.xml }}',
		options,
	});
	/**
	 * Runs the node on items that each carry a file in the binary field `field` (the Code stand-in emits them),
	 * as an e-mail attachment or a file read from disk arrives: its text, or `{ name, content }`
	 * (`comprobante.xml` when not named).
	 * @param {Array<string | Buffer | { name: string, content: string | Buffer }>} files
	 * @returns {Promise<RunResult>}
	 */
	const runWithFiles = (
		parameters,
		files,
		continueOnFail = false,
		field = 'data',
		typeVersion = 1,
	) => {
		const wf = workflowWith({
			nodeType: 'sri',
			parameters,
			continueOnFail,
			name: NODE,
			typeVersion,
		});
		const code = /** @type {{ parameters: IDataObject }} */ (
			wf.nodes.find((n) => n.name === 'Input')
		);
		code.parameters = { jsCode: `return ${JSON.stringify(fileItems(files, field))};` };
		return engine.run(wf);
	};
	/**
	 * The workflow Read XML → Check Authorization (both at `typeVersion`, Check Authorization asking the simulator)
	 * on items carrying `files`, with no setting changed but the Service Address (and `checkParameters`).
	 * @param {Array<string | Buffer | { name: string, content: string | Buffer }>} files
	 * @returns {IWorkflowBase}
	 */
	const readThenCheckWorkflow = (files, typeVersion = 2, checkParameters = {}) => {
		const wf = workflowWith({
			nodeType: 'sri',
			parameters: readBinary(),
			name: 'Read XML',
			typeVersion,
		});
		const code = /** @type {{ parameters: IDataObject }} */ (
			wf.nodes.find((n) => n.name === 'Input')
		);
		code.parameters = { jsCode: `return ${JSON.stringify(fileItems(files, 'data'))};` };
		const readNode = /** @type {any} */ (wf.nodes.find((n) => n.name === 'Read XML'));
		wf.nodes.push({
			...readNode,
			id: 'k',
			name: 'Check Authorization',
			position: [600, 0],
			parameters: {
				resource: 'receipt',
				operation: 'checkAuthorization',
				options: { serviceAddress: address },
				...checkParameters,
			},
		});
		wf.connections['Read XML'] = {
			main: [[{ node: 'Check Authorization', type: 'main', index: 0 }]],
		};
		return wf;
	};
	/**
	 * Read XML → Check Authorization on items carrying `files`, in one run (readThenCheckWorkflow).
	 * @param {Array<string | Buffer | { name: string, content: string | Buffer }>} files
	 * @returns {Promise<RunResult>}
	 */
	const runReadThenCheck = (files, typeVersion = 2, checkParameters = {}) =>
		engine.run(readThenCheckWorkflow(files, typeVersion, checkParameters));
	/** Read XML of the file in the binary field `field`. */
	const readBinary = (options = {}, field = 'data') => ({
		resource: 'receipt',
		operation: 'readXml',
		xmlSource: 'binary',
		binaryPropertyName: field,
		options,
	});
	/** Requests that reached the simulator. */
	const calls = () => server.received(sim.prefix);
	const reset = () => {
		sim.reset();
		server.clear();
	};
	return {
		sim,
		server,
		engine,
		address,
		otherOrigin,
		run,
		runTimed,
		check,
		readText,
		readBinary,
		runWithFiles,
		runReadThenCheck,
		readThenCheckWorkflow,
		calls,
		reset,
		stop: () => server.stop(),
	};
}

/** @typedef {Awaited<ReturnType<typeof startSri>>} SriEnv */

/**
 * Input items that each carry one file in binary field `field`, as n8n holds a file it read (base64).
 * @param {Array<string | Buffer | { name: string, content: string | Buffer }>} files
 */
function fileItems(files, field) {
	return files.map((f) => {
		const { name, content } =
			typeof f === 'object' && !Buffer.isBuffer(f) ? f : { name: 'comprobante.xml', content: f };
		return {
			json: {},
			binary: {
				[field]: {
					data: Buffer.from(content).toString('base64'),
					mimeType: 'application/xml',
					fileName: name,
				},
			},
		};
	});
}

/** The JSON of the output items. @returns {IDataObject[]} */
export const jsonOf = (/** @type {RunResult} */ result) =>
	result.output(NODE).map((item) => item.json);

/**
 * The ledger row (version 2) of the sample invoice 001-002-000004521 of Distribuidora Andina S.A. (the sandbox's
 * `factura-andina.xml`, the SRI example's authorized file): its columns as every test expects them, `clave_acceso`
 * given.
 * @param {string} key
 */
export const sampleInvoiceRow = (key) => ({
	fecha_emision: '2026-10-21',
	tipo: 'factura',
	numero: '001-002-000004521',
	clave_acceso: key,
	emisor_ruc: '1790016919001',
	emisor_razon_social: 'Distribuidora Andina S.A.',
	comprador_identificacion: '1713175071',
	base_iva_15: 20,
	base_iva_5: null,
	base_iva_otra_tarifa: null,
	base_iva_0: 5,
	base_no_objeto_iva: null,
	base_exento_iva: null,
	iva: 3,
	ice: 0,
	importe_total: 28,
	retenido_renta: null,
});
