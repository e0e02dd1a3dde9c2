/** @import { ICredentialsDecrypted, ICredentialTestFunctions, INodeType } from 'n8n-workflow' */
import { withFakeClock } from '../harness/clock';
import { built } from '../harness/engine';
import { leaks } from '../harness/hostile';
import { spellingsOf } from '../simulator/spellings';
/** @import { TriggerHarness } from '../harness/webhook' */
import {
	asEnvelope,
	extractionEventId,
	findSignatureHeaders,
	normalizeEvent,
} from '../../nodes/Triggers/ExtractionTrigger/event';
/** @import { HttpAnswer } from '../harness/webhook' */
import {
	SECRET,
	completedData,
	deliver,
	documentData,
	envelope,
	extractionHarness,
	failedData,
	nowSeconds,
	sign,
} from './setup';

/** Every refusal looks the same to the sender (401, one short body); the reason is in n8n's log only. */
function expectRefused(h, answer, reason) {
	expect(answer).toEqual({
		status: 401,
		body: { error: 'unauthorized' },
		text: '{"error":"unauthorized"}',
	});
	expect(h.logs.filter((l) => l.level === 'warn').at(-1)?.message).toBe(
		`Extraction Trigger refused a delivery: ${reason}`,
	);
}

const ACK = { received: true };

describe('Extraction Trigger through n8n-core webhook contexts', () => {
	/** @type {TriggerHarness} */
	let h;

	beforeEach(async () => {
		h = await extractionHarness();
	});
	afterEach(async () => {
		await h.stop();
	});

	it('starts one execution for a valid delivery, with normalized output', async () => {
		const body = envelope('extraction.completed', completedData('ext_A'));
		const { answer } = await deliver(h, body);
		expect(answer.status).toBe(200);
		expect(answer.body).toEqual({ message: 'Workflow was started' });
		expect(h.executions).toHaveLength(1);
		const [item] = h.executions[0].items;
		expect(item).toMatchObject({
			event: 'extraction.completed',
			eventId: `extraction.completed:${/** @type {{ timestamp: string }} */ (body.event).timestamp}:ext_A`,
			eventTimestamp: /** @type {{ timestamp: string }} */ (body.event).timestamp,
			eventVersion: '1.0',
			extractionId: 'ext_A',
			publicId: 'ext_A',
			status: 'COMPLETED',
			summary: { totalDocuments: 3 },
			options: { direction: 'INBOUND', informationType: 'INVOICE' },
		});
		expect(h.errorExecutions).toHaveLength(0);
	});

	it('maps ISSUED to OUTBOUND and passes failures and documents through', async () => {
		const completed = completedData('ext_B');
		/** @type {{ direction: string }} */ (completed.options).direction = 'ISSUED';
		await deliver(h, envelope('extraction.completed', completed));
		await deliver(h, envelope('extraction.failed', failedData('ext_C')));
		await deliver(h, envelope('document.ready', documentData('ext_B', 'doc_9')));
		expect(h.executions.map((e) => e.items[0].event)).toEqual([
			'extraction.completed',
			'extraction.failed',
			'document.ready',
		]);
		expect(h.executions[0].items[0]).toMatchObject({ options: { direction: 'OUTBOUND' } });
		expect(h.executions[1].items[0]).toMatchObject({
			publicId: 'ext_C',
			error: { code: 'INVALID_CREDENTIALS' },
		});
		expect(h.executions[2].items[0]).toMatchObject({
			publicId: 'ext_B',
			document: { id: 'doc_9', availableFormats: ['XML', 'PDF'] },
		});
	});

	describe('refuses with 401 and starts nothing', () => {
		const body = () => envelope('extraction.completed', completedData());

		it('forged signature (wrong secret)', async () => {
			const { answer } = await deliver(h, body(), { secret: 'not-the-secret' });
			expectRefused(h, answer, 'signature mismatch');
		});

		it('signature of other bytes (body changed after signing)', async () => {
			const raw = JSON.stringify(body());
			const ts = nowSeconds();
			const answer = await h.send({
				body: raw.replace('"COMPLETED"', '"FAILED"'),
				headers: { 'X-Svc-Signature': sign(SECRET, ts, raw), 'X-Svc-Timestamp': String(ts) },
			});
			expectRefused(h, answer, 'signature mismatch');
		});

		it('same JSON re-serialized (the signature covers the raw bytes)', async () => {
			const value = body();
			const ts = nowSeconds();
			const answer = await h.send({
				body: JSON.stringify(value, null, 2),
				headers: {
					'X-Svc-Signature': sign(SECRET, ts, JSON.stringify(value)),
					'X-Svc-Timestamp': String(ts),
				},
			});
			expectRefused(h, answer, 'signature mismatch');
		});

		it('missing signature header, missing timestamp header, no headers', async () => {
			expectRefused(
				h,
				(await deliver(h, body(), { omit: ['signature'] })).answer,
				'missing signature header',
			);
			expectRefused(
				h,
				(await deliver(h, body(), { omit: ['timestamp'] })).answer,
				'missing signature header',
			);
			expectRefused(h, await h.send({ body: JSON.stringify(body()) }), 'missing signature header');
		});

		it('malformed headers', async () => {
			const raw = JSON.stringify(body());
			const ts = nowSeconds();
			const bad1 = await h.send({
				body: raw,
				headers: {
					'X-Svc-Signature': sign(SECRET, ts, raw).slice(7),
					'X-Svc-Timestamp': String(ts),
				},
			});
			expectRefused(h, bad1, 'malformed signature header');
			const bad2 = await h.send({
				body: raw,
				headers: {
					'X-Svc-Signature': sign(SECRET, ts, raw),
					'X-Svc-Timestamp': new Date().toISOString(),
				},
			});
			expectRefused(h, bad2, 'malformed timestamp header');
		});

		it('stale timestamp (older than 300 s), correctly signed', async () => {
			const { answer } = await deliver(h, body(), { timestamp: nowSeconds() - 301 });
			expectRefused(h, answer, 'stale timestamp');
		});

		it('future timestamp (more than 300 s ahead), correctly signed', async () => {
			const { answer } = await deliver(h, body(), { timestamp: nowSeconds() + 301 });
			expectRefused(h, answer, 'timestamp in the future');
		});

		afterEach(() => {
			expect(h.errorExecutions).toHaveLength(0);
			expect(
				h.logs.some(
					(l) =>
						l.level === 'warn' && l.message.startsWith('Extraction Trigger refused a delivery'),
				),
			).toBe(true);
		});
	});

	it('starts nothing for any refused delivery', async () => {
		const b = envelope('extraction.completed', completedData());
		await deliver(h, b, { secret: 'x' });
		await deliver(h, b, { timestamp: nowSeconds() - 1000 });
		await deliver(h, b, { omit: ['signature'] });
		expect(h.executions).toHaveLength(0);
	});

	it('acknowledges a redelivery of the same event (new signature, same event.timestamp) without an execution', async () => {
		const b = envelope('extraction.completed', completedData('ext_D'));
		const first = await deliver(h, b, { timestamp: nowSeconds() - 5 });
		const again = await deliver(h, b, { timestamp: nowSeconds() });
		expect(first.answer.status).toBe(200);
		expect(again.answer).toMatchObject({ status: 200, body: ACK });
		expect(h.executions).toHaveLength(1);
	});

	it('acknowledges a byte-identical redelivery (a service retry, or a captured delivery replayed inside the 300 s window): 200, nothing started, every time', async () => {
		const first = await deliver(h, envelope('extraction.completed', completedData('ext_R')));
		expect(first.answer).toMatchObject({ status: 200, body: { message: 'Workflow was started' } });
		for (let n = 0; n < 5; n++) {
			const replay = await h.send({ body: first.raw, headers: first.headers });
			expect(replay).toMatchObject({ status: 200, body: ACK });
		}
		expect(h.executions).toHaveLength(1);
		expect(h.logs.some((l) => l.level === 'warn')).toBe(false);
	});

	it('remembers events across requests although n8n does not save static data written in webhook()', async () => {
		const b = envelope('extraction.completed', completedData('ext_E'));
		await deliver(h, b, { timestamp: nowSeconds() - 2 });
		expect(h.savedStaticData).toEqual({}); // nothing relied on static data
		const again = await deliver(h, b, { timestamp: nowSeconds() - 1 });
		expect(again.answer.body).toEqual(ACK);
	});

	it('treats different documents of one extraction with the same timestamp as distinct', async () => {
		const ts = '2026-11-22T09:30:00.000Z';
		await deliver(h, envelope('document.ready', documentData('ext_F', 'doc_1'), ts));
		await deliver(h, envelope('document.ready', documentData('ext_F', 'doc_2'), ts));
		expect(h.executions).toHaveLength(2);
	});

	it('keeps separate memories per workflow', async () => {
		const other = await extractionHarness();
		try {
			const b = envelope('extraction.completed', completedData('ext_G'));
			await deliver(h, b);
			await deliver(other, b);
			expect(h.executions).toHaveLength(1);
			expect(other.executions).toHaveLength(1);
		} finally {
			await other.stop();
		}
	});

	it('verifies the raw bytes whatever the content type (n8n does not parse text/plain as JSON)', async () => {
		const raw = JSON.stringify(envelope('extraction.failed', failedData('ext_H')));
		const ts = nowSeconds();
		const answer = await h.send({
			body: raw,
			headers: {
				'content-type': 'text/plain',
				'X-Svc-Signature': sign(SECRET, ts, raw),
				'X-Svc-Timestamp': String(ts),
			},
		});
		expect(answer.status).toBe(200);
		expect(h.executions[0].items[0]).toMatchObject({ publicId: 'ext_H' });
	});

	it('answers 400 (no execution) to a correctly signed body that is not an event envelope', async () => {
		const { answer } = await deliver(h, { hello: 'world' });
		expect(answer).toMatchObject({ status: 400, body: { error: 'bad request' } });
		const { answer: notJson } = await deliver(h, 'not json at all', {
			headers: { 'content-type': 'text/plain' },
		});
		expect(notJson.status).toBe(400);
		expect(h.executions).toHaveLength(0);
	});

	it('its output passes the package’s scrubber: a secret-named field masked, the webhook secret cut out in any spelling, also as a key', async () => {
		const h = await extractionHarness();
		try {
			const data = {
				...completedData('ext_scrub'),
				credentials: { rfc: 'EKU9003173C9', password: 'sat-ciec-1234' },
				echo: Object.values(spellingsOf(SECRET)).join(' | '),
				byKey: { [SECRET]: 'as a key' },
			};
			expect((await deliver(h, envelope('extraction.completed', data))).answer.status).toBe(200);
			const [item] = h.executions[0].items;
			expect(item.credentials).toEqual({ rfc: 'EKU9003173C9', password: '[redacted]' });
			expect(leaks(JSON.stringify(h.executions), [SECRET, 'sat-ciec-1234'])).toEqual([]);
			expect(item.byKey).toEqual({ '[redacted]': 'as a key' });
		} finally {
			await h.stop();
		}
	});

	it('never puts the secret or the signature headers in the output', async () => {
		await deliver(h, envelope('extraction.completed', completedData('ext_I')));
		const text = JSON.stringify(h.executions);
		expect(text).not.toContain(SECRET);
		expect(text.toLowerCase()).not.toContain('sha256=');
	});
});

describe('Extraction Trigger options', () => {
	it('filters by event type: unselected types are acknowledged (200) and start nothing', async () => {
		const h = await extractionHarness({ parameters: { events: ['extraction.failed'] } });
		try {
			const ignored = await deliver(h, envelope('extraction.completed', completedData()));
			const unknown = await deliver(h, envelope('invoice.ready', { extractionId: 'x' }));
			const taken = await deliver(h, envelope('extraction.failed', failedData()));
			expect(ignored.answer).toMatchObject({ status: 200, body: ACK });
			expect(unknown.answer).toMatchObject({ status: 200, body: ACK });
			expect(taken.answer).toMatchObject({
				status: 200,
				body: { message: 'Workflow was started' },
			});
			expect(h.executions.map((e) => e.items[0].event)).toEqual(['extraction.failed']);
			// a redelivery of a delivery acknowledged without a run gets the same answer again
			expect(await h.send({ body: ignored.raw, headers: ignored.headers })).toMatchObject({
				status: 200,
				body: ACK,
			});
			expect(h.executions).toHaveLength(1);
		} finally {
			await h.stop();
		}
	});

	it('with no event selected, takes every type (also ones the spec only names)', async () => {
		const h = await extractionHarness({ parameters: { events: [] } });
		try {
			await deliver(h, envelope('invoice.ready', { extractionId: 'x' }));
			expect(h.executions).toHaveLength(1);
		} finally {
			await h.stop();
		}
	});

	it('uses a configured header prefix, and auto-detects any X-<name>-Signature pair when none is set', async () => {
		const h = await extractionHarness({ parameters: { options: { headerPrefix: 'X-Acme' } } });
		const auto = await extractionHarness();
		try {
			expect(
				(await deliver(h, envelope('extraction.completed', completedData()), { prefix: 'X-Acme' }))
					.answer.status,
			).toBe(200);
			expectRefused(
				h,
				(await deliver(h, envelope('extraction.completed', completedData()))).answer,
				'missing signature header',
			);
			expect(
				(
					await deliver(auto, envelope('extraction.completed', completedData()), {
						prefix: 'X-Fiscalapi',
					})
				).answer.status,
			).toBe(200);
		} finally {
			await h.stop();
			await auto.stop();
		}
	});

	it('refuses when two different signature header pairs are present and no prefix is set', async () => {
		const h = await extractionHarness();
		try {
			const b = envelope('extraction.completed', completedData());
			const raw = JSON.stringify(b);
			const ts = nowSeconds();
			const answer = await h.send({
				body: raw,
				headers: {
					'X-A-Signature': sign(SECRET, ts, raw),
					'X-A-Timestamp': String(ts),
					'X-B-Signature': sign(SECRET, ts, raw),
					'X-B-Timestamp': String(ts),
				},
			});
			expect(answer.status).toBe(401);
		} finally {
			await h.stop();
		}
	});

	it('listens on the test URL in manual mode ("Listen for test event") with the same checks', async () => {
		const h = await extractionHarness({ mode: 'manual' });
		try {
			expect(h.url).toContain('/webhook-test/');
			expect(
				(await deliver(h, envelope('extraction.completed', completedData()))).answer.status,
			).toBe(200);
			expect(
				(await deliver(h, envelope('extraction.completed', completedData()), { secret: 'x' }))
					.answer.status,
			).toBe(401);
		} finally {
			await h.stop();
		}
	});
});

describe('Extraction Trigger secret rotation (the secret is read at most once a second)', () => {
	it('a rotated secret works at once; the old one is refused once the cached copy is a second old', async () => {
		const h = await extractionHarness();
		try {
			expect(
				(await deliver(h, envelope('extraction.completed', completedData('rot_1')))).answer.status,
			).toBe(200);
			const rotated = 'whsec_rotated_9876543210fedcba9876543210';
			h.credentials.set('extractionWebhookApi', { secret: rotated });
			// signed with the new secret: the cached old secret fails, a fresh read verifies it
			expect(
				(
					await deliver(h, envelope('extraction.completed', completedData('rot_2')), {
						secret: rotated,
					})
				).answer.status,
			).toBe(200);
			// and from then on the old secret is refused
			expectRefused(
				h,
				(await deliver(h, envelope('extraction.completed', completedData('rot_3')))).answer,
				'signature mismatch',
			);
			expect(h.executions).toHaveLength(2);
		} finally {
			await h.stop();
		}
	});

	it('without a delivery signed with the new secret, the old one stops working within a second (of the fake clock)', async () => {
		const h = await extractionHarness();
		try {
			await withFakeClock(async () => {
				expect(
					(await deliver(h, envelope('extraction.completed', completedData('rot_4')))).answer
						.status,
				).toBe(200);
				h.credentials.set('extractionWebhookApi', {
					secret: 'whsec_rotated_aaaaaaaaaaaaaaaaaaaaaaaaaa',
				});
				await new Promise((resolve) => setTimeout(resolve, 1100));
				expectRefused(
					h,
					(await deliver(h, envelope('extraction.completed', completedData('rot_5')))).answer,
					'signature mismatch',
				);
			});
		} finally {
			await h.stop();
		}
	});
});

describe('Extraction Trigger activation and credential', () => {
	it('refuses to activate without a secret (every delivery would be refused)', async () => {
		await expect(extractionHarness({ secret: '' })).rejects.toThrow(/no secret/);
	});

	it('registers nothing remotely: activation checks the secret on every activation', async () => {
		const h = await extractionHarness();
		try {
			expect(await h.activate('init')).toEqual({ created: true });
			await h.deactivate();
			expect(
				(await deliver(h, envelope('extraction.completed', completedData()))).answer.status,
			).toBe(404);
		} finally {
			await h.stop();
		}
	});

	it('tests the credential offline', async () => {
		const node = built(
			'nodes/Triggers/ExtractionTrigger/ExtractionTrigger.node',
			'ExtractionTrigger',
		);
		const test = /** @type {NonNullable<NonNullable<typeof node.methods>['credentialTest']>} */ (
			/** @type {NonNullable<typeof node.methods>} */ (node.methods).credentialTest
		).extractionWebhookSecret;
		const run = (secret) =>
			test.call(
				/** @type {ICredentialTestFunctions} */ ({}),
				/** @type {ICredentialsDecrypted} */ ({
					id: '1',
					name: 'c',
					type: 'extractionWebhookApi',
					data: { secret },
				}),
			);
		expect(await run('')).toMatchObject({ status: 'Error' });
		expect(await run(' abc ')).toMatchObject({
			status: 'Error',
			message: expect.stringMatching(/spaces/),
		});
		expect(await run(SECRET)).toMatchObject({ status: 'OK' });
	});
});

describe('Extraction event helpers', () => {
	it('finds header pairs', () => {
		expect(findSignatureHeaders({ 'x-svc-signature': 'a', 'x-svc-timestamp': '1' }, '')).toEqual({
			signature: 'x-svc-signature',
			timestamp: 'x-svc-timestamp',
		});
		expect(findSignatureHeaders({ 'x-svc-signature': 'a' }, '')).toEqual({
			error: 'missing signature header',
		});
		expect(findSignatureHeaders({}, 'X-Svc-')).toEqual({
			signature: 'x-svc-signature',
			timestamp: 'x-svc-timestamp',
		});
	});

	it('builds the stable event id from the idempotency key event.timestamp, with type, extraction and document', () => {
		const a = /** @type {any} */ (
			asEnvelope(envelope('document.ready', documentData('e', 'd1'), 'T'))
		);
		const b = /** @type {any} */ (
			asEnvelope(envelope('document.ready', documentData('e', 'd2'), 'T'))
		);
		expect(extractionEventId(a, 'h')).toBe('document.ready:T:e:d1');
		expect(extractionEventId(a, 'h')).not.toBe(extractionEventId(b, 'h'));
		expect(
			extractionEventId(
				/** @type {any} */ (
					asEnvelope(envelope('extraction.completed', completedData('e2'), 'T2'))
				),
				'h',
			),
		).toBe('extraction.completed:T2:e2');
		const noTs = /** @type {any} */ (asEnvelope({ event: { type: 'x' }, data: {} }));
		expect(extractionEventId(noTs, 'h')).toBe('body:h');
	});

	it('normalizes without touching the input; publicId alone is mirrored to extractionId', () => {
		const input = envelope('extraction.completed', completedData('e1'));
		const env = /** @type {any} */ (asEnvelope(input));
		normalizeEvent(env);
		expect(/** @type {{ options: { direction: string } }} */ (input.data).options.direction).toBe(
			'RECEIVED',
		);
		expect(
			normalizeEvent(
				/** @type {any} */ (asEnvelope({ event: { type: 't' }, data: { publicId: 'p' } })),
			),
		).toMatchObject({ publicId: 'p', extractionId: 'p' });
		expect(asEnvelope({ event: 'x', data: {} })).toBeUndefined();
		expect(asEnvelope({ event: { type: 'x' }, data: [] })).toBeUndefined();
	});
});
