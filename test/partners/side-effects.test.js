/** @import { Product } from '../simulator/partners' */
import { withFakeClock } from '../harness/clock';
import { byId, clientCreateParams, usePartners } from './setup';

/**
 * Requests with side effects are never repeated blindly: after a 5xx or a broken connection the service may
 * already have done the work (delivered a suspension message, deleted plans), so a re-send could repeat it
 * or turn a success into a reported failure. A 429 means "not processed": that is re-sent, writes included.
 */
/** @type {Product} */
let plan;
const env = usePartners((env) => {
	[plan] = env.partners.seedProducts(2);
});

/** @returns {Promise<string>} */
async function createClient(email) {
	const result = await env.run(clientCreateParams(plan, { email, tax_id: 'EKU9003173C9' }));
	expect(result.error).toBeUndefined();
	return String(result.output('Partners')[0].json.uuid);
}

describe.each([
	['processed, then the connection dropped', /** @type {const} */ ('drop-after')],
	['processed, then a 502', /** @type {const} */ ('error-after')],
])('an answer lost after the service did the work (%s)', (_what, mode) => {
	test('Client → Suspend is sent once: the message reaches the client once, and the error says it may have been processed', async () => {
		const uuid = await createClient('suspend@example.mx');
		env.server.clear();
		env.server.fail({
			service: 'partners',
			method: 'POST',
			path: '/v1/clients/suspend',
			mode,
			times: 1,
		});
		const result = await env.run({
			resource: 'client',
			operation: 'suspend',
			clientIds: uuid,
			options: { message: 'Pago pendiente' },
		});
		expect(env.calls().filter((c) => c.path === '/v1/clients/suspend')).toHaveLength(1);
		expect(env.partners.clients.get(uuid)?.messages_delivered).toEqual(['Pago pendiente']);
		expect(result.error?.description).toMatch(
			/may have been processed before the answer was lost: check in the service before sending it again/,
		);
	});

	test('Plan → Delete is sent once: a re-send would find the plans gone and report the delete as failed', async () => {
		const ids = [...env.partners.products.keys()];
		env.server.clear();
		env.server.fail({
			service: 'partners',
			method: 'DELETE',
			path: '/v1/products',
			mode,
			times: 1,
		});
		const result = await env.run({ resource: 'plan', operation: 'delete', planIds: ids.join(',') });
		expect(env.calls().filter((c) => c.method === 'DELETE')).toHaveLength(1);
		expect(env.partners.products.size).toBe(0);
		expect(result.error?.message).not.toMatch(/not found/i);
		expect(result.error?.description).toMatch(/may have been processed/);
	});

	test('Client → Resend Credentials is sent once: the e-mail reaches the client once', async () => {
		const uuid = await createClient('resend@example.mx');
		env.server.clear();
		env.server.fail({
			service: 'partners',
			method: 'POST',
			path: `/v1/clients/${uuid}/resend-credentials`,
			mode,
			times: 1,
		});
		const result = await env.run({
			resource: 'client',
			operation: 'resendCredentials',
			client: byId(uuid),
		});
		expect(env.calls().filter((c) => c.path.endsWith('/resend-credentials'))).toHaveLength(1);
		expect(env.partners.clients.get(uuid)?.credentials_sent).toBe(2);
		expect(result.error?.description).toMatch(/may have been processed/);
	});

	test('Client → Reactivate is sent once: a re-send would be refused (not suspended) and report the success as failed', async () => {
		const uuid = await createClient('reactivate@example.mx');
		await env.run({ resource: 'client', operation: 'suspend', clientIds: uuid });
		env.server.clear();
		env.server.fail({
			service: 'partners',
			method: 'POST',
			path: '/v1/clients/reactivate',
			mode,
			times: 1,
		});
		const result = await env.run({ resource: 'client', operation: 'reactivate', clientIds: uuid });
		expect(env.calls().filter((c) => c.path === '/v1/clients/reactivate')).toHaveLength(1);
		expect(env.partners.clients.get(uuid)?.status).toBe('active');
		expect(result.error?.message).not.toMatch(/not suspended/);
	});
});

test('a 429 on Suspend was not processed: re-sent after Retry-After, and the message is delivered once', async () => {
	const uuid = await createClient('throttled@example.mx');
	env.server.clear();
	env.server.fail({
		service: 'partners',
		method: 'POST',
		path: '/v1/clients/suspend',
		mode: 'throttle',
		retryAfterSeconds: 1,
		times: 1,
	});
	const { result } = await withFakeClock(() =>
		env.run({
			resource: 'client',
			operation: 'suspend',
			clientIds: uuid,
			options: { message: 'Pago pendiente' },
		}),
	);
	expect(result.error).toBeUndefined();
	const sent = env.calls().filter((c) => c.path === '/v1/clients/suspend');
	expect(sent).toHaveLength(2);
	expect(sent[1].at - sent[0].at).toBeGreaterThanOrEqual(1000);
	expect(env.partners.clients.get(uuid)?.messages_delivered).toEqual(['Pago pendiente']);
});

test('reads are still re-sent after a lost answer (safe to repeat)', async () => {
	env.server.fail({
		service: 'partners',
		method: 'GET',
		path: `/v1/products/${plan.uuid}`,
		mode: 'drop-after',
		times: 1,
	});
	const result = await env.run({ resource: 'plan', operation: 'get', plan: byId(plan.uuid) });
	expect(result.error).toBeUndefined();
	expect(env.calls().filter((c) => c.method === 'GET')).toHaveLength(2);
});
