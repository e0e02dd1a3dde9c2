/** @import { IDataObject, INodeExecutionData } from 'n8n-workflow' */
/** @import { ReceiptKindName, SimReceipt } from '../simulator/receipts' */
import { withFakeClock } from '../harness/clock';
import { PROCESSED_FAULTS } from '../simulator/server';
/** @import { FaultMode, SimRequest } from '../simulator/server' */
import {
	atsRetentionBody,
	creditNoteBody,
	debitNoteBody,
	invoiceBody,
	retentionBody,
	settlementBody,
	startReceipts,
	waybillBody,
} from './setup';
/** @import { ReceiptsEnv } from './setup' */

/**
 * Issuing under the faults a network and a real service produce, through n8n-core's engine: batches of
 * every receipt kind, with Wait for Final State, while the simulator resets connections, drops answers after
 * doing the work, answers 5xx after doing the work, answers 429 with Retry-After, and answers later than the
 * node waits — on issue requests and status checks alike. Half the items carry a reproducible access key.
 *
 * What must hold:
 * - no receipt is created twice;
 * - every receipt the node knew about (its answer arrived, or the request carried its clave_acceso) has its
 *   id or access key in an output or error item;
 * - every item whose answer was lost says the receipt may exist, with the secuencial and any clave_acceso
 *   it sent; invoices, which carry an Idempotency-key, are re-sent with the same key while their time lasts,
 *   and when every attempt lost its answer the item names the key that gets the first answer.
 */

const PER_KIND = 30;
/** @type {Array<{ resource: string; operation: string; kind: ReceiptKindName; body: () => IDataObject; seqField: 'secuencial' | 'secuencia' }>} */
const KINDS = [
	{
		resource: 'retention',
		operation: 'issue',
		kind: 'retention',
		body: retentionBody,
		seqField: 'secuencial',
	},
	{
		resource: 'atsRetention',
		operation: 'issue',
		kind: 'atsRetention',
		body: atsRetentionBody,
		seqField: 'secuencia',
	},
	{
		resource: 'waybill',
		operation: 'issue',
		kind: 'waybill',
		body: waybillBody,
		seqField: 'secuencial',
	},
	{
		resource: 'purchaseSettlement',
		operation: 'issue',
		kind: 'purchaseSettlement',
		body: () => settlementBody(false),
		seqField: 'secuencial',
	},
	{
		resource: 'purchaseSettlement',
		operation: 'issueWithReimbursement',
		kind: 'purchaseSettlement',
		body: () => settlementBody(true),
		seqField: 'secuencial',
	},
	{
		resource: 'invoice',
		operation: 'issue',
		kind: 'invoice',
		body: invoiceBody,
		seqField: 'secuencial',
	},
	{
		resource: 'creditNote',
		operation: 'issue',
		kind: 'creditNote',
		body: creditNoteBody,
		seqField: 'secuencial',
	},
	{
		resource: 'debitNote',
		operation: 'issue',
		kind: 'debitNote',
		body: debitNoteBody,
		seqField: 'secuencial',
	},
];
/** @type {FaultMode[]} */
const LOST = ['reset', ...PROCESSED_FAULTS];

/** @type {ReceiptsEnv} */
let env;
beforeAll(async () => (env = await startReceipts()));
afterAll(async () => env.stop());

test.each([1, 5])(
	`${PER_KIND * KINDS.length} issue attempts under mixed faults, Parallel Requests %i: nothing created twice, nothing the node knew is lost`,
	async (parallelRequests) => {
		env.receipts.reset();
		env.server.clear();
		env.receipts.decideAfterMs = 300;
		env.server.chaos({
			service: 'receipts',
			rate: 0.3,
			modes: ['reset', 'throttle', 'drop-after', 'error-after', 'slow'],
			retryAfterSeconds: 1,
			delayMs: 1300,
			seed: 8,
		});

		// One workflow per kind, run side by side; each sends `parallelRequests` issue requests at a time.
		/** @type {INodeExecutionData[]} */
		const outputs = [];
		/** @type {Array<{ secuencial: number; reproducible: boolean; output: INodeExecutionData }>} */
		const items = [];
		// On the fake clock (test/harness/clock.js): Request Timeout, late answers, Retry-After and the waits take
		// the time the code and the simulator ask for, however loaded the machine is.
		const { result: runs } = await withFakeClock(() =>
			Promise.all(
				KINDS.map(async (k, kindIndex) => {
					const rows = Array.from({ length: PER_KIND }, (_, n) => ({
						seq: 1000 + kindIndex * PER_KIND + n,
						reproducible: n % 2 === 0,
					}));
					const body = { ...k.body(), [k.seqField]: 0, fecha_emision: '2026-05-04' };
					const jsonBody = `=${JSON.stringify(body).replace(`"${k.seqField}":0`, `"${k.seqField}":{{ $json.seq }}`)}`;
					const result = await env.run(
						{
							resource: k.resource,
							operation: k.operation,
							inputMode: 'json',
							jsonBody,
							waitForFinalState: true,
							waitTimeout: 8,
							options: {
								pollInterval: 0.05,
								requestTimeout: 1,
								parallelRequests,
								accessKey: "={{ $json.reproducible ? 'reproducible' : 'service' }}",
							},
						},
						rows,
						true,
					);
					return { rows, result };
				}),
			),
		);
		for (const { rows, result } of runs) {
			expect(result.error).toBeUndefined();
			const out = result.output('Receipts');
			expect(out).toHaveLength(PER_KIND);
			out.forEach((o, n) => {
				expect(o.pairedItem).toEqual({ item: n });
				items.push({ secuencial: rows[n].seq, reproducible: rows[n].reproducible, output: o });
			});
			outputs.push(...out);
		}
		env.server.calm();

		const posts = env.calls().filter((c) => c.method === 'POST');
		const faultOf = /** @type {Map<number, FaultMode>} */ (
			new Map(env.server.injected.map((f) => [f.request.seq, f.mode]))
		);
		const requestBySeq = /** @type {Map<number, SimRequest>} */ (
			new Map(env.calls().map((c) => [c.seq, c]))
		);
		const seqOf = (body) =>
			Number(
				/** @type {IDataObject} */ (body).secuencial ?? /** @type {IDataObject} */ (body).secuencia,
			);
		const texts = outputs.map((o) => JSON.stringify(o.json));
		const receipts = [...env.receipts.receipts.values()];

		// No receipt created twice: one receipt at most per secuencial (each item has its own).
		const bySeq = /** @type {Map<number, SimReceipt[]>} */ (new Map());
		for (const r of receipts) bySeq.set(seqOf(r.body), [...(bySeq.get(seqOf(r.body)) ?? []), r]);
		const createdTwice = [...bySeq.values()].filter((list) => list.length > 1).length;

		// Every receipt the node knew about (its answer was sent, or its request carried its clave_acceso) appears
		// in an output or error item. On the fake clock an answer sent before Request Timeout arrives before it.
		const lostKnown = receipts.filter((r) => {
			const request = requestBySeq.get(r.createdBy);
			const answered = !PROCESSED_FAULTS.includes(
				/** @type {FaultMode} */ (faultOf.get(r.createdBy)),
			);
			const carriedKey =
				typeof (/** @type {IDataObject | undefined} */ (request?.body)?.clave_acceso) === 'string';
			const shown = texts.some((t) => t.includes(r.id) || t.includes(r.clave_acceso));
			return (answered || carriedKey) && !shown;
		});

		// Every item whose (last) issue answer was lost says the receipt may exist, with what it sent.
		let lostAnswers = 0;
		/** @type {string[]} */
		const unclear = [];
		for (const item of items) {
			const attempts = posts.filter((p) => seqOf(p.body) === item.secuencial);
			const last = attempts[attempts.length - 1];
			if (!last || !LOST.includes(/** @type {FaultMode} */ (faultOf.get(last.seq)))) continue;
			lostAnswers++;
			const json = item.output.json;
			const sentKey = /** @type {IDataObject} */ (last.body).clave_acceso;
			// An invoice carried an Idempotency-key (the same on every attempt): the item names it, since running
			// the item again with it is safe. Every other kind: do not issue it again before checking.
			const idempotencyKey = last.headers['idempotency-key'];
			const keyedRightly = idempotencyKey
				? attempts.every((p) => p.headers['idempotency-key'] === idempotencyKey) &&
					json.idempotency_key === idempotencyKey &&
					String(json.instruction).includes(`Options → Idempotency Key set to ${idempotencyKey}`)
				: /Do not issue it again before you have checked/.test(String(json.instruction));
			const ok =
				json.document_may_exist === true &&
				String(json.secuencial) === String(item.secuencial) &&
				json.clave_acceso === sentKey &&
				/may exist/.test(String(json.error)) &&
				keyedRightly;
			if (!ok) unclear.push(`${item.secuencial}: ${JSON.stringify(json).slice(0, 300)}`);
		}

		const modes = env.server.injected.reduce(
			(acc, f) => ({
				...acc,
				[`${f.request.method} ${f.mode}`]: (acc[`${f.request.method} ${f.mode}`] ?? 0) + 1,
			}),
			{},
		);
		console.log(
			[
				`issue attempts (POST): ${posts.length}; status checks (GET): ${env.calls().length - posts.length}`,
				`faults injected: ${JSON.stringify(modes)}`,
				`receipts the simulator created: ${receipts.length}`,
				`receipts created twice: ${createdTwice}`,
				`receipts the node knew whose id or clave_acceso is in no output or error item: ${lostKnown.length}`,
				`items whose issue answer was lost: ${lostAnswers}, of which not saying plainly that the receipt may exist with what was sent: ${unclear.length}`,
				`outputs: ${outputs.filter((o) => o.json.estado === 'AUTORIZADO' && !o.json.error).length} authorized, ${outputs.filter((o) => o.json.error).length} error items`,
			].join('\n'),
		);

		expect(posts.length).toBeGreaterThanOrEqual(200);
		expect(
			env.server.injected.filter((f) => f.request.method === 'POST' && LOST.includes(f.mode))
				.length,
		).toBeGreaterThan(20);
		expect(createdTwice).toBe(0);
		expect(lostKnown.map((r) => r.id)).toEqual([]);
		expect(unclear).toEqual([]);
		expect(lostAnswers).toBeGreaterThan(10);
	},
	300000,
);

test('the fault layer can be switched at run time over HTTP (as `npm run dev -- --faults` and its users do)', async () => {
	env.receipts.reset();
	env.server.clear();
	const control = env.server.url('_control');
	const on = await fetch(`${control}/chaos`, {
		method: 'PUT',
		body: JSON.stringify({ rate: 1, modes: ['error-after'], service: 'receipts' }),
	});
	expect(on.status).toBe(200);
	const seeded = env.receipts.seed('retention', retentionBody(), 'AUTORIZADO');
	const { result: failing } = await withFakeClock(() =>
		env.run({ resource: 'document', operation: 'get', receiptId: seeded.id }),
	);
	expect(failing.error?.httpCode).toBe('502');
	const listed =
		/** @type {{ chaos: unknown; injected: Array<{ mode: string; method: string }> }} */ (
			await (await fetch(`${control}/faults`)).json()
		);
	expect(listed.chaos).toMatchObject({ rate: 1, modes: ['error-after'] });
	expect(listed.injected.length).toBeGreaterThanOrEqual(1);
	expect(listed.injected.every((f) => f.mode === 'error-after' && f.method === 'GET')).toBe(true);
	expect((await fetch(`${control}/chaos`, { method: 'DELETE' })).status).toBe(200);
	const working = await env.run({ resource: 'document', operation: 'get', receiptId: seeded.id });
	expect(working.error).toBeUndefined();
});
