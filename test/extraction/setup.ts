import type { ICredentialType, IDataObject, INodeType } from 'n8n-workflow';
import { built, Engine, workflowWith, type RunResult } from '../harness/engine';
import { ExtractionSimulator, type Env } from '../simulator/extraction';
import { SimulatorServer } from '../simulator/server';

export const NODE = 'Document Extraction';

/** An extraction simulator on a random loopback port and an engine with the built node and credential. */
export async function startExtraction() {
	const sim = new ExtractionSimulator();
	const server = await new SimulatorServer([sim]).start();
	const engine = new Engine(
		[built<INodeType>('nodes/Extraction/Extraction.node', 'Extraction')],
		[built<ICredentialType>('credentials/ExtractionApi.credentials', 'ExtractionApi')],
	);
	const baseUrl = (env: Env) => ExtractionSimulator.baseUrl(server.url('extraction'), env);
	/** Stores the credential: production with its key and the bearer scheme unless told otherwise. */
	const useCredential = (data: IDataObject = {}) =>
		engine.credentials.set('extractionApi', {
			environment: 'production',
			productionBaseUrl: baseUrl('prod'),
			stagingBaseUrl: baseUrl('staging'),
			apiKey: sim.prodKey,
			authScheme: 'bearer',
			...data,
		});
	useCredential();
	const run = (parameters: IDataObject, input?: IDataObject[], continueOnFail = false): Promise<RunResult> =>
		engine.run(workflowWith({ nodeType: 'extraction', credentialType: 'extractionApi', parameters, input, continueOnFail, name: NODE }));
	const calls = () => server.received('extraction');
	const reset = () => {
		sim.reset();
		server.clear();
		useCredential();
	};
	return { sim, server, engine, run, calls, baseUrl, useCredential, reset, stop: () => server.stop() };
}

export type ExtractionEnv = Awaited<ReturnType<typeof startExtraction>>;

/** Create parameters for last October's inbound invoices, CIEC credentials. */
export const createParams = (extra: IDataObject = {}): IDataObject => ({
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

/** Fast wait settings for tests (the UI minimum is 1 s; the node accepts down to 0.1 s). */
export const fastWait = { waitForCompletion: true, pollInterval: 0.1, timeout: 5 };
