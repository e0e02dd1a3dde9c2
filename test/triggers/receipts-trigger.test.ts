import { randomUUID } from 'node:crypto';
import type { ICredentialType, IDataObject, INodeType } from 'n8n-workflow';
import { built } from '../harness/engine';
import { TriggerHarness } from '../harness/webhook';
import { SimulatorServer } from '../simulator/server';
import { API_KEY, authorizedReceipt, CERT_PASSWORD, ReceiptsStandIn, signingFailure } from './setup';

/**
 * Receipts Trigger through n8n-core's real hook and webhook contexts: activation subscribes each selected
 * event at the service with its own secret token in the URL; a delivery must present that token and the
 * account's API key; anything else gets 401 and starts nothing.
 */

let service: ReceiptsStandIn;
let server: SimulatorServer;
const harnesses: TriggerHarness[] = [];

beforeEach(async () => {
	service = new ReceiptsStandIn();
	server = await new SimulatorServer([service]).start();
});
afterEach(async () => {
	while (harnesses.length) await harnesses.pop()!.stop();
	await server.stop();
});

async function receiptsHarness(events: string[] = ['receipt-issued', 'issue-error']) {
	const harness = new TriggerHarness({
		node: built<INodeType>('nodes/Triggers/ReceiptsTrigger/ReceiptsTrigger.node', 'ReceiptsTrigger'),
		credentialTypes: [built<ICredentialType>('credentials/ReceiptsApi.credentials', 'ReceiptsApi')],
		credentials: { receiptsApi: { baseUrl: server.url('receipts'), apiKey: API_KEY, certificatePassword: CERT_PASSWORD } },
		parameters: { events },
		workflowId: `wf-${randomUUID()}`,
	});
	harnesses.push(harness);
	await harness.start();
	await harness.activate();
	return harness;
}

describe('Receipts Trigger', () => {
	test('activation subscribes each selected event once, with X-Key and a distinct secret token in the URL', async () => {
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
		expect(service.subscriptions.every((s) => s.headers['x-key'] === API_KEY)).toBe(true);
		// only a hash of the token is kept
		expect(JSON.stringify(harness.savedStaticData)).not.toContain(tokens[0]!);
	});

	test('a genuine notification starts one execution; api-key and certificate password are not in the output', async () => {
		const harness = await receiptsHarness();
		const answer = await service.notify('receipt-issued', authorizedReceipt());
		expect(answer.status).toBe(200);
		expect(harness.executions).toHaveLength(1);
		const [item] = harness.executions[0].items;
		expect(item).toMatchObject({ id: 'rcpt_1', event: 'receipt-issued', autorizacion: { estado: 'AUTORIZADO' } });
		expect(item['api-key']).toBeUndefined();
		expect(JSON.stringify(harness.executions)).not.toContain(API_KEY);
	});

	test('a signing failure arrives as issue-error with its firma object', async () => {
		const harness = await receiptsHarness();
		expect((await service.notify('issue-error', signingFailure())).status).toBe(200);
		expect(harness.executions[0].items[0]).toMatchObject({ event: 'issue-error', estado: 'CREADO', firma: { status: 400 } });
		expect(harness.executions[0].items[0]['certificate-password']).toBeUndefined();
	});

	test.each<[string, (url: URL) => void, IDataObject | undefined]>([
		['a guessed token', (u) => u.searchParams.set('token', 'x'.repeat(43)), undefined],
		['no token', (u) => u.searchParams.delete('token'), undefined],
		["the other event's token", (u) => u.searchParams.set('event', 'issue-error'), undefined],
		['an unknown event', (u) => u.searchParams.set('event', 'invoice-paid'), undefined],
		['a wrong api-key', () => {}, { 'api-key': 'rk_live_wrong' }],
	])('%s: 401 and no execution', async (_, mangle, override) => {
		const harness = await receiptsHarness();
		const url = new URL(service.urlFor('receipt-issued'));
		mangle(url);
		const body = { ...authorizedReceipt(), ...(override ?? {}) };
		const answer = await service.notify('receipt-issued', body, { url: url.toString(), apiKey: override ? (override['api-key'] as string) : undefined });
		expect(answer.status).toBe(401);
		expect(harness.executions).toHaveLength(0);
	});

	test('a notification without api-key is refused', async () => {
		const harness = await receiptsHarness();
		expect((await service.notify('receipt-issued', authorizedReceipt(), { apiKey: null })).status).toBe(401);
		expect(harness.executions).toHaveLength(0);
	});

	test('the same notification twice starts one execution; a new state of the same receipt starts another', async () => {
		const harness = await receiptsHarness();
		expect((await service.notify('receipt-issued', authorizedReceipt())).status).toBe(200);
		expect((await service.notify('receipt-issued', authorizedReceipt())).status).toBe(200);
		expect(harness.executions).toHaveLength(1);
		const rejected = { ...authorizedReceipt(), estado: 'NO AUTORIZADO', autorizacion: { estado: 'NO AUTORIZADO', mensajes: [{ identificador: '45', mensaje: 'SECUENCIAL REGISTRADO', tipo: 'ERROR' }] } };
		expect((await service.notify('receipt-issued', rejected)).status).toBe(200);
		expect(harness.executions).toHaveLength(2);
	});

	test('deactivating forgets the tokens: after re-activation only the new subscriptions deliver', async () => {
		const harness = await receiptsHarness();
		const oldUrl = service.urlFor('receipt-issued');
		await harness.deactivate();
		await harness.activate();
		expect(service.urlFor('receipt-issued')).not.toBe(oldUrl);
		expect((await service.notify('receipt-issued', authorizedReceipt(), { url: oldUrl })).status).toBe(401);
		expect(harness.executions).toHaveLength(0);
		expect((await service.notify('receipt-issued', authorizedReceipt())).status).toBe(200);
		expect(harness.executions).toHaveLength(1);
	});

	test('only the selected events are subscribed', async () => {
		await receiptsHarness(['issue-error']);
		expect(service.subscriptions.map((s) => s.event_name)).toEqual(['issue-error']);
	});
});
