/** @import { Product } from '../simulator/partners' */
import { byId, clientCreateParams, usePartners } from './setup';

/** @type {Product} */
let plan;
const env = usePartners((env) => {
	[plan] = env.partners.seedProducts(1);
});

const createParams = (overrides = {}) => clientCreateParams(plan, overrides);

async function createClient(email = 'a@b.mx') {
	const result = await env.run(createParams({ email }));
	expect(result.error).toBeUndefined();
	env.server.clear();
	return /** @type {{ uuid: string }} */ (result.output('Partners')[0].json);
}

describe('Client', () => {
	test('Create sends client, tax data (RFC upper-cased) and the chosen plan vigency', async () => {
		const result = await env.run(createParams());
		expect(result.error).toBeUndefined();
		const [call] = env.calls();
		expect([call.method, call.path]).toEqual(['POST', '/v1/clients']);
		expect(call.headers['f-sandbox-mode']).toBe('true');
		expect(call.body).toEqual({
			client: { name: 'Tienda Azul', email: 'contacto@tiendaazul.mx' },
			tax_information: {
				tax_id: 'EKU9003173C9',
				legal_name: 'ESCUELA KEMPER URGATE',
				postal_code: '26015',
				invoice_use_key: 'G03',
				tax_regime: '601',
			},
			product: { uuid: plan.uuid, vigency_uuid: plan.vigencies[0].uuid },
		});
		const out = result.output('Partners')[0].json;
		expect(out).toMatchObject({ name: 'Tienda Azul', status: 'active' });
		expect(out.warnings).toBeUndefined();
		expect(env.partners.subscriptions.size).toBe(1);
	});

	test('an RFC with a wrong check digit is sent, with a warning in the output', async () => {
		const result = await env.run(createParams({ tax_id: 'EKU9003173C8' }));
		expect(result.error).toBeUndefined();
		expect(env.calls()).toHaveLength(1);
		expect(result.output('Partners')[0].json.warnings).toEqual([
			'tax_information.tax_id: check digit is 8 but 9 was expected; sent anyway, verify the RFC',
		]);
	});

	test('the generic RFC XAXX010101000 is accepted without warnings', async () => {
		const result = await env.run(
			createParams({ tax_id: 'XAXX010101000', tax_regime: '616', invoice_use_key: 'S01' }),
		);
		expect(result.error).toBeUndefined();
		expect(result.output('Partners')[0].json.warnings).toBeUndefined();
	});

	test.each([
		[{ email: 'abc' }, 'client.email: "abc" is not an e-mail address'],
		[
			{ postal_code: '1234' },
			'tax_information.postal_code: "1234" is not a postal code: it must be 5 digits',
		],
		[
			{ tax_id: 'EKU900317' },
			'tax_information.tax_id: "EKU900317" must be 12 (company) or 13 (person) characters long, got 9',
		],
		[
			{ tax_id: 'EKU9013173C9' },
			'tax_information.tax_id: "EKU9013173C9" has an impossible date part 901317 (YYMMDD)',
		],
		[
			{ tax_id: '1KU9003173C9' },
			'tax_information.tax_id: "1KU9003173C9" is not an RFC: expected 3 or 4 letters, a date YYMMDD and a 3-character homoclave',
		],
		[
			{ invoice_use_key: 'gastos' },
			'tax_information.invoice_use_key: "gastos" is not a uso CFDI code (e.g. G03, S01, CP01)',
		],
		[
			{ tax_regime: '60' },
			'tax_information.tax_regime: "60" is not a régimen fiscal code (3 digits, e.g. 601, 612)',
		],
		[{ name: '={{ $json.missing }}' }, 'client.name: is required'],
		[{ vigency: '={{ "" }}' }, 'product.vigency_uuid: is required'],
	])('invalid input %j is refused before any request', async (overrides, message) => {
		const result = await env.run(createParams(overrides));
		expect(result.error?.message).toBe(`[item 1] ${message}`);
		expect(result.error?.description).toContain('Nothing was sent');
		expect(env.server.received()).toHaveLength(0);
	});

	test('the error names the failing item among several, and every item is checked before the first is sent', async () => {
		const input = [{ email: 'ok1@x.mx' }, { email: 'ok2@x.mx' }, { email: 'broken' }];
		const result = await env.run(createParams({ email: '={{ $json.email }}' }), input);
		expect(result.error?.message).toBe('[item 3] client.email: "broken" is not an e-mail address');
		expect(env.server.received()).toHaveLength(0);
	});

	test('Continue On Fail turns a bad item into an error item paired to it', async () => {
		const input = [{ email: 'ok1@x.mx' }, { email: 'broken' }, { email: 'ok3@x.mx' }];
		const result = await env.run(createParams({ email: '={{ $json.email }}' }), input, true);
		const out = result.output('Partners');
		expect(out.map((i) => i.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
		expect(out[1].json.error).toBe('[item 2] client.email: "broken" is not an e-mail address');
		expect(out[0].json.email).toBe('ok1@x.mx');
		expect(out[2].json.email).toBe('ok3@x.mx');
	});

	test('Get Many outputs one item per client and honours Limit', async () => {
		await createClient('one@x.mx');
		await createClient('two@x.mx');
		await createClient('three@x.mx');
		const all = await env.run({ resource: 'client', operation: 'getMany', returnAll: true });
		expect(all.output('Partners').map((i) => i.json.email)).toEqual([
			'one@x.mx',
			'two@x.mx',
			'three@x.mx',
		]);
		const some = await env.run({
			resource: 'client',
			operation: 'getMany',
			returnAll: false,
			limit: 2,
		});
		expect(some.output('Partners')).toHaveLength(2);
		expect(env.calls().every((c) => c.method === 'GET' && c.path === '/v1/clients')).toBe(true);
	});

	test('Update sends only the given fields, split into client and tax_information', async () => {
		const { uuid } = await createClient();
		const result = await env.run({
			resource: 'client',
			operation: 'update',
			client: byId(uuid),
			updateFields: {
				email: 'new@x.mx',
				city: 'Monterrey',
				postal_code: '64000',
				additional_email: 'conta@x.mx',
			},
		});
		expect(result.error).toBeUndefined();
		const [call] = env.calls();
		expect([call.method, call.path]).toEqual(['PATCH', `/v1/clients/${uuid}`]);
		expect(call.body).toEqual({
			client: { email: 'new@x.mx' },
			tax_information: { city: 'Monterrey', postal_code: '64000', additional_email: 'conta@x.mx' },
		});
		expect(result.output('Partners')[0].json).toMatchObject({
			email: 'new@x.mx',
			tax_information: { city: 'Monterrey' },
		});
	});

	test('Update of a client that does not exist reports 404 with the item', async () => {
		const result = await env.run({
			resource: 'client',
			operation: 'update',
			client: byId('ghost'),
			updateFields: { name: 'X' },
		});
		expect(result.error?.message).toBe('[item 1] Partners: Client ghost not found [not_found]');
	});

	test('Suspend sends uuids, message and keep_folios; Reactivate sends uuids', async () => {
		const a = await createClient('a@x.mx');
		const b = await createClient('b@x.mx');
		const suspended = await env.run({
			resource: 'client',
			operation: 'suspend',
			clientIds: [a.uuid, b.uuid],
			options: { message: 'Pago pendiente', keep_folios: true },
		});
		expect(suspended.error).toBeUndefined();
		expect(env.calls()[0]).toMatchObject({
			method: 'POST',
			path: '/v1/clients/suspend',
			body: { uuids: [a.uuid, b.uuid], message: 'Pago pendiente', keep_folios: true },
		});
		expect(env.partners.clients.get(a.uuid)?.status).toBe('suspended');
		expect(suspended.output('Partners')[0].json.suspended).toEqual([a.uuid, b.uuid]);

		env.server.clear();
		const reactivated = await env.run({
			resource: 'client',
			operation: 'reactivate',
			clientIds: [a.uuid],
		});
		expect(reactivated.error).toBeUndefined();
		expect(env.calls()[0]).toMatchObject({
			method: 'POST',
			path: '/v1/clients/reactivate',
			body: { uuids: [a.uuid] },
		});
		expect(env.partners.clients.get(a.uuid)?.status).toBe('active');
		expect(env.partners.clients.get(b.uuid)?.status).toBe('suspended');
	});

	test('Resend Credentials posts to the client and is not retried on a server error', async () => {
		const { uuid } = await createClient();
		const ok = await env.run({
			resource: 'client',
			operation: 'resendCredentials',
			client: byId(uuid),
		});
		expect(ok.error).toBeUndefined();
		expect(env.calls().map((c) => `${c.method} ${c.path}`)).toEqual([
			`POST /v1/clients/${uuid}/resend-credentials`,
		]);
		expect(ok.output('Partners')[0].json).toMatchObject({ uuid, response: 'success' });
		expect(env.partners.clients.get(uuid)?.credentials_sent).toBe(2);

		env.server.clear();
		env.server.fail({
			service: 'partners',
			path: `/v1/clients/${uuid}/resend-credentials`,
			status: 503,
			times: 1,
		});
		const failed = await env.run({
			resource: 'client',
			operation: 'resendCredentials',
			client: byId(uuid),
		});
		expect(failed.error?.httpCode).toBe('503');
		expect(env.calls()).toHaveLength(1);
	});
});

describe('Subscription', () => {
	test('Get Many lists subscriptions and Get reads one', async () => {
		await createClient('s@x.mx');
		const many = await env.run({ resource: 'subscription', operation: 'getMany', returnAll: true });
		const [sub] = many.output('Partners');
		expect(sub.json).toMatchObject({
			folios: 100,
			folios_used: 0,
			vigency: 'Mensual',
			client: { email: 's@x.mx' },
		});
		env.server.clear();
		const one = await env.run({
			resource: 'subscription',
			operation: 'get',
			subscription: byId(/** @type {string} */ (sub.json.uuid)),
		});
		expect(env.calls().map((c) => `${c.method} ${c.path}`)).toEqual([
			`GET /v1/subscriptions/${String(sub.json.uuid)}`,
		]);
		expect(one.output('Partners')[0].json).toEqual(sub.json);
	});

	test('Get of an unknown subscription is a 404 error naming the item', async () => {
		const result = await env.run({
			resource: 'subscription',
			operation: 'get',
			subscription: byId('nope'),
		});
		expect(result.error?.message).toBe(
			'[item 1] Partners: Subscription nope not found [not_found]',
		);
	});
});
