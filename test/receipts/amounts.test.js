/** @import { IDataObject } from 'n8n-workflow' */
import { todayInEcuador } from '../../nodes/Receipts/actions/common/fields/head';
import {
	atsRetentionBody,
	bookkeeperAmounts,
	bookkeeperForm,
	BUYER,
	debitNoteBody,
	invoiceBody,
	ISSUER,
	jsonIssue,
	plain,
	retentionBody,
	savedIssuer,
	settlementBody,
	useReceipts,
} from './setup';

/**
 * The node does the arithmetic: amounts left out are computed from what was sold (quantities, unit prices,
 * discounts, tax codes), amounts given are checked, and a receipt that contradicts itself is refused with
 * nothing sent. Through n8n-core's engine against the simulator, over HTTP.
 */

const env = useReceipts();

/** The one POST of a run (the issue request), after any catalog read. */
const posted = () => {
	const posts = env.calls().filter((c) => c.method === 'POST');
	expect(posts).toHaveLength(1);
	return /** @type {IDataObject} */ (posts[0].body);
};

/** Nothing that issues, signs or writes was sent. */
const nothingSent = () =>
	expect(env.server.received('receipts').filter((c) => c.method !== 'GET')).toEqual([]);

/** An invoice body of JSON mode with only what was sold: no amount beyond quantities, prices and discounts. */
const soldOnly = (items, extra = {}) => ({
	ambiente: 1,
	tipo_emision: 1,
	secuencial: 200,
	fecha_emision: '2026-03-31',
	moneda: 'USD',
	emisor: ISSUER,
	comprador: BUYER,
	items,
	pagos: [{ medio: 'efectivo' }],
	...extra,
});
const item = (descripcion, cantidad, precio_unitario, impuestos, extra = {}) => ({
	descripcion,
	cantidad,
	precio_unitario,
	impuestos,
	...extra,
});
const iva = (codigo_porcentaje) => ({ codigo: '2', codigo_porcentaje });

describe('the bookkeeper’s invoice: two items from the Fields form, no calculator', () => {
	const form = { resource: 'invoice', operation: 'issue', ...bookkeeperForm() };

	test('is issued in one run with every amount computed, the issuer from the credential and the cédula recognised', async () => {
		env.setCredential(savedIssuer());
		const before = todayInEcuador();
		const result = await env.runTimed(form, undefined, false, 2);
		expect(result.error).toBeUndefined();
		const body = posted();
		expect([before, todayInEcuador()]).toContain(body.fecha_emision);
		expect(body).toEqual({
			ambiente: 1,
			tipo_emision: 1,
			secuencial: 150,
			fecha_emision: body.fecha_emision,
			moneda: 'USD',
			emisor: {
				ruc: ISSUER.ruc,
				razon_social: ISSUER.razon_social,
				nombre_comercial: ISSUER.nombre_comercial,
				direccion: ISSUER.direccion,
				obligado_contabilidad: true,
				establecimiento: {
					codigo: '001',
					punto_emision: '002',
					direccion: ISSUER.establecimiento.direccion,
				},
			},
			comprador: {
				identificacion: BUYER.identificacion,
				razon_social: BUYER.razon_social,
				tipo_identificacion: '05',
			},
			...bookkeeperAmounts(),
		});
		expect(result.output('Receipts')[0].json.warnings).toEqual([
			'Buyer › ID Type was empty: 05 (cédula, from 10 digits) was used; check it',
		]);
		expect(env.catalogReads().map((c) => c.path)).toEqual(['/catalog/sales-tax-rates/2']);
	});

	test('a batch reads the tax-rate catalog once per execution, not once per item', async () => {
		env.setCredential(savedIssuer());
		const batch = { ...form, secuencial: '={{ $json.seq }}' };
		const result = await env.runTimed(batch, [{ seq: 151 }, { seq: 152 }, { seq: 153 }], false, 2);
		expect(result.error).toBeUndefined();
		expect(env.calls().filter((c) => c.method === 'POST')).toHaveLength(3);
		expect(env.catalogReads()).toHaveLength(1);
	});

	test('version 1 of the form keeps its meaning: the same values left at their defaults are refused, not reinterpreted', async () => {
		// What the issue's new user met: the old form left at its defaults sent tax code 4 with rate, base and
		// value 0. Version 1 still sends what it is given, so now it stops with every contradiction at once.
		env.setCredential(savedIssuer());
		const v1 = {
			...form,
			inputMode: 'fields',
			lineItems: {
				item: [
					{
						descripcion: 'Servicio contable',
						cantidad: 3,
						precio_unitario: 40,
						descuento: 0,
						precio_total_sin_impuestos: 120,
						tax_codigo: '2',
						tax_codigo_porcentaje: '4',
					},
				],
			},
			totales: {
				details: { total_sin_impuestos: 120, descuento: 0, propina: 0, importe_total: 120 },
			},
			totalTaxes: { tax: [{ codigo: '2', codigo_porcentaje: '4', base_imponible: 0, valor: 0 }] },
			pagos: { payment: [{ medio: 'efectivo', total: 120 }] },
		};
		const result = await env.run(v1);
		nothingSent();
		expect(result.error?.message).toBe(
			'[item 1] Line 1 "Servicio contable" › Tax Base is 0.00, but the item\'s subtotal is 120.00 (off by 120.00): the tax authority rejects a receipt whose amounts do not add up',
		);
		const also = String(result.error?.description);
		expect(also).toContain(
			'- Line 1 "Servicio contable" › Tax Rate is 0 %, but IVA percentage code 4 is 15 %',
		);
		expect(also).toContain(
			'- Line 1 "Servicio contable" › Tax Value is 0.00, but IVA 15 % of 120.00 is 18.00',
		);
		expect(also).toMatch(/Nothing was sent to the service/);
	});
});

describe('every kind’s Fields form (version 2) with its amounts left at 0: the node computes them', () => {
	// Only what a bookkeeper knows: quantities, unit prices, discounts, tax and percentage codes, the buyer or
	// supplier, the means of payment, the supporting document. Every amount field keeps its default (0).
	const buyer = {
		comprador: {
			details: { identificacion: BUYER.identificacion, razon_social: BUYER.razon_social },
		},
	};
	const modified = {
		tipo_documento_modificado: '01',
		numero_documento_modificado: '001-002-000000148',
		fecha_emision_documento_modificado: '2026-03-31',
	};
	const subject = {
		periodo_fiscal: '03/2026',
		sujeto: { details: { identificacion: '1790016919001', razon_social: 'Corporación Ejemplo' } },
	};
	const supporting = {
		fecha_emision_documento_sustento: '2026-03-15',
		numero_documento_sustento: '001-001-000000045',
		tipo_documento_sustento: '01',
	};
	const ivaLine = (codigo_porcentaje, tarifa, base_imponible, valor) => ({
		codigo: '2',
		codigo_porcentaje,
		tarifa,
		base_imponible,
		valor,
	});
	/** An item as sent: what was sold, its computed subtotal and its one tax line. */
	const sent = (
		descripcion,
		cantidad,
		precio_unitario,
		descuento,
		precio_total_sin_impuestos,
		tax,
	) => ({
		descripcion,
		cantidad,
		precio_unitario,
		descuento,
		precio_total_sin_impuestos,
		impuestos: [tax],
	});
	/** An IVA line of the totals (no rate: only debit notes carry it there). */
	const ivaTotal = (codigo_porcentaje, base_imponible, valor) => ({
		codigo: '2',
		codigo_porcentaje,
		base_imponible,
		valor,
	});
	/** The invoice an ATS retention is supported by (`atsRetentionBody`): its totals and payment as printed on it. */
	const [supportingInvoice] = /** @type {IDataObject[]} */ (atsRetentionBody().documentos_soporte);
	/** The reimbursed document of `settlementBody(true)` without its taxes (each row gives its own). */
	const reimbursed = {
		.../** @type {IDataObject[]} */ (
			/** @type {IDataObject} */ (settlementBody(true).reembolso).documentos
		)[0],
		impuestos: undefined,
	};

	test.each([
		[
			'credit note: 2 × 40.00 less 5.00 at IVA 15 %, 1 × 12.50 at IVA 0 %',
			'creditNote',
			{
				...buyer,
				...modified,
				motivo: 'Devolución',
				lineItems: {
					item: [
						{
							descripcion: 'Servicio contable',
							cantidad: 2,
							precio_unitario: 40,
							descuento: 5,
							tax_codigo: '2',
							tax_codigo_porcentaje: '4',
						},
						{
							descripcion: 'Libro',
							cantidad: 1,
							precio_unitario: 12.5,
							tax_codigo: '2',
							tax_codigo_porcentaje: '0',
						},
					],
				},
			},
			{
				items: [
					sent('Servicio contable', 2, 40, 5, 75, ivaLine('4', 15, 75, 11.25)),
					sent('Libro', 1, 12.5, 0, 12.5, ivaLine('0', 0, 12.5, 0)),
				],
				totales: {
					total_sin_impuestos: 87.5,
					importe_total: 98.75,
					impuestos: [ivaTotal('4', 75, 11.25), ivaTotal('0', 12.5, 0)],
				},
			},
		],
		[
			'debit note: charges of 8.35 and 1.50 at IVA 15 % (1.4775 → 1.48)',
			'debitNote',
			{
				...buyer,
				...modified,
				debitItems: {
					item: [
						{ motivo: 'Interés por mora', valor: 8.35 },
						{ motivo: 'Gastos de cobranza', valor: 1.5 },
					],
				},
				totalTaxes: { tax: [{ codigo: '2', codigo_porcentaje: '4' }] },
			},
			{
				items: [
					{ motivo: 'Interés por mora', valor: 8.35 },
					{ motivo: 'Gastos de cobranza', valor: 1.5 },
				],
				totales: {
					total_sin_impuestos: 9.85,
					importe_total: 11.33,
					impuestos: [ivaLine('4', 15, 9.85, 1.48)],
				},
			},
		],
		[
			'purchase settlement: 3 × 16.335 at IVA 15 % (49.005 → 49.01), 1 × 10.00 at IVA 0 %, paid by transfer',
			'purchaseSettlement',
			{
				proveedor: { details: { identificacion: '1710034065', razon_social: 'María Quispe' } },
				settlementItems: {
					item: [
						{
							descripcion: 'Tejidos artesanales',
							cantidad: 3,
							precio_unitario: 16.335,
							tax_codigo: '2',
							tax_codigo_porcentaje: '4',
						},
						{
							descripcion: 'Transporte',
							cantidad: 1,
							precio_unitario: 10,
							tax_codigo: '2',
							tax_codigo_porcentaje: '0',
						},
					],
				},
				pagos: { payment: [{ forma_pago: '20' }] },
			},
			{
				items: [
					sent('Tejidos artesanales', 3, 16.335, 0, 49.01, ivaLine('4', 15, 49.01, 7.35)),
					sent('Transporte', 1, 10, 0, 10, ivaLine('0', 0, 10, 0)),
				],
				totales: {
					total_sin_impuestos: 59.01,
					descuento: 0,
					importe_total: 66.36,
					impuestos: [ivaTotal('4', 49.01, 7.35), ivaTotal('0', 10, 0)],
				},
				pagos: [{ forma_pago: '20', total: 66.36 }],
			},
		],
		[
			'purchase settlement with reimbursement: the item’s tax left at its default (no object of IVA), the reimbursed invoice’s IVA 15 %',
			'purchaseSettlement',
			{
				operation: 'issueWithReimbursement',
				proveedor: { details: { identificacion: '1710034065', razon_social: 'María Quispe' } },
				settlementItems: {
					item: [{ descripcion: 'Gastos de viaje', cantidad: 1, precio_unitario: 80 }],
				},
				pagos: { payment: [{ forma_pago: '01' }] },
				reembolso: JSON.stringify({
					documentos: [
						{
							...reimbursed,
							impuestos: [{ codigo: '2', codigo_porcentaje: '4', base_imponible: 80 }],
						},
					],
				}),
			},
			{
				items: [sent('Gastos de viaje', 1, 80, 0, 80, ivaLine('6', 0, 80, 0))],
				totales: {
					total_sin_impuestos: 80,
					descuento: 0,
					importe_total: 80,
					impuestos: [ivaTotal('6', 80, 0)],
				},
				pagos: [{ forma_pago: '01', total: 80 }],
				reembolso: {
					documentos: [{ ...reimbursed, impuestos: [ivaLine('4', 15, 80, 12)] }],
					subtotal: 80,
					total_impuestos: 12,
					total: 92,
				},
			},
		],
		[
			'retention: income tax 303 on 250.45 (10 % in the service’s catalog: 25.045 → 25.05) and VAT 30 % on 15.25 (4.575 → 4.58)',
			'retention',
			{
				secuencial: '123',
				...subject,
				items: {
					item: [
						{ codigo: '1', codigo_porcentaje: '303', base_imponible: 250.45, ...supporting },
						{ codigo: '2', codigo_porcentaje: '1', base_imponible: 15.25, ...supporting },
					],
				},
			},
			{
				items: [
					{
						codigo: '1',
						codigo_porcentaje: '303',
						base_imponible: 250.45,
						porcentaje: 10,
						valor_retenido: 25.05,
						...supporting,
					},
					{
						codigo: '2',
						codigo_porcentaje: '1',
						base_imponible: 15.25,
						porcentaje: 30,
						valor_retenido: 4.58,
						...supporting,
					},
				],
			},
		],
		[
			'ATS retention: the supporting invoice’s IVA 15 % on 100.00, income tax 312 and VAT 70 % retained',
			'atsRetention',
			{
				secuencia: '77',
				...subject,
				documentos_soporte: JSON.stringify([
					{
						...supportingInvoice,
						impuestos: [{ codigo: '2', codigo_porcentaje: '4', base_imponible: 100 }],
						retenciones: [
							{ codigo: '1', codigo_porcentaje: '312', base_imponible: 100 },
							{ codigo: '2', codigo_porcentaje: '2', base_imponible: 15 },
						],
					},
				]),
			},
			{
				documentos_soporte: [
					{
						...supportingInvoice,
						impuestos: [ivaLine('4', 15, 100, 15)],
						retenciones: [
							{
								codigo: '1',
								codigo_porcentaje: '312',
								base_imponible: 100,
								tarifa: 1.75,
								valor_retenido: 1.75,
							},
							{
								codigo: '2',
								codigo_porcentaje: '2',
								base_imponible: 15,
								tarifa: 70,
								valor_retenido: 10.5,
							},
						],
					},
				],
			},
		],
	])('%s', async (_what, resource, form, amounts) => {
		env.setCredential(savedIssuer());
		const result = await env.runTimed(
			{ resource, operation: 'issue', secuencial: '12', ...form },
			undefined,
			false,
			2,
		);
		expect(result.error).toBeUndefined();
		const body = posted();
		expect(Object.fromEntries(Object.keys(amounts).map((key) => [key, body[key]]))).toEqual(
			amounts,
		);
		// No amount is off by a rounding cent: the only warning says which identification type was inferred.
		expect(result.output('Receipts')[0].json.warnings).toEqual([
			expect.stringMatching(/^(Buyer|Supplier|Retained Subject) › ID Type was empty: 0[45] /),
		]);
	});
});

describe('amounts computed from what was sold (JSON mode)', () => {
	test('rounding as the SRI does: every line exact, then half away from zero to the cent (3 × 0.335 = 1.005 → 1.01)', async () => {
		const result = await env.run(
			jsonIssue(
				'invoice',
				soldOnly([
					item('Tornillos', 3, 0.335, [iva('4')]), // 1.005 → 1.01; IVA 0.1515 → 0.15
					item('Arandelas', 1, 0.3, [iva('4')]), // IVA 0.045 → 0.05 (half-even would give 0.04)
					item('Clavos', 1, 1.005, [iva('0')]), // written 1.005: 1.01 (the binary double of 1.005 is below it)
				]),
			),
		);
		expect(result.error).toBeUndefined();
		const body = posted();
		const items = /** @type {IDataObject[]} */ (body.items);
		expect(items.map((i) => i.precio_total_sin_impuestos)).toEqual([1.01, 0.3, 1.01]);
		expect(items.map((i) => /** @type {IDataObject[]} */ (i.impuestos)[0].valor)).toEqual([
			0.15, 0.05, 0,
		]);
		expect(body.totales).toEqual({
			total_sin_impuestos: 2.32,
			descuento: 0,
			propina: 0,
			importe_total: 2.52,
			impuestos: [
				{ codigo: '2', codigo_porcentaje: '4', base_imponible: 1.31, valor: 0.2 },
				{ codigo: '2', codigo_porcentaje: '0', base_imponible: 1.01, valor: 0 },
			],
		});
		expect(body.pagos).toEqual([{ medio: 'efectivo', total: 2.52 }]);
	});

	test('item discounts come off the item; an additional discount comes off the IVA base in the totals', async () => {
		const result = await env.run(
			jsonIssue(
				'invoice',
				soldOnly([item('Café', 3, 12.5, [iva('4')], { descuento: 1.5 })], {
					totales: { descuento_adicional: 1 },
				}),
			),
		);
		expect(result.error).toBeUndefined();
		const body = posted();
		expect(/** @type {IDataObject[]} */ (body.items)[0]).toMatchObject({
			precio_total_sin_impuestos: 36,
			impuestos: [{ tarifa: 15, base_imponible: 36, valor: 5.4 }],
		});
		// The documentation's rule: the totals line's value is the tax of (base − additional discount): 15 % of 35.00.
		expect(body.totales).toEqual({
			descuento_adicional: 1,
			total_sin_impuestos: 36,
			descuento: 2.5,
			propina: 0,
			importe_total: 40.25,
			impuestos: [{ codigo: '2', codigo_porcentaje: '4', base_imponible: 36, valor: 5.25 }],
		});
		expect(body.pagos).toEqual([{ medio: 'efectivo', total: 40.25 }]);
	});

	test('an additional discount over several rates is shared by their bases, and a warning says how', async () => {
		const result = await env.run(
			jsonIssue(
				'invoice',
				soldOnly([item('Servicio', 1, 80, [iva('4')]), item('Libro', 1, 20, [iva('0')])], {
					totales: { descuento_adicional: 10 },
				}),
			),
		);
		expect(result.error).toBeUndefined();
		const totales = /** @type {IDataObject} */ (posted().totales);
		expect(totales.impuestos).toEqual([
			{ codigo: '2', codigo_porcentaje: '4', base_imponible: 80, valor: 10.8 },
			{ codigo: '2', codigo_porcentaje: '0', base_imponible: 20, valor: 0 },
		]);
		expect(totales.importe_total).toBe(100.8);
		expect(result.output('Receipts')[0].json.warnings).toEqual([
			"Totals › Additional Discount (totales.descuento_adicional) was shared between the tax lines in proportion to their bases (8.00 to IVA 15 %, 2.00 to IVA 0 %); give each Total Taxes line's value yourself to share it otherwise",
		]);
	});

	test('several rates: one totals line per tax and percentage code, in the order the items show them', async () => {
		const result = await env.run(
			jsonIssue(
				'invoice',
				soldOnly([
					item('A', 2, 10, [iva('4')]),
					item('B', 1, 7, [iva('5')]),
					item('C', 1, 3, [iva('4')]),
					item('D', 4, 2.5, [iva('6')]),
				]),
			),
		);
		expect(result.error).toBeUndefined();
		expect(/** @type {IDataObject} */ (posted().totales)).toMatchObject({
			total_sin_impuestos: 40,
			importe_total: 43.8,
			impuestos: [
				{ codigo: '2', codigo_porcentaje: '4', base_imponible: 23, valor: 3.45 },
				{ codigo: '2', codigo_porcentaje: '5', base_imponible: 7, valor: 0.35 },
				{ codigo: '2', codigo_porcentaje: '6', base_imponible: 10, valor: 0 },
			],
		});
	});

	test('two taxes on one item: the ICE given, the IVA computed on the subtotal plus the ICE (its documented base)', async () => {
		const ice = {
			codigo: '3',
			codigo_porcentaje: '3011',
			tarifa: 10,
			base_imponible: 100,
			valor: 10,
		};
		const result = await env.run(
			jsonIssue('invoice', soldOnly([item('Cigarrillos', 10, 10, [ice, iva('4')])])),
		);
		expect(result.error).toBeUndefined();
		const body = posted();
		expect(/** @type {IDataObject[]} */ (body.items)[0].impuestos).toEqual([
			ice,
			{ codigo: '2', codigo_porcentaje: '4', tarifa: 15, base_imponible: 110, valor: 16.5 },
		]);
		expect(body.totales).toMatchObject({
			total_sin_impuestos: 100,
			importe_total: 126.5,
			impuestos: [
				{ codigo: '3', codigo_porcentaje: '3011', base_imponible: 100, valor: 10 },
				{ codigo: '2', codigo_porcentaje: '4', base_imponible: 110, valor: 16.5 },
			],
		});
	});

	test('the amounts given are kept: only what is missing is computed', async () => {
		const body = invoiceBody();
		delete (/** @type {IDataObject[]} */ (body.items)[1].precio_total_sin_impuestos);
		delete (/** @type {IDataObject} */ (body.totales).importe_total);
		const result = await env.run(jsonIssue('invoice', body));
		expect(result.error).toBeUndefined();
		expect(posted()).toEqual(plain(invoiceBody()));
	});

	test('payments: several without a total cannot be shared, and each is named; one with a total leaves the rest to the other', async () => {
		const two = soldOnly([item('A', 1, 100, [iva('4')])], {
			pagos: [{ medio: 'efectivo' }, { medio: 'tarjeta_credito' }],
		});
		const refused = await env.run(jsonIssue('invoice', two));
		nothingSent();
		expect(refused.error?.message).toBe(
			'[item 1] Payment 1 › Total (pagos[0].total) is required when several payments are given: only one payment may leave its total empty, and it takes the rest of the Total Amount',
		);
		expect(refused.error?.description).toContain(
			'- Payment 2 › Total (pagos[1].total) is required',
		);
		env.server.clear();
		const result = await env.run(
			jsonIssue('invoice', {
				...two,
				pagos: [{ medio: 'tarjeta_credito', total: 100 }, { medio: 'efectivo' }],
				credito: { monto: 10, fecha_vencimiento: '2026-04-30' },
			}),
		);
		expect(result.error).toBeUndefined();
		expect(posted().pagos).toEqual([
			{ medio: 'tarjeta_credito', total: 100 },
			{ medio: 'efectivo', total: 5 },
		]);
	});

	test('credit notes: items, totals and tax totals computed the same way (no payments, no tip)', async () => {
		const sold = /** @type {IDataObject} */ (
			soldOnly([item('Café', 1, 12.5, [iva('4')], { descuento: 0.5 })])
		);
		delete sold.pagos;
		const note = {
			...sold,
			tipo_documento_modificado: '01',
			numero_documento_modificado: '001-002-000000148',
			fecha_emision_documento_modificado: '2026-03-30',
			motivo: 'Devolución',
		};
		const result = await env.run(jsonIssue('creditNote', note));
		expect(result.error).toBeUndefined();
		const body = posted();
		expect(body.totales).toEqual({
			total_sin_impuestos: 12,
			importe_total: 13.8,
			impuestos: [{ codigo: '2', codigo_porcentaje: '4', base_imponible: 12, valor: 1.8 }],
		});
		expect(body.pagos).toBeUndefined();
	});

	test('debit notes: the charges are summed, and the one tax line gets its rate, its base and its value', async () => {
		const body = debitNoteBody();
		body.totales = { impuestos: [{ codigo: '2', codigo_porcentaje: '4' }] };
		const result = await env.run(jsonIssue('debitNote', body));
		expect(result.error).toBeUndefined();
		expect(posted().totales).toEqual({
			total_sin_impuestos: 10,
			importe_total: 11.5,
			impuestos: [
				{ codigo: '2', codigo_porcentaje: '4', tarifa: 15, base_imponible: 10, valor: 1.5 },
			],
		});
	});

	test('debit notes: with two tax lines the base of each cannot be told, and the message says which', async () => {
		const body = debitNoteBody();
		body.totales = {
			impuestos: [
				{ codigo: '2', codigo_porcentaje: '4' },
				{ codigo: '2', codigo_porcentaje: '0' },
			],
		};
		const result = await env.run(jsonIssue('debitNote', body));
		nothingSent();
		const said = `${result.error?.message}\n${result.error?.description}`;
		expect(said).toContain(
			'Total Taxes › Tax 1 › Base (totales.impuestos[0].base_imponible) is required',
		);
		expect(said).toContain(
			'Total Taxes › Tax 2 › Base (totales.impuestos[1].base_imponible) is required',
		);
	});

	test('purchase settlements: totals, tax totals and the payment from the items', async () => {
		const body = settlementBody();
		for (const it of /** @type {IDataObject[]} */ (body.items)) {
			delete it.precio_total_sin_impuestos;
			it.impuestos = [{ codigo: '2', codigo_porcentaje: '4' }];
		}
		delete body.totales;
		body.pagos = [{ forma_pago: '01', unidad_tiempo: 'dias', plazo: '30' }];
		const result = await env.run(jsonIssue('purchaseSettlement', body));
		expect(result.error).toBeUndefined();
		expect(posted()).toEqual(plain(settlementBody()));
	});

	test('purchase settlements with reimbursement: no-object-of-tax items at 0, the reimbursed documents’ IVA and totals', async () => {
		const body = settlementBody(true);
		const reembolso = /** @type {IDataObject} */ (body.reembolso);
		reembolso.documentos = [
			{
				.../** @type {IDataObject[]} */ (reembolso.documentos)[0],
				impuestos: [{ codigo: '2', codigo_porcentaje: '4', base_imponible: 100 }],
			},
		];
		delete reembolso.subtotal;
		delete reembolso.total_impuestos;
		delete reembolso.total;
		/** @type {IDataObject[]} */ (body.items)[0].impuestos = [
			{ codigo: '2', codigo_porcentaje: '6' },
		];
		delete body.totales;
		body.pagos = [{ forma_pago: '20' }];
		const result = await env.run(
			jsonIssue('purchaseSettlement', body, {}, 'issueWithReimbursement'),
		);
		expect(result.error).toBeUndefined();
		const sent = posted();
		expect(/** @type {IDataObject[]} */ (sent.items)[0].impuestos).toEqual([
			{ codigo: '2', codigo_porcentaje: '6', tarifa: 0, base_imponible: 100, valor: 0 },
		]);
		expect(sent.totales).toEqual({
			total_sin_impuestos: 100,
			descuento: 0,
			importe_total: 100,
			impuestos: [{ codigo: '2', codigo_porcentaje: '6', base_imponible: 100, valor: 0 }],
		});
		expect(sent.pagos).toEqual([{ forma_pago: '20', total: 100 }]);
		expect(sent.reembolso).toMatchObject({
			subtotal: 100,
			total_impuestos: 15,
			total: 115,
			documentos: [
				{
					impuestos: [
						{ codigo: '2', codigo_porcentaje: '4', tarifa: 15, base_imponible: 100, valor: 15 },
					],
				},
			],
		});
	});

	test('retentions: the retained value from the base and the rate of its code (the service’s catalog, else the built-in table)', async () => {
		const body = retentionBody();
		const [first] = /** @type {IDataObject[]} */ (body.items);
		body.items = [
			{ ...first, porcentaje: undefined, valor_retenido: undefined }, // income tax 312: 1.75 % in the service's catalog
			{
				...first,
				codigo: '2',
				codigo_porcentaje: '1',
				base_imponible: 15.25,
				porcentaje: undefined,
				valor_retenido: undefined,
			}, // VAT 30 %
		];
		const result = await env.run(jsonIssue('retention', body));
		expect(result.error).toBeUndefined();
		expect(
			/** @type {IDataObject[]} */ (posted().items).map((i) => [i.porcentaje, i.valor_retenido]),
		).toEqual([
			[1.75, 1.75],
			[30, 4.58], // 4.575 → 4.58
		]);
		expect(
			env
				.catalogReads()
				.map((c) => c.path)
				.sort(),
		).toEqual(['/catalog/withholdings-tax-rates/1', '/catalog/withholdings-tax-rates/2']);
	});

	test('retentions: a rate no one knows cannot be computed, and the message says what to give', async () => {
		const body = retentionBody();
		/** @type {IDataObject[]} */ (body.items)[0] = {
			.../** @type {IDataObject[]} */ (body.items)[0],
			codigo_porcentaje: '343',
			porcentaje: undefined,
			valor_retenido: undefined,
		};
		const result = await env.run(jsonIssue('retention', body));
		nothingSent();
		expect(result.error?.message).toBe(
			'[item 1] Retained Tax 1 › Retained Value (items[0].valor_retenido) is required: the percentage of tax code 1, percentage code 343 is not known here; give the Percentage or the Retained Value',
		);
	});

	test('ATS retentions: each retention’s rate and value, and the supporting document’s IVA', async () => {
		const body = atsRetentionBody();
		const [doc] = /** @type {IDataObject[]} */ (body.documentos_soporte);
		doc.impuestos = [{ codigo: '2', codigo_porcentaje: '4', base_imponible: 100 }];
		doc.retenciones = [
			{ codigo: '1', codigo_porcentaje: '312', base_imponible: 100 },
			{ codigo: '2', codigo_porcentaje: '2', base_imponible: 15 },
		];
		const result = await env.run(jsonIssue('atsRetention', body));
		expect(result.error).toBeUndefined();
		const [sent] = /** @type {IDataObject[]} */ (posted().documentos_soporte);
		expect(sent.impuestos).toEqual([
			{ codigo: '2', codigo_porcentaje: '4', tarifa: 15, base_imponible: 100, valor: 15 },
		]);
		expect(sent.retenciones).toEqual([
			{
				codigo: '1',
				codigo_porcentaje: '312',
				base_imponible: 100,
				tarifa: 1.75,
				valor_retenido: 1.75,
			},
			{ codigo: '2', codigo_porcentaje: '2', base_imponible: 15, tarifa: 70, valor_retenido: 10.5 },
		]);
	});

	test('a catalog that cannot be read leaves the built-in table to give the rate', async () => {
		env.server.fail({
			service: 'receipts',
			method: 'GET',
			path: '/catalog/',
			status: 404,
			times: 10,
		});
		const result = await env.run(
			jsonIssue('invoice', soldOnly([item('Servicio', 2, 50, [iva('4')])])),
		);
		expect(result.error).toBeUndefined();
		expect(/** @type {IDataObject} */ (posted().totales).importe_total).toBe(115);
		expect(env.catalogReads()).toHaveLength(1);
	});

	test('the service’s catalog has the last word on a rate (a rate it changed wins over the built-in table)', async () => {
		env.server.fail({
			service: 'receipts',
			method: 'GET',
			path: '/catalog/sales-tax-rates/2',
			status: 200,
			body: { count: 1, results: [{ nombre: 'IVA 16%', tarifa: '16.00', codigo_porcentaje: '4' }] },
			times: 1,
		});
		const result = await env.run(
			jsonIssue('invoice', soldOnly([item('Servicio', 1, 100, [iva('4')])])),
		);
		expect(result.error).toBeUndefined();
		expect(
			/** @type {IDataObject[]} */ (/** @type {IDataObject[]} */ (posted().items)[0].impuestos)[0],
		).toMatchObject({ tarifa: 16, valor: 16 });
	});
});

describe('contradictions are refused before sending, every problem of the item in one run', () => {
	test.each([
		[
			'a tax line whose rate contradicts its percentage code',
			(b) => (b.items[0].impuestos[0].tarifa = 12),
			'Line 1 "Café de altura 1 kg" › Tax 1 › Rate (items[0].impuestos[0].tarifa) is 12 %, but IVA percentage code 4 is 15 %',
		],
		[
			'a tax base that is not its item’s subtotal',
			(b) => {
				b.items[0].impuestos[0].base_imponible = 30;
				b.totales.impuestos[0].base_imponible = 30;
			},
			'Line 1 "Café de altura 1 kg" › Tax 1 › Base (items[0].impuestos[0].base_imponible) is 30.00, but the item\'s subtotal is 36.00 (off by 6.00): the tax authority rejects a receipt whose amounts do not add up',
		],
		[
			'a value that is not the rate of the base',
			(b) => (b.items[0].impuestos[0].valor = 0),
			'Line 1 "Café de altura 1 kg" › Tax 1 › Value (items[0].impuestos[0].valor) is 0.00, but IVA 15 % of 36.00 is 5.40 (off by 5.40): the tax authority rejects a receipt whose amounts do not add up',
		],
		[
			'a tax the items carry without a totals line',
			(b) => b.totales.impuestos.pop(),
			'Total Taxes (totales.impuestos) has no line for IVA 0 % (tax 2, percentage code 0), which Line 2 "Libro de recetas" (items[1]) carries: every tax of the items needs its line in the totals',
		],
	])('%s', async (_what, spoil, message) => {
		const body = invoiceBody();
		spoil(body);
		const result = await env.run(jsonIssue('invoice', body));
		nothingSent();
		expect(result.error?.message).toBe(`[item 1] ${message}`);
	});

	test('a one-cent difference is a warning, and the receipt is sent', async () => {
		const body = invoiceBody();
		/** @type {IDataObject[]} */ (/** @type {IDataObject[]} */ (body.items)[0].impuestos)[0].valor =
			5.41;
		/** @type {IDataObject[]} */ (/** @type {IDataObject} */ (body.totales).impuestos)[0].valor =
			5.41;
		/** @type {IDataObject} */ (body.totales).importe_total = 61.41;
		/** @type {IDataObject[]} */ (body.pagos)[1].total = 21.41;
		const result = await env.run(jsonIssue('invoice', body));
		expect(env.calls().filter((c) => c.method === 'POST')).toHaveLength(1);
		expect(result.output('Receipts')[0].json.warnings).toEqual([
			'Line 1 "Café de altura 1 kg" › Tax 1 › Value (items[0].impuestos[0].valor) is 5.41, but IVA 15 % of 36.00 is 5.40: a rounding difference of one cent; sent anyway, verify it',
		]);
	});

	test('a VAT withholding percentage that contradicts its code is refused; an income-tax value off the catalog’s rate only warns', async () => {
		const body = retentionBody();
		const [first] = /** @type {IDataObject[]} */ (body.items);
		body.items = [
			{
				...first,
				codigo: '2',
				codigo_porcentaje: '2',
				base_imponible: 10,
				porcentaje: 30,
				valor_retenido: 3,
			},
		];
		const refused = await env.run(jsonIssue('retention', body));
		nothingSent();
		expect(refused.error?.message).toBe(
			'[item 1] Retained Tax 1 › Percentage (items[0].porcentaje) is 30 %, but withholding code 2 of tax 2 is 70 %',
		);
		env.server.clear();
		const warned = await env.run(
			jsonIssue('retention', {
				...body,
				items: [{ ...first, porcentaje: undefined, valor_retenido: 2 }],
			}),
		);
		expect(warned.error).toBeUndefined();
		expect(warned.output('Receipts')[0].json.warnings).toEqual([
			"Retained Tax 1 › Retained Value (items[0].valor_retenido) is 2.00, but 1.75 % of 100.00 (the service's rate for code 312) is 1.75; sent anyway, verify the percentage",
		]);
	});

	test('Fields mode names the form’s fields, counting lines from 1; every problem of the item comes at once', async () => {
		env.setCredential(savedIssuer());
		const result = await env.run(
			{
				resource: 'invoice',
				operation: 'issue',
				secuencial: '150',
				comprador: {
					details: { identificacion: BUYER.identificacion, razon_social: BUYER.razon_social },
				},
				lineItems: {
					item: [
						{
							descripcion: 'Servicio contable',
							cantidad: 3,
							precio_unitario: 40,
							tax_codigo_porcentaje: '4',
							tax_tarifa: 12,
						},
						{
							descripcion: '',
							cantidad: 1,
							precio_unitario: 12.5,
							tax_codigo_porcentaje: '0',
							tax_valor: 3,
						},
					],
				},
				pagos: { payment: [{ medio: 'efectivo' }] },
			},
			undefined,
			false,
			2,
		);
		nothingSent();
		expect(result.error?.message).toBe('[item 1] Line 2 › Description is required');
		expect(
			String(result.error?.description)
				.split('\n')
				.filter((l) => l.startsWith('- ')),
		).toEqual([
			'- Line 1 "Servicio contable" › Tax Rate is 12 %, but IVA percentage code 4 is 15 %',
			'- Line 2 › Tax Value is 3.00, but IVA 0 % of 12.50 is 0.00 (off by 3.00): the tax authority rejects a receipt whose amounts do not add up',
		]);
	});
});

describe('the issuer saved in the credential and the identification type', () => {
	test('a JSON body without an issuer takes the saved one; a field the body gives wins', async () => {
		env.setCredential(savedIssuer());
		const body = invoiceBody();
		body.emisor = { establecimiento: { punto_emision: '009' } };
		const result = await env.run(jsonIssue('invoice', body));
		expect(result.error).toBeUndefined();
		expect(posted().emisor).toEqual({
			ruc: ISSUER.ruc,
			razon_social: ISSUER.razon_social,
			nombre_comercial: ISSUER.nombre_comercial,
			direccion: ISSUER.direccion,
			obligado_contabilidad: true,
			establecimiento: {
				punto_emision: '009',
				codigo: '001',
				direccion: ISSUER.establecimiento.direccion,
			},
		});
	});

	test('without a saved issuer and none in the node, the message says where to put it', async () => {
		const body = invoiceBody();
		delete body.emisor;
		const result = await env.run(jsonIssue('invoice', body));
		nothingSent();
		// Each required field is named, with both places to fill it: the node's field and the credential's.
		expect(result.error?.message).toBe(
			'[item 1] Issuer › RUC (emisor.ruc) is required: fill it in the node, or once in the Receipts credential (Issuer RUC), which every receipt then uses',
		);
		for (const [node, credential] of [
			['Issuer › Legal Name (emisor.razon_social)', 'Legal Name (Razón Social)'],
			[
				'Issuer › Establishment Code (emisor.establecimiento.codigo)',
				'Establishment Code (Establecimiento)',
			],
			[
				'Issuer › Emission Point (emisor.establecimiento.punto_emision)',
				'Emission Point (Punto de Emisión)',
			],
		])
			expect(result.error?.description).toContain(
				`${node} is required: fill it in the node, or once in the Receipts credential (${credential})`,
			);
	});

	test.each([
		['1790016919001', '04', 'RUC, from 13 digits ending in 001'],
		['1710034065', '05', 'cédula, from 10 digits'],
		['9999999999999', '07', 'final consumer, from 9999999999999'],
	])(
		'an empty identification type is told from %s: %s, with a warning',
		async (identificacion, code, why) => {
			const body = invoiceBody();
			body.comprador = { identificacion, razon_social: 'Cliente' };
			const result = await env.run(jsonIssue('invoice', body));
			expect(result.error).toBeUndefined();
			expect(/** @type {IDataObject} */ (posted().comprador).tipo_identificacion).toBe(code);
			expect(result.output('Receipts')[0].json.warnings).toEqual([
				`Buyer › ID Type (comprador.tipo_identificacion) was empty: ${code} (${why}) was used; check it`,
			]);
		},
	);
});
