/** @import { IDataObject, INode } from 'n8n-workflow' */
import { NodeHelpers } from 'n8n-workflow';
import { withFakeClock } from '../harness/clock';
import { built } from '../harness/engine';
/** @import { Estado } from '../simulator/receipts' */
import { jsonIssue, retentionBody, useReceipts, waybillBody } from './setup';

const env = useReceipts();

/** Wait for Final State: the first check after 1 s, for up to 10 minutes (fake time: `env.runTimed`). */
const fast = { waitForFinalState: true, waitTimeout: 600, options: { pollInterval: 1 } };
const polls = () => env.calls().filter((c) => c.method === 'GET');

describe('Wait for Final State', () => {
	test('with the service deciding as it documents (3–5 s after the issue), the default schedule reads the decision at its first check, 5 s after the issue', async () => {
		env.receipts.decideAsDocumented();
		// No Poll Interval: the node's default, the subject of this test.
		const result = await env.runTimed(
			jsonIssue('retention', retentionBody(), { waitForFinalState: true, waitTimeout: 600 }),
			undefined,
			false,
			2,
		);
		expect(result.error).toBeUndefined();
		expect(result.output('Receipts')[0].json.estado).toBe('AUTORIZADO');
		const [post] = env.calls();
		expect(polls().map((c) => c.at - post.at)).toEqual([5000]);
		expect(result.elapsedMs).toBeLessThan(6000);
	});

	test.each(/** @type {Estado[]} */ (['AUTORIZADO', 'NO AUTORIZADO', 'DEVUELTO', 'ERROR']))(
		'Issue waits until %s and outputs the final receipt',
		async (final) => {
			env.receipts.planNext('ENVIADO', 'RECIBIDO', final);
			const result = await env.runTimed(jsonIssue('retention', retentionBody(), fast));
			expect(result.error).toBeUndefined();
			const [issue, ...rest] = env.calls();
			const id = [...env.receipts.receipts.keys()][0];
			expect([issue.method, issue.path]).toEqual(['POST', '/retentions/issue']);
			expect(rest.map((c) => `${c.method} ${c.path}`)).toEqual(Array(3).fill(`GET /edocs/${id}`));
			expect(
				rest.every(
					(c) =>
						c.headers['x-password'] === undefined && c.headers['x-key'] === env.receipts.apiKey,
				),
			).toBe(true);
			const out = result.output('Receipts')[0].json;
			expect(out).toMatchObject({ id, estado: final, periodo_fiscal: '03/2026' });
			expect(out.wait_timed_out).toBeUndefined();
			if (final === 'AUTORIZADO')
				expect(out.autorizacion).toMatchObject({
					estado: 'AUTORIZADO',
					numero: out.clave_acceso,
					mensajes: [],
				});
			if (final === 'NO AUTORIZADO') {
				expect(/** @type {IDataObject} */ (out.autorizacion).mensajes).toEqual([
					{
						identificador: '39',
						mensaje: 'FIRMA INVALIDA',
						tipo: 'ERROR',
						informacion_adicional: 'La firma es invalida',
					},
				]);
			}
		},
	);

	test('the rejection reasons can be branched on: Simplify keeps the outcome, sri_messages and autorizacion_mensajes', async () => {
		const cerrado = { identificador: '56', mensaje: 'ESTABLECIMIENTO CERRADO', tipo: 'ERROR' };
		env.receipts.planNext({ estado: 'NO AUTORIZADO', mensajes: [cerrado] });
		const result = await env.runTimed(
			jsonIssue('retention', retentionBody(), { ...fast, simplify: true }),
		);
		const out = result.output('Receipts')[0].json;
		expect(out).toMatchObject({
			estado: 'NO AUTORIZADO',
			rejected: true,
			sri_messages: [{ ...cerrado, source: 'autorizacion' }],
			autorizacion_mensajes: [cerrado],
		});
		expect(Object.keys(out).sort()).toEqual([
			'autorizacion_fecha',
			'autorizacion_mensajes',
			'clave_acceso',
			'estado',
			'id',
			'next_step',
			'numero',
			'reason',
			'rejected',
			'sri_messages',
			'url_documento_electronico',
		]);
	});

	test('the timeout outputs the last state with wait_timed_out, and polls back off', async () => {
		env.receipts.planNext('ENVIADO', 'RECIBIDO'); // never decides
		const result = await env.runTimed(
			jsonIssue('retention', retentionBody(), {
				waitForFinalState: true,
				waitTimeout: 60,
				options: { pollInterval: 1 },
			}),
			undefined,
			false,
			1,
			{ stepMs: 10 },
		);
		expect(result.error).toBeUndefined();
		expect(result.output('Receipts')[0].json).toMatchObject({
			estado: 'RECIBIDO',
			wait_timed_out: true,
		});
		expect(result.elapsedMs).toBeGreaterThanOrEqual(60_000);
		// 1 s growing by 1.5: checks at 1, 2.5, 4.75, 8.1, 13.2, 20.8, 32.2 and 49.3 s; at a fixed 1 s, 59 checks.
		const [post] = env.calls();
		const at = polls().map((c) => c.at - post.at);
		expect(at).toHaveLength(8);
		[1000, 2500, 4750, 8125, 13188, 20781, 32172, 49258].forEach((due, n) =>
			expect(at[n]).toBeGreaterThanOrEqual(due - 1),
		);
	});

	test('the test controls the schedule: the state moves only when the test says so', async () => {
		env.receipts.advanceOnRead = false;
		const { result } = await withFakeClock(async () => {
			const running = env.run(jsonIssue('waybill', waybillBody(), fast));
			while (env.receipts.receipts.size === 0) await new Promise((r) => setTimeout(r, 10));
			const id = [...env.receipts.receipts.keys()][0];
			while (polls().length < 3) await new Promise((r) => setTimeout(r, 10));
			env.receipts.setState(id, 'AUTORIZADO');
			return { id, result: await running };
		});
		expect(result.result.output('Receipts')[0].json).toMatchObject({
			id: result.id,
			estado: 'AUTORIZADO',
		});
		expect(polls().length).toBeGreaterThanOrEqual(4);
	});

	test('a poll answered 503 is retried (reads are), and the wait goes on', async () => {
		env.receipts.planNext('AUTORIZADO');
		env.server.fail({ service: 'receipts', method: 'GET', path: '/edocs/', status: 503, times: 1 });
		const result = await env.runTimed(jsonIssue('retention', retentionBody(), fast));
		expect(result.error).toBeUndefined();
		expect(result.output('Receipts')[0].json.estado).toBe('AUTORIZADO');
		expect(polls()).toHaveLength(2);
	});

	test('Authorize waits too', async () => {
		const r = env.receipts.seed('retention', retentionBody(), 'CREADO');
		env.receipts.planNext('RECIBIDO', 'AUTORIZADO');
		const result = await env.runTimed({
			resource: 'document',
			operation: 'authorize',
			receiptId: r.id,
			...fast,
		});
		expect(env.calls().map((c) => `${c.method} ${c.path}`)).toEqual([
			`POST /edocs/${r.id}/issue`,
			`GET /edocs/${r.id}`,
			`GET /edocs/${r.id}`,
		]);
		expect(result.output('Receipts')[0].json).toMatchObject({
			id: r.id,
			estado: 'AUTORIZADO',
			numero: '001-002-000000123',
		});
	});

	test('Reissue waits too', async () => {
		const r = env.receipts.seed('waybill', waybillBody(), 'DEVUELTO');
		env.receipts.planNext('ENVIADO', 'AUTORIZADO');
		const result = await env.runTimed(
			jsonIssue('waybill', waybillBody(), { receiptId: r.id, ...fast }, 'reissue'),
		);
		expect(result.output('Receipts')[0].json).toMatchObject({ id: r.id, estado: 'AUTORIZADO' });
		expect(polls()).toHaveLength(2);
	});

	test('Issue From XML waits too', async () => {
		env.receipts.planNext('DEVUELTO');
		const { xmlOf } = await import('./setup');
		const result = await env.runTimed({
			resource: 'waybill',
			operation: 'issueFromXml',
			xmlSource: 'text',
			xml: xmlOf('guiaRemision'),
			...fast,
		});
		expect(result.output('Receipts')[0].json).toMatchObject({
			estado: 'DEVUELTO',
			es_valida: true,
		});
	});
});

describe('Wait for Final State: off in version 1, on by default from version 2', () => {
	const properties = built('nodes/Receipts/Receipts.node', 'Receipts').description.properties;
	/** What n8n makes of a node's parameters: every default filled in (`all`), or only what it saves (the rest). */
	const parameters = (typeVersion, given, all) =>
		NodeHelpers.getNodeParameters(
			properties,
			{ resource: 'retention', operation: 'issue', ...given },
			all,
			false,
			/** @type {INode} */ ({ typeVersion, parameters: given }),
			/** @type {never} */ ({ name: 'receipts' }),
		);

	test('version 1, as workflows saved before version 2 carry it: the field left alone does not wait (one request, no polling)', async () => {
		await env.run(jsonIssue('retention', retentionBody()), undefined, false, 1);
		expect(env.calls()).toHaveLength(1);
	});

	test('version 2, what a new node gets: the field left alone waits for the decision', async () => {
		env.receipts.planNext('ENVIADO', 'AUTORIZADO');
		const result = await env.runTimed(
			jsonIssue('retention', retentionBody(), { options: { pollInterval: 1 } }),
			undefined,
			false,
			2,
		);
		expect(result.output('Receipts')[0].json).toMatchObject({
			estado: 'AUTORIZADO',
			rejected: false,
		});
		expect(polls()).toHaveLength(2);
	});

	test('version 2 with the field turned off: one request, no polling', async () => {
		await env.run(
			jsonIssue('retention', retentionBody(), { waitForFinalState: false }),
			undefined,
			false,
			2,
		);
		expect(env.calls()).toHaveLength(1);
	});

	test('the node offers every version and gives new nodes the last, which waits too', () => {
		const { description } = built('nodes/Receipts/Receipts.node', 'Receipts');
		expect([description.version, description.defaultVersion]).toEqual([[1, 2, 3], 3]);
		expect(parameters(3, {}, true)).toMatchObject({ waitForFinalState: true, waitTimeout: 120 });
	});

	test('each version keeps its own default, so a saved workflow does not change behaviour', () => {
		expect(parameters(1, {}, true)).toMatchObject({ waitForFinalState: false });
		expect(parameters(2, {}, true)).toMatchObject({ waitForFinalState: true, waitTimeout: 120 });
		// n8n saves only what differs from the default of the node's own version.
		expect(parameters(1, { waitForFinalState: false }, false)).not.toHaveProperty(
			'waitForFinalState',
		);
		expect(parameters(2, { waitForFinalState: false }, false)).toMatchObject({
			waitForFinalState: false,
		});
		expect(parameters(2, { waitForFinalState: true }, false)).not.toHaveProperty(
			'waitForFinalState',
		);
	});
});
