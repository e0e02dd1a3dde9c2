/** @import { INodeType } from 'n8n-workflow' */
import { built, workflowWith } from '../harness/engine';
import { withFakeClock } from '../harness/clock';
import { keptSize } from '../../nodes/shared/budget';
import { everythingOf, leaks, withMemoryPeak } from '../harness/hostile';
import { byId, clientCreateParams, usePartners } from './setup';

/**
 * Partners through n8n-core's engine against a hostile network and service (test/simulator/server.js): a
 * redirect to another origin, an answer dripped one byte at a time, an oversized answer, refusals that echo
 * the secrets they were sent, pages that never advance, IDs that would change the address.
 */

/** A client secret with the characters whose escaped and encoded forms differ from the raw one. */
const SECRET = 'p@ss "wörd"/+ &x=1';

const env = usePartners((env) => {
	env.partners.clientSecret = SECRET;
	env.engine.credentials.set('partnersApi', {
		baseUrl: env.server.url('partners'),
		clientId: env.partners.clientId,
		clientSecret: SECRET,
		sandbox: true,
	});
});

/** A token stored with the credential, as after an earlier run. */
async function warm(plan) {
	await env.run({ resource: 'plan', operation: 'get', plan: byId(plan.uuid) });
	env.server.clear();
}

describe('a credential goes only to its own origin: no redirect is followed', () => {
	test('Plan → Get answered 307 to another host: not followed, the bearer token never reaches it', async () => {
		const [plan] = env.partners.seedProducts(1);
		await warm(plan);
		env.server.fail({
			service: 'partners',
			path: `/v1/products/${plan.uuid}`,
			mode: 'redirect',
			times: 1,
		});
		const result = await env.run({ resource: 'plan', operation: 'get', plan: byId(plan.uuid) });
		expect(result.error?.message).toBe(
			`[item 1] Partners answered GET /v1/products/${plan.uuid} with a redirect (HTTP 307), which was not followed`,
		);
		expect(result.error?.description).toMatch(
			/never follow a redirect, so nothing was sent there\. Check the Base URL/,
		);
		expect(/** @type {any} */ (result.error).facts).toMatchObject({
			status: 307,
			redirectedTo: `${env.otherOrigin}/partners/v1/products/${plan.uuid}`,
			mayHaveBeenProcessed: false,
		});
		expect(env.server.receivedAt(env.otherOrigin)).toEqual([]);
	});

	test('Client → Create answered 308: not followed, nothing sent twice or elsewhere', async () => {
		const [plan] = env.partners.seedProducts(1);
		await warm(plan);
		env.server.fail({
			service: 'partners',
			method: 'POST',
			path: '/v1/clients',
			mode: 'redirect',
			status: 308,
			times: 1,
		});
		const result = await env.run(clientCreateParams(plan));
		expect(result.error?.message).toMatch(
			/^\[item 1\] Partners answered POST \/v1\/clients with a redirect \(HTTP 308\), which was not followed$/,
		);
		expect(env.calls()).toHaveLength(1);
		expect(env.server.receivedAt(env.otherOrigin)).toEqual([]);
		expect(env.partners.clients.size).toBe(0);
	});

	test('the token request answered 307: not followed (the client secret stays home), no token stored, no data request', async () => {
		env.partners.seedProducts(1);
		env.server.fail({ service: 'partners', path: '/v1/auth/token', mode: 'redirect', times: 1 });
		const result = await env.run({ resource: 'plan', operation: 'getMany', returnAll: true });
		expect(result.error?.message).toBe(
			'[item 1] Partners answered POST /v1/auth/token with a redirect (HTTP 307), which was not followed',
		);
		expect(env.tokenCalls()).toHaveLength(1);
		expect(env.server.receivedAt(env.otherOrigin)).toEqual([]);
		expect(env.calls()).toHaveLength(0);
		expect(env.engine.credentials.get('partnersApi').accessToken).toBeFalsy();
	});
});

describe('every request has a wall-clock deadline (fake clock)', () => {
	test('a plan answered one byte every 400 ms is cut at 60 s, and the service sees the connection closed', async () => {
		const [plan] = env.partners.seedProducts(1);
		await warm(plan);
		env.server.fail({
			service: 'partners',
			path: `/v1/products/${plan.uuid}`,
			mode: 'drip',
			intervalMs: 400,
			times: 1,
		});
		const { result, elapsedMs } = await withFakeClock(() =>
			env.run({ resource: 'plan', operation: 'get', plan: byId(plan.uuid) }),
		);
		expect(result.error?.message).toBe(
			'[item 1] Partners did not answer in time (no complete answer within 60 s)',
		);
		expect(/** @type {any} */ (result.error).facts).toMatchObject({
			mayHaveBeenProcessed: true,
			repeatable: true,
		});
		const [drip] = await env.server.delivered();
		expect(drip.closedEarly).toBe(true);
		expect(drip.sent).toBeLessThan(drip.total);
		// The deadline, not the drip's end: every byte came within 400 ms of the last, so an idle timer never fires.
		expect(elapsedMs).toBeGreaterThanOrEqual(60_000);
		expect(elapsedMs).toBeLessThan(drip.total * 400);
		expect(env.calls()).toHaveLength(1);
	});

	test('a token answer that drips is cut at 30 s: no data request, no token stored', async () => {
		env.server.fail({
			service: 'partners',
			path: '/v1/auth/token',
			mode: 'drip',
			intervalMs: 400,
			times: 1,
		});
		const { result, elapsedMs } = await withFakeClock(() =>
			env.run({ resource: 'plan', operation: 'getMany', returnAll: true }),
		);
		expect(result.error?.message).toBe(
			'[item 1] Partners did not answer in time (no complete answer within 30 s)',
		);
		expect(result.error?.description).toMatch(
			/^POST \/v1\/auth\/token had no complete answer within 30 s/,
		);
		expect(elapsedMs).toBeGreaterThanOrEqual(30_000);
		expect(elapsedMs).toBeLessThan(60_000);
		expect((await env.server.delivered())[0].closedEarly).toBe(true);
		expect(env.calls()).toHaveLength(0);
	});
});

describe('every answer has a size cap', () => {
	test.each([
		['announced by Content-Length: refused before reading', true, /\(it announced 300 MB\)$/],
		['not announced: read up to 16 MB, then refused', false, /\(more than 16 MB arrived\)$/],
	])('a 300 MB plan list, %s', async (_what, declareLength, says) => {
		const [plan] = env.partners.seedProducts(1);
		await warm(plan);
		env.server.fail({
			service: 'partners',
			path: '/v1/products',
			mode: 'oversize',
			declareLength,
			times: 1,
		});
		const result = await env.run({ resource: 'plan', operation: 'getMany', returnAll: true });
		expect(result.error?.message).toMatch(/^\[item 1\] Partners: the answer is larger than 16 MB /);
		expect(result.error?.message).toMatch(says);
		expect(/** @type {any} */ (result.error).facts.size).toMatchObject({
			limit: 16 * 1024 * 1024,
			announced: declareLength,
		});
		const [stream] = await env.server.delivered();
		expect(stream.closedEarly).toBe(true);
		expect(stream.sent).toBeLessThan(64 * 1024 * 1024);
		// Not retried: the same answer would come again.
		expect(env.calls()).toHaveLength(1);
	});
});

describe('secrets a service echoes stay out of the run', () => {
	test.each([
		['JSON', false],
		['an HTML page', true],
	])(
		'a token refusal (%s) repeating the client secret in every spelling',
		async (_what, asText) => {
			env.server.fail({
				service: 'partners',
				path: '/v1/auth/token',
				mode: 'echo-secrets',
				as: asText ? 'text' : undefined,
				times: 1,
			});
			const result = await env.run(
				{ resource: 'plan', operation: 'getMany', returnAll: true },
				[{}, {}],
				true,
			);
			const body = /** @type {Record<string, unknown>} */ (env.tokenCalls()[0].body);
			expect(body.client_secret).toBe(SECRET);
			expect(result.output('Partners')[0].json.error).toMatch(
				/^\[item 1\] Partners refused the credential/,
			);
			expect(leaks(everythingOf(result), [SECRET])).toEqual([]);
			expect(everythingOf(result)).toContain('[redacted]');
		},
	);

	test('a data refusal repeating the bearer token: the token is cut out too', async () => {
		const [plan] = env.partners.seedProducts(1);
		await warm(plan);
		const token = String(env.engine.credentials.get('partnersApi').accessToken);
		env.server.fail({
			service: 'partners',
			path: `/v1/products/${plan.uuid}`,
			mode: 'echo-secrets',
			status: 403,
			times: 1,
		});
		const result = await env.run({ resource: 'plan', operation: 'get', plan: byId(plan.uuid) });
		expect(result.error?.httpCode).toBe('403');
		expect(token.length).toBeGreaterThan(20);
		expect(leaks(everythingOf(result), [token, SECRET])).toEqual([]);
	});
});

describe('a run keeps at most 512 MB in memory', () => {
	const MB = 1024 * 1024;
	// What the budget counts for one 12 MB page (budget.ts keptSize: the objects as n8n holds them, not the JSON
	// text), and so how many pages fit in 512 MB: the next one passes the limit.
	const perPage = () => keptSize(env.partners.endlessPage(1, 12 * MB).products);
	const fit = () => Math.floor((512 * MB) / perPage());

	test('Plan → Get Many (Return All) against a service that answers 12 MB pages forever: stopped before the 512 MB are passed, saying how to read less', async () => {
		env.partners.endlessPagesOf = 12 * MB;
		const { result, heapGrowth, rssGrowth } = await withMemoryPeak(() =>
			env.run({ resource: 'plan', operation: 'getMany', returnAll: true }),
		);
		expect(result.error?.message).toBe(
			'[item 1] Plan → Get Many: this run would keep more than 512 MB in memory',
		);
		expect(result.error?.description).toMatch(
			/^One run of a node keeps at most 512 MB and 100,000 items in memory, all its input items together, .* nothing more was read\. Read fewer plans: use Filters → Search, or turn off Return All and set a Limit\.$/,
		);
		// A 12 MB page counts many times its text (what n8n holds of it): the page after the last that
		// fits passes the limit, and no page is asked after it.
		expect(fit()).toBeLessThan(5);
		const pages = env.calls().filter((c) => c.path === '/v1/products');
		expect(pages).toHaveLength(fit() + 1);
		expect(/** @type {any} */ (result.error).facts.kept).toMatchObject({
			items: (fit() + 1) * 15,
			limits: { bytes: 512 * MB, items: 100_000 },
		});
		// A generous guard, not a measurement: without the limit the same run reads 1,000 pages (12 GB).
		expect(heapGrowth).toBeLessThan(768 * MB);
		expect(rssGrowth).toBeLessThan(1024 * MB);
	}, 60000);

	test('many input items that each keep one 12 MB page (Limit 15): the item that would pass 512 MB fails, nothing is read after it', async () => {
		env.partners.endlessPagesOf = 12 * MB;
		const result = await env.run(
			{
				resource: 'plan',
				operation: 'getMany',
				returnAll: false,
				limit: 15,
				options: { parallelRequests: 1 },
			},
			Array.from({ length: 20 }, () => ({})),
		);
		expect(result.error?.message).toBe(
			`[item ${fit() + 1}] Plan → Get Many: this run would keep more than 512 MB in memory`,
		);
		expect(env.calls().filter((c) => c.path === '/v1/products')).toHaveLength(fit() + 1);
	}, 60000);

	test('Continue On Fail: the item over the limit becomes an error item and what it read is dropped, so later items are counted without it', async () => {
		env.partners.endlessPagesOf = 12 * MB;
		const result = await env.run(
			{
				resource: 'plan',
				operation: 'getMany',
				returnAll: false,
				limit: 15,
				options: { parallelRequests: 1 },
			},
			Array.from({ length: 12 }, () => ({})),
			true,
		);
		const out = result.output('Partners');
		expect(out.filter((o) => typeof o.json.error === 'string').map((o) => o.json.error)).toEqual(
			Array.from(
				{ length: 12 - fit() },
				(_, k) =>
					`[item ${fit() + k + 1}] Plan → Get Many: this run would keep more than 512 MB in memory`,
			),
		);
		expect(out.filter((o) => o.json.uuid)).toHaveLength(fit() * 15);
	}, 60000);

	test('an operation that reads one answer per item (Client → Get Many): counted as each item’s output leaves, the item that would pass 512 MB fails', async () => {
		const clients = Array.from({ length: 12 }, (_, n) => ({
			id: `c${n}`,
			notes: 'x'.repeat(MB),
		}));
		env.server.fail({
			service: 'partners',
			path: '/v1/clients',
			status: 200,
			body: { response: 'success', data: { clients } },
			times: 20,
		});
		const result = await env.run(
			{
				resource: 'client',
				operation: 'getMany',
				returnAll: true,
				options: { parallelRequests: 1 },
			},
			Array.from({ length: 20 }, () => ({})),
		);
		// Counted as n8n holds each item's 12 clients of 1 MB (budget.ts keptSize).
		const fits = Math.floor((512 * MB) / keptSize(clients));
		expect(result.error?.message).toBe(
			`[item ${fits + 1}] Partners: this run would keep more than 512 MB in memory`,
		);
		expect(result.error?.description).toMatch(
			/nothing more was read\. Turn off Return All and set a Limit\.\n/,
		);
		expect(env.calls().filter((c) => c.path === '/v1/clients')).toHaveLength(fits + 1);
	}, 60000);
});

describe('paging stops when the service does not advance, and has a hard cap', () => {
	test('a service that ignores `page`: Plan → Get Many stops at page 2 with an error that says so', async () => {
		env.partners.seedProducts(40);
		env.server.fail({
			service: 'partners',
			path: '/v1/products',
			mode: 'ignore-page',
			times: 1000,
		});
		const result = await env.run({ resource: 'plan', operation: 'getMany', returnAll: true });
		expect(result.error?.message).toBe(
			'[item 1] Partners answered page 1 when page 2 was asked: the plan list does not advance',
		);
		expect(/** @type {any} */ (result.error).facts.paging).toEqual({
			asked: 2,
			answered: 1,
			reason: 'not-advancing',
		});
		expect(env.calls()).toHaveLength(2);
	});

	test('a service that claims the page asked but repeats the same plans: stopped at the repetition', async () => {
		env.partners.seedProducts(40);
		env.server.fail({
			service: 'partners',
			path: '/v1/products',
			mode: 'repeat-page',
			times: 1000,
		});
		const result = await env.run({ resource: 'plan', operation: 'getMany', returnAll: true });
		expect(result.error?.message).toBe(
			'[item 1] Partners answered page 2 with the same plans as page 1: the plan list does not advance',
		);
		expect(env.calls()).toHaveLength(2);
	});

	test('at most 1,000 pages, then an error that says so', async () => {
		env.partners.perPage = 1;
		env.partners.seedProducts(1001);
		try {
			const result = await env.run({ resource: 'plan', operation: 'getMany', returnAll: true });
			expect(result.error?.message).toBe('[item 1] Partners: more than 1000 pages of plans');
			expect(env.calls()).toHaveLength(1000);
		} finally {
			env.partners.perPage = 15;
		}
	}, 60000);

	test('the pickers stop too: the plan search offers no next page, the Delete list ends with an error', async () => {
		env.partners.seedProducts(40);
		/** @type {INodeType} */
		const node = built('nodes/Partners/Partners.node', 'Partners');
		const methods = /** @type {any} */ (node.methods);
		const ctx = env.engine.loadOptionsContext(
			workflowWith({
				nodeType: 'partners',
				credentialType: 'partnersApi',
				parameters: { resource: 'plan', operation: 'delete' },
				name: 'Partners',
			}),
			'Partners',
		);
		env.server.fail({
			service: 'partners',
			path: '/v1/products',
			mode: 'ignore-page',
			times: 1000,
		});
		await expect(methods.listSearch.searchPlans.call(ctx, undefined, '2')).rejects.toThrow(
			'Partners answered page 1 when page 2 was asked',
		);
		env.server.clear();
		env.server.fail({
			service: 'partners',
			path: '/v1/products',
			mode: 'repeat-page',
			times: 1000,
		});
		await expect(methods.loadOptions.getPlans.call(ctx)).rejects.toThrow(
			'Partners answered page 2 with the same plans as page 1',
		);
		expect(env.calls()).toHaveLength(2);
	});
});

describe('an ID that goes into the address is checked before anything is sent', () => {
	test.each([
		['..', /^\[item 1\] plan: "\.\." is not an ID/],
		['.', /^\[item 1\] plan: "\." is not an ID/],
		['%2e%2e', /^\[item 1\] plan: "%2e%2e" is not an ID: it contains "%"/],
		['abc/change-status', /^\[item 1\] plan: "abc\/change-status" is not an ID: it contains "\/"/],
		['abc?x=1', /^\[item 1\] plan: "abc\?x=1" is not an ID: it contains "\?"/],
		['abc def', /^\[item 1\] plan: "abc def" is not an ID: it contains a space/],
	])('plan %j', async (id, says) => {
		const result = await env.run({ resource: 'plan', operation: 'changeStatus', plan: byId(id) });
		expect(result.error?.message).toMatch(says);
		expect(env.server.received('partners')).toHaveLength(0);
	});
});

describe('a token answer without access_token stops at the token answer', () => {
	test('no empty token stored, no request sent as "Authorization: Bearer ", and the error says why', async () => {
		env.server.fail({
			service: 'partners',
			path: '/v1/auth/token',
			status: 200,
			body: { token_type: 'Bearer', expires_in: 3600 },
			times: 1,
		});
		const result = await env.run({ resource: 'plan', operation: 'getMany', returnAll: true });
		expect(result.error?.message).toBe(
			'[item 1] Partners: the token answer has no access token (access_token)',
		);
		expect(result.error?.description).toMatch(
			/^POST \/v1\/auth\/token answered HTTP 200, but the token answer has no access token/,
		);
		expect(env.calls()).toHaveLength(0);
		expect(
			env.server.received('partners').filter((r) => r.headers.authorization !== undefined),
		).toEqual([]);
		expect(env.engine.credentials.get('partnersApi').accessToken).toBeFalsy();
	});
});
