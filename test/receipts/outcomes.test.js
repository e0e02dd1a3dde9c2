/** @import { IDataObject } from 'n8n-workflow' */
import { withFakeClock } from '../harness/clock';
import { jsonIssue, retentionBody, useReceipts, waybillBody } from './setup';

/**
 * Wait for Final State ends on every outcome the receipts service documents, and once the service accepted
 * an issue, no failure leaves the user without the receipt's id, access key and what to do next.
 * Everything runs the built node through n8n-core's engine against the receipts simulator.
 */
const env = useReceipts();

/** Wait for Final State: the first check after 1 s, for up to 10 minutes (fake time: `env.runTimed`). */
const fast = { waitForFinalState: true, waitTimeout: 600, options: { pollInterval: 1 } };
/** Wait for Final State with a Timeout of `seconds`. */
const waitFor = (seconds) => ({
	waitForFinalState: true,
	waitTimeout: seconds,
	options: { pollInterval: 1 },
});
const polls = () => env.calls().filter((c) => c.method === 'GET');
const onlyReceipt = () => {
	const all = [...env.receipts.receipts.values()];
	expect(all).toHaveLength(1);
	return all[0];
};

describe('signing failure: the certificate password was refused', () => {
	test('shown in the issue answer: the item stops at once, without a single status check', async () => {
		env.setCredential({ certificatePassword: 'wrong-password-123' });
		const result = await env.runTimed(jsonIssue('retention', retentionBody(), waitFor(120)));
		const r = onlyReceipt();
		expect(polls()).toHaveLength(0);
		expect(result.elapsedMs).toBeLessThan(1000); // no wait at all: the first check would come after 1 s
		expect(result.error?.message).toBe(
			`[item 1] Receipt ID ${r.id}, clave_acceso ${r.clave_acceso} could not be signed: the receipts service refused the Certificate Password of the Receipts credential (Contraseña de la firma electrónica incorrecta (status 400))`,
		);
		expect(result.error?.description).toContain(
			`sign this receipt again with Document → Authorize (ID ${r.id})`,
		);
		expect(JSON.stringify(result.error)).not.toContain('wrong-password-123');
	});

	test('shown only on a later read (signing after the answer): the first check that sees it ends the wait', async () => {
		env.receipts.signing = 'async';
		env.receipts.signingDelayMs = 3000;
		env.setCredential({ certificatePassword: 'wrong-password-123' });
		const result = await env.runTimed(
			jsonIssue('waybill', waybillBody(), waitFor(120)),
			undefined,
			true,
		);
		const r = onlyReceipt();
		const [item] = result.output('Receipts');
		expect(item.json).toMatchObject({
			id: r.id,
			clave_acceso: r.clave_acceso,
			estado: 'CREADO',
			document_exists: true,
			signing_failed: true,
			instruction: `Correct the Certificate Password, then sign it again with Document → Authorize (ID ${r.id}); do not issue it again.`,
		});
		expect(String(item.json.error)).toMatch(/refused the Certificate Password/);
		// Checks at 1 and 2.5 s see CREADO; the one at 4.75 s sees the refused signature and ends the wait.
		expect(polls()).toHaveLength(3);
		expect(JSON.stringify(item.json)).not.toContain('wrong-password-123');
	});

	test('a receipt that stays CREADO without a visible firma times out with a hint to check the password', async () => {
		env.receipts.signing = 'async';
		env.receipts.signingDelayMs = 3_600_000;
		env.setCredential({ certificatePassword: 'wrong-password-123' });
		const result = await env.runTimed(jsonIssue('retention', retentionBody(), waitFor(10)));
		expect(result.error).toBeUndefined();
		const out = result.output('Receipts')[0].json;
		expect(out).toMatchObject({ estado: 'CREADO', wait_timed_out: true });
		expect(/** @type {string[]} */ (out.warnings).join('\n')).toMatch(
			/timed out after 10 s in state CREADO\. This receipt exists: do not issue it again; follow it with Document → Get \(ID [0-9a-f]{32}\)\. A receipt that stays CREADO was not signed: check the Certificate Password/,
		);
	});

	test('Document → Authorize with a refused password stops the same way', async () => {
		const seeded = env.receipts.seed('retention', retentionBody(), 'CREADO');
		env.setCredential({ certificatePassword: 'wrong-password-123' });
		const result = await env.runTimed({
			resource: 'document',
			operation: 'authorize',
			receiptId: seeded.id,
			...fast,
		});
		expect(result.error?.message).toMatch(
			new RegExp(`^\\[item 1\\] Receipt ID ${seeded.id}, clave_acceso \\d{49} could not be signed`),
		);
		expect(polls()).toHaveLength(0);
	});
});

describe('the answer is read before the first wait', () => {
	test('an answer already final needs no status check', async () => {
		const seeded = env.receipts.seed('waybill', waybillBody(), 'AUTORIZADO');
		const result = await env.runTimed({
			resource: 'document',
			operation: 'authorize',
			receiptId: seeded.id,
			...fast,
		});
		expect(result.error).toBeUndefined();
		expect(result.output('Receipts')[0].json).toMatchObject({
			id: seeded.id,
			estado: 'AUTORIZADO',
		});
		expect(polls()).toHaveLength(0);
	});
});

describe('states and messages the real service adds', () => {
	test('PRE-AUTORIZADO is not final: the wait goes on to the decision', async () => {
		env.receipts.planNext('RECIBIDO', 'PRE-AUTORIZADO', 'PRE-AUTORIZADO', 'AUTORIZADO');
		const result = await env.runTimed(jsonIssue('retention', retentionBody(), fast));
		expect(result.error).toBeUndefined();
		expect(result.output('Receipts')[0].json).toMatchObject({ estado: 'AUTORIZADO' });
		expect(polls()).toHaveLength(4);
	});

	test('ADVERTENCIA messages pass through and appear in warnings', async () => {
		const advertencia = {
			identificador: '60',
			mensaje: 'ESTE PROCESO FUE REALIZADO EN EL AMBIENTE DE PRUEBAS',
			tipo: /** @type {const} */ ('ADVERTENCIA'),
		};
		env.receipts.planNext({ estado: 'AUTORIZADO', mensajes: [advertencia] });
		const result = await env.runTimed(jsonIssue('retention', retentionBody(), fast));
		const out = result.output('Receipts')[0].json;
		expect(out.estado).toBe('AUTORIZADO');
		expect(/** @type {IDataObject} */ (out.autorizacion).mensajes).toEqual([advertencia]);
		expect(out.warnings).toEqual([
			"SRI [ADVERTENCIA 60] ESTE PROCESO FUE REALIZADO EN EL AMBIENTE DE PRUEBAS — Issued in the SRI's test environment: the receipt has no tax validity. Nothing to do while testing; real receipts are issued with ambiente 2 (production).",
		]);
		// A warning is not a rejection: no reason, no next step, the message listed with its explanation.
		expect(out).toMatchObject({
			rejected: false,
			sri_messages: [
				{
					...advertencia,
					source: 'autorizacion',
					explanation: expect.stringMatching(/^Issued in the SRI's test environment/),
				},
			],
		});
		expect(out.reason).toBeUndefined();
		expect(out.next_step).toBeUndefined();
	});
});

describe('status checks that fail do not lose the receipt', () => {
	test('404 while /edocs does not know the new receipt yet: the wait goes on', async () => {
		env.receipts.edocsVisibleAfterMs = 4000;
		const result = await env.runTimed(jsonIssue('retention', retentionBody(), fast));
		expect(result.error).toBeUndefined();
		expect(result.output('Receipts')[0].json).toMatchObject({ estado: 'AUTORIZADO' });
		const [post] = env.calls();
		// The first checks (at 1 and 2.5 s) came while /edocs still answered 404.
		expect(polls()[0].at - post.at).toBeLessThan(4000);
		expect(polls().length).toBeGreaterThanOrEqual(3);
	});

	test('429 with Retry-After on a check is honoured and the wait goes on', async () => {
		env.receipts.planNext('AUTORIZADO');
		env.server.fail({
			service: 'receipts',
			method: 'GET',
			path: '/edocs/',
			mode: 'throttle',
			retryAfterSeconds: 1,
			times: 1,
		});
		const result = await env.runTimed(jsonIssue('retention', retentionBody(), fast));
		expect(result.error).toBeUndefined();
		expect(result.output('Receipts')[0].json.estado).toBe('AUTORIZADO');
		const [first, second] = polls();
		expect(second.at - first.at).toBeGreaterThanOrEqual(1000);
	});

	test('persistent 5xx until the deadline: the item fails with the id, the access key and the next step', async () => {
		env.server.fail({
			service: 'receipts',
			method: 'GET',
			path: '/edocs/',
			status: 503,
			times: 1000,
		});
		const result = await env.runTimed(
			jsonIssue('retention', retentionBody(), waitFor(60)),
			undefined,
			true,
		);
		const r = onlyReceipt();
		const [item] = result.output('Receipts');
		expect(item.json).toMatchObject({
			id: r.id,
			clave_acceso: r.clave_acceso,
			estado: 'CREADO',
			document_exists: true,
			instruction: `This receipt exists: do not issue it again; follow it with Document → Get (ID ${r.id}).`,
		});
		expect(item.json.error).toBe(
			`[item 1] Receipt ID ${r.id}, clave_acceso ${r.clave_acceso} exists, but following it failed: Receipts answered 503: Injected failure`,
		);
		expect(item.pairedItem).toEqual({ item: 0 });
	});

	test('a 5xx answer followed by a retry the deadline cuts short: the item fails with the 5xx, not a plain timeout', async () => {
		// The check's first attempt is answered 503, its retry is still unanswered when the Timeout comes. The
		// service did answer (503), so that is what the user sees.
		env.server.fail({ service: 'receipts', method: 'GET', path: '/edocs/', status: 503, times: 1 });
		env.server.fail({
			service: 'receipts',
			method: 'GET',
			path: '/edocs/',
			mode: 'slow',
			delayMs: 3_600_000,
			times: 1000,
		});
		const result = await env.runTimed(
			jsonIssue('retention', retentionBody(), waitFor(5)),
			undefined,
			true,
		);
		const r = onlyReceipt();
		const [item] = result.output('Receipts');
		expect(item.json).toMatchObject({
			id: r.id,
			clave_acceso: r.clave_acceso,
			document_exists: true,
		});
		expect(item.json.wait_timed_out).toBeUndefined();
		expect(item.json.error).toBe(
			`[item 1] Receipt ID ${r.id}, clave_acceso ${r.clave_acceso} exists, but following it failed: Receipts answered 503: Injected failure`,
		);
	});

	test('status checks never keep the item beyond its Timeout, even when each check hangs longer than it (retries included)', async () => {
		// Each check answers after an hour; the item must end at its 5 s Timeout, not at the 60 s Request Timeout.
		env.server.fail({
			service: 'receipts',
			method: 'GET',
			path: '/edocs/',
			mode: 'slow',
			delayMs: 3_600_000,
			times: 1000,
		});
		const result = await env.runTimed(
			jsonIssue('retention', retentionBody(), waitFor(5)),
			undefined,
			true,
		);
		expect(result.elapsedMs).toBeGreaterThanOrEqual(5000);
		expect(result.elapsedMs).toBeLessThan(60_000);
		const r = onlyReceipt();
		const [item] = result.output('Receipts');
		// No check answered before the deadline: the wait timed out, and the item still names the receipt.
		expect(item.json).toMatchObject({
			id: r.id,
			clave_acceso: r.clave_acceso,
			wait_timed_out: true,
		});
		expect(String(item.json.warnings)).toContain(
			`This receipt exists: do not issue it again; follow it with Document → Get (ID ${r.id}).`,
		);
	});

	test('a receipt the service does not show until the deadline (404): the error says so, not "check the receipt ID"', async () => {
		env.receipts.edocsVisibleAfterMs = 3_600_000;
		const result = await env.runTimed(jsonIssue('retention', retentionBody(), waitFor(5)));
		const r = onlyReceipt();
		expect(result.error?.message).toMatch(
			new RegExp(
				`^\\[item 1\\] Receipt ID ${r.id}, clave_acceso ${r.clave_acceso} exists, but following it failed`,
			),
		);
		expect(result.error?.description).toContain(
			`GET /edocs/${r.id} still answered 404 (not found) when the wait ended`,
		);
		expect(result.error?.description).not.toContain('Check the receipt ID');
	});

	test('a key refused during the wait ends it at once, still naming the receipt', async () => {
		env.server.fail({
			service: 'receipts',
			method: 'GET',
			path: '/edocs/',
			status: 401,
			body: { error: 'Invalid API key' },
			times: 1,
		});
		const result = await env.runTimed(jsonIssue('retention', retentionBody(), fast));
		const r = onlyReceipt();
		expect(polls()).toHaveLength(1);
		expect(result.error?.message).toBe(
			`[item 1] Receipt ID ${r.id}, clave_acceso ${r.clave_acceso} exists, but following it failed: Receipts refused the API key (Invalid API key)`,
		);
		expect(result.error?.description).toMatch(
			new RegExp(
				`^This receipt exists: do not issue it again; follow it with Document → Get \\(ID ${r.id}\\)\\.`,
			),
		);
	});

	test('a failure that stops the node lists every receipt the run issued, so a re-run is not the natural reaction', async () => {
		// Item 1's checks keep failing; items 0 and 2 are authorized. Without Continue On Fail the node stops.
		const rows = [{ seq: 1 }, { seq: 2 }, { seq: 3 }];
		const text = JSON.stringify({ ...retentionBody(), secuencial: 0 }).replace(
			'"secuencial":0',
			'"secuencial":{{ $json.seq }}',
		);
		const parameters = {
			resource: 'retention',
			operation: 'issue',
			inputMode: 'json',
			jsonBody: `=${text}`,
			...waitFor(60),
		};
		let second = '';
		env.receipts.planNext('AUTORIZADO');
		env.receipts.planNext(...Array(30).fill('RECIBIDO'));
		env.receipts.planNext('AUTORIZADO');
		const { result } = await withFakeClock(async () => {
			const running = env.run(parameters, rows);
			while (env.receipts.receipts.size < 2) await new Promise((r) => setTimeout(r, 5));
			second = [...env.receipts.receipts.keys()][1];
			env.server.fail({
				service: 'receipts',
				method: 'GET',
				path: `/edocs/${second}`,
				status: 500,
				times: 1000,
			});
			return await running;
		});
		const all = [...env.receipts.receipts.values()];
		expect(all).toHaveLength(3);
		expect(result.error?.message).toMatch(
			new RegExp(
				`^\\[item 2\\] Receipt ID ${second}, clave_acceso \\d{49} exists, but following it failed`,
			),
		);
		const description = String(result.error?.description);
		expect(description).toContain(
			'This execution created 3 receipts before it stopped. They exist: do not run these items again',
		);
		expect(description).toContain(
			`- item 1: id ${all[0].id}, clave_acceso ${all[0].clave_acceso} (AUTORIZADO)`,
		);
		expect(description).toContain(`- item 2: id ${all[1].id}, clave_acceso ${all[1].clave_acceso}`);
		expect(description).toContain(
			`- item 3: id ${all[2].id}, clave_acceso ${all[2].clave_acceso} (AUTORIZADO)`,
		);
	});
});

describe('an issue whose answer was lost', () => {
	test.each([
		['processed, then the connection dropped', { mode: /** @type {const} */ ('drop-after') }],
		['processed, then a 502', { mode: /** @type {const} */ ('error-after') }],
		[
			'processed, answered after the client gave up',
			{ mode: /** @type {const} */ ('slow'), delayMs: 3_600_000 },
		],
		['reset before it was processed', { mode: /** @type {const} */ ('reset') }],
	])(
		'%s: not re-sent, and the item says the receipt may exist with what it sent',
		async (_what, fault) => {
			env.server.fail({ service: 'receipts', method: 'POST', times: 1, ...fault });
			const result = await env.runTimed(
				jsonIssue(
					'retention',
					{ ...retentionBody(), secuencial: 4711 },
					{ options: { requestTimeout: 60 } },
				),
				undefined,
				true,
			);
			expect(env.calls().filter((c) => c.method === 'POST')).toHaveLength(1);
			const [item] = result.output('Receipts');
			expect(item.json).toMatchObject({ document_may_exist: true, secuencial: 4711 });
			expect(item.json.clave_acceso).toBeUndefined(); // none was sent: the service makes it
			expect(String(item.json.error)).toMatch(/^\[item 1\] The retention may exist: /);
			expect(String(item.json.instruction)).toMatch(
				/^The retention may have been issued: the answer was lost\. Do not issue it again before you have checked in the receipts service \(secuencial 4711, series 001-002, issuer 1792146739001\)/,
			);
		},
	);

	test('a 429 was not processed: the issue is re-sent after Retry-After and issued once', async () => {
		env.server.fail({
			service: 'receipts',
			method: 'POST',
			mode: 'throttle',
			retryAfterSeconds: 1,
			times: 1,
		});
		const result = await env.runTimed(jsonIssue('retention', retentionBody()));
		expect(result.error).toBeUndefined();
		const posts = env.calls().filter((c) => c.method === 'POST');
		expect(posts).toHaveLength(2);
		expect(posts[1].at - posts[0].at).toBeGreaterThanOrEqual(1000);
		expect(env.receipts.receipts.size).toBe(1);
		expect(result.output('Receipts')[0].json.id).toBe(onlyReceipt().id);
	});
});
