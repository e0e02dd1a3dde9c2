/** @import { IDataObject } from 'n8n-workflow' */
import { built } from '../harness/engine';
import {
	atsRetentionBody,
	bookkeeperForm,
	creditNoteBody,
	debitNoteBody,
	invoiceBody,
	jsonIssue,
	plain,
	retentionBody,
	savedIssuer,
	settlementBody,
	useReceipts,
	waybillBody,
} from './setup';

/**
 * Preview: the exact body Issue would send, with its warnings — or every problem Issue would stop on — and
 * nothing sent: no request that issues, signs or writes; only the reads of the tax-rate catalogs.
 */

const env = useReceipts();

const reproducible = { options: { accessKey: 'reproducible' } };

/** Only catalog reads reached the service. */
const onlyCatalogReads = () => {
	expect(
		env.server
			.received('receipts')
			.every((c) => c.method === 'GET' && c.path.startsWith('/catalog/')),
	).toBe(true);
};

/** The body the simulator received from the run's one issue request. */
const issuedBody = () => {
	const posts = env.calls().filter((c) => c.method === 'POST');
	expect(posts).toHaveLength(1);
	return /** @type {IDataObject} */ (posts[0].body);
};

/** What computing has to fill: a body without its amounts (items keep quantities, prices and tax codes). */
function withoutAmounts(body) {
	const copy = structuredClone(body);
	for (const it of /** @type {IDataObject[]} */ (copy.items ?? [])) {
		delete it.precio_total_sin_impuestos;
		for (const tax of /** @type {IDataObject[]} */ (it.impuestos ?? []))
			for (const key of ['tarifa', 'base_imponible', 'valor']) delete tax[key];
	}
	delete copy.totales;
	for (const p of /** @type {IDataObject[]} */ (copy.pagos ?? [])) delete p.total;
	if (Array.isArray(copy.pagos)) copy.pagos = copy.pagos.slice(0, 1);
	return copy;
}

describe('Preview shows exactly the body Issue sends, for every kind that issues, and sends nothing', () => {
	test.each([
		['invoice', 'preview', 'issue', () => withoutAmounts(invoiceBody())],
		['creditNote', 'preview', 'issue', () => withoutAmounts(creditNoteBody())],
		[
			'debitNote',
			'preview',
			'issue',
			() => ({
				...debitNoteBody(),
				totales: { impuestos: [{ codigo: '2', codigo_porcentaje: '4' }] },
			}),
		],
		[
			'retention',
			'preview',
			'issue',
			() => ({
				...retentionBody(),
				items: /** @type {IDataObject[]} */ (retentionBody().items).map((i) => ({
					...i,
					valor_retenido: undefined,
				})),
			}),
		],
		[
			'atsRetention',
			'preview',
			'issue',
			() => ({ ...atsRetentionBody(), fecha_emision: '2026-03-31' }),
		],
		['waybill', 'preview', 'issue', () => ({ ...waybillBody(), fecha_emision: '2026-03-20' })],
		['purchaseSettlement', 'preview', 'issue', () => withoutAmounts(settlementBody())],
		[
			'purchaseSettlement',
			'previewWithReimbursement',
			'issueWithReimbursement',
			() => withoutAmounts(settlementBody(true)),
		],
	])('%s %s', async (resource, preview, issue, body) => {
		const shown = await env.run(jsonIssue(resource, body(), reproducible, preview));
		expect(shown.error).toBeUndefined();
		onlyCatalogReads();
		const [out] = shown.output('Receipts');
		expect(out.json.valid).toBe(true);
		// valid, then problems (empty), first: the columns n8n's table shows first for every row.
		expect(Object.keys(out.json).slice(0, 3)).toEqual(['valid', 'problems', 'warnings']);
		expect(out.json.problems).toEqual([]);
		expect(out.pairedItem).toEqual({ item: 0 });
		env.server.clear();
		const issued = await env.run(jsonIssue(resource, body(), reproducible, issue));
		expect(issued.error).toBeUndefined();
		const sent = issuedBody();
		expect(String(sent.clave_acceso)).toMatch(/^\d{49}$/);
		expect(out.json.body).toEqual(sent);
	});

	test('the bookkeeper’s two-item invoice from the Fields form: Preview and Issue agree to the cent', async () => {
		env.setCredential(savedIssuer());
		const form = {
			resource: 'invoice',
			...bookkeeperForm(),
			fecha_emision: '2026-03-31',
			...reproducible,
		};
		const shown = await env.run({ ...form, operation: 'preview' }, undefined, false, 2);
		onlyCatalogReads();
		const [out] = shown.output('Receipts');
		expect(out.json).toMatchObject({
			valid: true,
			warnings: ['Buyer › ID Type was empty: 05 (cédula, from 10 digits) was used; check it'],
			body: { totales: { importe_total: 150.5 } },
		});
		env.server.clear();
		const issued = await env.runTimed({ ...form, operation: 'issue' }, undefined, false, 2);
		expect(issued.error).toBeUndefined();
		expect(out.json.body).toEqual(issuedBody());
	});
});

describe('a month’s batch checked in one run', () => {
	test('every row gets its own item: the good ones with the body, the bad ones with all their problems; nothing stops, nothing is sent', async () => {
		const rows = [
			{ seq: 301, qty: 3, price: 12.5 },
			{ seq: 302, qty: 'tres', price: 12.5, pct: '9' },
			{ seq: 303, qty: 1, price: 20 },
		];
		const body = withoutAmounts(invoiceBody());
		const text = JSON.stringify({
			...body,
			secuencial: 0,
			items: [
				{
					descripcion: 'Café',
					cantidad: 'QTY',
					precio_unitario: 0,
					descuento: 0,
					impuestos: [{ codigo: '2', codigo_porcentaje: 'PCT' }],
				},
			],
		})
			.replace('"secuencial":0', '"secuencial":{{ $json.seq }}')
			.replace('"cantidad":"QTY"', '"cantidad":{{ JSON.stringify($json.qty) }}')
			.replace('"precio_unitario":0', '"precio_unitario":{{ $json.price }}')
			.replace('"codigo_porcentaje":"PCT"', '"codigo_porcentaje":"{{ $json.pct ?? 4 }}"');
		const result = await env.run(
			{ resource: 'invoice', operation: 'preview', inputMode: 'json', jsonBody: `=${text}` },
			rows,
		);
		expect(result.error).toBeUndefined();
		onlyCatalogReads();
		const out = result.output('Receipts').map((o) => o.json);
		expect(out.map((o) => o.valid)).toEqual([true, false, true]);
		expect(result.output('Receipts').map((o) => o.pairedItem)).toEqual([
			{ item: 0 },
			{ item: 1 },
			{ item: 2 },
		]);
		expect(
			/** @type {IDataObject} */ (/** @type {IDataObject} */ (out[0].body).totales).importe_total,
		).toBe(43.13);
		expect(out[1].body).toBeUndefined();
		expect(out.map((o) => Object.keys(o).slice(0, 2))).toEqual(
			Array(3).fill(['valid', 'problems']),
		);
		expect(out[1].problems).toEqual([
			'Line 1 "Café" › Quantity (items[0].cantidad) must be a number, got "tres"',
		]);
		expect(
			/** @type {IDataObject} */ (/** @type {IDataObject} */ (out[2].body).totales).importe_total,
		).toBe(23);
	});

	test('Issue of the same batch stops at the bad row before anything is sent (Preview is the way to see them all)', async () => {
		const rows = [{ seq: 301 }, { seq: 302 }];
		const text = JSON.stringify({ ...withoutAmounts(invoiceBody()), secuencial: 0 }).replace(
			'"secuencial":0',
			'"secuencial":{{ $json.seq === 302 ? 0 : $json.seq }}',
		);
		const result = await env.run(
			{ resource: 'invoice', operation: 'issue', inputMode: 'json', jsonBody: `=${text}` },
			rows,
		);
		expect(env.calls().filter((c) => c.method === 'POST')).toHaveLength(0);
		expect(result.error?.message).toBe(
			'[item 2] Sequential (secuencial) must be at least 1, got 0',
		);
	});

	test('a body that is not JSON is a problem of its row, like any other', async () => {
		const result = await env.run({
			resource: 'retention',
			operation: 'preview',
			inputMode: 'json',
			jsonBody: '{"ambiente": 1,',
		});
		expect(result.error).toBeUndefined();
		const [out] = result.output('Receipts');
		expect(out.json.valid).toBe(false);
		expect(String(/** @type {string[]} */ (out.json.problems)[0])).toMatch(
			/^Receipt \(JSON\): is not valid JSON/,
		);
		expect(env.server.received('receipts')).toEqual([]);
	});
});

describe('the Preview operation in the node', () => {
	const properties = built('nodes/Receipts/Receipts.node', 'Receipts').description.properties;

	test.each([
		'atsRetention',
		'creditNote',
		'debitNote',
		'invoice',
		'purchaseSettlement',
		'retention',
		'waybill',
	])('%s: every resource that issues offers Preview', (resource) => {
		const selector = properties.find(
			(p) => p.name === 'operation' && p.displayOptions?.show?.resource?.includes(resource),
		);
		const values = (selector?.options ?? []).map((o) => /** @type {{ value: string }} */ (o).value);
		expect(values).toContain('issue');
		expect(values).toContain('preview');
	});

	test('Preview reads the same receipt fields as Issue, so switching between them keeps what was filled in', () => {
		for (const name of ['inputMode', 'jsonBody', 'lineItems', 'comprador', 'pagos', 'secuencial']) {
			const shown = properties
				.filter((p) => p.name === name && p.displayOptions?.show?.resource?.includes('invoice'))
				.flatMap((p) => p.displayOptions?.show?.operation ?? []);
			expect(shown).toEqual(expect.arrayContaining(['issue', 'preview']));
		}
		const waits = properties
			.filter(
				(p) =>
					p.name === 'waitForFinalState' && p.displayOptions?.show?.resource?.includes('invoice'),
			)
			.flatMap((p) => p.displayOptions?.show?.operation ?? []);
		expect(waits).not.toContain('preview');
	});

	test('a preview item never carries the output of an issue (no id, no state): it cannot be mistaken for a receipt', async () => {
		const result = await env.run(jsonIssue('invoice', invoiceBody(), {}, 'preview'));
		const [out] = result.output('Receipts');
		expect(Object.keys(out.json)).toEqual(['valid', 'problems', 'warnings', 'body']);
		expect(out.json.body).toEqual(plain(invoiceBody()));
	});
});
