// End-to-end: invoices, credit notes and debit notes, Reissue of every kind, Document → Send by Email and
// Download, and the catalog dropdowns, in a real n8n (the pinned version) with the built package, against the
// simulators. Run with `npm run test:e2e` (CI runs it after `npm test`).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { CREDENTIAL_IDS, requireTestModule } from '../../scripts/n8n/sandbox.mjs';
import { BROWSER_ID, closeSuite, e2eSandbox, startSuiteN8n } from '../../scripts/n8n/suite.mjs';
import { chain, node } from '../../scripts/n8n/workflow.mjs';

const credentials = { receiptsApi: { id: 'x', name: 'x' } };
const receipts = (name, parameters, extra = {}) =>
	node(name, 'n8n-nodes-latam-fiscal.receipts', parameters, { credentials, ...extra });
const manual = () => node('Start', 'n8n-nodes-base.manualTrigger', {});
const fast = { waitForFinalState: true, waitTimeout: 60, options: { pollInterval: 0.2 } };

let sb;
let n8n;
let bodies;
const seeded = {};

const execute = (id) => n8n.execute(id);
const output = (run, name) => run.data.resultData.runData[name]?.[0]?.data?.main?.[0] ?? [];
const received = () => sb.sim.server.received('receipts');
const shape = (r) =>
	`${r.method} ${r.path.replace(/[0-9a-f]{32}/, '{id}')} ${r.headers['x-password'] === undefined ? '-' : 'X-Password'}`;

/**
 * The numbers of the receipts reissued here: not the ones e2eInvoicesNotes issues, since the SRI refuses a receipt
 * under a number another receipt already holds (45, SECUENCIAL REGISTRADO; the simulator models it).
 */
const REISSUED = { invoice: 151, creditNote: 13, debitNote: '8' };
/** The invoice of the idempotency-key test, and the key its workflow gives it (Options → Idempotency Key). */
const KEYED = { secuencial: 171, key: 'e2e-invoice-000171-key' };

function workflows() {
	const {
		jsonIssue,
		invoiceBody,
		creditNoteBody,
		debitNoteBody,
		retentionBody,
		settlementBody,
		xmlOf,
	} = bodies;
	const wf = (id, nodes) => ({
		id,
		name: id,
		settings: { executionOrder: 'v1' },
		nodes: [manual(), ...nodes],
		connections: chain('Start', ...nodes.map((n) => n.name)),
	});
	return [
		wf('e2eInvoicesNotes', [
			receipts('Invoice', jsonIssue('invoice', invoiceBody(), fast)),
			receipts('Get invoice', {
				resource: 'invoice',
				operation: 'get',
				receiptId: "={{ $('Invoice').item.json.id }}",
			}),
			receipts('Invoice (fields)', {
				resource: 'invoice',
				operation: 'issue',
				inputMode: 'fields',
				secuencial: '149',
				emisor: {
					details: {
						ruc: '1792146739001',
						razon_social: 'Distribuidora Andina S.A.',
						establecimiento_codigo: '001',
						punto_emision: '002',
					},
				},
				comprador: {
					details: {
						identificacion: '1710034065',
						tipo_identificacion: '05',
						razon_social: 'Juan Pérez',
						email: 'juan@example.com',
					},
				},
				lineItems: {
					item: [
						{
							descripcion: 'Café',
							codigo_principal: 'CAF-001',
							cantidad: 2,
							precio_unitario: 5,
							descuento: 0,
							precio_total_sin_impuestos: 10,
							tax_codigo: '2',
							tax_codigo_porcentaje: '4',
							tax_tarifa: 15,
							tax_base_imponible: 10,
							tax_valor: 1.5,
						},
					],
				},
				totales: {
					details: { total_sin_impuestos: 10, descuento: 0, propina: 0, importe_total: 11.5 },
				},
				totalTaxes: {
					tax: [{ codigo: '2', codigo_porcentaje: '4', base_imponible: 10, valor: 1.5 }],
				},
				pagos: { payment: [{ medio: 'efectivo', total: 11.5 }] },
			}),
			receipts('Credit note', jsonIssue('creditNote', creditNoteBody(), fast)),
			receipts('Get credit note', {
				resource: 'creditNote',
				operation: 'get',
				receiptId: "={{ $('Credit note').item.json.id }}",
			}),
			receipts('Debit note', jsonIssue('debitNote', debitNoteBody(), fast)),
			receipts('Get debit note', {
				resource: 'debitNote',
				operation: 'get',
				receiptId: "={{ $('Debit note').item.json.id }}",
			}),
			receipts('Invoice from XML', {
				resource: 'invoice',
				operation: 'issueFromXml',
				xmlSource: 'text',
				xml: xmlOf('factura'),
			}),
			receipts('Credit note from XML', {
				resource: 'creditNote',
				operation: 'issueFromXml',
				xmlSource: 'text',
				xml: xmlOf('notaCredito'),
			}),
			receipts('Debit note from XML', {
				resource: 'debitNote',
				operation: 'issueFromXml',
				xmlSource: 'text',
				xml: xmlOf('notaDebito'),
			}),
		]),
		// Its own key, the same in every execution: a re-run of the same row gets the invoice issued the first time.
		wf('e2eInvoiceKeyed', [
			receipts(
				'Invoice',
				jsonIssue(
					'invoice',
					{ ...invoiceBody(), secuencial: KEYED.secuencial },
					{ options: { idempotencyKey: KEYED.key } },
				),
			),
		]),
		wf('e2eReissues', [
			receipts(
				'Reissue invoice',
				jsonIssue(
					'invoice',
					{ ...invoiceBody(), secuencial: REISSUED.invoice },
					{ receiptId: seeded.invoice, ...fast },
					'reissue',
				),
			),
			receipts(
				'Reissue credit note',
				jsonIssue(
					'creditNote',
					{ ...creditNoteBody(), secuencial: REISSUED.creditNote },
					{ receiptId: seeded.creditNote },
					'reissue',
				),
			),
			receipts(
				'Reissue debit note',
				jsonIssue(
					'debitNote',
					{ ...debitNoteBody(), secuencial: REISSUED.debitNote },
					{ receiptId: seeded.debitNote },
					'reissue',
				),
			),
			receipts(
				'Reissue retention',
				jsonIssue('retention', retentionBody(), { receiptId: seeded.retention }, 'reissue'),
			),
			receipts(
				'Reissue settlement',
				jsonIssue(
					'purchaseSettlement',
					settlementBody(true),
					{ receiptId: seeded.purchaseSettlement },
					'reissue',
				),
			),
		]),
		wf('e2eDocuments', [
			receipts('Invoice', jsonIssue('invoice', { ...invoiceBody(), secuencial: 150 }, fast)),
			receipts('Send by email', {
				resource: 'document',
				operation: 'sendEmail',
				receiptId: '={{ $json.id }}',
				recipients: 'compras@andes.ec, contabilidad@andes.ec',
			}),
			receipts('Download RIDE', {
				resource: 'document',
				operation: 'download',
				receiptId: '={{ $json.id }}',
				file: 'ride',
			}),
			receipts('Download XML', {
				resource: 'document',
				operation: 'download',
				receiptId: "={{ $('Invoice').item.json.id }}",
				file: 'xml',
				binaryPropertyName: 'xml',
			}),
		]),
		wf('e2eBadInvoice', [
			receipts(
				'Invoice',
				jsonIssue('invoice', {
					...invoiceBody(),
					totales: { ...invoiceBody().totales, importe_total: 65 },
				}),
			),
		]),
		// The bookkeeper's invoice, on the form of node version 2: only quantities, prices, tax codes, the buyer and
		// the means of payment; the issuer comes from the credential. Preview first, then Issue.
		// Version 3 (new nodes): authorized and not-authorized receipts by different outputs.
		{
			id: 'e2eTwoOutputs',
			name: 'e2eTwoOutputs',
			settings: { executionOrder: 'v1' },
			nodes: [
				manual(),
				node(
					'Rows',
					'n8n-nodes-base.code',
					{ jsCode: 'return [{ json: { seq: 801 } }, { json: { seq: 802 } }];' },
					{ typeVersion: 2 },
				),
				receipts(
					'Invoice v3',
					{
						...jsonIssue('invoice', { ...invoiceBody(), secuencial: 0 }, fast),
						jsonBody: `=${JSON.stringify({ ...invoiceBody(), secuencial: 0 }).replace('"secuencial":0', '"secuencial":{{ $json.seq }}')}`,
					},
					{ typeVersion: 3 },
				),
				node('Authorized', 'n8n-nodes-base.noOp', {}),
				node('Not Authorized', 'n8n-nodes-base.noOp', {}),
			],
			connections: {
				...chain('Start', 'Rows', 'Invoice v3'),
				'Invoice v3': {
					main: [
						[{ node: 'Authorized', type: 'main', index: 0 }],
						[{ node: 'Not Authorized', type: 'main', index: 0 }],
					],
				},
			},
		},
		wf('e2eBookkeeper', [
			receipts(
				'Preview',
				{ resource: 'invoice', operation: 'preview', ...bodies.bookkeeperForm('777') },
				{ typeVersion: 2 },
			),
			receipts(
				'Issue',
				{ resource: 'invoice', operation: 'issue', ...bodies.bookkeeperForm('777'), ...fast },
				{ typeVersion: 2 },
			),
		]),
	];
}

before(async () => {
	sb = await e2eSandbox('e2e-invoices');
	bodies = requireTestModule('receipts/setup');
	for (const [kind, body, estado] of [
		['invoice', { ...bodies.invoiceBody(), secuencial: REISSUED.invoice }, 'DEVUELTO'],
		[
			'creditNote',
			{ ...bodies.creditNoteBody(), secuencial: REISSUED.creditNote },
			'NO AUTORIZADO',
		],
		['debitNote', { ...bodies.debitNoteBody(), secuencial: REISSUED.debitNote }, 'DEVUELTO'],
		['retention', bodies.retentionBody(), 'NO AUTORIZADO'],
		['purchaseSettlement', bodies.settlementBody(true), 'DEVUELTO'],
	]) {
		seeded[kind] = sb.sim.receipts.seed(kind, body, estado).id;
	}
	await sb.importWorkflows(workflows());
	n8n = await startSuiteN8n(sb);
});

/**
 * Saves the issuer in the sandbox's Receipts credential (same ID, so every workflow's node uses it), as the
 * credential dialog's Save does (PATCH /rest/credentials/:id).
 */
async function saveIssuerInCredential() {
	const { id, name } = CREDENTIAL_IDS.receiptsApi;
	await n8n.rest('PATCH', `/rest/credentials/${id}`, {
		name,
		type: 'receiptsApi',
		data: { ...sb.sim.credentials.receiptsApi, ...bodies.savedIssuer() },
	});
}

after(() => closeSuite(n8n, sb));

describe('Receipts: invoices and notes in real n8n', () => {
	test('Issue (JSON and Fields), Get and Issue From XML of invoices, credit notes and debit notes; X-Password only on the signing POSTs', async () => {
		sb.sim.server.clear();
		const run = await execute('e2eInvoicesNotes');
		assert.equal(run.data.resultData.error, undefined, run.data.resultData.error?.message);
		for (const name of ['Invoice', 'Credit note', 'Debit note'])
			assert.equal(output(run, name)[0]?.json.estado, 'AUTORIZADO', name);
		for (const name of [
			'Invoice (fields)',
			'Invoice from XML',
			'Credit note from XML',
			'Debit note from XML',
		])
			assert.match(String(output(run, name)[0]?.json.clave_acceso), /^\d{49}$/, name);
		assert.equal(output(run, 'Get invoice')[0].json.id, output(run, 'Invoice')[0].json.id);
		assert.equal(output(run, 'Get credit note')[0].json.motivo, 'Devolución de mercadería');
		assert.deepEqual(output(run, 'Get debit note')[0].json.items, bodies.debitNoteBody().items);
		const posts = received()
			.filter((r) => r.method === 'POST')
			.map(shape);
		assert.deepEqual(posts, [
			'POST /invoices/issue X-Password',
			'POST /invoices/issue X-Password',
			'POST /credit-notes/issue X-Password',
			'POST /debit-notes/issue X-Password',
			'POST /invoices/issue/xml X-Password',
			'POST /credit-notes/issue/xml X-Password',
			'POST /debit-notes/issue/xml X-Password',
		]);
		const fields = received().find((r) => r.method === 'POST' && r.body.secuencial === 149).body;
		assert.deepEqual(fields.items, [
			{
				descripcion: 'Café',
				codigo_principal: 'CAF-001',
				cantidad: 2,
				precio_unitario: 5,
				descuento: 0,
				precio_total_sin_impuestos: 10,
				impuestos: [
					{ codigo: '2', codigo_porcentaje: '4', tarifa: 15, base_imponible: 10, valor: 1.5 },
				],
			},
		]);
		assert.ok(
			received()
				.filter((r) => r.method === 'GET')
				.every((r) => r.headers['x-password'] === undefined),
		);
		assert.ok(
			!JSON.stringify(run).includes(sb.sim.receipts.certificatePassword),
			'certificate password never in the run data',
		);
	});

	test('an invoice whose answer is lost is re-sent with the same Idempotency-key and output once; a second execution gets the same invoice', async () => {
		sb.sim.server.clear();
		sb.sim.server.fail({
			service: 'receipts',
			method: 'POST',
			path: '/invoices/issue',
			mode: 'drop-after',
			times: 1,
		});
		const first = await execute('e2eInvoiceKeyed');
		assert.equal(first.data.resultData.error, undefined, first.data.resultData.error?.message);
		const again = await execute('e2eInvoiceKeyed');
		assert.equal(again.data.resultData.error, undefined, again.data.resultData.error?.message);
		const keys = received()
			.filter((r) => r.method === 'POST')
			.map((r) => `${r.path} ${r.headers['idempotency-key']}`);
		assert.deepEqual(keys, Array(3).fill(`/invoices/issue ${KEYED.key}`));
		const issued = [...sb.sim.receipts.receipts.values()].filter(
			(r) => r.kind === 'invoice' && r.body.secuencial === KEYED.secuencial,
		);
		assert.equal(issued.length, 1, 'one invoice at the service');
		for (const run of [first, again]) {
			const [item] = output(run, 'Invoice');
			assert.equal(item.json.error, undefined);
			assert.equal(item.json.id, issued[0].id);
		}
	});

	test('Reissue of invoices, credit notes, debit notes, retentions and purchase settlements', async () => {
		sb.sim.server.clear();
		const run = await execute('e2eReissues');
		assert.equal(run.data.resultData.error, undefined, run.data.resultData.error?.message);
		assert.equal(output(run, 'Reissue invoice')[0].json.estado, 'AUTORIZADO');
		const byName = {
			'Reissue invoice': 'invoice',
			'Reissue credit note': 'creditNote',
			'Reissue debit note': 'debitNote',
			'Reissue retention': 'retention',
			'Reissue settlement': 'purchaseSettlement',
		};
		for (const [name, kind] of Object.entries(byName))
			assert.equal(output(run, name)[0].json.id, seeded[kind], name);
		assert.deepEqual(
			received()
				.filter((r) => r.method === 'POST')
				.map(shape),
			[
				'POST /invoices/{id}/reissue X-Password',
				'POST /credit-notes/{id}/reissue X-Password',
				'POST /debit-notes/{id}/reissue X-Password',
				'POST /retentions/{id}/reissue X-Password',
				'POST /purchase-settlements/{id}/reissue X-Password',
			],
		);
		for (const kind of Object.values(byName))
			assert.equal(sb.sim.receipts.receipts.get(seeded[kind]).reissues, 1, kind);
	});

	test('Send by Email (X-Key only, once) and Download of the RIDE and the XML from the other host, without the API key', async () => {
		sb.sim.server.clear();
		const emailsBefore = sb.sim.receipts.emails.length;
		const run = await execute('e2eDocuments');
		assert.equal(run.data.resultData.error, undefined, run.data.resultData.error?.message);
		const id = output(run, 'Invoice')[0].json.id;
		const clave = output(run, 'Invoice')[0].json.clave_acceso;
		assert.deepEqual(output(run, 'Send by email')[0].json, {
			id,
			result: 'Correo enviado',
			destinatarios: ['compras@andes.ec', 'contabilidad@andes.ec'],
		});
		assert.deepEqual(sb.sim.receipts.emails.slice(emailsBefore), [
			{ id, destinatarios: ['compras@andes.ec', 'contabilidad@andes.ec'] },
		]);
		const email = received().find((r) => r.path === `/edocs/send-email/${id}`);
		assert.equal(email.headers['x-key'], sb.sim.receipts.apiKey);
		assert.equal(email.headers['x-password'], undefined);
		const [ride] = output(run, 'Download RIDE');
		assert.equal(ride.json.fileName, `${clave}.pdf`);
		assert.equal(ride.binary.data.mimeType, 'application/pdf');
		assert.equal(ride.binary.data.fileName, `${clave}.pdf`);
		const [xml] = output(run, 'Download XML');
		assert.equal(xml.binary.xml.mimeType, 'application/xml');
		assert.equal(xml.binary.xml.fileName, `${clave}.xml`);
		const files = received().filter((r) => r.path.startsWith('/ver/'));
		assert.deepEqual(
			files.map((r) => r.path),
			[`/ver/${id}/pdf`, `/ver/${id}/xml`],
		);
		const filesHost = new URL(sb.sim.receipts.filesBaseUrl).host;
		assert.ok(
			files.every((r) => r.headers.host === filesHost && r.headers['x-key'] === undefined),
			'the file host never sees the API key',
		);
	});

	test('an invoice whose amounts do not add up is stopped before any request that issues, naming the field', async () => {
		sb.sim.server.clear();
		const run = await execute('e2eBadInvoice');
		assert.match(
			String(run.data.resultData.error?.message),
			/^\[item 1\] Totals › Total Amount \(totales\.importe_total\) is 65\.00, but 56\.00 \+ 5\.40 taxes \+ 0\.00 tip is 61\.40/,
		);
		assert.deepEqual(
			received().map((r) => `${r.method} ${r.path}`),
			['GET /catalog/sales-tax-rates/2'],
		);
	});

	test('version 3: an authorized and a returned invoice leave by Authorized and Not Authorized', async () => {
		sb.sim.receipts.planNext('AUTORIZADO');
		sb.sim.receipts.planNext({
			estado: 'DEVUELTO',
			mensajes: [{ identificador: '45', mensaje: 'SECUENCIAL REGISTRADO', tipo: 'ERROR' }],
		});
		const run = await execute('e2eTwoOutputs');
		assert.equal(run.data.resultData.error, undefined);
		assert.equal(run.data.resultData.runData['Invoice v3'][0].data.main.length, 2);
		assert.deepEqual(
			output(run, 'Authorized').map((o) => [o.json.secuencial, o.json.estado]),
			[[801, 'AUTORIZADO']],
		);
		assert.deepEqual(
			output(run, 'Not Authorized').map((o) => [o.json.secuencial, o.json.estado, o.json.rejected]),
			[[802, 'DEVUELTO', true]],
		);
	});

	test('the bookkeeper’s two-item invoice from the Fields form (version 2): previewed, then issued and authorized with every amount computed', async () => {
		await saveIssuerInCredential();
		sb.sim.server.clear();
		const run = await execute('e2eBookkeeper');
		assert.equal(run.data.resultData.error, undefined, run.data.resultData.error?.message);
		const [preview] = output(run, 'Preview');
		assert.equal(preview.json.valid, true);
		const [issued] = output(run, 'Issue');
		assert.equal(issued.json.estado, 'AUTORIZADO');
		const posts = received().filter((r) => r.method === 'POST');
		assert.deepEqual(posts.map(shape), ['POST /invoices/issue X-Password']);
		const body = posts[0].body;
		assert.deepEqual(preview.json.body, body, 'Preview shows exactly the body Issue sent');
		assert.match(body.fecha_emision, /^\d{4}-\d{2}-\d{2}$/);
		const { ISSUER, BUYER, bookkeeperAmounts } = bodies;
		assert.deepEqual(body.emisor, { ...ISSUER, obligado_contabilidad: true });
		assert.deepEqual(body.comprador, {
			identificacion: BUYER.identificacion,
			razon_social: BUYER.razon_social,
			tipo_identificacion: '05',
		});
		const { items, totales, pagos } = bookkeeperAmounts();
		assert.deepEqual([body.items, body.totales, body.pagos], [items, totales, pagos]);
		assert.deepEqual(issued.json.warnings, [
			'Buyer › ID Type was empty: 05 (cédula, from 10 digits) was used; check it',
		]);
		// Each node's execution reads the tax-rate catalog once (for all its items): here, once for Preview, once for Issue.
		assert.deepEqual(
			received()
				.filter((r) => r.path.startsWith('/catalog/'))
				.map((r) => r.path),
			['/catalog/sales-tax-rates/2', '/catalog/sales-tax-rates/2'],
		);
	});
});

describe('catalog dropdowns in real n8n', () => {
	const options = async (methodName, path, currentNodeParameters) => {
		const res = await fetch(`${n8n.url}/rest/dynamic-node-parameters/options`, {
			method: 'POST',
			headers: {
				'content-type': 'application/json',
				cookie: n8n.api.cookie,
				'browser-id': BROWSER_ID,
			},
			body: JSON.stringify({
				path,
				methodName,
				nodeTypeAndVersion: { name: sb.nodeType('receipts'), version: 1 },
				currentNodeParameters,
				credentials: { receiptsApi: { ...CREDENTIAL_IDS.receiptsApi } },
			}),
		});
		assert.equal(res.status, 200, await res.clone().text());
		return /** @type {{ data: import('n8n-workflow').INodePropertyOptions[] }} */ (await res.json())
			.data;
	};

	test('identification types, and the percentage codes of the tax type chosen next to the field, come from the service’s catalogs', async () => {
		sb.sim.server.clear();
		const ids = await options('getIdTypes', 'parameters.comprador.details.tipo_identificacion', {
			resource: 'invoice',
			operation: 'issue',
		});
		assert.deepEqual(
			ids.find((o) => o.value === '04'),
			{ name: 'RUC (04)', value: '04' },
		);
		const rates = await options(
			'getSalesTaxRates',
			'parameters.totalTaxes.tax[0].codigo_porcentaje',
			{
				resource: 'invoice',
				operation: 'issue',
				inputMode: 'fields',
				totalTaxes: { tax: [{ codigo: '5' }] },
			},
		);
		assert.deepEqual(rates, [{ name: 'IRBPNR (5001)', value: '5001' }]);
		const withholding = await options(
			'getWithholdingRates',
			'parameters.items.item[0].codigo_porcentaje',
			{
				resource: 'retention',
				operation: 'issue',
				inputMode: 'fields',
				items: { item: [{ codigo: '2' }] },
			},
		);
		assert.ok(withholding.some((o) => o.value === '9'));
		assert.deepEqual(
			received().map((r) => [r.path, r.headers['x-key']]),
			[
				['/catalog/id-types', sb.sim.receipts.apiKey],
				['/catalog/sales-tax-rates/5', sb.sim.receipts.apiKey],
				['/catalog/withholdings-tax-rates/2', sb.sim.receipts.apiKey],
			],
		);
	});

	test('when the catalog cannot be read, the built-in list', async () => {
		sb.sim.server.fail({
			service: 'receipts',
			method: 'GET',
			path: '/catalog/',
			status: 404,
			times: 1,
		});
		const types = await options('getDocumentTypes', 'parameters.tipo_documento_modificado', {
			resource: 'creditNote',
			operation: 'issue',
		});
		assert.deepEqual(
			types.map((o) => o.value),
			['01', '03', '04', '05', '06', '07'],
		);
		assert.ok(types.every((o) => /built-in list/.test(o.description ?? '')));
	});
});
