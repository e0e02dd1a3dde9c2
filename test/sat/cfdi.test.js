import { readCfdi } from '../../nodes/Sat/domain/cfdi';
import { readStatus as readStatusTyped } from '../../nodes/Sat/domain/status';
import { cfdiXml, uuidWith } from '../simulator/cfdi';

/**
 * Reading a CFDI's XML (domain/cfdi.ts) and the SAT's answer (domain/status.ts), without the engine: the
 * summary's fields for each version, what is flagged, and the JSON of the whole CFDI.
 */

/** The reading of the CFDI `spec` describes; its JSON fields read as the output items would be. */
const read = (spec) => /** @type {any} */ (readCfdi(cfdiXml(spec).xml));

describe('the summary', () => {
	test('CFDI 4.0: every summary field, amounts as numbers', () => {
		const cfdi = cfdiXml({ uuid: uuidWith('A000', 1), serie: 'F', folio: '88' });
		const { summary, warnings } = readCfdi(cfdi.xml);
		expect(warnings).toEqual([]);
		expect(summary).toEqual({
			uuid: cfdi.uuid,
			version: '4.0',
			tipo: 'ingreso',
			serie: 'F',
			folio: '88',
			fecha: '2026-10-15T10:30:00',
			emisor: { rfc: 'EKU9003173C9', nombre: 'ESCUELA KEMPER URGATE', regimen_fiscal: '601' },
			receptor: { rfc: 'URE180429TM6', nombre: 'UNIVERSIDAD ROBOTICA ESPAÑOLA', uso_cfdi: 'G03' },
			moneda: 'MXN',
			tipo_cambio: null,
			subtotal: 1160.5,
			descuento: 0,
			total: 1346.18,
			impuestos: {
				total_trasladados: 185.68,
				total_retenidos: null,
				trasladados: [
					{
						impuesto: '002',
						nombre: 'IVA',
						tipo_factor: 'Tasa',
						tasa_o_cuota: 0.16,
						base: 1160.5,
						importe: 185.68,
					},
				],
				retenidos: [],
			},
			metodo_pago: 'PUE',
			forma_pago: '03',
			timbre: {
				uuid: cfdi.uuid,
				fecha_timbrado: '2026-10-15T10:30:59',
				rfc_prov_certif: 'SAT970701NN3',
			},
		});
	});

	test('taxes withheld: per tax, in the summary and in each concepto', () => {
		const { summary, conceptos, warnings } = read({
			conceptos: [
				{
					descripcion: 'Honorarios',
					cantidad: 1,
					valorUnitario: 10000,
					isrRetenido: 0.1,
					ivaRetenido: true,
				},
			],
		});
		expect(warnings).toEqual([]);
		expect(summary.impuestos).toMatchObject({
			total_trasladados: 1600,
			total_retenidos: 2066.67,
			retenidos: [
				{ impuesto: '001', nombre: 'ISR', importe: 1000 },
				{ impuesto: '002', nombre: 'IVA', importe: 1066.67 },
			],
		});
		expect(summary.total).toBe(9533.33);
		expect(conceptos[0]).toMatchObject({
			impuestos_trasladados: 1600,
			impuestos_retenidos: 2066.67,
			retenciones: [
				{
					impuesto: '001',
					nombre: 'ISR',
					tipo_factor: 'Tasa',
					tasa_o_cuota: 0.1,
					base: 10000,
					importe: 1000,
				},
				{ impuesto: '002', nombre: 'IVA', tasa_o_cuota: 0.106667, importe: 1066.67 },
			],
		});
	});

	test('CFDI 3.3: the same summary (no Base in the CFDI’s own tax lines)', () => {
		const { summary, warnings } = read({ version: '3.3' });
		expect(warnings).toEqual([]);
		expect(summary).toMatchObject({
			version: '3.3',
			tipo: 'ingreso',
			total: 1346.18,
			metodo_pago: 'PUE',
		});
		expect(summary.impuestos.trasladados[0].base).toBeNull();
	});

	test('CFDI 3.2: lower-case attributes read, the rate as a fraction, no RfcProvCertif', () => {
		const { summary, conceptos, warnings } = read({ version: '3.2' });
		expect(warnings).toEqual([]);
		expect(summary).toMatchObject({
			version: '3.2',
			tipo: 'ingreso',
			subtotal: 1160.5,
			total: 1346.18,
			emisor: { rfc: 'EKU9003173C9', regimen_fiscal: 'Régimen General de Ley Personas Morales' },
			receptor: { rfc: 'URE180429TM6', uso_cfdi: null },
			metodo_pago: '03',
			forma_pago: 'Pago en una sola exhibición',
			timbre: { rfc_prov_certif: null },
		});
		expect(summary.impuestos.trasladados).toEqual([
			{
				impuesto: '002',
				nombre: 'IVA',
				tipo_factor: null,
				tasa_o_cuota: 0.16,
				base: null,
				importe: 185.68,
			},
		]);
		expect(conceptos[0]).toMatchObject({
			descripcion: 'Licencia de software',
			cantidad: 2,
			valor_unitario: 500,
			importe: 1000,
			clave_prod_serv: null,
			// cfdv32.xsd has no taxes per concepto: unknown, not 0.
			impuestos_trasladados: null,
			impuestos_retenidos: null,
			traslados: [],
		});
	});

	test('a payment CFDI (tipo P): the payments and the documents they pay, with amounts paid and balances', () => {
		const paid = uuidWith('A000', 77);
		const { summary, warnings } = read({
			tipo: 'P',
			pagos: [
				{
					fechaPago: '2026-10-20T12:00:00',
					monto: 1500,
					documentos: [
						{
							idDocumento: paid,
							serie: 'A',
							folio: '77',
							parcialidad: 2,
							saldoAnterior: 2000,
							pagado: 1000,
						},
						{ idDocumento: uuidWith('A000', 78), parcialidad: 1, saldoAnterior: 500, pagado: 500 },
					],
				},
			],
		});
		expect(warnings).toEqual([]);
		expect(summary).toMatchObject({ tipo: 'pago', total: 0, subtotal: 0, moneda: 'XXX' });
		expect(summary.pagos).toEqual([
			{
				fecha_pago: '2026-10-20T12:00:00',
				forma_pago: '03',
				moneda: 'MXN',
				tipo_cambio: 1,
				monto: 1500,
				num_operacion: null,
				documentos_relacionados: [
					{
						id_documento: paid,
						serie: 'A',
						folio: '77',
						moneda: 'MXN',
						equivalencia: 1,
						num_parcialidad: 2,
						imp_saldo_ant: 2000,
						imp_pagado: 1000,
						imp_saldo_insoluto: 1000,
					},
					{
						id_documento: uuidWith('A000', 78),
						serie: null,
						folio: null,
						moneda: 'MXN',
						equivalencia: 1,
						num_parcialidad: 1,
						imp_saldo_ant: 500,
						imp_pagado: 500,
						imp_saldo_insoluto: 0,
					},
				],
			},
		]);
	});

	test('no pagos field on a CFDI that is not a payment', () => {
		expect(read({}).summary).not.toHaveProperty('pagos');
	});
});

describe('warnings: what a careful bookkeeper flags', () => {
	test('SubTotal that the conceptos do not add up to', () => {
		const { warnings } = read({
			tamper: (xml) => xml.replace('SubTotal="1160.50"', 'SubTotal="1150.50"'),
		});
		expect(warnings).toContain(
			'SubTotal is 1150.50, but the Importe of its 2 conceptos add up to 1160.50',
		);
	});

	test('tax totals that their lines do not add up to, and a Total that does not follow', () => {
		const { warnings } = read({
			tamper: (xml) =>
				xml
					.replace('TotalImpuestosTrasladados="185.68"', 'TotalImpuestosTrasladados="175.68"')
					.replace('Total="1346.18"', 'Total="1400.00"'),
		});
		expect(warnings).toEqual([
			'TotalImpuestosTrasladados is 175.68, but its Traslado lines add up to 185.68',
			'Total is 1400.00, but SubTotal − Descuento + taxes transferred − taxes withheld add up to 1336.18',
		]);
	});

	test('a difference of one cent is not flagged (rounding), two cents are', () => {
		expect(
			read({ tamper: (xml) => xml.replace('Total="1346.18"', 'Total="1346.19"') }).warnings,
		).toEqual([]);
		expect(
			read({ tamper: (xml) => xml.replace('Total="1346.18"', 'Total="1346.20"') }).warnings,
		).toHaveLength(1);
	});

	test('discounts: the CFDI’s Descuento against its conceptos’', () => {
		const ok = read({
			conceptos: [{ descripcion: 'Equipo', cantidad: 1, valorUnitario: 1000, descuento: 100 }],
		});
		expect(ok.warnings).toEqual([]);
		expect(ok.summary).toMatchObject({ subtotal: 1000, descuento: 100, total: 1044 });
		const bad = read({
			conceptos: [{ descripcion: 'Equipo', cantidad: 1, valorUnitario: 1000, descuento: 100 }],
			tamper: (xml) => xml.replace(' Descuento="100.00" Moneda', ' Descuento="50.00" Moneda'),
		});
		expect(bad.warnings).toContain(
			'Descuento is 50.00, but the Descuento of its 1 concepto add up to 100.00',
		);
	});

	test('local taxes (implocal) count in the Total', () => {
		const local =
			'<implocal:ImpuestosLocales xmlns:implocal="http://www.sat.gob.mx/implocal" version="1.0" TotaldeRetenciones="0.00" TotaldeTraslados="23.21"><implocal:TrasladosLocales ImpLocTrasladado="ISH" TasadeTraslado="2.00" Importe="23.21"/></implocal:ImpuestosLocales>';
		const { warnings, comprobante } = read({
			tamper: (xml) =>
				xml
					.replace('Total="1346.18"', 'Total="1369.39"')
					.replace('<cfdi:Complemento>', `<cfdi:Complemento>${local}`),
		});
		expect(warnings).toEqual([]);
		expect(comprobante.Complemento[0].ImpuestosLocales).toEqual({
			version: '1.0',
			TotaldeRetenciones: 0,
			TotaldeTraslados: 23.21,
			TrasladosLocales: [{ ImpLocTrasladado: 'ISH', TasadeTraslado: 2, Importe: 23.21 }],
		});
	});

	test('an RFC whose check digit fails; an RFC that is not one', () => {
		const { warnings } = read({
			emisor: { rfc: 'AAA010101AAA', nombre: 'X' },
			receptor: { rfc: 'NOTANRFC', nombre: 'Y' },
		});
		expect(warnings).toEqual([
			"Emisor RFC AAA010101AAA: its check digit is A, but 1 was expected. About 1.5 % of real RFCs fail this check: verify the RFC with the supplier or in the SAT's RFC lookup",
			'Receptor RFC "NOTANRFC" must be 12 (company) or 13 (person) characters long, got 8',
		]);
	});

	test('the generic RFCs (público en general, extranjero) are not flagged', () => {
		expect(
			read({ receptor: { rfc: 'XAXX010101000', nombre: 'PUBLICO EN GENERAL' } }).warnings,
		).toEqual([]);
		expect(read({ receptor: { rfc: 'XEXX010101000', nombre: 'FOREIGN BUYER' } }).warnings).toEqual(
			[],
		);
	});

	test('no stamp (TimbreFiscalDigital)', () => {
		const { warnings, summary } = read({ stamped: false });
		expect(summary.uuid).toBeNull();
		expect(summary.timbre).toEqual({ uuid: null, fecha_timbrado: null, rfc_prov_certif: null });
		expect(warnings).toEqual([
			'The XML has no stamp (TimbreFiscalDigital): the SAT has not certified it, so it is not a valid CFDI yet and its status cannot be checked',
		]);
	});

	test('an amount that is not a number is kept as written, and flagged', () => {
		const { summary, warnings } = read({
			tamper: (xml) => xml.replace('Total="1346.18"', 'Total="1,346.18"'),
		});
		expect(summary.total).toBe('1,346.18');
		expect(warnings).toEqual(['Comprobante@Total is "1,346.18", which is not an amount']);
	});
});

describe('comprobante: the whole CFDI as JSON', () => {
	test('the SAT’s names without prefixes, repeated elements always arrays, amounts as numbers, codes as text', () => {
		const { comprobante } = read({
			conceptos: [{ clave: '01010101', descripcion: 'Uno', cantidad: 1, valorUnitario: 100 }],
		});
		expect(comprobante).toMatchObject({
			Version: '4.0',
			Folio: '1001',
			SubTotal: 100,
			Total: 116,
			TipoDeComprobante: 'I',
			LugarExpedicion: '42501',
			Emisor: { Rfc: 'EKU9003173C9', RegimenFiscal: '601' },
			Conceptos: {
				Concepto: [
					{
						ClaveProdServ: '01010101',
						Cantidad: 1,
						ValorUnitario: 100,
						Importe: 100,
						ObjetoImp: '02',
						Impuestos: {
							Traslados: {
								Traslado: [
									{ Base: 100, Impuesto: '002', TipoFactor: 'Tasa', TasaOCuota: 0.16, Importe: 16 },
								],
							},
						},
					},
				],
			},
			Impuestos: {
				TotalImpuestosTrasladados: 16,
				Traslados: { Traslado: [expect.objectContaining({ Importe: 16 })] },
			},
			Complemento: [
				{
					TimbreFiscalDigital: expect.objectContaining({
						Version: '1.1',
						RfcProvCertif: 'SAT970701NN3',
					}),
				},
			],
		});
		expect(Object.keys(comprobante)).not.toContain('xmlns:cfdi');
	});

	test('the payments complement: Pago and DoctoRelacionado always arrays', () => {
		const { comprobante } = read({
			tipo: 'P',
			pagos: [
				{
					fechaPago: '2026-10-20T12:00:00',
					monto: 10,
					documentos: [
						{ idDocumento: uuidWith('A000', 2), parcialidad: 1, saldoAnterior: 10, pagado: 10 },
					],
				},
			],
		});
		expect(comprobante.Complemento[0].Pagos).toMatchObject({
			Version: '2.0',
			Totales: { MontoTotalPagos: 10 },
			Pago: [
				{
					Monto: 10,
					DoctoRelacionado: [{ NumParcialidad: 1, ImpPagado: 10, ImpSaldoInsoluto: 0 }],
				},
			],
		});
	});
});

describe('comprobante: what the schemas do not allow, read in the same shape', () => {
	const cfdi = cfdiXml({ uuid: uuidWith('A000', 3) });

	test('an element a schema allows once, written twice: the first kept, and said', () => {
		const xml = cfdi.xml.replace(
			/(<cfdi:Emisor [^>]*\/>)/,
			'$1<cfdi:Emisor Rfc="XIA190128J61" Nombre="OTRO" RegimenFiscal="601"/>',
		);
		const { summary, comprobante, warnings } = readCfdi(xml);
		expect(comprobante.Emisor).toEqual(expect.objectContaining({ Rfc: 'EKU9003173C9' }));
		expect(summary.emisor).toMatchObject({ rfc: 'EKU9003173C9' });
		expect(warnings).toEqual([
			"<cfdi:Comprobante> holds more than one <cfdi:Emisor>, which the SAT's schema allows once: comprobante keeps the first",
		]);
	});

	test('many complements in one Complemento, each name twice or more: one entry per occurrence, in order', () => {
		const n = 2_000;
		const extra = Array.from(
			{ length: n },
			(_, k) => `<x:Nota xmlns:x="urn:ejemplo" n="${k}"/><x:Otra xmlns:x="urn:ejemplo" n="${k}"/>`,
		).join('');
		const xml = cfdi.xml.replace('</cfdi:Complemento>', `${extra}</cfdi:Complemento>`);
		const { comprobante, uuid } = /** @type {any} */ ({ ...readCfdi(xml), uuid: cfdi.uuid });
		expect(comprobante.Complemento).toHaveLength(n);
		expect(comprobante.Complemento[0]).toEqual({
			TimbreFiscalDigital: expect.objectContaining({ UUID: uuid }),
			Nota: { n: '0' },
			Otra: { n: '0' },
		});
		expect(comprobante.Complemento[n - 1]).toEqual({
			Nota: { n: String(n - 1) },
			Otra: { n: String(n - 1) },
		});
	});
});

describe('what is not a CFDI this node reads', () => {
	test.each([
		[
			'<factura id="comprobante"/>',
			/^it is not a CFDI: its root element is <factura> without a namespace/,
		],
		[
			'<cfdi:Comprobante xmlns:cfdi="http://example.com/cfd/4" Version="4.0"/>',
			/^it is not a CFDI: its root element is <cfdi:Comprobante> in the namespace http:\/\/example.com\/cfd\/4/,
		],
		[
			'<cfdi:Comprobante xmlns:cfdi="http://www.sat.gob.mx/cfd/4" Version="3.3"/>',
			/^its <cfdi:Comprobante> says version "3.3" in http:\/\/www.sat.gob.mx\/cfd\/4/,
		],
		['<cfdi:Comprobante xmlns:cfdi="http://www.sat.gob.mx/cfd/3"/>', /says version \(none\)/],
		[
			'<retenciones:Retenciones xmlns:retenciones="http://www.sat.gob.mx/esquemas/retencionpago/2" Version="2.0"/>',
			/^it is a retention CFDI .*which this node does not read/,
		],
	])('%s', (xml, message) => {
		expect(() => readCfdi(xml)).toThrow(message);
	});
});

/** What an answer reads as, its fields read as an output item's. */
const readStatus = (uuid, result) => /** @type {any} */ (readStatusTyped(uuid, result));

describe('the SAT’s answer', () => {
	const uuid = uuidWith('A000', 1);
	test('S: found; Vigente only is valid', () => {
		expect(
			readStatus(uuid, {
				CodigoEstatus: 'S - Comprobante obtenido satisfactoriamente.',
				Estado: 'Vigente',
			}),
		).toMatchObject({
			kind: 'status',
			fields: { found: true, valid: true, estado: 'Vigente' },
		});
		expect(
			readStatus(uuid, {
				CodigoEstatus: 'S - Comprobante obtenido satisfactoriamente.',
				Estado: 'Cancelado',
			}).fields,
		).toMatchObject({ found: true, valid: false });
	});

	test('N - 602: not found, even without an Estado', () => {
		expect(
			readStatus(uuid, { CodigoEstatus: 'N - 602: Comprobante no encontrado.' }).fields,
		).toMatchObject({
			found: false,
			valid: false,
			estado: 'No Encontrado',
		});
	});

	test('N - 601: the expression; another N code or none: unreadable', () => {
		expect(
			readStatus(uuid, {
				CodigoEstatus: 'N - 601: La expresión impresa proporcionada no es válida.',
			}),
		).toEqual({
			kind: 'invalid-expression',
			codigo: 'N - 601: La expresión impresa proporcionada no es válida.',
		});
		expect(readStatus(uuid, { CodigoEstatus: 'N - 699: Otro.' })).toMatchObject({
			kind: 'unreadable',
		});
		expect(readStatus(uuid, {})).toEqual({
			kind: 'unreadable',
			problem: 'it has no CodigoEstatus',
		});
	});
});
