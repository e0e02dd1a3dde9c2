import { built, outputNames } from '../harness/engine';
import { invoiceBody, retentionBody, useReceipts } from './setup';

/**
 * A rejection must not look like a success: from version 3, Issue, Issue From XML, Reissue and Document →
 * Authorize send authorized receipts to the first output ("Authorized") and every other item to the second
 * ("Not Authorized": rejected, not decided yet, failed). Versions 1 and 2, as saved workflows carry them, keep
 * one output. Through n8n-core's engine against the simulator; the outputs as n8n-workflow computes them.
 */

const env = useReceipts();

/** @type {import('n8n-workflow').INodeType} */
const receipts = built('nodes/Receipts/Receipts.node', 'Receipts');

/** A batch of three invoices: the SRI authorizes the first, returns the second, has not decided the third. */
async function batchOf3(typeVersion, continueOnFail = false) {
	env.receipts.planNext('AUTORIZADO');
	env.receipts.planNext({
		estado: 'DEVUELTO',
		mensajes: [{ identificador: '45', mensaje: 'SECUENCIAL REGISTRADO', tipo: 'ERROR' }],
	});
	env.receipts.planNext(...Array(200).fill('RECIBIDO'));
	const text = JSON.stringify({ ...invoiceBody(), secuencial: 0 }).replace(
		'"secuencial":0',
		'"secuencial":{{ $json.seq }}',
	);
	return await env.runTimed(
		{
			resource: 'invoice',
			operation: 'issue',
			inputMode: 'json',
			jsonBody: `=${text}`,
			waitForFinalState: true,
			waitTimeout: 30,
			options: { parallelRequests: 1 },
		},
		[{ seq: 501 }, { seq: 502 }, { seq: 503 }],
		continueOnFail,
		typeVersion,
	);
}

describe('version 3: Authorized and Not Authorized', () => {
	test('an authorized, a returned and an undecided invoice: only the first leaves by Authorized; pairing and order kept', async () => {
		const result = await batchOf3(3);
		expect(result.error).toBeUndefined();
		const authorized = result.output('Receipts', 0);
		const others = result.output('Receipts', 1);
		expect(authorized.map((o) => [o.json.secuencial, o.json.estado, o.pairedItem])).toEqual([
			[501, 'AUTORIZADO', { item: 0 }],
		]);
		expect(others.map((o) => [o.json.secuencial, o.json.estado, o.pairedItem])).toEqual([
			[502, 'DEVUELTO', { item: 1 }],
			[503, 'RECIBIDO', { item: 2 }],
		]);
		expect(others[0].json.rejected).toBe(true);
		expect(others[1].json.wait_timed_out).toBe(true);
	});

	test('with Continue On Fail, an item that failed leaves by Not Authorized, never by Authorized', async () => {
		env.server.fail({
			service: 'receipts',
			method: 'POST',
			path: '/invoices/issue',
			status: 400,
			body: { error: 'Datos inválidos' },
			times: 1,
		});
		const result = await batchOf3(3, true);
		expect(result.output('Receipts', 0).map((o) => o.json.error)).toEqual([undefined]);
		const failed = result.output('Receipts', 1).filter((o) => o.json.error !== undefined);
		expect(failed.map((o) => o.pairedItem)).toEqual([{ item: 0 }]);
	});
});

test('run by an AI agent (version 3), a returned receipt is in the one output the agent reads', async () => {
	env.receipts.planNext({ estado: 'DEVUELTO', mensajes: [] });
	const result = await env.runAsTool(
		{
			resource: 'retention',
			operation: 'issue',
			inputMode: 'json',
			jsonBody: JSON.stringify(retentionBody()),
			waitForFinalState: false,
		},
		undefined,
		3,
	);
	expect(result.output('Receipts', 0)).toHaveLength(1);
	expect(result.output('Receipts', 1)).toEqual([]);
});

describe('saved workflows keep one output', () => {
	test.each([1, 2])('version %i: the three invoices in the one output, in order', async (v) => {
		const result = await batchOf3(v);
		expect(result.error).toBeUndefined();
		expect(result.output('Receipts', 0).map((o) => o.json.estado)).toEqual([
			'AUTORIZADO',
			'DEVUELTO',
			'RECIBIDO',
		]);
		expect(result.output('Receipts', 1)).toEqual([]);
	});
});

describe('the outputs n8n computes from the parameters', () => {
	/** The outputs' names of a node, as n8n-workflow computes them for the editor and the engine. */
	const outputsOf = (typeVersion, parameters) => outputNames(receipts, typeVersion, parameters);
	const TWO = ['Authorized', 'Not Authorized'];

	test.each([
		['invoice', 'issue', TWO],
		['invoice', 'issueFromXml', TWO],
		['creditNote', 'reissue', TWO],
		['purchaseSettlement', 'issueWithReimbursement', TWO],
		['document', 'authorize', TWO],
		['invoice', 'preview', ['main']],
		['invoice', 'get', ['main']],
		['document', 'get', ['main']],
		['document', 'sendEmail', ['main']],
		['webhook', 'subscribe', ['main']],
	])('version 3, %s → %s: %j', (resource, operation, expected) => {
		expect(outputsOf(3, { resource, operation })).toEqual(expected);
	});

	test.each([1, 2])('version %i: one output for every operation', (v) => {
		expect(outputsOf(v, { resource: 'invoice', operation: 'issue' })).toEqual(['main']);
		expect(outputsOf(v, { resource: 'document', operation: 'authorize' })).toEqual(['main']);
	});

	test('retention Issue of version 3 splits too (every receipt kind)', async () => {
		env.receipts.planNext('AUTORIZADO');
		const result = await env.runTimed(
			{
				resource: 'retention',
				operation: 'issue',
				inputMode: 'json',
				jsonBody: JSON.stringify(retentionBody()),
			},
			undefined,
			false,
			3,
		);
		expect(result.output('Receipts', 0).map((o) => o.json.estado)).toEqual(['AUTORIZADO']);
		expect(result.output('Receipts', 1)).toEqual([]);
	});
});
