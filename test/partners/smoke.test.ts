import { startPartners, type PartnersEnv } from './setup';

let env: PartnersEnv;
beforeAll(async () => (env = await startPartners()));
afterAll(async () => env.stop());

test('get many plans through the engine', async () => {
	env.partners.seedProducts(3);
	const result = await env.run({ resource: 'plan', operation: 'getMany', returnAll: true });
	expect(result.error).toBeUndefined();
	expect(result.output('Partners').map((i) => i.json.name)).toEqual(['Plan 1', 'Plan 2', 'Plan 3']);
	expect(env.calls()[0].headers.authorization).toMatch(/^Bearer /);
});
