import { withFakeClock } from '../harness/clock';
import { byId, usePartners } from './setup';

const env = usePartners((env) => {
	env.engine.credentials.set('partnersApi', {
		baseUrl: env.server.url('partners'),
		clientId: env.partners.clientId,
		clientSecret: env.partners.clientSecret,
		sandbox: true,
	});
	env.engine.credentials.preAuthRuns = 0;
});

const hundredGets = (uuid) =>
	env.run(
		{
			resource: 'plan',
			operation: 'get',
			plan: byId('={{ $json.id }}'),
			options: { parallelRequests: 1 },
		},
		Array.from({ length: 100 }, () => ({ id: uuid })),
	);

describe('token flow', () => {
	test('one token request serves a whole 100-item run, with the token request in client-credentials form', async () => {
		const [plan] = env.partners.seedProducts(1);
		const result = await hundredGets(plan.uuid);
		expect(result.error).toBeUndefined();
		expect(result.output('Partners')).toHaveLength(100);
		const tokens = env.tokenCalls();
		expect(tokens).toHaveLength(1);
		expect(tokens[0].body).toEqual({
			grant_type: 'client_credentials',
			client_id: 'partner-id',
			client_secret: 'partner-secret',
		});
		expect(tokens[0].headers['f-sandbox-mode']).toBe('true');
		expect(tokens[0].headers.authorization).toBeUndefined();
		expect(env.calls()).toHaveLength(100);
		// the token is stored with the credential, like n8n does, so the next execution reuses it
		env.server.clear();
		await hundredGets(plan.uuid);
		expect(env.tokenCalls()).toHaveLength(0);
	});

	test('a 401 mid-run causes exactly one token refresh and every item still succeeds', async () => {
		const [plan] = env.partners.seedProducts(1);
		await hundredGets(plan.uuid); // warm: a token is stored
		env.server.clear();
		env.partners.expireTokensAfter(40); // the token dies after the 40th request of this run
		const result = await hundredGets(plan.uuid);
		expect(result.error).toBeUndefined();
		expect(result.output('Partners')).toHaveLength(100);
		expect(env.tokenCalls()).toHaveLength(1);
		const unauthorized = env.calls().length - 100;
		expect(unauthorized).toBe(1); // the one request answered 401 was re-sent once with the new token
	});

	test.each([1, 5, 20])(
		'%i parallel requests, tokens expiring every 100 requests: one refresh serves every request in flight (1000 reads, at most 11 token requests)',
		async (parallel) => {
			const [plan] = env.partners.seedProducts(1);
			env.engine.credentials.set('partnersApi', {
				...env.engine.credentials.get('partnersApi'),
				accessToken: '',
			});
			env.server.clear();
			env.partners.tokenMaxUses = 100;
			const result = await env.run(
				{
					resource: 'plan',
					operation: 'get',
					plan: byId('={{ $json.id }}'),
					options: { parallelRequests: parallel },
				},
				Array.from({ length: 1000 }, () => ({ id: plan.uuid })),
			);
			env.partners.tokenMaxUses = undefined;
			expect(result.error).toBeUndefined();
			expect(result.output('Partners')).toHaveLength(1000);
			expect(result.output('Partners').every((o) => o.json.uuid === plan.uuid)).toBe(true);
			console.log(
				`${parallel} parallel: ${env.tokenCalls().length} token requests, ${env.calls().length - 1000} requests re-sent after a 401`,
			);
			expect(env.tokenCalls().length).toBeGreaterThanOrEqual(10);
			expect(env.tokenCalls().length).toBeLessThanOrEqual(11);
		},
	);

	test('a credential the token endpoint refuses: the requests in flight report it, without each fetching a token', async () => {
		const [plan] = env.partners.seedProducts(1);
		const stored = env.engine.credentials.get('partnersApi');
		env.engine.credentials.set('partnersApi', {
			...stored,
			accessToken: '',
			clientSecret: 'wrong',
		});
		env.server.clear();
		const result = await env.run(
			{
				resource: 'plan',
				operation: 'get',
				plan: byId('={{ $json.id }}'),
				options: { parallelRequests: 10 },
			},
			Array.from({ length: 30 }, () => ({ id: plan.uuid })),
			true,
		);
		env.engine.credentials.set('partnersApi', { ...stored, accessToken: '' });
		expect(
			result
				.output('Partners')
				.every((o) => /Partners refused the credential/.test(String(o.json.error))),
		).toBe(true);
		expect(env.tokenCalls().length).toBeLessThanOrEqual(2);
		expect(env.calls()).toHaveLength(0);
	});

	test('sandbox off sends F-Sandbox-Mode: false on the token request and every call', async () => {
		env.engine.credentials.set('partnersApi', {
			baseUrl: env.server.url('partners'),
			clientId: env.partners.clientId,
			clientSecret: env.partners.clientSecret,
			sandbox: false,
		});
		env.partners.seedProducts(1);
		const result = await env.run({ resource: 'plan', operation: 'getMany', returnAll: true });
		expect(result.error).toBeUndefined();
		expect(env.server.received('partners').map((r) => r.headers['f-sandbox-mode'])).toEqual([
			'false',
			'false',
		]);
	});

	test('wrong client secret: a clear credential error, no data request sent, secret not in the error', async () => {
		env.engine.credentials.set('partnersApi', {
			baseUrl: env.server.url('partners'),
			clientId: env.partners.clientId,
			clientSecret: 'wrong-secret-value',
			sandbox: true,
		});
		const result = await env.run({ resource: 'plan', operation: 'getMany', returnAll: true });
		expect(result.error?.message).toBe(
			'[item 1] Partners refused the credential: Client authentication failed',
		);
		expect(result.error?.description).toContain('Check the Client ID and Client Secret');
		expect(env.calls()).toHaveLength(0);
		expect(JSON.stringify(result.run.data.resultData)).not.toContain('wrong-secret-value');
	});

	test('the credential test button really calls the service and tells a wrong secret apart', async () => {
		const good = await env.engine.testCredential('partnersApi', {
			baseUrl: `${env.server.url('partners')}/`,
			clientId: 'partner-id',
			clientSecret: 'partner-secret',
			sandbox: true,
		});
		expect(good).toEqual({
			status: 'OK',
			message: 'Connection successful: Partners accepted the access token.',
		});
		expect(env.calls().map((c) => `${c.method} ${c.path}`)).toEqual(['GET /v1/products']);
		expect(env.tokenCalls()).toHaveLength(1);
		const wrong = await env.engine.testCredential('partnersApi', {
			baseUrl: env.server.url('partners'),
			clientId: 'partner-id',
			clientSecret: 'nope',
			sandbox: true,
		});
		expect(wrong).toEqual({
			status: 'Error',
			message: expect.stringMatching(
				/^Partners refused the credential: .*Check the Client ID and Client Secret/,
			),
		});
		expect(wrong.message).not.toContain('nope');
	});
});

describe('retries', () => {
	test('429 on a read is retried after Retry-After, then succeeds', async () => {
		const [plan] = env.partners.seedProducts(1);
		await env.run({ resource: 'plan', operation: 'get', plan: byId(plan.uuid) }); // token
		env.server.clear();
		env.server.fail({
			service: 'partners',
			path: `/v1/products/${plan.uuid}`,
			status: 429,
			times: 2,
			headers: { 'retry-after': '0' },
		});
		const result = await env.run({ resource: 'plan', operation: 'get', plan: byId(plan.uuid) });
		expect(result.error).toBeUndefined();
		expect(env.calls()).toHaveLength(3);
		expect(result.output('Partners')[0].json.uuid).toBe(plan.uuid);
	});

	test('5xx on a read is retried with backoff; a persistent failure gives up after 4 attempts', async () => {
		const [plan] = env.partners.seedProducts(1);
		await env.run({ resource: 'plan', operation: 'get', plan: byId(plan.uuid) });
		env.server.clear();
		env.server.fail({
			service: 'partners',
			path: `/v1/products/${plan.uuid}`,
			status: 503,
			times: 10,
		});
		const { result, elapsedMs } = await withFakeClock(() =>
			env.run({ resource: 'plan', operation: 'get', plan: byId(plan.uuid) }),
		);
		expect(result.error?.message).toBe(
			'[item 1] Partners answered 503: Injected failure [injected]',
		);
		expect(env.calls()).toHaveLength(4);
		expect(elapsedMs).toBeGreaterThanOrEqual(250 + 500 + 1000); // at least half of 500, 1000, 2000 ms (fake time)
	});

	test('a create answered 429 is re-sent after Retry-After (the service did not process it), and creates one plan', async () => {
		env.server.fail({
			service: 'partners',
			path: '/v1/products',
			method: 'POST',
			status: 429,
			times: 1,
			headers: { 'retry-after': '1' },
		});
		const { result, elapsedMs } = await withFakeClock(() =>
			env.run({
				resource: 'plan',
				operation: 'create',
				name: 'P429',
				vigencies: { vigency: [{ vigency: 'SP', folios: 1, price: 1 }] },
			}),
		);
		expect(result.error).toBeUndefined();
		expect(env.calls().map((c) => `${c.method} ${c.path}`)).toEqual([
			'POST /v1/products',
			'POST /v1/products',
		]);
		expect(env.calls()[1].at - env.calls()[0].at).toBeGreaterThanOrEqual(1000);
		expect(elapsedMs).toBeGreaterThanOrEqual(1000);
		expect([...env.partners.products.values()].filter((p) => p.name === 'P429')).toHaveLength(1);
	});

	test('a create answered 503 is not re-sent, and the error says it may have been processed', async () => {
		env.server.fail({
			service: 'partners',
			path: '/v1/products',
			method: 'POST',
			status: 503,
			times: 1,
		});
		const result = await env.run({
			resource: 'plan',
			operation: 'create',
			name: 'P503',
			vigencies: { vigency: [{ vigency: 'SP', folios: 1, price: 1 }] },
		});
		expect(result.error?.httpCode).toBe('503');
		expect(result.error?.description).toMatch(/may have been processed/);
		expect(env.calls()).toHaveLength(1);
	});

	test('a dropped connection on a read is retried', async () => {
		const [plan] = env.partners.seedProducts(1);
		await env.run({ resource: 'plan', operation: 'get', plan: byId(plan.uuid) });
		env.server.clear();
		env.server.fail({
			service: 'partners',
			path: `/v1/products/${plan.uuid}`,
			reset: true,
			times: 1,
		});
		const result = await env.run({ resource: 'plan', operation: 'get', plan: byId(plan.uuid) });
		expect(result.error).toBeUndefined();
		expect(env.calls()).toHaveLength(2);
	});

	test('an unreachable service says so and names the base URL to check', async () => {
		env.engine.credentials.set('partnersApi', {
			baseUrl: 'http://127.0.0.1:9',
			clientId: 'x',
			clientSecret: 'y',
			sandbox: true,
			accessToken: 'stale',
		});
		const result = await env.run({ resource: 'plan', operation: 'get', plan: byId('x') });
		expect(result.error?.message).toMatch(
			/^\[item 1\] Partners could not be reached \(ECONNREFUSED\)/,
		);
		expect(result.error?.description).toContain('Check the Base URL');
	}, 20000);
});

describe('parallel reads', () => {
	test('output order matches input order with 5 parallel requests, and each item is paired', async () => {
		const plans = env.partners.seedProducts(30);
		env.server.delayMs = 5;
		const input = [...plans].reverse().map((p) => ({ id: p.uuid }));
		const result = await env.run(
			{
				resource: 'plan',
				operation: 'get',
				plan: byId('={{ $json.id }}'),
				options: { parallelRequests: 5 },
			},
			input,
		);
		const out = result.output('Partners');
		expect(out.map((i) => i.json.uuid)).toEqual(input.map((i) => i.id));
		expect(out.map((i) => i.pairedItem)).toEqual(input.map((_, item) => ({ item })));
	});
});
