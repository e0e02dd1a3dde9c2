/** @import { IDataObject } from 'n8n-workflow' */
import { splitAccessKey } from '../../nodes/shared/sri/accessKey';
/** @import { ReceiptKindName } from '../simulator/receipts' */
import {
	BUYER,
	creditNoteBody,
	debitNoteBody,
	invoiceBody,
	ISSUER,
	jsonIssue,
	KNOWN_ACCESS_KEY,
	onlyCall,
	outcomeFields,
	plain,
	retentionBody,
	settlementBody,
	useReceipts,
	waybillBody,
	xmlOf,
} from './setup';

/**
 * Invoices, credit notes and debit notes (the service's public documentation; the spec names them), and
 * Reissue for every kind that has it: through n8n-core's engine against the simulator, over HTTP.
 */

const env = useReceipts();

const only = () => onlyCall(env);

const KINDS = /** @type {const} */ ([
	{
		resource: 'invoice',
		kind: 'invoice',
		path: '/invoices',
		body: invoiceBody,
		root: 'factura',
		name: 'invoice',
		type: '01',
	},
	{
		resource: 'creditNote',
		kind: 'creditNote',
		path: '/credit-notes',
		body: creditNoteBody,
		root: 'notaCredito',
		name: 'credit note',
		type: '04',
	},
	{
		resource: 'debitNote',
		kind: 'debitNote',
		path: '/debit-notes',
		body: debitNoteBody,
		root: 'notaDebito',
		name: 'debit note',
		type: '05',
	},
]);

describe.each(KINDS)('$resource', ({ resource, kind, path, body, root, name, type }) => {
	test('Issue (JSON) POSTs the body with X-Key and X-Password and outputs id and clave_acceso', async () => {
		const result = await env.run(jsonIssue(resource, body()));
		expect(result.error).toBeUndefined();
		const call = only();
		expect([call.method, call.path, call.headers['x-key'], call.headers['x-password']]).toEqual([
			'POST',
			`${path}/issue`,
			env.receipts.apiKey,
			env.receipts.certificatePassword,
		]);
		expect(call.body).toEqual(plain(body()));
		const stored = [...env.receipts.receipts.values()][0];
		expect(stored.kind).toBe(kind);
		const [item] = result.output('Receipts');
		const numero = `001-002-${String(body().secuencial).padStart(9, '0')}`;
		expect(item.json).toEqual({
			...plain(body()),
			id: stored.id,
			clave_acceso: stored.clave_acceso,
			estado: 'CREADO',
			numero,
			...outcomeFields(stored.id),
		});
		expect(splitAccessKey(stored.clave_acceso).receiptType).toBe(type);
	});

	test('Issue From XML POSTs {xml} with X-Password', async () => {
		const xml = xmlOf(root, KNOWN_ACCESS_KEY);
		const result = await env.run({ resource, operation: 'issueFromXml', xmlSource: 'text', xml });
		expect(result.error).toBeUndefined();
		const call = only();
		expect([call.method, call.path, call.headers['x-password']]).toEqual([
			'POST',
			`${path}/issue/xml`,
			env.receipts.certificatePassword,
		]);
		expect(call.body).toEqual({ xml });
		expect(result.output('Receipts')[0].json).toMatchObject({
			clave_acceso: KNOWN_ACCESS_KEY,
			es_valida: true,
			id: [...env.receipts.receipts.keys()][0],
		});
	});

	test('Get reads the whole receipt with X-Key only', async () => {
		env.receipts.advanceOnRead = false;
		const r = env.receipts.seed(/** @type {ReceiptKindName} */ (kind), body(), 'AUTORIZADO');
		const result = await env.run({ resource, operation: 'get', receiptId: r.id });
		expect(result.error).toBeUndefined();
		const call = only();
		expect([call.method, call.path, call.headers['x-password']]).toEqual([
			'GET',
			`${path}/${r.id}`,
			undefined,
		]);
		expect(result.output('Receipts')[0].json).toEqual({
			...plain(env.receipts.full(r)),
			...outcomeFields(),
		});
	});

	test.each(/** @type {const} */ (['NO AUTORIZADO', 'DEVUELTO']))(
		'Reissue of one in %s: POST {id}/reissue with the corrected body',
		async (estado) => {
			const r = env.receipts.seed(/** @type {ReceiptKindName} */ (kind), body(), estado);
			const corrected = { ...body(), comprador: { ...BUYER, direccion: 'Cuenca' } };
			const result = await env.run(jsonIssue(resource, corrected, { receiptId: r.id }, 'reissue'));
			expect(result.error).toBeUndefined();
			const call = only();
			expect([call.method, call.path, call.headers['x-password']]).toEqual([
				'POST',
				`${path}/${r.id}/reissue`,
				env.receipts.certificatePassword,
			]);
			expect(call.body).toEqual(plain(corrected));
			expect(result.output('Receipts')[0].json).toMatchObject({
				id: r.id,
				clave_acceso: r.clave_acceso,
				comprador: { direccion: 'Cuenca' },
			});
			expect(/** @type {any} */ (env.receipts.receipts.get(r.id)).reissues).toBe(1);
		},
	);

	test('Reissue of an authorized one: the service refuses and the error says which rule', async () => {
		const r = env.receipts.seed(/** @type {ReceiptKindName} */ (kind), body(), 'AUTORIZADO');
		const result = await env.run(jsonIssue(resource, body(), { receiptId: r.id }, 'reissue'));
		expect(env.calls()).toHaveLength(1);
		expect(result.error?.message).toBe(
			`[item 1] ${name[0].toUpperCase()}${name.slice(1)} ${r.id} cannot be reissued: El comprobante ya se encuentra AUTORIZADO y no puede reemitirse`,
		);
		expect(result.error?.description).toMatch(
			new RegExp(`^Only ${name}s in NO AUTORIZADO or DEVUELTO can be reissued`),
		);
	});

	test('Wait for Final State follows it to AUTORIZADO', async () => {
		env.receipts.planNext('ENVIADO', 'RECIBIDO', 'AUTORIZADO');
		const result = await env.runTimed(
			jsonIssue(resource, body(), {
				waitForFinalState: true,
				waitTimeout: 600,
				simplify: true,
				options: { pollInterval: 1 },
			}),
		);
		expect(result.error).toBeUndefined();
		const out = result.output('Receipts')[0].json;
		expect(out).toMatchObject({ estado: 'AUTORIZADO', autorizacion_numero: out.clave_acceso });
		expect(
			env
				.calls()
				.filter((c) => c.method === 'GET')
				.every((c) => c.path.startsWith('/edocs/') && c.headers['x-password'] === undefined),
		).toBe(true);
	});

	test('a reproducible access key carries the kind’s document type', async () => {
		const result = await env.run(
			jsonIssue(resource, body(), { options: { accessKey: 'reproducible' } }),
		);
		expect(result.error).toBeUndefined();
		const key = String(/** @type {IDataObject} */ (only().body).clave_acceso);
		expect(splitAccessKey(key)).toMatchObject({
			receiptType: type,
			ruc: ISSUER.ruc,
			series: '001002',
		});
	});
});

describe('the guarantees of the issue path hold for the new kinds', () => {
	test('a batch of invoices is issued one by one, then followed together, in input order', async () => {
		env.receipts.decideAfterMs = 300;
		const rows = Array.from({ length: 6 }, (_, k) => ({ seq: 500 + k }));
		const jsonBody = `=${JSON.stringify({ ...invoiceBody(), secuencial: 0 }).replace('"secuencial":0', '"secuencial":{{ $json.seq }}')}`;
		const result = await env.runTimed(
			{
				resource: 'invoice',
				operation: 'issue',
				inputMode: 'json',
				jsonBody,
				waitForFinalState: true,
				waitTimeout: 600,
				options: { pollInterval: 1 },
			},
			rows,
		);
		expect(result.error).toBeUndefined();
		const posts = env.calls().filter((c) => c.method === 'POST');
		const gets = env.calls().filter((c) => c.method === 'GET');
		expect(posts).toHaveLength(6);
		expect(Math.max(...posts.map((c) => c.at))).toBeLessThanOrEqual(
			Math.min(...gets.map((c) => c.at)),
		);
		const out = result.output('Receipts');
		expect(out.map((o) => o.json.secuencial)).toEqual(rows.map((r) => r.seq));
		expect(out.every((o) => o.json.estado === 'AUTORIZADO')).toBe(true);
	});

	test('a refused certificate password stops a credit note at once, with its id and what to do', async () => {
		env.receipts.certificatePassword = 'another-password';
		try {
			const result = await env.runTimed(
				jsonIssue('creditNote', creditNoteBody(), {
					waitForFinalState: true,
					waitTimeout: 600,
					options: { pollInterval: 1 },
				}),
			);
			const stored = [...env.receipts.receipts.values()][0];
			expect(result.error?.message).toMatch(
				new RegExp(
					`^\\[item 1\\] Receipt ID ${stored.id}, clave_acceso ${stored.clave_acceso} could not be signed`,
				),
			);
			expect(result.error?.description).toMatch(/Document → Authorize/);
			expect(JSON.stringify(result.error)).not.toContain('firma-secreta-2026');
		} finally {
			env.receipts.reset();
			env.receipts.certificatePassword = 'firma-secreta-2026';
		}
	});

	test('a lost answer (502 after the work) is not re-sent: the debit note may exist, with what was sent', async () => {
		env.server.fail({ service: 'receipts', method: 'POST', mode: 'error-after', times: 1 });
		const result = await env.run(jsonIssue('debitNote', debitNoteBody()), [{}], true);
		expect(env.calls()).toHaveLength(1);
		expect(env.receipts.receipts.size).toBe(1);
		const out = result.output('Receipts')[0].json;
		expect(out.error).toMatch(/^\[item 1\] The debit note may exist: Receipts answered 502/);
		expect(out).toMatchObject({ document_may_exist: true, secuencial: '7' });
		expect(String(out.instruction)).toMatch(
			/^The debit note may have been issued: the answer was lost\. Do not issue it again before you have checked in the receipts service \(secuencial 7, series 001-002, issuer 1792146739001\)/,
		);
	});

	test('an invoice whose amounts are off by one cent is sent, with a warning', async () => {
		const body = invoiceBody();
		/** @type {IDataObject} */ (body.totales).importe_total = 61.41;
		/** @type {IDataObject[]} */ (body.pagos)[1].total = 21.41;
		const result = await env.run(jsonIssue('invoice', body));
		expect(env.calls()).toHaveLength(1);
		expect(result.output('Receipts')[0].json.warnings).toEqual([
			'Totals › Total Amount (totales.importe_total) is 61.41, but 56.00 + 5.40 taxes + 0.00 tip is 61.40: a rounding difference of one cent; sent anyway, verify it',
		]);
	});
});

describe('Reissue for the other kinds that have it', () => {
	test.each(
		/** @type {const} */ ([
			['retention', 'retention', '/retentions', retentionBody],
			[
				'purchaseSettlement',
				'purchaseSettlement',
				'/purchase-settlements',
				() => settlementBody(false),
			],
			[
				'purchaseSettlement',
				'purchaseSettlement',
				'/purchase-settlements',
				() => settlementBody(true),
			],
			['waybill', 'waybill', '/waybills', waybillBody],
		]),
	)(
		'%s (%s): POST %s/{id}/reissue, signed, with the corrected body',
		async (resource, kind, path, body) => {
			const r = env.receipts.seed(kind, body(), 'DEVUELTO');
			const result = await env.runTimed(
				jsonIssue(
					resource,
					body(),
					{
						receiptId: r.id,
						waitForFinalState: true,
						waitTimeout: 600,
						options: { pollInterval: 1 },
					},
					'reissue',
				),
			);
			expect(result.error).toBeUndefined();
			const [call] = env.calls();
			expect([call.method, call.path, call.headers['x-password']]).toEqual([
				'POST',
				`${path}/${r.id}/reissue`,
				env.receipts.certificatePassword,
			]);
			expect(call.body).toEqual(plain(body()));
			expect(result.output('Receipts')[0].json).toMatchObject({ id: r.id, estado: 'AUTORIZADO' });
		},
	);

	test('a reissue whose answer is lost is not re-sent, and says the receipt exists', async () => {
		const r = env.receipts.seed('retention', retentionBody(), 'NO AUTORIZADO');
		env.server.fail({ service: 'receipts', method: 'POST', mode: 'drop-after', times: 1 });
		const result = await env.run(
			jsonIssue('retention', retentionBody(), { receiptId: r.id }, 'reissue'),
			[{}],
			true,
		);
		expect(env.calls()).toHaveLength(1);
		expect(result.output('Receipts')[0].json).toMatchObject({ document_exists: true, id: r.id });
	});
});

describe('Fields input mode', () => {
	const emisor = {
		details: {
			ruc: ISSUER.ruc,
			razon_social: ISSUER.razon_social,
			obligado_contabilidad: true,
			establecimiento_codigo: '001',
			punto_emision: '002',
		},
	};
	const comprador = {
		details: {
			identificacion: BUYER.identificacion,
			tipo_identificacion: '05',
			razon_social: BUYER.razon_social,
			email: BUYER.email,
		},
	};
	const expectedEmisor = {
		ruc: ISSUER.ruc,
		razon_social: ISSUER.razon_social,
		obligado_contabilidad: true,
		establecimiento: { codigo: '001', punto_emision: '002' },
	};
	const lineItem = {
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
	};
	const expectedItem = {
		descripcion: 'Café',
		codigo_principal: 'CAF-001',
		cantidad: 2,
		precio_unitario: 5,
		descuento: 0,
		precio_total_sin_impuestos: 10,
		impuestos: [
			{ codigo: '2', codigo_porcentaje: '4', tarifa: 15, base_imponible: 10, valor: 1.5 },
		],
	};
	const common = {
		inputMode: 'fields',
		ambiente: 1,
		tipo_emision: 1,
		secuencial: '31',
		emisor,
		comprador,
	};

	test('Invoice from fields: items, totals, payments, credit and additional information', async () => {
		const result = await env.run({
			resource: 'invoice',
			operation: 'issue',
			...common,
			moneda: 'USD',
			lineItems: { item: [lineItem] },
			totales: {
				details: { total_sin_impuestos: 10, descuento: 0, propina: 0, importe_total: 11.5 },
			},
			totalTaxes: {
				tax: [{ codigo: '2', codigo_porcentaje: '4', base_imponible: 10, valor: 1.5 }],
			},
			pagos: { payment: [{ medio: 'tarjeta_credito', total: 6.5, notas: 'Visa' }] },
			info_adicional: { entry: [{ nombre: 'Vendedor', valor: 'Ana' }] },
			additionalFields: {
				fecha_emision: '2026-03-31',
				credito_monto: 5,
				credito_fecha_vencimiento: '2026-04-30',
			},
		});
		expect(result.error).toBeUndefined();
		expect(only().body).toEqual({
			ambiente: 1,
			tipo_emision: 1,
			secuencial: 31,
			fecha_emision: '2026-03-31',
			moneda: 'USD',
			emisor: expectedEmisor,
			comprador: {
				identificacion: BUYER.identificacion,
				tipo_identificacion: '05',
				razon_social: BUYER.razon_social,
				email: BUYER.email,
			},
			items: [expectedItem],
			totales: {
				total_sin_impuestos: 10,
				descuento: 0,
				propina: 0,
				importe_total: 11.5,
				impuestos: [{ codigo: '2', codigo_porcentaje: '4', base_imponible: 10, valor: 1.5 }],
			},
			pagos: [{ medio: 'tarjeta_credito', total: 6.5, notas: 'Visa' }],
			credito: { monto: 5, fecha_vencimiento: '2026-04-30' },
			info_adicional: [{ nombre: 'Vendedor', valor: 'Ana' }],
		});
	});

	test('Credit Note from fields: the modified document, the reason and the dictionary of additional information', async () => {
		const result = await env.run({
			resource: 'creditNote',
			operation: 'issue',
			...common,
			moneda: 'USD',
			tipo_documento_modificado: '01',
			numero_documento_modificado: '001-002-000000148',
			fecha_emision_documento_modificado: '2026-03-31',
			motivo: 'Devolución',
			lineItems: { item: [lineItem] },
			totales: { details: { total_sin_impuestos: 10, importe_total: 11.5 } },
			totalTaxes: {
				tax: [{ codigo: '2', codigo_porcentaje: '4', base_imponible: 10, valor: 1.5 }],
			},
			informacion_adicional: { entry: [{ name: 'Caja', value: '3' }] },
		});
		expect(result.error).toBeUndefined();
		expect(only().body).toMatchObject({
			secuencial: 31,
			tipo_documento_modificado: '01',
			numero_documento_modificado: '001-002-000000148',
			fecha_emision_documento_modificado: '2026-03-31',
			motivo: 'Devolución',
			items: [expectedItem],
			informacion_adicional: { Caja: '3' },
		});
	});

	test('Debit Note from fields: charges as items, secuencial as text, taxes with their rate', async () => {
		const result = await env.run({
			resource: 'debitNote',
			operation: 'issue',
			...common,
			tipo_documento_modificado: '01',
			numero_documento_modificado: '001-002-000000148',
			fecha_emision_documento_modificado: '2026-03-31',
			debitItems: { item: [{ motivo: 'Interés por mora', valor: 10 }] },
			totales: { details: { total_sin_impuestos: 10, importe_total: 11.5 } },
			totalTaxes: {
				tax: [{ codigo: '2', codigo_porcentaje: '4', tarifa: 15, base_imponible: 10, valor: 1.5 }],
			},
		});
		expect(result.error).toBeUndefined();
		const body = /** @type {IDataObject} */ (only().body);
		expect(body.secuencial).toBe('31');
		expect(body.moneda).toBeUndefined();
		expect(body.items).toEqual([{ motivo: 'Interés por mora', valor: 10 }]);
		expect(body.totales).toEqual({
			total_sin_impuestos: 10,
			importe_total: 11.5,
			impuestos: [
				{ codigo: '2', codigo_porcentaje: '4', tarifa: 15, base_imponible: 10, valor: 1.5 },
			],
		});
	});

	test('Fields mode goes through the same totals checks: nothing sent when the items do not add up', async () => {
		const result = await env.run({
			resource: 'invoice',
			operation: 'issue',
			...common,
			moneda: 'USD',
			lineItems: { item: [lineItem, { ...lineItem, codigo_principal: 'CAF-002' }] },
			totales: {
				details: { total_sin_impuestos: 10, descuento: 0, propina: 0, importe_total: 11.5 },
			},
			totalTaxes: {
				tax: [{ codigo: '2', codigo_porcentaje: '4', base_imponible: 10, valor: 1.5 }],
			},
			pagos: { payment: [{ medio: 'efectivo', total: 11.5 }] },
		});
		expect(env.calls()).toHaveLength(0);
		expect(result.error?.message).toBe(
			"[item 1] Totals › Total Without Taxes is 10.00, but the sum of the items' subtotals is 20.00 (off by 10.00): the tax authority rejects a receipt whose amounts do not add up",
		);
		expect(result.error?.description).toMatch(
			/Total Taxes › Tax 1 › Base is 10\.00, but the sum of the items' IVA 15 % bases is 20\.00/,
		);
	});
});
