import {
	creditNoteBody,
	debitNoteBody,
	invoiceBody,
	jsonIssue,
	retentionBody,
	useReceipts,
	xmlOf,
} from './setup';

/**
 * The invoice's Idempotency-key (the receipts service's public documentation, Idempotencia: `POST
 * /invoices/issue` and `/invoices/issue/xml`, 16–48 characters, a repeated key gets the first answer): through
 * n8n-core's engine against the simulator, which keeps keys as the service documents. An invoice whose answer
 * was lost is sent again with the same key and comes out issued once; every other kind is still never sent twice.
 */

const env = useReceipts();

const posts = () => env.calls().filter((c) => c.method === 'POST');
const keyOf = (/** @type {{ headers: Record<string, unknown> }} */ call) =>
	call.headers['idempotency-key'];
const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('invoice issue carries an Idempotency-key', () => {
	test('each item gets its own random UUID v4; a second run gets new ones', async () => {
		const first = await env.run(jsonIssue('invoice', invoiceBody()), [{}, {}]);
		expect(first.error).toBeUndefined();
		const second = await env.run(jsonIssue('invoice', invoiceBody()), [{}]);
		expect(second.error).toBeUndefined();
		const keys = posts().map(keyOf);
		expect(keys).toHaveLength(3);
		for (const key of keys) expect(key).toMatch(UUID_V4);
		expect(new Set(keys).size).toBe(3);
	});

	test.each([
		['processed, then the connection dropped', 'drop-after'],
		['processed, then a 502', 'error-after'],
		['reset before it was processed', 'reset'],
	])(
		'a lost answer (%s) is sent again with the same key: one invoice, and the node outputs it',
		async (_what, mode) => {
			env.server.fail({
				service: 'receipts',
				method: 'POST',
				path: '/invoices/issue',
				mode: /** @type {import('../simulator/server').FaultMode} */ (mode),
				times: 1,
			});
			const result = await env.runTimed(jsonIssue('invoice', invoiceBody()));
			expect(result.error).toBeUndefined();
			const sent = posts();
			expect(sent).toHaveLength(2);
			expect(keyOf(sent[0])).toMatch(UUID_V4);
			expect(keyOf(sent[1])).toBe(keyOf(sent[0]));
			expect(env.receipts.receipts.size).toBe(1);
			const [stored] = env.receipts.receipts.values();
			const [item] = result.output('Receipts');
			expect(item.json).toMatchObject({ id: stored.id, clave_acceso: stored.clave_acceso });
			expect(item.json.document_may_exist).toBeUndefined();
			// Processed before the answer was lost: the second answer is the kept one, not a second receipt.
			expect(env.receipts.idempotentReplays).toBe(mode === 'reset' ? 0 : 1);
		},
	);

	test('an answer later than half the Request Timeout: sent again with the same key within the time, one invoice, output', async () => {
		env.server.fail({
			service: 'receipts',
			method: 'POST',
			path: '/invoices/issue',
			mode: 'slow',
			delayMs: 3_600_000,
			times: 1,
		});
		const result = await env.runTimed(
			jsonIssue('invoice', invoiceBody(), { options: { requestTimeout: 60 } }),
		);
		expect(result.error).toBeUndefined();
		const sent = posts();
		expect(sent).toHaveLength(2);
		expect(keyOf(sent[1])).toBe(keyOf(sent[0]));
		// The first attempt waited half the time, so the re-send fitted in the rest.
		expect(sent[1].at - sent[0].at).toBeGreaterThanOrEqual(30_000);
		expect(sent[1].at - sent[0].at).toBeLessThan(60_000);
		expect(env.receipts.receipts.size).toBe(1);
		expect(result.output('Receipts')[0].json.id).toBe([...env.receipts.receipts.keys()][0]);
	});

	test('a key of your own that an earlier invoice holds is refused: the answer names that invoice, nothing was issued', async () => {
		const key = 'order-A-20260042-invoice';
		await env.run(jsonIssue('invoice', invoiceBody(), { options: { idempotencyKey: key } }));
		const other = { ...invoiceBody(), secuencial: 4242 };
		const result = await env.run(
			jsonIssue('invoice', other, { options: { idempotencyKey: key } }),
			[{}],
			true,
		);
		expect(env.receipts.receipts.size).toBe(1);
		expect(String(result.output('Receipts')[0].json.error)).toMatch(
			/^\[item 1\] Options › Idempotency Key "order-A-20260042-invoice" was used before for another invoice: the receipts service answered with that one \(secuencial \d+, ID [0-9a-f]+\) instead of issuing this one \(secuencial 4242\)/,
		);
	});

	test('Issue From XML: a lost answer is sent again with the same key, and the invoice is issued once', async () => {
		env.server.fail({
			service: 'receipts',
			method: 'POST',
			path: '/invoices/issue/xml',
			mode: 'error-after',
			times: 1,
		});
		const result = await env.runTimed({
			resource: 'invoice',
			operation: 'issueFromXml',
			xmlSource: 'text',
			xml: xmlOf('factura'),
		});
		expect(result.error).toBeUndefined();
		const sent = posts();
		expect(sent.map((c) => c.path)).toEqual(['/invoices/issue/xml', '/invoices/issue/xml']);
		expect(keyOf(sent[1])).toBe(keyOf(sent[0]));
		expect(env.receipts.receipts.size).toBe(1);
		expect(result.output('Receipts')[0].json.id).toBe([...env.receipts.receipts.keys()][0]);
	});

	test('when every attempt loses its answer, the item says the invoice may exist and which key gets its answer', async () => {
		env.server.fail({
			service: 'receipts',
			method: 'POST',
			path: '/invoices/issue',
			mode: 'error-after',
			times: 10,
		});
		const result = await env.runTimed(jsonIssue('invoice', invoiceBody()), undefined, true);
		const sent = posts();
		expect(sent.length).toBeGreaterThan(1);
		const key = keyOf(sent[0]);
		expect(sent.every((c) => keyOf(c) === key)).toBe(true);
		expect(env.receipts.receipts.size).toBe(1);
		const [item] = result.output('Receipts');
		expect(item.json).toMatchObject({ document_may_exist: true, idempotency_key: key });
		expect(String(item.json.error)).toMatch(/^\[item 1\] The invoice may exist: /);
		expect(String(item.json.instruction)).toContain(
			`run this item again with Options → Idempotency Key set to ${String(key)}`,
		);

		// Following that instruction gets the invoice, not a second one.
		env.server.clear();
		const again = await env.run(
			jsonIssue('invoice', invoiceBody(), { options: { idempotencyKey: key } }),
		);
		expect(again.error).toBeUndefined();
		expect(env.receipts.receipts.size).toBe(1);
		expect(again.output('Receipts')[0].json.id).toBe([...env.receipts.receipts.keys()][0]);
	});

	test('a key of your own makes a second run of the same row safe: the first answer, no second invoice', async () => {
		const parameters = jsonIssue('invoice', invoiceBody(), {
			options: { idempotencyKey: '={{ "order-" + $json.order + "-invoice" }}' },
		});
		const first = await env.run(parameters, [{ order: 'A-20260042' }]);
		const second = await env.run(parameters, [{ order: 'A-20260042' }]);
		expect(first.error).toBeUndefined();
		expect(second.error).toBeUndefined();
		expect(posts().map(keyOf)).toEqual(['order-A-20260042-invoice', 'order-A-20260042-invoice']);
		expect(env.receipts.receipts.size).toBe(1);
		expect(second.output('Receipts')[0].json.id).toBe(first.output('Receipts')[0].json.id);
	});

	test('a key that is not 16–48 header-safe characters is an error naming the field, reported with the other problems; nothing is sent', async () => {
		const body = { ...invoiceBody(), secuencial: '' };
		const result = await env.run(
			jsonIssue('invoice', body, { options: { idempotencyKey: 'short' } }),
			[{}],
			true,
		);
		const { error, problems } = result.output('Receipts')[0].json;
		expect(String(error)).toMatch(/secuencial/);
		expect(problems).toContain(
			'Options › Idempotency Key must be 16 to 48 characters, not 5 (the receipts service refuses other lengths); leave it empty for a random key',
		);
		const spaced = await env.run(
			jsonIssue('invoice', invoiceBody(), {
				options: { idempotencyKey: 'pedido número 0042 de marzo' },
			}),
			[{}],
			true,
		);
		expect(String(spaced.output('Receipts')[0].json.error)).toContain(
			'[item 1] ' + 'Options › Idempotency Key: may hold letters, digits and punctuation only',
		);
		expect(posts()).toHaveLength(0);
	});
});

describe('receipt kinds without a documented key are never sent twice', () => {
	test.each([
		['credit note', 'creditNote', creditNoteBody, '/credit-notes/issue'],
		['debit note', 'debitNote', debitNoteBody, '/debit-notes/issue'],
		['retention', 'retention', retentionBody, '/retentions/issue'],
	])('%s: no key, one request, the item says it may exist', async (name, resource, body, path) => {
		env.server.fail({ service: 'receipts', method: 'POST', path, mode: 'error-after', times: 1 });
		const result = await env.runTimed(jsonIssue(resource, body()), undefined, true);
		const sent = posts();
		expect(sent).toHaveLength(1);
		expect(keyOf(sent[0])).toBeUndefined();
		const [item] = result.output('Receipts');
		expect(item.json).toMatchObject({ document_may_exist: true });
		expect(item.json.idempotency_key).toBeUndefined();
		expect(String(item.json.error)).toMatch(new RegExp(`^\\[item 1\\] The ${name} may exist: `));
	});

	test('the simulator refuses a key of another length, as a validation error, and creates nothing', async () => {
		const answer = await fetch(`${env.server.url('receipts')}/invoices/issue`, {
			method: 'POST',
			headers: {
				'content-type': 'application/json',
				'x-key': env.receipts.apiKey,
				'x-password': env.receipts.certificatePassword,
				'idempotency-key': 'x'.repeat(49),
			},
			body: JSON.stringify(invoiceBody()),
		});
		expect(answer.status).toBe(400);
		expect(env.receipts.receipts.size).toBe(0);
	});
});
