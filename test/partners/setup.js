/** @import { ICredentialType, IDataObject, INodeType } from 'n8n-workflow' */
import { built, Engine, workflowWith } from '../harness/engine';
/** @import { RunResult } from '../harness/engine' */
import { PartnersSimulator } from '../simulator/partners';
import { SimulatorServer } from '../simulator/server';

/** A Partners simulator on a random loopback port and an engine with the built Partners node and credential. */
export async function startPartners(opts = {}) {
	const partners = new PartnersSimulator();
	const server = await new SimulatorServer([partners]).start();
	// "Another host" for the hostile-network tests: the same simulators on a second port.
	const otherOrigin = await server.addOrigin();
	const engine = new Engine(
		[built('nodes/Partners/Partners.node', 'Partners')],
		[built('credentials/PartnersApi.credentials', 'PartnersApi')],
	);
	engine.credentials.set('partnersApi', {
		baseUrl: server.url('partners'),
		clientId: partners.clientId,
		clientSecret: partners.clientSecret,
		sandbox: opts.sandbox ?? true,
	});
	/** @returns {Promise<RunResult>} */
	const run = (parameters, input, continueOnFail = false) =>
		engine.run(
			workflowWith({
				nodeType: 'partners',
				credentialType: 'partnersApi',
				parameters,
				input,
				continueOnFail,
				name: 'Partners',
			}),
		);
	/**
	 * The same node run as an AI agent's tool, under the type `<package>.partnersTool` (see TestNodeTypes.toolVariant).
	 * @returns {Promise<RunResult>}
	 */
	const runAsTool = (parameters, input) =>
		engine.run(
			workflowWith({
				nodeType: 'partnersTool',
				credentialType: 'partnersApi',
				parameters,
				input,
				name: 'Partners',
			}),
		);
	/** Requests to the service other than the token request. */
	const calls = () => server.received('partners').filter((r) => r.path !== '/v1/auth/token');
	const tokenCalls = () => server.received('partners').filter((r) => r.path === '/v1/auth/token');
	return {
		partners,
		server,
		engine,
		run,
		runAsTool,
		calls,
		tokenCalls,
		otherOrigin,
		stop: () => server.stop(),
	};
}

/**
 * @typedef {Awaited<ReturnType<typeof startPartners>>} PartnersEnv
 */

/**
 * The Partners environment of a test file: started before its first test, stopped after its last; before each
 * test the simulator is reset, the recorded requests cleared, then `eachTest` runs (seed data, credential…).
 * Filled in by `beforeAll`.
 * @param {(env: PartnersEnv) => void} [eachTest]
 * @returns {PartnersEnv}
 */
export function usePartners(eachTest) {
	const env = /** @type {PartnersEnv} */ ({});
	beforeAll(async () => Object.assign(env, await startPartners()));
	afterAll(async () => env.stop());
	beforeEach(() => {
		env.partners.reset();
		env.server.clear();
		eachTest?.(env);
	});
	return env;
}

/**
 * Client → Create parameters for a valid Mexican client on `plan` (its first vigency); `overrides` replace fields.
 * @param {import('../simulator/partners').Product} plan
 */
export const clientCreateParams = (plan, overrides = {}) => ({
	resource: 'client',
	operation: 'create',
	name: 'Tienda Azul',
	email: 'contacto@tiendaazul.mx',
	tax_id: 'eku9003173c9',
	legal_name: 'ESCUELA KEMPER URGATE',
	postal_code: '26015',
	invoice_use_key: 'G03',
	tax_regime: '601',
	plan: byId(plan.uuid),
	vigency: plan.vigencies[0].uuid,
	...overrides,
});

export const byId = (value) => ({ __rl: true, mode: 'id', value });
