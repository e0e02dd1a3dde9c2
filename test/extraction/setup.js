/** @import { ICredentialType, IDataObject, INodeType } from 'n8n-workflow' */
import { withFakeClock } from '../harness/clock';
import { built, Engine, workflowWith } from '../harness/engine';
/** @import { RunResult } from '../harness/engine' */
import { ExtractionSimulator } from '../simulator/extraction';
import { EcuadorExtractionSimulator } from '../simulator/extraction-ecuador';
/** @import { Env } from '../simulator/extraction' */
import { SimulatorServer } from '../simulator/server';

export const NODE = 'Document Extraction';

/**
 * An extraction simulator on a random loopback port (the Mexico API), its Ecuador API on another origin, and an
 * engine with the built node and credential.
 */
export async function startExtraction() {
	const sim = new ExtractionSimulator();
	const server = await new SimulatorServer([sim, sim.ecuador]).start();
	// "Another host" for the hostile-network tests: the same simulators on a second port.
	const otherOrigin = await server.addOrigin();
	// The Ecuador API's own host: a third port.
	const ecuadorOrigin = await server.addOrigin();
	const engine = new Engine(
		[built('nodes/Extraction/Extraction.node', 'Extraction')],
		[built('credentials/ExtractionApi.credentials', 'ExtractionApi')],
	);
	const baseUrl = (env) => ExtractionSimulator.baseUrl(server.url('extraction'), env);
	const ecuadorBaseUrl = (env) =>
		EcuadorExtractionSimulator.baseUrl(`${ecuadorOrigin}/${sim.ecuador.prefix}`, env);
	/** The Ecuador fields of a full credential (production). */
	const ecuadorFields = () => ({
		ecuadorProductionBaseUrl: ecuadorBaseUrl('prod'),
		ecuadorStagingBaseUrl: ecuadorBaseUrl('staging'),
		ecuadorApiKey: sim.ecuador.prodKey,
		ecuadorOrganizationId: sim.ecuador.organizationId,
	});
	/** Stores the credential: production with its keys (Mexico and Ecuador) and the bearer scheme unless told otherwise. */
	const useCredential = (data = {}) =>
		engine.credentials.set('extractionApi', {
			environment: 'production',
			productionBaseUrl: baseUrl('prod'),
			stagingBaseUrl: baseUrl('staging'),
			apiKey: sim.prodKey,
			authScheme: 'bearer',
			...ecuadorFields(),
			...data,
		});
	useCredential();
	/** @returns {Promise<RunResult>} */
	const run = (parameters, input, continueOnFail = false) =>
		engine.run(
			workflowWith({
				nodeType: 'extraction',
				credentialType: 'extractionApi',
				parameters,
				input,
				continueOnFail,
				name: NODE,
			}),
		);
	/**
	 * `run` on the fake clock (test/harness/clock.js): for every run that waits (Wait for Completion, a
	 * Retry-After, a late answer), so its time is the code's, never the machine's.
	 * @returns {Promise<RunResult & { elapsedMs: number }>}
	 */
	const runTimed = async (parameters, input, continueOnFail = false, clock = {}) => {
		const { result, elapsedMs } = await withFakeClock(
			() => run(parameters, input, continueOnFail),
			clock,
		);
		return { ...result, elapsedMs };
	};
	/** Requests that reached the Mexico API, and the Ecuador API. */
	const calls = () => server.received('extraction');
	const ecuadorCalls = () => server.received(sim.ecuador.prefix);
	const reset = () => {
		sim.reset();
		server.clear();
		useCredential();
	};
	return {
		sim,
		server,
		engine,
		run,
		runTimed,
		calls,
		ecuadorCalls,
		baseUrl,
		ecuadorBaseUrl,
		useCredential,
		reset,
		otherOrigin,
		ecuadorOrigin,
		stop: () => server.stop(),
	};
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

/**
 * Wait for Completion as the form names it (the package's one wait rule, shared/wait.ts): the first check after
 * 1 s, then 1.5 times later each time, for up to 10 minutes. Fake time: run it with `env.runTimed`.
 */
export const fastWait = { waitForCompletion: true, waitTimeout: 600, options: { pollInterval: 1 } };

/** Wait for Completion with a Timeout of `seconds` and the first check after `pollInterval` seconds. */
export const waitFor = (seconds, pollInterval = 1) => ({
	waitForCompletion: true,
	waitTimeout: seconds,
	options: { pollInterval },
});
