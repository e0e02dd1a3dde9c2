import { randomUUID } from 'node:crypto';
/** @import { IDataObject } from 'n8n-workflow' */
import { eventOfState, notificationEventId } from '../../nodes/Triggers/ReceiptsTrigger/receipt';
import { withFakeClock } from '../harness/clock';
import { built } from '../harness/engine';
import { leaks } from '../harness/hostile';
import { spellingsOf } from '../simulator/spellings';
import { TriggerHarness } from '../harness/webhook';
import { ReceiptsSimulator } from '../simulator/receipts';
import { SimulatorServer } from '../simulator/server';

/**
 * Receipts Trigger through n8n-core's real hook and webhook contexts, against the receipts simulator (which
 * holds the receipts' real state and delivers unsigned notifications, as the service does): activation
 * subscribes each selected event at the service once, with its own secret token in the URL, and later
 * activations reuse it; a delivery must present that token and the account's API key; anything else gets the
 * same 401 and starts nothing; a redelivery is acknowledged and starts nothing; and a run starts only on what
 * the service says about the receipt, whatever the notification claims.
 * @type {ReceiptsSimulator}
 */
let service;
/** @type {SimulatorServer} */
let server;
/** @type {TriggerHarness[]} */
const harnesses = [];

beforeEach(async () => {
	service = new ReceiptsSimulator();
	server = await new SimulatorServer([service]).start();
});
afterEach(async () => {
	while (harnesses.length) await /** @type {any} */ (harnesses.pop()).stop();
	await server.stop();
});

const EVENT_ID = /^[A-Za-z0-9_-]+:[0-9a-f]{64}$/;

function newHarness(events = ['receipt-issued', 'issue-error'], opts = {}) {
	const harness = new TriggerHarness({
		node: built('nodes/Triggers/ReceiptsTrigger/ReceiptsTrigger.node', 'ReceiptsTrigger'),
		credentialTypes: [built('credentials/ReceiptsApi.credentials', 'ReceiptsApi')],
		credentials: {
			receiptsApi: {
				baseUrl: server.url('receipts'),
				apiKey: opts.apiKey ?? service.apiKey,
				certificatePassword: service.certificatePassword,
			},
		},
		parameters: { events, ...(opts.options ? { options: opts.options } : {}) },
		mode: opts.mode,
		workflowId: `wf-${randomUUID()}`,
	});
	harnesses.push(harness);
	return harness;
}

async function receiptsHarness(events = ['receipt-issued', 'issue-error'], opts = {}) {
	const harness = newHarness(events, opts);
	await harness.start();
	await harness.activate();
	return harness;
}

/** The newest subscription of `event` (the URL the service delivers it to). */
function urlFor(event) {
	const sub = [...service.subscriptions].reverse().find((s) => s.event_name === event);
	if (!sub) throw new Error(`no subscription for ${event}`);
	return sub.webhook_url;
}

/** Sends `body` as a notification of `event` to its newest subscription (or to `opts.url`); the one answer. */
async function send(event, body, opts = {}) {
	const [answer] = await service.forge(event, body, { url: opts.url ?? urlFor(event) });
	return { status: answer.status, body: answer.body };
}

/** The receipt's genuine notification (the service's own payload), sent to the newest subscription of `event`. */
const deliver = (event, id, opts = {}) => send(event, service.payload(id), opts);

const seeded = (estado) =>
	service.seed(
		'retention',
		{
			ambiente: 1,
			secuencial: 123,
			emisor: { ruc: '1790000000001' },
			sujeto: { razon_social: 'Cliente S.A.', email: 'cliente@example.com' },
		},
		estado,
	);
/** An invoice the service holds, with its own number, buyer and totals. */
const seededInvoice = (estado) =>
	service.seed(
		'invoice',
		{
			ambiente: 1,
			secuencial: 148,
			emisor: { ruc: '1790000000001' },
			comprador: { razon_social: 'Cliente S.A.', identificacion: '1790000000001' },
			totales: { total_sin_impuestos: 100, importe_total: 115 },
		},
		estado,
	);
const tokenOf = (url) => new URL(url).searchParams.get('token');
/** The reads the trigger made of the service (any GET). */
const reads = () => server.received('receipts').filter((r) => r.method === 'GET');
const edocReads = () => reads().filter((r) => r.path.startsWith('/edocs/'));
const warnings = (harness) => harness.logs.filter((l) => l.level === 'warn').map((l) => l.message);

describe('Receipts Trigger: activation', () => {
	test('subscribes each selected event once, with X-Key only (it issues nothing) and a distinct secret token in the URL', async () => {
		const harness = await receiptsHarness();
		expect(service.subscriptions.map((s) => s.event_name).sort()).toEqual([
			'issue-error',
			'receipt-issued',
		]);
		const tokens = service.subscriptions.map((s) => {
			const url = new URL(s.webhook_url);
			expect(`${url.origin}${url.pathname}`).toBe(harness.url);
			expect(url.searchParams.get('event')).toBe(s.event_name);
			return url.searchParams.get('token');
		});
		expect(tokens.every((t) => typeof t === 'string' && t.length >= 32)).toBe(true);
		expect(new Set(tokens).size).toBe(2);
		expect(
			service.subscriptions.every(
				(s) => s.headers['x-key'] === service.apiKey && s.headers['x-password'] === undefined,
			),
		).toBe(true);
		// only a hash of the token is kept
		expect(JSON.stringify(harness.savedStaticData)).not.toContain(/** @type {any} */ (tokens[0]));
	});

	test.each([1, 3, 8])(
		'%i deactivate/activate cycles (and restarts) leave one subscription per event, and it keeps delivering',
		async (k) => {
			const harness = await receiptsHarness();
			const first = service.subscriptions.map((s) => s.webhook_url);
			for (let cycle = 0; cycle < k; cycle++) {
				await harness.deactivate();
				expect(await harness.activate(cycle % 2 ? 'init' : 'activate')).toEqual({ created: false });
			}
			expect(service.subscriptions).toHaveLength(2);
			expect(service.subscriptions.map((s) => s.webhook_url)).toEqual(first);
			expect(
				(await service.deliver('receipt-issued', seeded('AUTORIZADO').id)).map((a) => a.status),
			).toEqual([200]);
			expect(harness.executions).toHaveLength(1);
		},
	);

	test('selecting one more event later subscribes only that event; the earlier subscription is kept', async () => {
		const harness = await receiptsHarness(['receipt-issued']);
		const issued = urlFor('receipt-issued');
		await harness.deactivate();
		harness.setParameters({ events: ['receipt-issued', 'issue-error'] });
		expect(await harness.activate()).toEqual({ created: true });
		expect(service.subscriptions.map((s) => s.event_name)).toEqual([
			'receipt-issued',
			'issue-error',
		]);
		expect(urlFor('receipt-issued')).toBe(issued);
	});

	test('an event no longer selected: its subscription (which the service cannot remove) is acknowledged without a run, not refused', async () => {
		const harness = await receiptsHarness(['receipt-issued', 'issue-error']);
		await harness.deactivate();
		harness.setParameters({ events: ['receipt-issued'] });
		expect(await harness.activate()).toEqual({ created: false });
		expect(service.subscriptions).toHaveLength(2);
		const returned = seeded('DEVUELTO').id;
		for (let n = 0; n < 2; n++)
			expect(await deliver('issue-error', returned)).toEqual({
				status: 200,
				body: { received: true },
			});
		expect(harness.executions).toHaveLength(0);
	});

	test('another account (a different API key) needs its own subscriptions: the old tokens stop working', async () => {
		const harness = await receiptsHarness(['receipt-issued']);
		const oldUrl = urlFor('receipt-issued');
		await harness.deactivate();
		service.apiKey = 'rk_live_another_account_0000000000';
		harness.credentials.set('receiptsApi', {
			baseUrl: server.url('receipts'),
			apiKey: service.apiKey,
			certificatePassword: service.certificatePassword,
		});
		expect(await harness.activate()).toEqual({ created: true });
		expect(service.subscriptions).toHaveLength(2);
		expect(tokenOf(urlFor('receipt-issued'))).not.toBe(tokenOf(oldUrl));
		const id = seeded('AUTORIZADO').id;
		expect((await deliver('receipt-issued', id, { url: oldUrl })).status).toBe(401);
		expect((await deliver('receipt-issued', id)).status).toBe(200);
		expect(harness.executions).toHaveLength(1);
	});

	test('a refused subscription stops the activation with a message that names the event and the credential', async () => {
		await expect(
			receiptsHarness(['receipt-issued'], { apiKey: 'rk_live_the_service_knows_another_key' }),
		).rejects.toThrow(
			/^Could not subscribe to "receipt-issued" in the receipts service: Receipts refused the API key/,
		);
		expect(service.subscriptions).toHaveLength(0);
	});

	test('a refusal that echoes the subscribed URL in every spelling: the activation error shows neither the token nor the key', async () => {
		const harness = newHarness(['receipt-issued']);
		await harness.start();
		server.fail({
			service: 'receipts',
			method: 'POST',
			path: '/webhooks',
			mode: 'echo-secrets',
			status: 400,
			times: 1,
		});
		const error = await harness.activate().then(
			() => undefined,
			(e) => /** @type {Error & Record<string, unknown>} */ (e),
		);
		expect(error?.message).toMatch(
			/^Could not subscribe to "receipt-issued" in the receipts service: /,
		);
		const sent = /** @type {{ webhook_url: string }} */ (
			server.received('receipts').find((r) => r.path === '/webhooks')?.body
		);
		const token = /** @type {string} */ (tokenOf(sent.webhook_url));
		expect(token.length).toBeGreaterThan(30);
		const shown = JSON.stringify({
			message: error?.message,
			description: error?.description,
			stack: error?.stack,
			context: error?.context,
			cause: /** @type {any} */ (error)?.cause,
			logs: harness.logs,
		});
		expect(leaks(shown, [token, service.apiKey, sent.webhook_url])).toEqual([]);
	});

	test('listening for a test event subscribes nothing; a delivery to the Test URL must carry the account API key', async () => {
		const harness = await receiptsHarness(['receipt-issued'], { mode: 'manual' });
		expect(service.subscriptions).toHaveLength(0);
		await harness.deactivate();
		await harness.activate();
		expect(service.subscriptions).toHaveLength(0);
		const testUrl = `${harness.url}?event=receipt-issued`;
		const payload = service.payload(seeded('AUTORIZADO').id);
		expect(
			(await send('receipt-issued', { ...payload, 'api-key': 'rk_live_wrong' }, { url: testUrl }))
				.status,
		).toBe(401);
		expect(harness.executions).toHaveLength(0);
		expect((await send('receipt-issued', payload, { url: testUrl })).status).toBe(200);
		expect(harness.executions).toHaveLength(1);
	});
});

describe('Receipts Trigger: a subscription request without an answer keeps its token', () => {
	test('answer lost after the service subscribed: activation fails saying it may exist; its deliveries are accepted, and the next activation asks again', async () => {
		const harness = newHarness(['issue-error']);
		await harness.start();
		server.fail({
			service: 'receipts',
			method: 'POST',
			path: '/webhooks',
			mode: 'drop-after',
			times: 1,
		});
		await expect(harness.activate()).rejects.toThrow(
			/^The receipts service did not confirm the subscription to "issue-error": /,
		);
		expect(service.subscriptions).toHaveLength(1); // the service made it
		const lost = urlFor('issue-error');
		expect(JSON.stringify(harness.savedStaticData)).toContain('unconfirmed'); // saved although the activation failed

		expect(await harness.activate()).toEqual({ created: true });
		expect(service.subscriptions).toHaveLength(2); // one more request: the first might not have existed
		const returned = seeded('DEVUELTO').id;
		const answers = await service.deliver('issue-error', returned); // both subscriptions deliver
		expect(answers.map((a) => a.url)).toEqual([lost, urlFor('issue-error')]);
		expect(answers.map((a) => a.status)).toEqual([200, 200]);
		expect(answers[1].body).toEqual({ received: true }); // the same notification twice: one eventId, one run
		expect(harness.executions).toHaveLength(1);
	});

	test('a definite refusal of the second event keeps the first, which was confirmed: the next activation subscribes only the second', async () => {
		const harness = newHarness(['receipt-issued', 'issue-error']);
		await harness.start();
		server.fail({
			service: 'receipts',
			method: 'POST',
			path: '/webhooks',
			status: 400,
			body: { error: 'webhook_url inválida' },
			skip: 1,
			times: 1,
		});
		await expect(harness.activate()).rejects.toThrow(
			/^Could not subscribe to "receipt-issued" in the receipts service: /,
		);
		expect(service.subscriptions.map((s) => s.event_name)).toEqual(['issue-error']);
		const first = urlFor('issue-error');

		expect(await harness.activate()).toEqual({ created: true });
		expect(service.subscriptions.map((s) => s.event_name)).toEqual([
			'issue-error',
			'receipt-issued',
		]);
		expect((await deliver('issue-error', seeded('DEVUELTO').id, { url: first })).status).toBe(200);
		expect(harness.executions).toHaveLength(1);
		expect(JSON.stringify(harness.savedStaticData)).not.toContain('unconfirmed'); // the refused request left nothing behind
	});

	test('after three unanswered requests for an event, activation stops asking and listens: the three tokens are accepted, the notification runs once', async () => {
		const harness = newHarness(['issue-error']);
		await harness.start();
		server.fail({
			service: 'receipts',
			method: 'POST',
			path: '/webhooks',
			mode: 'drop-after',
			times: 3,
		});
		for (let n = 0; n < 3; n++)
			await expect(harness.activate()).rejects.toThrow(
				/did not confirm the subscription to "issue-error"/,
			);
		expect(await harness.activate()).toEqual({ created: false });
		expect(service.subscriptions).toHaveLength(3); // no fourth request
		expect(warnings(harness)).toEqual([
			expect.stringMatching(
				/never answered 3 requests to subscribe to "issue-error"; not asking again/,
			),
		]);
		const answers = await service.deliver('issue-error', seeded('DEVUELTO').id);
		expect(answers.map((a) => [a.status, a.body])).toEqual([
			[200, expect.anything()],
			[200, { received: true }],
			[200, { received: true }],
		]);
		expect(harness.executions).toHaveLength(1);
	});
});

describe('Receipts Trigger: deliveries', () => {
	test('a genuine notification: the receipt is read from the service (X-Key only) and the run outputs it as the service holds it, with the event; no key, no certificate password', async () => {
		const harness = await receiptsHarness();
		const invoice = seededInvoice('AUTORIZADO');
		server.clear();
		expect((await deliver('receipt-issued', invoice.id)).status).toBe(200);
		expect(harness.executions).toHaveLength(1);
		const [item] = harness.executions[0].items;
		const { eventId, ...rest } = item;
		expect(rest).toEqual({
			...service.full(invoice),
			event: 'receipt-issued',
			stateFrom: 'service',
		});
		expect(eventId).toMatch(EVENT_ID);
		expect(String(eventId).startsWith(`${invoice.id}:`)).toBe(true);
		expect(item['api-key']).toBeUndefined();
		expect(JSON.stringify(harness.executions)).not.toContain(service.apiKey);
		expect(JSON.stringify(harness.executions)).not.toContain(service.certificatePassword);
		// GET /edocs/{id} (its state and type), then the whole invoice: two reads, X-Key only.
		expect(reads().map((r) => [r.path, r.headers['x-key'], r.headers['x-password']])).toEqual([
			[`/edocs/${invoice.id}`, service.apiKey, undefined],
			[`/invoices/${invoice.id}`, service.apiKey, undefined],
		]);
	});

	test('a retention (the spec shows no read of a whole retention): the run outputs what GET /edocs/{id} says, nothing of the notification', async () => {
		const harness = await receiptsHarness();
		const retention = seeded('AUTORIZADO');
		server.clear();
		expect((await deliver('receipt-issued', retention.id)).status).toBe(200);
		const [item] = harness.executions[0].items;
		expect(item).toEqual({
			...service.edoc(retention),
			event: 'receipt-issued',
			eventId: expect.stringMatching(EVENT_ID),
			stateFrom: 'service',
		});
		expect(item.sujeto).toBeUndefined(); // the notification carried it; the service's answer does not
		// A 07 may be an ATS retention, whose whole read the spec shows: asked once, it answers 404 for this one.
		expect(reads().map((r) => r.path)).toEqual([
			`/edocs/${retention.id}`,
			`/ats-retentions/${retention.id}`,
		]);
	});

	test('a service whose answer echoes the account key and certificate password in every spelling, also as keys: none of them in the run', async () => {
		const harness = await receiptsHarness();
		const invoice = seededInvoice('AUTORIZADO');
		const spelled = [service.apiKey, service.certificatePassword].map(spellingsOf);
		server.fail({
			service: 'receipts',
			method: 'GET',
			path: '/invoices/',
			status: 200,
			body: {
				...service.full(invoice),
				nota: spelled.map((forms) => Object.values(forms).join(' ')).join(' / '),
				recibido: { [service.apiKey]: 'X-Key', [service.certificatePassword]: 'X-Password' },
			},
			times: 1,
		});
		expect((await deliver('receipt-issued', invoice.id)).status).toBe(200);
		const [item] = harness.executions[0].items;
		expect(item.recibido).toEqual({ '[redacted]': 'X-Key', '[redacted] 2': 'X-Password' });
		expect(
			leaks(JSON.stringify(harness.executions), [service.apiKey, service.certificatePassword]),
		).toEqual([]);
	});

	test('the account key and address are read from the credential at most once a second, however many notifications arrive', async () => {
		const harness = await receiptsHarness();
		const ids = Array.from({ length: 5 }, () => seededInvoice('AUTORIZADO').id);
		// Time stands still while the notifications arrive (n8n decrypts a credential on every read).
		jest.useFakeTimers({
			doNotFake: ['nextTick', 'setImmediate', 'queueMicrotask', 'hrtime', 'performance'],
		});
		try {
			const before = harness.credentials.reads.get('receiptsApi') ?? 0;
			for (const id of ids) expect((await deliver('receipt-issued', id)).status).toBe(200);
			expect(harness.credentials.reads.get('receiptsApi')).toBe(before + 1);
			jest.setSystemTime(Date.now() + 1000);
			expect((await deliver('receipt-issued', seededInvoice('NO AUTORIZADO').id)).status).toBe(200);
			expect(harness.credentials.reads.get('receiptsApi')).toBe(before + 2);
		} finally {
			jest.useRealTimers();
		}
		expect(harness.executions).toHaveLength(6);
	});

	test('a rotated account key works at once: a notification with the new key is checked again with a fresh read', async () => {
		const harness = await receiptsHarness(['receipt-issued'], { mode: 'manual' });
		const testUrl = `${harness.url}?event=receipt-issued`;
		const invoice = seededInvoice('AUTORIZADO');
		expect(
			(await send('receipt-issued', service.payload(invoice.id), { url: testUrl })).status,
		).toBe(200);
		service.apiKey = 'rk_live_rotated_key_0123456789';
		harness.credentials.set('receiptsApi', {
			baseUrl: server.url('receipts'),
			apiKey: service.apiKey,
			certificatePassword: service.certificatePassword,
		});
		const again = seededInvoice('AUTORIZADO');
		expect((await send('receipt-issued', service.payload(again.id), { url: testUrl })).status).toBe(
			200,
		);
		expect(harness.executions).toHaveLength(2);
	});

	test('a signing failure arrives as issue-error with the firma object the service holds', async () => {
		const harness = await receiptsHarness();
		const receipt = seeded('CREADO');
		receipt.firma = {
			result: 'error',
			error: 'Contraseña de la firma electrónica incorrecta',
			status: 400,
		};
		expect((await deliver('issue-error', receipt.id)).status).toBe(200);
		expect(harness.executions[0].items[0]).toMatchObject({
			event: 'issue-error',
			estado: 'CREADO',
			firma: { status: 400 },
			stateFrom: 'service',
		});
	});

	describe('a run starts only when the state the service holds stands for the notification’s event (receipts service, Events)', () => {
		test.each([
			['DEVUELTO', 'issue-error'],
			['ENVIADO', undefined],
			['RECIBIDO', undefined],
			['PRE-AUTORIZADO', undefined],
			['CREADO', 'issue-error'],
			['ERROR', undefined],
		])(
			'a trigger subscribed to receipt-issued only: a receipt-issued notification about a receipt the service holds as %s starts nothing (200, the reason at warn level)',
			async (estado, held) => {
				const harness = await receiptsHarness(['receipt-issued']);
				const invoice = seededInvoice(/** @type {any} */ (estado));
				const claim = { ...service.payload(invoice.id), estado: 'AUTORIZADO' };
				expect(await send('receipt-issued', claim)).toEqual({
					status: 200,
					body: { received: true },
				});
				expect(harness.executions).toHaveLength(0);
				expect(warnings(harness)).toEqual([
					expect.stringMatching(
						new RegExp(
							`receipt-issued notification not run: the receipts service holds receipt ${invoice.id} as ${estado}, ${held ? `an outcome of ${held}` : 'which no event stands for'}`,
						),
					),
				]);
			},
		);

		test.each(['AUTORIZADO', 'NO AUTORIZADO'])(
			'a receipt the service holds as %s: receipt-issued runs, issue-error does not',
			async (estado) => {
				const harness = await receiptsHarness();
				const invoice = seededInvoice(/** @type {any} */ (estado));
				expect((await deliver('issue-error', invoice.id)).status).toBe(200);
				expect(harness.executions).toHaveLength(0);
				expect((await deliver('receipt-issued', invoice.id)).status).toBe(200);
				expect(harness.executions.map((e) => [e.items[0].event, e.items[0].estado])).toEqual([
					['receipt-issued', estado],
				]);
			},
		);

		test('the state is the service’s at the time it is asked: a receipt reissued and authorized since, notified again as issue-error, starts nothing', async () => {
			const harness = await receiptsHarness();
			const invoice = seededInvoice('DEVUELTO');
			const stale = service.payload(invoice.id);
			expect((await send('issue-error', stale)).status).toBe(200);
			service.setState(invoice.id, 'AUTORIZADO');
			expect((await send('issue-error', { ...stale, reenvio: 1 })).status).toBe(200);
			expect(harness.executions.map((e) => e.items[0].estado)).toEqual(['DEVUELTO']);
		});
	});

	test.each([
		['a guessed token', (u) => u.searchParams.set('token', 'x'.repeat(43)), undefined],
		['no token', (u) => u.searchParams.delete('token'), undefined],
		["the other event's token", (u) => u.searchParams.set('event', 'issue-error'), undefined],
		['an unknown event', (u) => u.searchParams.set('event', 'invoice-paid'), undefined],
		['a wrong api-key', () => {}, 'rk_live_wrong'],
	])(
		'%s: 401 with the same short body as every refusal, no execution, nothing read; the reason only in the log',
		async (_, mangle, apiKey) => {
			const harness = await receiptsHarness();
			const url = new URL(urlFor('receipt-issued'));
			mangle(url);
			const payload = service.payload(seeded('AUTORIZADO').id);
			server.clear();
			const answer = await send(
				'receipt-issued',
				{ ...payload, ...(apiKey ? { 'api-key': apiKey } : {}) },
				{ url: url.toString() },
			);
			expect(answer).toEqual({ status: 401, body: { error: 'unauthorized' } });
			expect(harness.executions).toHaveLength(0);
			expect(edocReads()).toHaveLength(0);
			expect(warnings(harness)).toEqual([
				expect.stringMatching(/^Receipts Trigger refused a delivery: .+/),
			]);
		},
	);

	test('a notification without api-key, or that is not JSON, is refused the same way', async () => {
		const harness = await receiptsHarness();
		const payload = service.payload(seeded('AUTORIZADO').id);
		delete payload['api-key'];
		expect(await send('receipt-issued', payload)).toEqual({
			status: 401,
			body: { error: 'unauthorized' },
		});
		const notJson = await fetch(urlFor('receipt-issued'), {
			method: 'POST',
			headers: { 'content-type': 'text/plain' },
			body: 'not json',
		});
		expect([notJson.status, await notJson.json()]).toEqual([401, { error: 'unauthorized' }]);
		expect(harness.executions).toHaveLength(0);
	});

	test('a redelivery of the same notification is acknowledged (200) without reading the service again; a new state of the same receipt starts another run', async () => {
		const harness = await receiptsHarness();
		const receipt = seeded('AUTORIZADO');
		expect((await deliver('receipt-issued', receipt.id)).status).toBe(200);
		server.clear();
		for (let n = 0; n < 3; n++)
			expect(await deliver('receipt-issued', receipt.id)).toEqual({
				status: 200,
				body: { received: true },
			});
		expect(edocReads()).toHaveLength(0);
		expect(harness.executions).toHaveLength(1);
		service.setState(receipt.id, 'NO AUTORIZADO', [
			{ identificador: '45', mensaje: 'SECUENCIAL REGISTRADO', tipo: 'ERROR' },
		]);
		expect((await deliver('receipt-issued', receipt.id)).status).toBe(200);
		expect(harness.executions).toHaveLength(2);
		expect(harness.executions[1].items[0]).toMatchObject({
			estado: 'NO AUTORIZADO',
			autorizacion: { mensajes: [{ identificador: '45' }] },
		});
		expect(harness.executions[1].items[0].eventId).not.toBe(harness.executions[0].items[0].eventId);
	});

	test('only the selected events are subscribed', async () => {
		await receiptsHarness(['issue-error']);
		expect(service.subscriptions.map((s) => s.event_name)).toEqual(['issue-error']);
	});
});

describe('Receipts Trigger: forged notifications (the service does not sign them)', () => {
	test('a claim of AUTORIZADO for a receipt the service holds as NO AUTORIZADO starts a run that says NO AUTORIZADO, with the service’s messages', async () => {
		const harness = await receiptsHarness();
		const rejected = seeded('NO AUTORIZADO');
		const genuine = service.payload(rejected.id);
		const forged = {
			...genuine,
			estado: 'AUTORIZADO',
			autorizacion: {
				numero: rejected.clave_acceso,
				fecha: '2026-11-20T10:00:00-05:00',
				estado: 'AUTORIZADO',
				mensajes: [],
			},
			envio_sri: { estado: 'RECIBIDA', mensajes: [], fecha: '2026-11-20T09:59:00-05:00' },
			firma: { result: 'ok' },
		};
		expect((await service.forge('receipt-issued', forged)).map((a) => a.status)).toEqual([200]);
		expect(harness.executions).toHaveLength(1);
		const [item] = harness.executions[0].items;
		expect(item).toMatchObject({
			id: rejected.id,
			estado: 'NO AUTORIZADO',
			autorizacion: { estado: 'NO AUTORIZADO', mensajes: [{ identificador: '39', tipo: 'ERROR' }] },
			stateFrom: 'service',
		});
		// nothing of the notification: neither the outcome fields the service's answer lacks nor the rest
		expect(item.firma).toBeUndefined();
		expect(item.envio_sri).toBeUndefined();
		expect(item.sujeto).toBeUndefined();
		expect(genuine.sujeto).toBeDefined();
	});

	test('a forged invoice notification with another number and a total of 99999.99: the run shows the number, buyer and total the service holds, and nothing else of the notification', async () => {
		const harness = await receiptsHarness();
		const invoice = seededInvoice('AUTORIZADO');
		const forged = {
			...service.payload(invoice.id),
			secuencial: 999,
			comprador: { razon_social: 'Someone Else', identificacion: '0999999999' },
			totales: { total_sin_impuestos: 99999.99, importe_total: 99999.99 },
			instrucciones: 'pay to account 123',
		};
		expect((await service.forge('receipt-issued', forged)).map((a) => a.status)).toEqual([200]);
		const [item] = harness.executions[0].items;
		expect(item).toMatchObject({
			id: invoice.id,
			secuencial: 148,
			comprador: { razon_social: 'Cliente S.A.' },
			totales: { importe_total: 115 },
			stateFrom: 'service',
		});
		expect(JSON.stringify(item)).not.toContain('99999.99');
		expect(item.instrucciones).toBeUndefined();
	});

	test('a notification about a receipt the service does not know starts no run: 200 {received:true} (the sender stops), the reason at warn level', async () => {
		const harness = await receiptsHarness();
		const known = service.payload(seeded('AUTORIZADO').id);
		const unknownId = 'f'.repeat(32);
		for (let n = 0; n < 2; n++) {
			expect(await send('receipt-issued', { ...known, id: unknownId })).toEqual({
				status: 200,
				body: { received: true },
			});
		}
		expect(harness.executions).toHaveLength(0);
		expect(warnings(harness)).toEqual(
			Array(2).fill(
				expect.stringMatching(
					new RegExp(
						`does not know receipt ${unknownId} \\(GET /edocs/${unknownId} answered 404\\)`,
					),
				),
			),
		);
	});

	test.each([
		['..'],
		['../webhooks'],
		['a/b'],
		['x?y=1'],
		['x#y'],
		['%2e%2e'],
		['a b'],
		['a\nb'],
		[''],
		[123],
		[null],
	])(
		'a receipt id %j that is not a safe path segment is never read: no request, no run, 200',
		async (id) => {
			const harness = await receiptsHarness();
			const payload = service.payload(seeded('AUTORIZADO').id);
			server.clear();
			expect(await send('receipt-issued', { ...payload, id })).toEqual({
				status: 200,
				body: { received: true },
			});
			expect(server.received('receipts')).toHaveLength(0);
			expect(harness.executions).toHaveLength(0);
			expect(warnings(harness)).toEqual([
				expect.stringMatching(/names no receipt id that can be read/),
			]);
		},
	);

	test('two different notifications of one receipt both start runs; each one redelivered, byte for byte or serialized again, does not', async () => {
		const harness = await receiptsHarness();
		const id = seeded('AUTORIZADO').id;
		const first = service.payload(id);
		// Same receipt, same state and date: only a message differs (the old "<id>:<state>:<date>" id made them one).
		const second = {
			...first,
			autorizacion: {
				.../** @type {IDataObject} */ (first.autorizacion),
				mensajes: [
					{
						identificador: '60',
						mensaje: 'ESTE PROCESO FUE REALIZADO EN EL AMBIENTE DE PRUEBAS',
						tipo: 'INFORMATIVO',
					},
				],
			},
		};
		expect((await send('receipt-issued', first)).status).toBe(200);
		expect((await send('receipt-issued', second)).status).toBe(200);
		expect(harness.executions).toHaveLength(2);
		const [a, b] = harness.executions.map((e) => e.items[0].eventId);
		expect(a).not.toBe(b);

		const reordered = Object.fromEntries(Object.entries(second).reverse());
		const raw = JSON.stringify(reordered, null, 2);
		const again = await fetch(urlFor('receipt-issued'), {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: raw,
		});
		expect([again.status, await again.json()]).toEqual([200, { received: true }]);
		expect(await send('receipt-issued', first)).toEqual({ status: 200, body: { received: true } });
		expect(harness.executions).toHaveLength(2);
	});

	test('a slow service read starts no run and ends within its deadline (503, so a genuine sender tries again); the redelivery then runs', async () => {
		const harness = await receiptsHarness(['receipt-issued'], { options: { checkTimeout: 1 } });
		const id = seeded('AUTORIZADO').id;
		server.fail({
			service: 'receipts',
			method: 'GET',
			path: '/edocs/',
			mode: 'slow',
			delayMs: 20000,
			times: 5,
		});
		const { result, elapsedMs } = await withFakeClock(() => deliver('receipt-issued', id));
		expect(result).toEqual({ status: 503, body: { error: 'unavailable' } });
		// 1 s deadline; without it the read would wait for the 20 s answer (or the 60 s request timeout)
		expect(elapsedMs).toBeGreaterThanOrEqual(1000);
		expect(elapsedMs).toBeLessThan(20000);
		expect(edocReads()).toHaveLength(1);
		expect(harness.executions).toHaveLength(0);
		expect(warnings(harness)).toEqual([
			expect.stringMatching(
				/^Receipts Trigger answered 503 and started no run .*receipt-issued notification not checked: reading receipt \w+ from the receipts service failed/,
			),
		]);

		server.clear();
		expect((await deliver('receipt-issued', id)).status).toBe(200); // not remembered as received
		expect(harness.executions).toHaveLength(1);
	});

	test.each([
		['a 503 on every attempt', { status: 503 }],
		['a 500 on every attempt', { status: 500 }],
		['a refused key (401)', { status: 401, body: { error: 'Invalid API key' } }],
		['a connection reset on every attempt', { mode: 'reset' }],
		[
			'an answer about another receipt',
			{ status: 200, body: { id: 'another0receipt', estado: 'AUTORIZADO' } },
		],
		['an answer without estado', { status: 200, body: { id: 'x' } }],
	])(
		'%s: read once (never again for this notification), 503 {error:"unavailable"} that names nothing, no run, the reason in the log',
		async (_, fault) => {
			const harness = await receiptsHarness(['receipt-issued'], { options: { checkTimeout: 1 } });
			const id = seeded('AUTORIZADO').id;
			server.fail({
				service: 'receipts',
				method: 'GET',
				path: '/edocs/',
				times: 10,
				.../** @type {any} */ (fault),
			});
			const { result, elapsedMs } = await withFakeClock(() => deliver('receipt-issued', id));
			expect(result).toEqual({ status: 503, body: { error: 'unavailable' } });
			expect(elapsedMs).toBeLessThanOrEqual(1000);
			expect(reads()).toHaveLength(1);
			expect(harness.executions).toHaveLength(0);
			expect(warnings(harness)).toEqual([expect.stringMatching(/answered 503 and started no run/)]);
			expect(JSON.stringify(harness.logs)).not.toContain(service.apiKey);
		},
	);

	test('a forged notification against a failing service: at most two reads per notification, however often it is sent', async () => {
		const harness = await receiptsHarness(['receipt-issued'], { options: { checkTimeout: 1 } });
		const invoice = seededInvoice('AUTORIZADO');
		server.fail({ service: 'receipts', method: 'GET', path: '/edocs/', status: 503, times: 100 });
		const forged = { ...service.payload(invoice.id), estado: 'AUTORIZADO' };
		for (let n = 0; n < 3; n++)
			expect(await send('receipt-issued', { ...forged, n })).toEqual({
				status: 503,
				body: { error: 'unavailable' },
			});
		expect(reads()).toHaveLength(3); // one per notification
		server.clear();
		// The state readable, the whole invoice not: two reads, and the run keeps what GET /edocs/{id} said.
		server.fail({
			service: 'receipts',
			method: 'GET',
			path: '/invoices/',
			status: 503,
			times: 100,
		});
		expect((await send('receipt-issued', forged)).status).toBe(200);
		expect(reads().map((r) => r.path)).toEqual([`/edocs/${invoice.id}`, `/invoices/${invoice.id}`]);
		expect(harness.executions[0].items[0]).toMatchObject({
			...service.edoc(invoice),
			stateFrom: 'service',
		});
		expect(harness.executions[0].items[0].secuencial).toBeUndefined();
	});

	test('Trust Notification Content: no read, and the run says what the sender claims (the documented risk)', async () => {
		const harness = await receiptsHarness(['receipt-issued'], { options: { trustPayload: true } });
		const rejected = seeded('NO AUTORIZADO');
		const forged = {
			...service.payload(rejected.id),
			estado: 'AUTORIZADO',
			autorizacion: { estado: 'AUTORIZADO', fecha: '2026-11-20T10:00:00-05:00', mensajes: [] },
		};
		server.clear();
		expect((await service.forge('receipt-issued', forged)).map((a) => a.status)).toEqual([200]);
		expect((await send('receipt-issued', { ...forged, id: 'never-issued' })).status).toBe(200);
		expect(edocReads()).toHaveLength(0);
		expect(harness.executions.map((e) => e.items[0])).toEqual([
			expect.objectContaining({
				id: rejected.id,
				estado: 'AUTORIZADO',
				stateFrom: 'notification',
				'api-key': '[redacted]',
			}),
			expect.objectContaining({
				id: 'never-issued',
				estado: 'AUTORIZADO',
				stateFrom: 'notification',
			}),
		]);
	});

	test.each([
		[0, '0'],
		[0.2, '0.2'],
		[31, '31'],
		['5s', '"5s"'],
		[Number.NaN, 'NaN'],
		[null, 'null'],
	])(
		"Service Check Timeout %j stops the activation with a message that names the option (the package's one rule for number options)",
		async (checkTimeout, shown) => {
			const harness = newHarness(['receipt-issued'], { options: { checkTimeout } });
			await harness.start();
			await expect(harness.activate()).rejects.toThrow(
				`Options → Service Check Timeout (Seconds): must be a number from 0.5 to 30, got ${shown}`,
			);
			expect(service.subscriptions).toHaveLength(0);
		},
	);

	test('Service Check Timeout as plain decimal text ("1.5") is that number, as for every number option', async () => {
		const harness = await receiptsHarness(['receipt-issued'], { options: { checkTimeout: '1.5' } });
		expect((await deliver('receipt-issued', seeded('AUTORIZADO').id)).status).toBe(200);
		expect(harness.executions).toHaveLength(1);
	});
});

describe('notificationEventId', () => {
	const base = {
		id: 'r1',
		estado: 'AUTORIZADO',
		autorizacion: { estado: 'AUTORIZADO', fecha: 'F1', mensajes: [] },
		'api-key': 'k1',
	};

	test('the receipt id, then the SHA-256 of the event and the content; the same content in another key order has the same id', () => {
		const id = notificationEventId('receipt-issued', base);
		expect(id).toMatch(/^r1:[0-9a-f]{64}$/);
		const reordered = {
			'api-key': 'k1',
			autorizacion: { mensajes: [], fecha: 'F1', estado: 'AUTORIZADO' },
			estado: 'AUTORIZADO',
			id: 'r1',
		};
		expect(notificationEventId('receipt-issued', reordered)).toBe(id);
	});

	test.each([
		['another state', { ...base, estado: 'NO AUTORIZADO' }],
		[
			'another message',
			{ ...base, autorizacion: { ...base.autorizacion, mensajes: [{ identificador: '60' }] } },
		],
		['another field', { ...base, secuencial: '2' }],
		['a number instead of a string', { ...base, autorizacion: { ...base.autorizacion, fecha: 1 } }],
	])('%s: another id', (_, other) => {
		expect(notificationEventId('receipt-issued', other)).not.toBe(
			notificationEventId('receipt-issued', base),
		);
	});

	test('another event: another id; another account key: the same id (the key is not part of it)', () => {
		expect(notificationEventId('issue-error', base)).not.toBe(
			notificationEventId('receipt-issued', base),
		);
		expect(notificationEventId('receipt-issued', { ...base, 'api-key': 'k2' })).toBe(
			notificationEventId('receipt-issued', base),
		);
	});

	test('a notification without a safe receipt id: the hash alone', () => {
		expect(notificationEventId('receipt-issued', { ...base, id: '../x' })).toMatch(
			/^[0-9a-f]{64}$/,
		);
	});
});

describe('eventOfState', () => {
	test.each([
		['AUTORIZADO', 'receipt-issued'],
		['NO AUTORIZADO', 'receipt-issued'],
		[' no autorizado ', 'receipt-issued'],
		['CREADO', 'issue-error'],
		['DEVUELTO', 'issue-error'],
		['ENVIADO', undefined],
		['RECIBIDO', undefined],
		['PRE-AUTORIZADO', undefined],
		['ERROR', undefined],
		['', undefined],
		[null, undefined],
	])('%j: %s', (estado, event) => {
		expect(eventOfState(estado)).toBe(event);
	});
});
