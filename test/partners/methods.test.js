/** @import { IDataObject, INodeType } from 'n8n-workflow' */
import { built, workflowWith } from '../harness/engine';
import { byId, startPartners } from './setup';
/** @import { PartnersEnv } from './setup' */

/** @type {PartnersEnv} */
let env;
/** @type {INodeType} */
let node;
beforeAll(async () => {
	env = await startPartners();
	node = built('nodes/Partners/Partners.node', 'Partners');
});
afterAll(async () => env.stop());
beforeEach(() => {
	env.partners.reset();
	env.server.clear();
});

const contextFor = (parameters) =>
	env.engine.loadOptionsContext(
		workflowWith({
			nodeType: 'partners',
			credentialType: 'partnersApi',
			parameters,
			name: 'Partners',
		}),
		'Partners',
	);

describe('pickers (listSearch / loadOptions) through n8n-core’s LoadOptionsContext', () => {
	test('searchPlans pages through the service and passes the filter as search', async () => {
		env.partners.seedProducts(20, 'Oro');
		env.partners.seedProducts(3, 'Plata');
		const ctx = contextFor({ resource: 'plan', operation: 'get' });
		const first = await /** @type {NonNullable<NonNullable<typeof node.methods>['listSearch']>} */ (
			/** @type {NonNullable<typeof node.methods>} */ (node.methods).listSearch
		).searchPlans.call(ctx, 'oro');
		expect(first.results).toHaveLength(15);
		expect(first.paginationToken).toBe('2');
		const second =
			await /** @type {NonNullable<NonNullable<typeof node.methods>['listSearch']>} */ (
				/** @type {NonNullable<typeof node.methods>} */ (node.methods).listSearch
			).searchPlans.call(ctx, 'oro', '2');
		expect(second.results).toHaveLength(5);
		expect(second.paginationToken).toBeUndefined();
		expect(env.calls().map((c) => c.query)).toEqual([
			{ page: '1', search: 'oro' },
			{ page: '2', search: 'oro' },
		]);
		expect(env.calls()[0].headers.authorization).toMatch(/^Bearer /);
	});

	test('getPlanVigencies lists the vigencies of the plan chosen in the node', async () => {
		const [plan] = env.partners.seedProducts(1);
		const ctx = contextFor({ resource: 'client', operation: 'create', plan: byId(plan.uuid) });
		const options =
			await /** @type {NonNullable<NonNullable<typeof node.methods>['loadOptions']>} */ (
				/** @type {NonNullable<typeof node.methods>} */ (node.methods).loadOptions
			).getPlanVigencies.call(ctx);
		expect(options).toEqual([
			expect.objectContaining({ name: 'Not Chosen Yet (Required)', value: '' }),
			{ name: 'Mensual: 100 folios, $99.00', value: plan.vigencies[0].uuid },
		]);
		expect(env.calls().map((c) => c.path)).toEqual([`/v1/products/${plan.uuid}`]);
	});

	test('getPlanVigencies offers only "not chosen yet" (and calls nothing) until a plan is chosen', async () => {
		const ctx = contextFor({ resource: 'client', operation: 'create', plan: byId('') });
		expect(
			await /** @type {NonNullable<NonNullable<typeof node.methods>['loadOptions']>} */ (
				/** @type {NonNullable<typeof node.methods>} */ (node.methods).loadOptions
			).getPlanVigencies.call(ctx),
		).toEqual([expect.objectContaining({ value: '' })]);
		expect(env.calls()).toHaveLength(0);
	});

	test('getPlans reads every page; searchClients filters locally', async () => {
		env.partners.seedProducts(17);
		const ctx = contextFor({ resource: 'plan', operation: 'delete' });
		expect(
			await /** @type {NonNullable<NonNullable<typeof node.methods>['loadOptions']>} */ (
				/** @type {NonNullable<typeof node.methods>} */ (node.methods).loadOptions
			).getPlans.call(ctx),
		).toHaveLength(17);

		const [plan] = env.partners.seedProducts(1, 'Cliente');
		for (const email of ['ana@x.mx', 'beto@x.mx']) {
			const r = await env.run({
				resource: 'client',
				operation: 'create',
				name: email.split('@')[0],
				email,
				tax_id: 'XAXX010101000',
				legal_name: 'PUBLICO EN GENERAL',
				postal_code: '01000',
				invoice_use_key: 'S01',
				tax_regime: '616',
				plan: byId(plan.uuid),
				vigency: plan.vigencies[0].uuid,
			});
			expect(r.error).toBeUndefined();
		}
		const found = await /** @type {NonNullable<NonNullable<typeof node.methods>['listSearch']>} */ (
			/** @type {NonNullable<typeof node.methods>} */ (node.methods).listSearch
		).searchClients.call(ctx, 'BETO');
		expect(found.results).toEqual([{ name: 'beto - beto@x.mx', value: expect.any(String) }]);
		const subs = await /** @type {NonNullable<NonNullable<typeof node.methods>['listSearch']>} */ (
			/** @type {NonNullable<typeof node.methods>} */ (node.methods).listSearch
		).searchSubscriptions.call(ctx, 'ana');
		expect(subs.results).toHaveLength(1);
	});
});
