import { fixture } from '../harness/engine';
import { startPartners } from './setup';
/** @import { PartnersEnv } from './setup' */

/** @type {PartnersEnv} */
let env;
beforeAll(async () => (env = await startPartners()));
afterAll(async () => env.stop());

test('the importable onboarding workflow finds the plan once and creates one client per row', async () => {
	const [pyme] = env.partners.seedProducts(1, 'Pyme');
	env.partners.seedProducts(5, 'Corporativo');
	const result = await env.engine.run(fixture('partners-onboard-clients.json'));
	expect(result.error).toBeUndefined();
	const created = result.output('Create client');
	expect(created.map((i) => i.json.email)).toEqual([
		'contacto@tiendaazul.mx',
		'ventas@mostrador.mx',
	]);
	expect(created.map((i) => i.pairedItem)).toEqual([{ item: 0 }, { item: 1 }]);
	const posts = env.calls().filter((c) => c.method === 'POST');
	expect(posts.map((p) => /** @type {{ product: unknown }} */ (p.body).product)).toEqual([
		{ uuid: pyme.uuid, vigency_uuid: pyme.vigencies[0].uuid },
		{ uuid: pyme.uuid, vigency_uuid: pyme.vigencies[0].uuid },
	]);
	expect(env.calls().filter((c) => c.method === 'GET' && c.path === '/v1/products')).toHaveLength(
		1,
	); // the plan is looked up once, before the rows
});
