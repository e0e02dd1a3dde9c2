import type { ICredentialType, IDataObject, INodeType } from 'n8n-workflow';
import { built, Engine, workflowWith, type RunResult } from '../harness/engine';
import { PartnersSimulator } from '../simulator/partners';
import { SimulatorServer } from '../simulator/server';

/** A Partners simulator on a random loopback port and an engine with the built Partners node and credential. */
export async function startPartners(opts: { sandbox?: boolean } = {}) {
	const partners = new PartnersSimulator();
	const server = await new SimulatorServer([partners]).start();
	const engine = new Engine(
		[built<INodeType>('nodes/Partners/Partners.node', 'Partners')],
		[built<ICredentialType>('credentials/PartnersApi.credentials', 'PartnersApi')],
	);
	engine.credentials.set('partnersApi', {
		baseUrl: server.url('partners'),
		clientId: partners.clientId,
		clientSecret: partners.clientSecret,
		sandbox: opts.sandbox ?? true,
	});
	const run = (parameters: IDataObject, input?: IDataObject[], continueOnFail = false): Promise<RunResult> =>
		engine.run(workflowWith({ nodeType: 'partners', credentialType: 'partnersApi', parameters, input, continueOnFail, name: 'Partners' }));
	/** Requests to the service other than the token request. */
	const calls = () => server.received('partners').filter((r) => r.path !== '/v1/auth/token');
	const tokenCalls = () => server.received('partners').filter((r) => r.path === '/v1/auth/token');
	return { partners, server, engine, run, calls, tokenCalls, stop: () => server.stop() };
}

export type PartnersEnv = Awaited<ReturnType<typeof startPartners>>;

export const byId = (value: string) => ({ __rl: true, mode: 'id', value });
