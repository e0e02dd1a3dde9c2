import { byId, usePartners } from './setup';

const env = usePartners();

const vigencies = {
	vigency: [
		{ vigency: 'Mensual', folios: 100, price: 199.5 },
		{ vigency: 'Anual', folios: 1500, price: 1999 },
	],
};

describe('Plan', () => {
	test('Create sends the plan input with bearer and sandbox headers and outputs the plan', async () => {
		const result = await env.run({
			resource: 'plan',
			operation: 'create',
			name: 'Pyme',
			vigencies,
			services: { api: true, extra_rfc: 2, pdf_templates: 'classic, modern' },
		});
		expect(result.error).toBeUndefined();
		const [call] = env.calls();
		expect(call.method).toBe('POST');
		expect(call.path).toBe('/v1/products');
		expect(call.headers.authorization).toMatch(/^Bearer [\w-]+\.[\w-]+\.[\w-]+$/);
		expect(call.headers['f-sandbox-mode']).toBe('true');
		expect(call.body).toEqual({
			name: 'Pyme',
			vigencies: [
				{ folios: 100, vigency: 'Mensual', price: 199.5 },
				{ folios: 1500, vigency: 'Anual', price: 1999 },
			],
			services: { api: true, extra_rfc: 2, pdf_templates: ['classic', 'modern'] },
		});
		const [item] = result.output('Partners');
		expect(item.json).toMatchObject({
			name: 'Pyme',
			status: 'active',
			pdf_templates: ['classic', 'modern'],
		});
		expect(item.json.uuid).toBe([...env.partners.products.keys()][0]);
		expect(item.pairedItem).toEqual({ item: 0 });
	});

	test('Get reads one plan by ID', async () => {
		const [plan] = env.partners.seedProducts(1);
		const result = await env.run({ resource: 'plan', operation: 'get', plan: byId(plan.uuid) });
		expect(env.calls().map((c) => `${c.method} ${c.path}`)).toEqual([
			`GET /v1/products/${plan.uuid}`,
		]);
		expect(result.output('Partners')[0].json).toEqual(JSON.parse(JSON.stringify(plan)));
	});

	test('Get Many with Return All walks every page', async () => {
		env.partners.seedProducts(40); // 15 per page → 3 pages
		const result = await env.run({ resource: 'plan', operation: 'getMany', returnAll: true });
		expect(result.output('Partners')).toHaveLength(40);
		expect(env.calls().map((c) => c.query.page)).toEqual(['1', '2', '3']);
	});

	test('Get Many with a Limit stops at the page that reaches it, and Search is sent', async () => {
		env.partners.seedProducts(30, 'Basic');
		env.partners.seedProducts(30, 'Premium');
		const result = await env.run({
			resource: 'plan',
			operation: 'getMany',
			returnAll: false,
			limit: 20,
			filters: { search: 'prem' },
		});
		const names = result.output('Partners').map((i) => /** @type {string} */ (i.json.name));
		expect(names).toHaveLength(20);
		expect(names.every((n) => n.startsWith('Premium'))).toBe(true);
		expect(env.calls().map((c) => c.query)).toEqual([
			{ page: '1', search: 'prem' },
			{ page: '2', search: 'prem' },
		]);
	});

	test('Update replaces the plan input', async () => {
		const [plan] = env.partners.seedProducts(1);
		const result = await env.run({
			resource: 'plan',
			operation: 'update',
			plan: byId(plan.uuid),
			name: 'Renamed',
			vigencies,
			services: { smtp_mail: true },
		});
		expect(result.error).toBeUndefined();
		const [call] = env.calls();
		expect([call.method, call.path]).toEqual(['PATCH', `/v1/products/${plan.uuid}`]);
		expect(call.body).toMatchObject({ name: 'Renamed', services: { smtp_mail: true } });
		expect(result.output('Partners')[0].json).toMatchObject({ uuid: plan.uuid, name: 'Renamed' });
	});

	test('Delete sends every chosen uuid in one request', async () => {
		const plans = env.partners.seedProducts(3);
		const ids = plans.slice(0, 2).map((p) => p.uuid);
		const result = await env.run({
			resource: 'plan',
			operation: 'delete',
			planIds: `${ids[0]}, ${ids[1]}`,
		});
		expect(result.error).toBeUndefined();
		const [call] = env.calls();
		expect([call.method, call.path, call.body]).toEqual(['DELETE', '/v1/products', { uuids: ids }]);
		expect(result.output('Partners')[0].json).toMatchObject({ deleted: ids, response: 'success' });
		expect([...env.partners.products.keys()]).toEqual([plans[2].uuid]);
	});

	test('Change Status toggles and outputs the plan', async () => {
		const [plan] = env.partners.seedProducts(1);
		const result = await env.run({
			resource: 'plan',
			operation: 'changeStatus',
			plan: byId(plan.uuid),
		});
		expect(env.calls().map((c) => `${c.method} ${c.path}`)).toEqual([
			`POST /v1/products/${plan.uuid}/change-status`,
		]);
		expect(result.output('Partners')[0].json.status).toBe('inactive');
	});

	test('a plan that does not exist gives the service message, the HTTP code and the item', async () => {
		const result = await env.run({ resource: 'plan', operation: 'get', plan: byId('nope') });
		expect(result.error?.message).toBe('[item 1] Partners: Product nope not found [not_found]');
		expect(result.error?.httpCode).toBe('404');
		expect(result.error?.description).toContain('GET /v1/products/nope');
	});

	test('bad vigencies are refused before anything is sent', async () => {
		const result = await env.run({
			resource: 'plan',
			operation: 'create',
			name: 'X',
			vigencies: { vigency: [{ vigency: 'Weekly', folios: 1.5, price: -1 }] },
		});
		expect(result.error?.message).toBe(
			'[item 1] vigencies[0].folios: must be a whole number, got 1.5',
		);
		expect(result.error?.description).toContain(
			'vigencies[0].vigency: must be one of "Mensual", "Trimestral", "Semestral", "Anual", "SP", got "Weekly"',
		);
		expect(result.error?.description).toContain('vigencies[0].price: must be at least 0, got -1');
		expect(env.server.received()).toHaveLength(0);
	});

	test('422 from the service keeps its field → messages map', async () => {
		// Send an expression-built name that passes the node's checks but not the service (empty services → 422 on services only when missing)
		env.server.fail({
			service: 'partners',
			path: '/v1/products',
			method: 'POST',
			status: 422,
			times: 1,
			body: {
				status: 'error',
				message: 'The given data was invalid.',
				errors: { name: ['The name has already been taken.'], 'vigencies.0.price': ['Too cheap.'] },
				code: 'validation_error',
			},
		});
		const result = await env.run({ resource: 'plan', operation: 'create', name: 'Dup', vigencies });
		expect(result.error?.message).toBe(
			'[item 1] Partners rejected the data: name: The name has already been taken. [validation_error]',
		);
		expect(result.error?.description).toContain('- vigencies.0.price: Too cheap.');
		expect(env.calls()).toHaveLength(1); // a create is never retried
	});
});
