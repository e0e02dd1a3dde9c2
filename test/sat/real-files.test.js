import { SCHEMA_FAMILIES } from '../../nodes/Sat/domain/schema';
import { REAL_CFDIS } from './real-cfdis';
import { fileItem, readXml, startSat } from './setup';
/** @import { SatEnv } from './setup' */

/**
 * Read CFDI XML, through n8n-core's engine, on CFDIs shaped as real generators write them (real-cfdis.js): each
 * read with its UUID, RFCs and total; one shape for `comprobante` whatever a CFDI holds; rows that can be booked.
 */

/** @type {SatEnv} */
let env;
/** @type {any[]} */
let read;
beforeAll(async () => {
	env = await startSat();
	const result = await env.run(
		readXml(),
		REAL_CFDIS.map((c) => fileItem(c.xml)),
	);
	expect(result.error).toBeUndefined();
	read = result.output('SAT (Mexico)').map((i) => i.json);
});
afterAll(async () => env.stop());

const byName = (start) => read[REAL_CFDIS.findIndex((c) => c.name.startsWith(start))];

test('every file is read with its UUID, version, RFCs and total', () => {
	expect(read.map((j) => [j.uuid, j.version, j.emisor.rfc, j.receptor.rfc, j.total])).toEqual(
		REAL_CFDIS.map(({ expect: e }) => [e.uuid, e.version, e.emisor, e.receptor, e.total]),
	);
	// Only the two CFDIs with two stamps are flagged: every other file adds up and is well-formed by its schema.
	expect(read.map((j) => j.warnings.length)).toEqual(
		REAL_CFDIS.map((c) => (/two stamps|each with a stamp/.test(c.name) ? 1 : 0)),
	);
});

/** Every path of `json` (list items as `[]`) with the kinds of value found there: list, object, scalar. */
function shapes(json, path = 'comprobante', out = new Map()) {
	const kind = Array.isArray(json)
		? 'list'
		: json && typeof json === 'object'
			? 'object'
			: 'scalar';
	(out.get(path) ?? out.set(path, new Set()).get(path)).add(kind);
	if (Array.isArray(json)) for (const item of json) shapes(item, `${path}[]`, out);
	else if (kind === 'object')
		for (const [k, v] of Object.entries(json)) shapes(v, `${path}.${k}`, out);
	return out;
}

test('no element path of comprobante is a list in one CFDI and a single value in another', () => {
	const all = new Map();
	for (const json of read)
		for (const [path, kinds] of shapes(json.comprobante))
			for (const kind of kinds) (all.get(path) ?? all.set(path, new Set()).get(path)).add(kind);
	const mixed = [...all].filter(([, kinds]) => kinds.has('list') && kinds.size > 1);
	// The one path whose kind differs is not one element in two shapes: CFDI 3.2's Emisor holds RegimenFiscal
	// elements (a list, cfdv32.xsd), 3.3 and 4.0 an attribute of that name (a code). The summary's
	// emisor.regimen_fiscal reads both.
	expect(mixed.map(([path, kinds]) => [path, [...kinds].sort()])).toEqual([
		['comprobante.Emisor.RegimenFiscal', ['list', 'scalar']],
	]);
	expect(mixed.filter(([, kinds]) => kinds.has('object'))).toEqual([]);
	// The paths the issue found changing shape, now lists with one entry as with several.
	for (const path of [
		'comprobante.Complemento[].CartaPorte.Mercancias.Mercancia',
		'comprobante.Complemento[].CartaPorte.Mercancias.Mercancia[].Pedimentos',
		'comprobante.Complemento[].CartaPorte.Ubicaciones.Ubicacion',
		'comprobante.Complemento[].CartaPorte.FiguraTransporte.TiposFigura',
		'comprobante.Complemento[].Nomina.Deducciones.Deduccion',
		'comprobante.Complemento[].Nomina.Percepciones.Percepcion',
		'comprobante.Complemento[].Pagos.Pago[].DoctoRelacionado',
		'comprobante.Complemento[].Pagos.Pago[].Impuestos',
		'comprobante.Conceptos.Concepto[].ComplementoConcepto',
		'comprobante.Complemento[].LeyendasFiscales.Leyenda',
		'comprobante.Addenda',
	])
		expect([path, [...(all.get(path) ?? [])]]).toEqual([path, ['list']]);
	// A complement is one object in its entry of Complemento.
	for (const path of [
		'comprobante.Complemento[].TimbreFiscalDigital',
		'comprobante.Complemento[].CartaPorte',
		'comprobante.Complemento[].Pagos',
	])
		expect([path, [...(all.get(path) ?? [])]]).toEqual([path, ['object']]);
});

test('every attribute the schemas type as a number is a number, codes stay text', () => {
	/** @type {Set<string>} */
	const numbers = new Set(Object.values(SCHEMA_FAMILIES).flatMap((f) => [...f.numbers]));
	const left = [];
	const walk = (json, path) => {
		if (Array.isArray(json)) json.forEach((v, i) => walk(v, `${path}[${i}]`));
		else if (json && typeof json === 'object')
			for (const [k, v] of Object.entries(json)) {
				if (k === 'Addenda') continue; // not the SAT's: the generic shape, attributes text
				if (numbers.has(k) && typeof v === 'string') left.push(`${path}.${k}=${v}`);
				walk(v, `${path}.${k}`);
			}
	};
	read.forEach((j, n) => walk(j.comprobante, `[${n}]`));
	expect(left).toEqual([]);

	const carta31 = byName('CFDI 4.0 transfer').comprobante.Complemento[0].CartaPorte;
	expect(carta31).toMatchObject({ TotalDistRec: 350.5, Version: '3.1' });
	expect(carta31.Mercancias).toMatchObject({ PesoBrutoTotal: 1250, NumTotalMercancias: 1 });
	expect(carta31.Mercancias.Mercancia).toEqual([
		expect.objectContaining({
			BienesTransp: '31181701',
			Cantidad: 50,
			PesoEnKg: 1250,
			ValorMercancia: 87500,
			CantidadTransporta: [{ Cantidad: 50, IDOrigen: 'OR000001', IDDestino: 'DE000002' }],
		}),
	]);
	expect(carta31.Mercancias.Autotransporte.IdentificacionVehicular).toMatchObject({
		PesoBrutoVehicular: 18.5,
		AnioModeloVM: 2020,
		PlacaVM: '501AAA',
	});

	const nomina12 = byName('CFDI 4.0 payroll').comprobante.Complemento[0].Nomina;
	expect(nomina12).toMatchObject({ NumDiasPagados: 15, TotalOtrosPagos: 0.01 });
	expect(nomina12.Receptor).toMatchObject({
		Banco: '002',
		CuentaBancaria: '0123456789',
		TipoRegimen: '02',
		SalarioDiarioIntegrado: 350.5,
	});
	const nomina11 = byName('CFDI 3.2 payroll').comprobante.Complemento[0].Nomina;
	expect(nomina11).toMatchObject({
		Banco: '012',
		CLABE: '012180001234567897',
		TipoRegimen: '2',
		Antiguedad: 54,
		NumDiasPagados: 15,
	});
	expect(nomina11.Percepciones.Percepcion).toEqual([
		expect.objectContaining({ TipoPercepcion: '001', ImporteGravado: 5000 }),
	]);
	// CFDI 3.2: TipoCambio is text in its schema but a rate, a number as in 3.3 and 4.0.
	expect(byName('CFDI 3.2:').comprobante).toMatchObject({
		TipoCambio: 1,
		subTotal: 500,
		total: 580,
	});
});

test('two stamps: said, naming both UUIDs; each stamp an object in its own entry of Complemento', () => {
	const split = byName('CFDI 4.0 with two stamps');
	expect(split.warnings).toEqual([
		'The CFDI has 2 stamps (TimbreFiscalDigital) with different UUIDs: 1D2C3B4A-5F6E-4D7C-8B9A-0F1E2D3C0011, 1D2C3B4A-5F6E-4D7C-8B9A-0F1E2D3C0012. The first, 1D2C3B4A-5F6E-4D7C-8B9A-0F1E2D3C0011, is the uuid read and asked about; only one can be the SAT’s — ask the issuer which'.replace(
			'’',
			"'",
		),
	]);
	const entries = split.comprobante.Complemento;
	expect(entries.map((e) => Object.keys(e).sort())).toEqual([
		['LeyendasFiscales', 'TimbreFiscalDigital'],
		['TimbreFiscalDigital'],
	]);
	expect(entries.map((e) => e.TimbreFiscalDigital.UUID)).toEqual([
		'1D2C3B4A-5F6E-4D7C-8B9A-0F1E2D3C0011',
		'1D2C3B4A-5F6E-4D7C-8B9A-0F1E2D3C0012',
	]);
	// An unknown complement has the generic shape: its child elements lists, its attributes text.
	expect(entries[0].LeyendasFiscales).toEqual({
		version: '1.0',
		Leyenda: [
			{
				disposicionFiscal: 'LISR',
				norma: 'Art. 151',
				textoLeyenda: 'Pago de colegiatura deducible',
			},
			{ disposicionFiscal: 'RESDERAUTH', textoLeyenda: 'Obra protegida' },
		],
	});
	// An addenda is a holder: each element in it one object, its content in the generic shape.
	expect(split.comprobante.Addenda).toEqual([
		{ pedido: { numero: 'PO-123', linea: [{ sku: 'A1', cantidad: '1' }] } },
	]);
	const two = byName('CFDI 3.3 with two Complemento');
	expect(two.uuid).toBe('1D2C3B4A-5F6E-4D7C-8B9A-0F1E2D3C0009');
	expect(two.warnings[0]).toMatch(
		/^The CFDI has 2 stamps \(TimbreFiscalDigital\) with different UUIDs: 1D2C3B4A-5F6E-4D7C-8B9A-0F1E2D3C0009, 1D2C3B4A-5F6E-4D7C-8B9A-0F1E2D3C0010\./,
	);
	expect(two.comprobante.Complemento).toHaveLength(2);
});

test('Pagos 1.0: a single document without ImpPagado was paid the payment’s Monto; with it, its own', () => {
	expect(byName('CFDI 3.3 payment (Pagos 1.0), prefix declared on Pagos').pagos).toEqual([
		expect.objectContaining({
			monto: 1500,
			documentos_relacionados: [
				expect.objectContaining({
					imp_saldo_ant: 3000,
					imp_pagado: 1500,
					imp_saldo_insoluto: 1500,
				}),
			],
		}),
	]);
	expect(
		byName('CFDI 3.3 payment (Pagos 1.0), prefix declared on the root').pagos[0]
			.documentos_relacionados,
	).toEqual([expect.objectContaining({ moneda: 'USD', equivalencia: 0.05, imp_pagado: 100 })]);
});

test('CFDI 3.2: the summary writes the tax codes 3.3 and 4.0 write', () => {
	expect(byName('CFDI 3.2:').impuestos.trasladados).toEqual([
		{
			impuesto: '002',
			nombre: 'IVA',
			tipo_factor: null,
			tasa_o_cuota: 0.16,
			base: null,
			importe: 80,
		},
	]);
	expect(byName('CFDI 3.2 payroll').impuestos.retenidos).toEqual([
		expect.objectContaining({ impuesto: '001', nombre: 'ISR', importe: 400 }),
	]);
});

describe('One Item per Concepto: rows that can be booked', () => {
	/** @type {any[]} */
	let rows;
	beforeAll(async () => {
		const result = await env.run(
			readXml({ onePerConcepto: true }),
			REAL_CFDIS.map((c) => fileItem(c.xml)),
		);
		expect(result.error).toBeUndefined();
		rows = result.output('SAT (Mexico)').map((i) => i.json);
	});
	const rowsOf = (uuid) => rows.filter((r) => r.uuid === uuid);

	test('an exempt line, a 0 % line, a 16 % line with withholdings, IEPS by quota, a line not subject to tax', () => {
		const [exento, cero, honorarios, bebida, donativo] = rowsOf(
			'5A1C9E7B-3F20-4D8A-B6C1-0E2F4A6B8C01',
		);
		expect(exento).toMatchObject({
			objeto_imp: '02',
			iva_base: 500,
			iva_tipo_factor: 'Exento',
			iva_tasa: null,
			iva_trasladado: 0,
		});
		expect(cero).toMatchObject({
			iva_base: 300,
			iva_tipo_factor: 'Tasa',
			iva_tasa: 0,
			iva_trasladado: 0,
		});
		expect(honorarios).toMatchObject({
			iva_base: 1000,
			iva_tasa: 0.16,
			iva_trasladado: 160,
			isr_retenido_base: 1000,
			isr_retenido_tipo_factor: 'Tasa',
			isr_retenido_tasa: 0.1,
			isr_retenido: 100,
			iva_retenido_base: 1000,
			iva_retenido_tasa: 0.106667,
			iva_retenido: 106.67,
			ieps_retenido: 0,
		});
		expect(bebida).toMatchObject({
			ieps_base: 10,
			ieps_tipo_factor: 'Cuota',
			ieps_tasa_o_cuota: 3,
			ieps_trasladado: 30,
			iva_base: 230,
			iva_tasa: 0.16,
			iva_trasladado: 36.8,
		});
		expect(donativo).toMatchObject({
			objeto_imp: '01',
			iva_base: null,
			iva_tipo_factor: null,
			iva_tasa: null,
			iva_trasladado: 0,
		});
		const tax = (row) =>
			Object.fromEntries(Object.entries(row).filter(([k]) => /^(iva|ieps|isr)_/.test(k)));
		expect(tax(exento)).not.toEqual(tax(cero));
		expect([exento, cero, honorarios, bebida, donativo].map((r) => r.warnings)).toEqual([
			'',
			'',
			'',
			'',
			'',
		]);
	});

	test('one line at two IVA rates: amounts added, rate and factor left empty, and said', () => {
		const [row] = rowsOf('5A1C9E7B-3F20-4D8A-B6C1-0E2F4A6B8C02');
		expect(row).toMatchObject({
			iva_base: 1000,
			iva_tipo_factor: null,
			iva_tasa: null,
			iva_trasladado: 128,
			warnings:
				'Concepto 1 has IVA transferred at more than one rate (Tasa 0.16, Tasa 0.08): iva_tipo_factor and iva_tasa are left empty, iva_base and iva_trasladado add them up',
		});
	});

	test('CFDI 3.2: the line taxes are unknown — empty, never 0 — and each row says so', () => {
		const rows32 = rowsOf('80824F3B-323E-407B-8F8E-40D83FE20001');
		expect(rows32).toHaveLength(3);
		for (const row of rows32) {
			for (const [key, value] of Object.entries(row))
				if (/^(iva|ieps|isr)_|^impuestos_/.test(key)) expect([key, value]).toEqual([key, null]);
			expect(row.warnings).toBe(
				"CFDI 3.2 states its taxes for the whole CFDI only, not per concepto: the tax columns of its rows are empty (see the CFDI's impuestos)",
			);
		}
	});
});
