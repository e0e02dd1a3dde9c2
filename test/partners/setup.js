/** @import { ICredentialType, IDataObject, INodeType } from 'n8n-workflow' */
import { built, Engine, workflowWith } from '../harness/engine';
/** @import { RunResult } from '../harness/engine' */
import { PartnersSimulator } from '../simulator/partners';
import { SimulatorServer } from '../simulator/server';

/** A Partners simulator on a random loopback port and an engine with the built Partners node and credential. */
export async function startPartners(opts = {}) {
	const partners = new PartnersSimulator();
	const server = await new SimulatorServer([partners]).start();
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
		engine.run(workflowWith({ nodeType: 'partners', credentialType: 'partnersApi', parameters, input, continueOnFail, name: 'Partners' }));
	/** Requests to the service other than the token request. */
	const calls = () => server.received('partners').filter((r) => r.path !== '/v1/auth/token');
	const tokenCalls = () => server.received('partners').filter((r) => r.path === '/v1/auth/token');
	return { partners, server, engine, run, calls, tokenCalls, stop: () => server.stop() };
}

/**
 * @typedef {Awaited<ReturnType<typeof startPartners>>} PartnersEnv
 */

export const byId = (value) => ({ __rl: true, mode: 'id', value });
