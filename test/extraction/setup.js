/** @import { ICredentialType, IDataObject, INodeType } from 'n8n-workflow' */
import { built, Engine, workflowWith } from '../harness/engine';
/** @import { RunResult } from '../harness/engine' */
import { ExtractionSimulator } from '../simulator/extraction';
/** @import { Env } from '../simulator/extraction' */
import { SimulatorServer } from '../simulator/server';

export const NODE = 'Document Extraction';

/** An extraction simulator on a random loopback port and an engine with the built node and credential. */
export async function startExtraction() {
	const sim = new ExtractionSimulator();
	const server = await new SimulatorServer([sim]).start();
	// "Another host" for the hostile-network tests: the same simulators on a second port.
	const otherOrigin = await server.addOrigin();
	const engine = new Engine(
		[built('nodes/Extraction/Extraction.node', 'Extraction')],
		[built('credentials/ExtractionApi.credentials', 'ExtractionApi')],
	);
	const baseUrl = (env) => ExtractionSimulator.baseUrl(server.url('extraction'), env);
	/** Stores the credential: production with its key and the bearer scheme unless told otherwise. */
	const useCredential = (data = {}) =>
		engine.credentials.set('extractionApi', {
			environment: 'production',
			productionBaseUrl: baseUrl('prod'),
			stagingBaseUrl: baseUrl('staging'),
			apiKey: sim.prodKey,
			authScheme: 'bearer',
			...data,
		});
	useCredential();
	/** @returns {Promise<RunResult>} */
	const run = (parameters, input, continueOnFail = false) =>
		engine.run(workflowWith({ nodeType: 'extraction', credentialType: 'extractionApi', parameters, input, continueOnFail, name: NODE }));
	const calls = () => server.received('extraction');
	const reset = () => {
		sim.reset();
		server.clear();
		useCredential();
	};
	return { sim, server, engine, run, calls, baseUrl, useCredential, reset, otherOrigin, stop: () => server.stop() };
}

/**
 * @typedef {Awaited<ReturnType<typeof startExtraction>>} ExtractionEnv
 */

/**
 * Create parameters for last October's inbound invoices, CIEC credentials.
 * @returns {IDataObject}
 */
export const createParams = (extra = {}) => ({
	resource: 'extraction',
	operation: 'create',
	satCredentialType: 'ciec',
	rfc: 'EKU9003173C9',
	satPassword: 'S3cr3t-CIEC-pass',
	informationType: 'INVOICE',
	periodFrom: '2026-10-01',
	periodTo: '2026-10-31',
	direction: 'INBOUND',
	...extra,
});

/** Fast wait settings for tests (Check Every accepts down to 0.1 s). */
export const fastWait = { waitForCompletion: true, pollInterval: 0.1, timeout: 5 };
