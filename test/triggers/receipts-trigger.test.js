import { randomUUID } from 'node:crypto';
/** @import { ICredentialType, IDataObject, INodeType } from 'n8n-workflow' */
import { receiptEventId } from '../../nodes/Triggers/ReceiptsTrigger/receipt';
import { built } from '../harness/engine';
import { TriggerHarness } from '../harness/webhook';
import { SimulatorServer } from '../simulator/server';
import { API_KEY, authorizedReceipt, CERT_PASSWORD, ReceiptsStandIn, signingFailure } from './setup';

/**
 * Receipts Trigger through n8n-core's real hook and webhook contexts: activation subscribes each selected
 * event at the service once, with its own secret token in the URL, and later activations reuse it; a
 * delivery must present that token and the account's API key; anything else gets the same 401 and starts
 * nothing; a redelivery is acknowledged and starts nothing.
 * @type {ReceiptsStandIn}
 */
let service;
/** @type {SimulatorServer} */
let server;
/** @type {TriggerHarness[]} */
const harnesses = [];

beforeEach(async () => {
	service = new ReceiptsStandIn();
	server = await new SimulatorServer([service]).start();
});
afterEach(async () => {
	while (harnesses.length) await /** @type {any} */ (harnesses.pop()).stop();
	await server.stop();
});

async function receiptsHarness(events = ['receipt-issued', 'issue-error'], opts = {}) {
	const harness = new TriggerHarness({
		node: built('nodes/Triggers/ReceiptsTrigger/ReceiptsTrigger.node', 'ReceiptsTrigger'),
		credentialTypes: [built('credentials/ReceiptsApi.credentials', 'ReceiptsApi')],
		credentials: { receiptsApi: { baseUrl: server.url('receipts'), apiKey: opts.apiKey ?? API_KEY, certificatePassword: CERT_PASSWORD } },
		parameters: { events },
		mode: opts.mode,
		workflowId: `wf-${randomUUID()}`,
	});
	harnesses.push(harness);
	await harness.start();
	await harness.activate();
	return harness;
}

const tokenOf = (url) => new URL(url).searchParams.get('token');

describe('Receipts Trigger: activation', () => {
	test('subscribes each selected event once, with X-Key only (it issues nothing) and a distinct secret token in the URL', async () => {
		const harness = await receiptsHarness();
		expect(service.subscriptions.map((s) => s.event_name).sort()).toEqual(['issue-error', 'receipt-issued']);
		const tokens = service.subscriptions.map((s) => {
			const url = new URL(s.webhook_url);
			expect(`${url.origin}${url.pathname}`).toBe(harness.url);
			expect(url.searchParams.get('event')).toBe(s.event_name);
			return url.searchParams.get('token');
		});
		expect(tokens.every((t) => typeof t === 'string' && t.length >= 32)).toBe(true);
		expect(new Set(tokens).size).toBe(2);
		expect(service.subscriptions.every((s) => s.headers['x-key'] === API_KEY && s.headers['x-password'] === undefined)).toBe(true);
		// only a hash of the token is kept
		expect(JSON.stringify(harness.savedStaticData)).not.toContain(/** @type {any} */ (tokens[0]));
	});

	test.each([1, 3, 8])('%i deactivate/activate cycles (and restarts) leave one subscription per event, and it keeps delivering', async (k) => {
		const harness = await receiptsHarness();
		const first = service.subscriptions.map((s) => s.webhook_url);
		for (let cycle = 0; cycle < k; cycle++) {
			await harness.deactivate();
			expect(await harness.activate(cycle % 2 ? 'init' : 'activate')).toEqual({ created: false });
		}
		expect(service.subscriptions).toHaveLength(2);
		expect(service.subscriptions.map((s) => s.webhook_url)).toEqual(first);
		expect((await service.notify('receipt-issued', authorizedReceipt())).status).toBe(200);
		expect(harness.executions).toHaveLength(1);
	});

	test('selecting one more event later subscribes only that event; the earlier subscription is kept', async () => {
		const harness = await receiptsHarness(['receipt-issued']);
		const issued = service.urlFor('receipt-issued');
		await harness.deactivate();
		harness.setParameters({ events: ['receipt-issued', 'issue-error'] });
		expect(await harness.activate()).toEqual({ created: true });
		expect(service.subscriptions.map((s) => s.event_name)).toEqual(['receipt-issued', 'issue-error']);
		expect(service.urlFor('receipt-issued')).toBe(issued);
	});

	test('an event no longer selected: its subscription (which the service cannot remove) is acknowledged without a run, not refused', async () => {
		const harness = await receiptsHarness(['receipt-issued', 'issue-error']);
		await harness.deactivate();
		harness.setParameters({ events: ['receipt-issued'] });
		expect(await harness.activate()).toEqual({ created: false });
		expect(service.subscriptions).toHaveLength(2);
		for (let n = 0; n < 2; n++) {
			const answer = await service.notify('issue-error', signingFailure());
			expect(answer).toEqual({ status: 200, body: { received: true } });
		}
		expect(harness.executions).toHaveLength(0);
	});

	test('another account (a different API key) needs its own subscriptions: the old tokens stop working', async () => {
		const harness = await receiptsHarness(['receipt-issued']);
		const oldUrl = service.urlFor('receipt-issued');
		await harness.deactivate();
		service.apiKey = 'rk_live_another_account_0000000000';
		harness.credentials.set('receiptsApi', { baseUrl: server.url('receipts'), apiKey: service.apiKey, certificatePassword: CERT_PASSWORD });
		expect(await harness.activate()).toEqual({ created: true });
		expect(service.subscriptions).toHaveLength(2);
		expect(tokenOf(service.urlFor('receipt-issued'))).not.toBe(tokenOf(oldUrl));
		expect((await service.notify('receipt-issued', authorizedReceipt(), { url: oldUrl })).status).toBe(401);
		expect((await service.notify('receipt-issued', authorizedReceipt())).status).toBe(200);
		expect(harness.executions).toHaveLength(1);
	});

	test('a refused subscription stops the activation with a message that names the event and the credential', async () => {
		service.apiKey = 'rk_live_the_service_knows_another_key';
		await expect(receiptsHarness(['receipt-issued'])).rejects.toThrow(/^Could not subscribe to "receipt-issued" in the receipts service: Receipts refused the API key/);
		expect(service.subscriptions).toHaveLength(0);
	});

	test('listening for a test event subscribes nothing; a delivery to the Test URL must carry the account API key', async () => {
		const harness = await receiptsHarness(['receipt-issued'], { mode: 'manual' });
		expect(service.subscriptions).toHaveLength(0);
		await harness.deactivate();
		await harness.activate();
		expect(service.subscriptions).toHaveLength(0);
		const testUrl = `${harness.url}?event=receipt-issued`;
		expect((await service.notify('receipt-issued', authorizedReceipt(), { url: testUrl, apiKey: 'rk_live_wrong' })).status).toBe(401);
		expect(harness.executions).toHaveLength(0);
		expect((await service.notify('receipt-issued', authorizedReceipt(), { url: testUrl })).status).toBe(200);
		expect(harness.executions).toHaveLength(1);
	});
});

describe('Receipts Trigger: deliveries', () => {
	test('a genuine notification starts one execution with a stable eventId; the api-key is masked and the certificate password absent', async () => {
		const harness = await receiptsHarness();
		const answer = await service.notify('receipt-issued', authorizedReceipt());
		expect(answer.status).toBe(200);
		expect(harness.executions).toHaveLength(1);
		const [item] = harness.executions[0].items;
		expect(item).toMatchObject({ id: 'rcpt_1', event: 'receipt-issued', eventId: 'rcpt_1:AUTORIZADO:2026-11-20T10:00:00-05:00', autorizacion: { estado: 'AUTORIZADO' } });
		expect(item['api-key']).toBe('[redacted]');
		expect(JSON.stringify(harness.executions)).not.toContain(API_KEY);
		expect(JSON.stringify(harness.executions)).not.toContain(CERT_PASSWORD);
	});

	test('a signing failure arrives as issue-error with its firma object', async () => {
		const harness = await receiptsHarness();
		expect((await service.notify('issue-error', signingFailure())).status).toBe(200);
		expect(harness.executions[0].items[0]).toMatchObject({ event: 'issue-error', eventId: 'rcpt_2:CREADO', estado: 'CREADO', firma: { status: 400 }, 'certificate-password': null });
	});

	test.each([
		['a guessed token', (u) => u.searchParams.set('token', 'x'.repeat(43)), undefined],
		['no token', (u) => u.searchParams.delete('token'), undefined],
		["the other event's token", (u) => u.searchParams.set('event', 'issue-error'), undefined],
		['an unknown event', (u) => u.searchParams.set('event', 'invoice-paid'), undefined],
		['a wrong api-key', () => {}, { 'api-key': 'rk_live_wrong' }],
	])('%s: 401 with the same short body as every refusal, no execution; the reason only in the log', async (_, mangle, override) => {
		const harness = await receiptsHarness();
		const url = new URL(service.urlFor('receipt-issued'));
		mangle(url);
		const body = { ...authorizedReceipt(), ...(override ?? {}) };
		const answer = await service.notify('receipt-issued', body, { url: url.toString(), apiKey: override ? /** @type {string} */ (override['api-key']) : undefined });
		expect(answer).toEqual({ status: 401, body: { error: 'unauthorized' } });
		expect(harness.executions).toHaveLength(0);
		expect(harness.logs.filter((l) => l.level === 'warn').map((l) => l.message)).toEqual([expect.stringMatching(/^Receipts Trigger refused a delivery: .+/)]);
	});

	test('a notification without api-key, or that is not JSON, is refused the same way', async () => {
		const harness = await receiptsHarness();
		expect(await service.notify('receipt-issued', authorizedReceipt(), { apiKey: null })).toEqual({ status: 401, body: { error: 'unauthorized' } });
		const notJson = await fetch(service.urlFor('receipt-issued'), { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'not json' });
		expect([notJson.status, await notJson.json()]).toEqual([401, { error: 'unauthorized' }]);
		expect(harness.executions).toHaveLength(0);
	});

	test('a redelivery of the same notification is acknowledged (200) and starts nothing; a new state of the same receipt starts another run', async () => {
		const harness = await receiptsHarness();
		expect((await service.notify('receipt-issued', authorizedReceipt())).status).toBe(200);
		for (let n = 0; n < 3; n++) expect(await service.notify('receipt-issued', authorizedReceipt())).toEqual({ status: 200, body: { received: true } });
		expect(harness.executions).toHaveLength(1);
		const rejected = {
			...authorizedReceipt(),
			estado: 'NO AUTORIZADO',
			autorizacion: { estado: 'NO AUTORIZADO', fecha: '2026-11-21T08:00:00-05:00', mensajes: [{ identificador: '45', mensaje: 'SECUENCIAL REGISTRADO', tipo: 'ERROR' }] },
		};
		expect((await service.notify('receipt-issued', rejected)).status).toBe(200);
		expect(harness.executions).toHaveLength(2);
		expect(harness.executions[1].items[0].eventId).toBe('rcpt_1:NO AUTORIZADO:2026-11-21T08:00:00-05:00');
	});

	test('only the selected events are subscribed', async () => {
		await receiptsHarness(['issue-error']);
		expect(service.subscriptions.map((s) => s.event_name)).toEqual(['issue-error']);
	});
});

describe('receiptEventId', () => {
	test.each([
		['authorized', { id: 'r1', estado: 'AUTORIZADO', autorizacion: { estado: 'AUTORIZADO', fecha: 'F1' } }, 'r1:AUTORIZADO:F1'],
		['returned by the SRI', { id: 'r1', estado: 'DEVUELTO', envio_sri: { estado: 'DEVUELTA', fecha: 'F2' } }, 'r1:DEVUELTA:F2'],
		['signing failure', { id: 'r1', estado: 'CREADO', firma: { status: 400 } }, 'r1:CREADO'],
		['only an access key', { clave_acceso: '123', estado: 'CREADO' }, '123:CREADO'],
		['no receipt named', { estado: 'CREADO' }, undefined],
	])('%s', (_, receipt, expected) => {
		expect(receiptEventId(receipt)).toBe(expected);
	});
});
