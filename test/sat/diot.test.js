/** @import { IDataObject, INodeExecutionData, IWorkflowBase } from 'n8n-workflow' */
import { withFakeClock } from '../harness/clock';
import { built, outputNames } from '../harness/engine';
import { cfdiXml } from '../simulator/cfdi';
import {
	concepto as conceptoOf,
	handComputed,
	invoice,
	iva,
	paidDoc,
	paymentCfdi,
	receivedCfdi,
	receivedMonth,
	TAXPAYER,
	uuidOf,
} from '../simulator/received';
import {
	diotChain,
	diotParameters,
	fileText,
	monthItems as monthItemsOf,
	PERIOD,
	runDiot,
} from './diot-setup';
import { fileItem, startSat } from './setup';
/** @import { SatEnv } from './setup' */

/**
 * SAT (Mexico) → DIOT → Build DIOT File through n8n-core's engine: a month of received CFDIs (test/simulator/
 * received.js) read by Read CFDI XML, checked by Check CFDI Status against the SAT's simulator, turned into the
 * DIOT, compared with the month computed by hand; then every rule one at a time, and every bad input.
 */

/** @type {SatEnv} */
let env;
beforeAll(async () => {
	env = await startSat();
});
afterAll(() => env.stop());
beforeEach(() => env.reset());

const chain = (items, diot, opts = {}) => diotChain(env, items, diot, opts);
const monthItems = (period = PERIOD) => monthItemsOf(env, period);
const diot = (items, parameters = diotParameters(), opts = {}) =>
	runDiot(env, items, parameters, opts);

describe('a month of received CFDIs, through Read CFDI XML and Check CFDI Status', () => {
	/** @type {Awaited<ReturnType<typeof diot>>} */
	let run;
	const expected = handComputed(PERIOD);
	beforeAll(async () => {
		env.reset();
		run = await diot(monthItems());
	});

	test('one output item, paired with every input item', () => {
		expect(run.error).toBeUndefined();
		expect(run.count).toBe(1);
		expect(run.item.pairedItem).toEqual(receivedMonth(PERIOD).map((_, item) => ({ item })));
	});

	test('the file is the month an accountant computes by hand, line by line', () => {
		const text = fileText(run.item);
		expect(text.split('\n')).toEqual(expected.lines);
		for (const line of text.split('\n')) expect(line.split('|')).toHaveLength(54);
		// UTF-8 without a byte-order mark, LF between lines, none after the last.
		expect(text.startsWith('\uFEFF')).toBe(false);
		expect(text).not.toMatch(/\r|\n$/);
		expect(run.item.binary?.data.fileName).toBe(`DIOT-${TAXPAYER.rfc}-${PERIOD}.txt`);
		expect(run.item.binary?.data.mimeType).toBe('text/plain');
	});

	test('a row per line: its fields named in words, the CFDIs it came from, its text', () => {
		const rows = run.json.rows;
		expect(rows.map((r) => r.line)).toEqual(expected.lines);
		const ure = rows.find((r) => r.rfc === 'URE180429TM6');
		expect(ure).toEqual({
			supplier_type: '04',
			operation_type: '85',
			rfc: 'URE180429TM6',
			supplier_name: 'UNIVERSIDAD ROBOTICA ESPAÑOLA',
			paid_16: 13345,
			returns_16: 1250,
			creditable_iva_16: 1935,
			fiscal_effect: '01',
			cfdis: expected.cfdis.URE180429TM6.join(', '),
			line: expected.lines[4],
		});
		const foreign = rows.find((r) => r.supplier_type === '05');
		expect(foreign).toMatchObject({
			operation_type: '07',
			foreign_tax_id: '98-7654321',
			foreign_name: 'NORTHWIND CLOUD SERVICES LLC',
			country: 'USA',
			paid_imports_services_16: 9100,
			creditable_iva_imports_services_16: 1456,
		});
		for (const row of rows) {
			const id = row.rfc === 'XAXX010101000' || row.rfc ? row.rfc : row.foreign_tax_id;
			expect(row.cfdis).toEqual(expected.cfdis[id].join(', '));
		}
	});

	test('every CFDI left out is named, with why', () => {
		const { warnings } = run.json;
		for (const [name, why] of Object.entries(expected.leftOut)) {
			const found = warnings.filter((w) => w.includes(uuidOf(name, PERIOD)) && w.includes(why));
			expect({ name, found: found.length }).toEqual({ name, found: 1 });
		}
		for (const [name, note] of Object.entries(expected.notes))
			expect(warnings.some((w) => w.includes(uuidOf(name, PERIOD)) && w.includes(note))).toBe(true);
		// Nothing else: each warning is one of those.
		expect(warnings).toHaveLength(
			Object.keys(expected.leftOut).length + Object.keys(expected.notes).length,
		);
		expect(run.json.problems).toEqual([]);
		// Every input item is in a row or in a warning.
		const inRows = new Set(run.json.rows.flatMap((r) => r.cfdis.split(', ')));
		for (const f of receivedMonth(PERIOD))
			expect(inRows.has(f.uuid) || warnings.some((w) => w.includes(f.uuid))).toBe(true);
	});

	test('totals add up the lines', () => {
		expect(run.json.totals).toEqual({
			lines: 8,
			cfdis_reported: 12,
			items_read: 18,
			items_left_out: 6,
			paid_8_north: 13200,
			paid_16: 15000 + 37805 + 25000 + 13345 + 431,
			returns_16: 1250,
			paid_imports_services_16: 9100,
			creditable_iva_8_north: 1056,
			creditable_iva_16: 2400 + 6049 + 4000 + 1935,
			// The global line's IVA: not creditable, lacking requirements (field 37).
			non_creditable_iva_16_requirements: 69,
			creditable_iva_imports_services_16: 1456,
			iva_withheld: 1600,
			exempt: 560,
			paid_0: 3845,
			not_subject: 1200,
		});
		expect(run.json).toMatchObject({ rfc: TAXPAYER.rfc, period: PERIOD });
	});
});

/** The file item of one CFDI received in the month (test/simulator/received.js). */
const received = (spec, period = PERIOD) => fileItem(receivedCfdi(spec, period).xml);
const uuid = (name) => uuidOf(name, PERIOD);
/** A DIOT line from its fields by number (1–54), the others empty. */
const line = (fields) =>
	Array.from({ length: 54 }, (_, k) => String(fields[k + 1] ?? '')).join('|');

const URE = { rfc: 'URE180429TM6', nombre: 'UNIVERSIDAD ROBOTICA ESPAÑOLA', regimen: '601' };
const JUFA = { rfc: 'JUFA7608212V6', nombre: 'ADRIANA JUAREZ FERNANDEZ', regimen: '612' };
const ICV = { rfc: 'ICV060329BY0', nombre: 'INMOBILIARIA CVA', regimen: '601' };
/** An invoice of the month (PUE unless `extra` says), through the month's own builders (received.js). */
const pue = (name, emisor, conceptos, extra = {}) =>
	invoice(name, emisor, `${PERIOD}-11T10:00:00`, ['A', '1'], conceptos, extra);
/** One article of `importe`, with its taxes. */
const concepto = (importe, traslados = [], extra = {}) =>
	conceptoOf('43211503', 'Artículo', ['1', importe, importe], { traslados, ...extra });

describe("version 2's Read CFDI XML: a row per concepto, each with its CFDI's file", () => {
	/** The chain with the SAT node at version 2 before the DIOT (Read CFDI XML's first output: Read). */
	const v2 = (items) => {
		const workflow = chain(items, diotParameters());
		for (const n of workflow.nodes)
			if (n.name !== 'DIOT' && n.type === workflow.nodes.at(-1)?.type) n.typeVersion = 2;
		return workflow;
	};

	test('the rows of one CFDI are that CFDI once: the same file as one item per CFDI, no duplicate named', async () => {
		const expected = handComputed(PERIOD);
		const result = await env.engine.run(v2(monthItems()));
		expect(result.error).toBeUndefined();
		// More items than files reach the DIOT: the month's CFDIs have several conceptos.
		expect(result.output('Read CFDI XML').length).toBeGreaterThan(receivedMonth(PERIOD).length);
		const [out] = result.output('DIOT');
		expect(fileText(out).split('\n')).toEqual(expected.lines);
		const json = /** @type {any} */ (out.json);
		expect(json.warnings.filter((w) => w.includes('duplicate'))).toHaveLength(
			Object.values(expected.leftOut).filter((why) => why.includes('duplicate')).length,
		);
		expect(json.problems).toEqual([]);
	});

	test('a second copy of a file, read into rows, is still a duplicate', async () => {
		const items = monthItems();
		const first = receivedMonth(PERIOD)[0];
		items.push(fileItem(first.xml, { fileName: `copy-${first.fileName}` }));
		const result = await env.engine.run(v2(items));
		const json = /** @type {any} */ (result.output('DIOT')[0].json);
		const about = json.warnings.filter((w) => w.includes(first.uuid) && w.includes('duplicate'));
		expect(about.length).toBeGreaterThan(0);
		expect(fileText(result.output('DIOT')[0]).split('\n')).toEqual(handComputed(PERIOD).lines);
	});
});

describe('input: the file, else the JSON Read CFDI XML outputs', () => {
	test("Read CFDI XML's JSON without the files gives the same DIOT (a cancelled CFDI is left out by Check CFDI Status's estado on the item)", async () => {
		const files = receivedMonth(PERIOD);
		const read = await env.run(
			{ resource: 'cfdi', operation: 'readXml', xmlSource: 'binary', binaryPropertyName: 'data' },
			files.map((f) => fileItem(f.xml)),
		);
		const cancelled = files.find((f) => f.outcome === 'C001');
		const items = read.output('SAT (Mexico)').map((item) => ({
			json:
				item.json.uuid === cancelled?.uuid
					? { ...item.json, estado: 'Cancelado', valid: false, found: true }
					: item.json,
		}));
		const { json, item, error } = await diot(items, diotParameters(), {
			read: false,
			check: false,
		});
		expect(error).toBeUndefined();
		const expected = handComputed(PERIOD);
		expect(fileText(item).split('\n')).toEqual(expected.lines);
		expect(json.warnings).toHaveLength(
			Object.keys(expected.leftOut).length + Object.keys(expected.notes).length,
		);
	});

	test("a foreign supplier's invoice, which is no CFDI, as JSON a workflow built: lists as single objects, amounts as numbers, its invoice number as uuid", async () => {
		const invoice = {
			uuid: 'INV-77',
			comprobante: {
				Version: '4.0',
				Fecha: `${PERIOD}-08T00:00:00`,
				TipoDeComprobante: 'I',
				MetodoPago: 'PUE',
				Moneda: 'USD',
				TipoCambio: 18.5,
				Emisor: { Rfc: 'XEXX010101000', Nombre: 'ACME | SOFTWARE LTD' },
				Receptor: { Rfc: TAXPAYER.rfc },
				Conceptos: {
					Concepto: {
						Importe: 100,
						ObjetoImp: '02',
						Impuestos: {
							Traslados: {
								Traslado: {
									Base: 100,
									Impuesto: '002',
									TipoFactor: 'Tasa',
									TasaOCuota: 0.16,
									Importe: 16,
								},
							},
						},
					},
				},
			},
		};
		const { json, error } = await diot(
			[{ json: invoice }],
			diotParameters({ foreignSupplier: { country: 'GBR', taxId: 'GB 123 4567 89' } }),
			{
				read: false,
				check: false,
			},
		);
		expect(error).toBeUndefined();
		// 100.00 USD × 18.5 = 1,850.00 → field 16; IVA 16.00 × 18.5 = 296.00 → field 26.
		// The "|" of the name cannot be in the file: a space.
		expect(json.rows.map((r) => r.line)).toEqual([
			line({
				1: '05',
				2: '07',
				4: 'GB 123 4567 89',
				5: 'ACME SOFTWARE LTD',
				6: 'GBR',
				16: 1850,
				26: 296,
				54: '01',
			}),
		]);
		expect(json.rows[0].cfdis).toBe('INV-77');
	});

	test('an item without the Input Binary Field is read from its JSON', async () => {
		const { item } = await diot(monthItems(), diotParameters({ binaryPropertyName: 'cfdi' }));
		expect(fileText(item).split('\n')).toEqual(handComputed(PERIOD).lines);
	});

	test("a status answer about another CFDI is not this CFDI's: the CFDI is counted", async () => {
		const { json } = await diot(
			[
				{
					...received(pue('pue', URE, [concepto('100.00', [iva('100.00', '0.160000', '16.00')])])),
					json: { uuid: uuid('another'), estado: 'Cancelado' },
				},
			],
			diotParameters(),
			{ read: false, check: false },
		);
		expect(json.rows.map((r) => r.line)).toEqual([
			line({ 1: '04', 2: '85', 3: 'URE180429TM6', 12: 100, 22: 16, 54: '01' }),
		]);
	});
});

describe('the month', () => {
	test('empty: the month before the current one in Mexico City (at 05:30 UTC on 1 November it is still 31 October there: last month is September)', async () => {
		const items = [
			received(
				pue('pue', URE, [concepto('100.00', [iva('100.00', '0.160000', '16.00')])], {
					fecha: '2026-09-30T23:00:00',
				}),
				'2026-09',
			),
		];
		const { result } = await withFakeClock(async () => {
			jest.setSystemTime(new Date('2026-11-01T05:30:00Z'));
			return await diot(items, diotParameters({ period: '' }), { read: false, check: false });
		});
		expect(result.error).toBeUndefined();
		expect({ period: result.json.period, warnings: result.json.warnings }).toEqual({
			period: '2026-09',
			warnings: [],
		});
		expect(result.json.rows).toHaveLength(1);
		expect(result.item.binary?.data.fileName).toBe(`DIOT-${TAXPAYER.rfc}-2026-09.txt`);
	});
});

describe('bad input: a clear error and no file', () => {
	const one = () => [
		received(pue('pue', URE, [concepto('100.00', [iva('100.00', '0.160000', '16.00')])])),
	];
	test.each([
		// Empty in the form, n8n itself asks for it; empty from an expression, the node says so.
		[
			{ taxpayerRfc: '={{ "" }}' },
			'No DIOT was built: form fields to fix: Taxpayer RFC: is required',
		],
		[
			{ taxpayerRfc: 'EKU900317' },
			'Taxpayer RFC: "EKU900317" must be 12 (company) or 13 (person) characters long',
		],
		[{ taxpayerRfc: 'XAXX010101000' }, 'XAXX010101000 is a generic RFC'],
		[{ period: '2026-13' }, 'Month (Periodo): must be YYYY-MM (e.g. 2025-10), got "2026-13"'],
		[{ period: '10/2026' }, 'Month (Periodo): must be YYYY-MM'],
		[
			{ period: '2018-12' },
			'2018-12 is before 2019-01: months from 2025 are filed in the 54-field layout, 2019 to 2024 in the previous 24-field one',
		],
	])('%j', async (extra, message) => {
		const { error, count } = await diot(one(), diotParameters(extra), {
			read: false,
			check: false,
		});
		expect(error?.message).toContain(message);
		expect(count).toBe(0);
	});

	test('every item that is not a CFDI is named, by its index, in one error', async () => {
		const good = one()[0];
		const items = [
			good,
			fileItem('not xml at all'),
			fileItem('<factura><total>1</total></factura>'),
			{ json: { uuid: uuid('x'), concepto_numero: 1, descripcion: 'Artículo' } },
			{ json: { uuid: uuid('x'), estado: 'Vigente', valid: true } },
			{ json: { error: '[item 6] CFDI X: SAT did not answer in time' } },
			{ json: { name: 'invoice.xml' }, binary: { attachment_0: good.binary?.data } },
		];
		const { error, count } = await diot(items, diotParameters(), { read: false, check: false });
		expect(count).toBe(0);
		expect(error?.message).toMatch(
			/^No DIOT was built: items that are not CFDIs: \[item 2\] cfdi\.xml \(binary field "data"\): is not XML.* \(5 problems in all: see the details\)$/,
		);
		const description = String(error?.description);
		expect(description).toContain(
			'[item 3] cfdi.xml (binary field "data"): it is not a CFDI: its root element is "factura"',
		);
		expect(description).toContain(
			'[item 4] is a concepto row of Read CFDI XML (One Item per Concepto)',
		);
		expect(description).toContain("[item 5] is Check CFDI Status's answer without the CFDI");
		// An error of the node before is not bad input: it is a problem of the file the DIOT builds (below).
		expect(description).not.toContain('[item 6]');
		expect(description).toContain(
			'[item 7] is not a CFDI: it has no binary field "data" (it has "attachment_0": set Input Binary Field)',
		);
		expect(description).not.toContain('[item 1]');
	});

	test('a ZZZ without jurisdiction, a 2-letter code, an operation type its supplier may not have', async () => {
		const foreign = (name) =>
			received(
				pue(name, { rfc: 'XEXX010101000', nombre: 'ACME GMBH', regimen: '616' }, [
					concepto('100.00', [iva('100.00', '0.160000', '16.00')]),
				]),
			);
		const items = [
			received(pue('n0', URE, [concepto('100.00', [iva('100.00', '0.160000', '16.00')])])),
			foreign('f1'),
			foreign('f2'),
			received(pue('n3', URE, [concepto('100.00', [iva('100.00', '0.160000', '16.00')])])),
		];
		const { error, count } = await diot(
			items,
			diotParameters({
				operationType: '={{ $itemIndex === 3 ? "07" : "85" }}',
				foreignSupplier: {
					country: '={{ ["", "ZZZ", "DE"][$itemIndex] }}',
					taxId: 'DE123456789',
				},
			}),
			{ read: false, check: false },
		);
		expect(count).toBe(0);
		const description = String(error?.description);
		expect(description).toContain(
			'[item 2] Foreign Supplier → Jurisdiction: is required when the country is ZZZ',
		);
		expect(description).toContain(
			'[item 3] Foreign Supplier → Country: must be a foreign country\'s 3-letter code (ISO 3166 alpha-3, e.g. USA) or ZZZ, got "DE"',
		);
		expect(description).toContain(
			'[item 4] Type of Operation: must be one of "02", "03", "06", "08", "85", "87" for a Mexican supplier, got "07"',
		);
	});

	test('an error of the node before is a problem: the DIOT is built from the rest, and says what is missing', async () => {
		const items = [...one(), { json: { error: 'CFDI X: the SAT did not answer in time' } }];
		const { json, count } = await diot(items, diotParameters(), { read: false, check: false });
		expect(count).toBe(1);
		expect(json.rows).toHaveLength(1);
		expect(json.problems).toEqual([
			`[item 2] came from the node before as an error: "CFDI X: the SAT did not answer in time". Whatever CFDI it stood for is not in the DIOT: fix it there and run again, or add it in the SAT's DIOT form.`,
		]);
	});

	test('with Continue On Fail, the error is one item paired with every input item', async () => {
		const { item, count } = await diot(one(), diotParameters({ taxpayerRfc: '={{ "" }}' }), {
			read: false,
			check: false,
			continueOnFail: true,
		});
		expect(count).toBe(1);
		expect(item.json.error).toBe(
			'No DIOT was built: form fields to fix: Taxpayer RFC: is required',
		);
		expect(item.binary).toBeUndefined();
		expect(item.pairedItem).toEqual([{ item: 0 }]);
	});
});

describe("the bookkeeper's choices, per supplier", () => {
	test('87 sends a national supplier to the global line; south puts 8 % in fields 10 and 20; goods through customs in 14 and 24; fiscal effect 02; file name and field', async () => {
		const items = [
			received(pue('to-global', URE, [concepto('200.00', [iva('200.00', '0.160000', '32.00')])])),
			received(
				pue('south', { rfc: 'XIA190128J61', nombre: 'XENON INDUSTRIAL ARTICLES', regimen: '601' }, [
					concepto('1000.00', [iva('1000.00', '0.080000', '80.00')]),
				]),
			),
			received(
				pue(
					'goods',
					{ rfc: 'XEXX010101000', nombre: 'ACME GMBH', regimen: '616' },
					[concepto('300.00', [iva('300.00', '0.160000', '48.00')])],
					{ moneda: 'EUR', tipoCambio: '20.123456' },
				),
			),
		];
		const { json, item } = await diot(
			items,
			diotParameters({
				operationType: '={{ $json.emisor?.rfc === "URE180429TM6" ? "87" : "02" }}',
				borderRegion: '={{ $json.emisor?.rfc === "XIA190128J61" ? "south" : "north" }}',
				foreignOperationType: '02',
				foreignSupplier: { country: 'DEU', taxId: 'DE123456789', imports: 'goods' },
				fiscalEffect: '02',
				options: { fileName: 'diot octubre.txt', outputBinaryField: 'diot' },
			}),
			{ check: false },
		);
		expect(json.rows.map((r) => r.line)).toEqual([
			line({ 1: '04', 2: '02', 3: 'XIA190128J61', 10: 1000, 20: 80, 54: '02' }),
			// 300.00 EUR × 20.123456 = 6,037.0368 → 6037; IVA 48.00 × 20.123456 = 965.925888 → 966.
			line({
				1: '05',
				2: '02',
				4: 'DE123456789',
				5: 'ACME GMBH',
				6: 'DEU',
				14: 6037,
				24: 966,
				54: '02',
			}),
			// The global line's IVA is not creditable (lacking requirements): field 37.
			line({ 1: '15', 2: '87', 3: 'XAXX010101000', 12: 200, 37: 32, 54: '02' }),
		]);
		expect(item.binary?.diot.fileName).toBe('diot octubre.txt');
		expect(item.binary?.data).toBeUndefined();
	});
});

describe('cash basis: payments', () => {
	test("an MXN invoice paid in part in USD: its ImpuestosDR are pesos already; IVA withheld; the part paid of the invoice's conceptos not subject to IVA", async () => {
		const items = [
			received({
				...pue('jufa-ppd', JUFA, [
					concepto('10000.00', [iva('10000.00', '0.160000', '1600.00')], {
						retenciones: [
							{ base: '10000.00', impuesto: '002', tasa: '0.106667', importe: '1066.67' },
						],
					}),
					concepto('500.00', [], { objetoImp: '01' }),
				]),
				metodo: 'PPD',
			}),
			received(
				paymentCfdi(
					'jufa-payment',
					JUFA,
					`${PERIOD}-30T09:00:00`,
					['P', '2'],
					[
						{
							fecha: `${PERIOD}-30T09:00:00`,
							moneda: 'USD',
							tipoCambio: '18.5000',
							monto: '299.82',
							docs: [
								paidDoc('jufa-ppd', 1, ['11033.33', '5516.67', '5516.66'], {
									moneda: 'MXN',
									equivalencia: '18.4000',
									traslados: [iva('5000.00', '0.160000', '800.00')],
									retenciones: [
										{ base: '5000.00', impuesto: '002', tasa: '0.106667', importe: '533.33' },
									],
								}),
							],
						},
					],
				),
			),
		];
		const { json } = await diot(items, diotParameters(), { check: false });
		expect(json.problems).toEqual([]);
		expect(json.rows.map((r) => r.line)).toEqual([
			// Base 5,000.00 → 12; IVA 800.00 → 22; IVA withheld 533.33 → 533 (48); not subject:
			// 500.00 × 5,516.67 ÷ 11,033.33 = 250.0002 → 250 (52).
			line({ 1: '04', 2: '85', 3: 'JUFA7608212V6', 12: 5000, 22: 800, 48: 533, 52: 250, 54: '01' }),
		]);
		expect(json.rows[0].cfdis).toBe(`${uuid('jufa-payment')}, ${uuid('jufa-ppd')}`);
	});

	test("the same payment without its invoice: the part its taxes do not account for (the invoice's not-subject share) is a problem, never dropped", async () => {
		const payment = paymentCfdi(
			'jufa-payment-alone',
			JUFA,
			`${PERIOD}-30T09:00:00`,
			['P', '3'],
			[
				{
					fecha: `${PERIOD}-30T09:00:00`,
					monto: '5516.67',
					docs: [
						paidDoc('jufa-ppd-elsewhere', 1, ['11033.33', '5516.67', '5516.66'], {
							traslados: [iva('5000.00', '0.160000', '800.00')],
							retenciones: [
								{ base: '5000.00', impuesto: '002', tasa: '0.106667', importe: '533.33' },
							],
						}),
					],
				},
			],
		);
		const { json } = await diot([received(payment)], diotParameters(), { check: false });
		// 5,516.67 paid; its taxes account for 5,000.00 + 800.00 − 533.33 = 5,266.67: 250.00 unplaced.
		expect(json.problems).toEqual([
			expect.stringContaining(
				`[item 1] CFDI ${uuid('jufa-payment-alone')} from JUFA7608212V6: it pays 5516.67 of ${uuid('jufa-ppd-elsewhere')}, of which its taxes (ImpuestosDR) account for 5266.67: the other 250.00`,
			),
		]);
		expect(json.rows.map((r) => r.line)).toEqual([
			line({ 1: '04', 2: '85', 3: 'JUFA7608212V6', 12: 5000, 22: 800, 48: 533, 54: '01' }),
		]);
	});

	test('a USD invoice paid in pesos: ImpuestosDR ÷ EquivalenciaDR', async () => {
		const items = [
			received({
				...pue('icv-usd', ICV, [concepto('1000.00', [iva('1000.00', '0.160000', '160.00')])], {
					moneda: 'USD',
					tipoCambio: '18.2000',
				}),
				metodo: 'PPD',
			}),
			received(
				paymentCfdi(
					'icv-payment',
					ICV,
					`${PERIOD}-27T09:00:00`,
					['P', '3'],
					[
						{
							fecha: `${PERIOD}-27T09:00:00`,
							monto: '21344.00',
							docs: [
								paidDoc('icv-usd', 1, ['1160.00', '1160.00', '0.00'], {
									moneda: 'USD',
									equivalencia: '0.0543478261',
									traslados: [iva('1000.00', '0.160000', '160.00')],
								}),
							],
						},
					],
				),
			),
		];
		const { json } = await diot(items, diotParameters(), { check: false });
		// 1,000.00 ÷ 0.0543478261 = 18,399.99999... → 18400; 160.00 ÷ 0.0543478261 = 2,943.99999... → 2944.
		expect(json.rows.map((r) => r.line)).toEqual([
			line({ 1: '04', 2: '85', 3: 'ICV060329BY0', 12: 18400, 22: 2944, 54: '01' }),
		]);
	});

	test('a payment of a PUE invoice is not counted twice; a Pagos 1.0 payment of the month and a payment without a rate are problems', async () => {
		const paidAgain = pue('pue-paid-again', URE, [
			concepto('100.00', [iva('100.00', '0.160000', '16.00')]),
		]);
		const payment = (name, doc, pago = {}) =>
			paymentCfdi(
				name,
				URE,
				`${PERIOD}-12T09:00:00`,
				['P', '4'],
				[
					{
						fecha: `${PERIOD}-12T09:00:00`,
						monto: '116.00',
						docs: [
							paidDoc(doc, 1, ['116.00', '116.00', '0.00'], {
								traslados: [iva('100.00', '0.160000', '16.00')],
							}),
						],
						...pago,
					},
				],
			);
		const paidBy10 = {
			...pue('paid-by-pagos-10', URE, [concepto('100.00', [iva('100.00', '0.160000', '16.00')])]),
			metodo: 'PPD',
		};
		const pagos10 = receivedCfdi(payment('pagos-10', 'paid-by-pagos-10'), PERIOD)
			.xml.replace(
				'xmlns:pago20="http://www.sat.gob.mx/Pagos20"',
				'xmlns:pago10="http://www.sat.gob.mx/Pagos"',
			)
			.replaceAll('pago20:', 'pago10:')
			.replace('<pago10:Pagos Version="2.0">', '<pago10:Pagos Version="1.0">');
		const items = [
			received(paidAgain),
			received(payment('pays-pue', 'pue-paid-again')),
			fileItem(pagos10),
			received(payment('usd-no-rate', 'usd-elsewhere', { moneda: 'USD', tipoCambio: undefined })),
			received(paidBy10),
		];
		const usdNoRate = receivedCfdi(
			payment('usd-no-rate', 'usd-elsewhere', { moneda: 'USD' }),
			PERIOD,
		).xml.replace(/ TipoCambioP="[^"]*"/, '');
		items[3] = fileItem(usdNoRate.replace('MonedaDR="MXN"', 'MonedaDR="USD"'));
		const { json, error } = await diot(items, diotParameters(), { read: false, check: false });
		expect(error).toBeUndefined();
		expect(json.rows.map((r) => r.line)).toEqual([
			line({ 1: '04', 2: '85', 3: 'URE180429TM6', 12: 100, 22: 16, 54: '01' }),
		]);
		expect(json.warnings).toEqual([
			expect.stringContaining(
				`[item 2] CFDI ${uuid('pays-pue')} from URE180429TM6: its payment of ${PERIOD}-12 of invoice ${uuid('pue-paid-again')} ([item 1]) is not counted: that invoice is PUE`,
			),
			// Its invoice is named with the payment that the DIOT cannot read, not as unpaid.
			`[item 5] CFDI ${uuid('paid-by-pagos-10')} from URE180429TM6: left out, a PPD invoice paid in ${PERIOD} by [item 3] CFDI ${uuid('pagos-10')} from URE180429TM6, which the DIOT cannot read (see its problem)`,
		]);
		// What a Pagos 1.0 payment paid in the month is missing from the file: a problem, never a silent gap.
		expect(json.problems).toEqual([
			expect.stringContaining(
				`[item 3] CFDI ${uuid('pagos-10')} from URE180429TM6: left out, its payments complement is Pagos 1.0, which does not say the taxes of each document paid (ImpuestosDR, Pagos 2.0): what it paid in ${PERIOD} is not in the file`,
			),
			expect.stringContaining(
				`[item 4] CFDI ${uuid('usd-no-rate')} from URE180429TM6: it pays ${uuid('usd-elsewhere')} in USD with a payment of ${PERIOD}-12 in USD without TipoCambioP`,
			),
		]);
	});
});

describe('a CFDI replaced by another among the items (TipoRelacion 04)', () => {
	test('counts once: the replacement counts, the replaced one is left out, named with its replacement', async () => {
		const original = pue('to-replace', URE, [
			concepto('1000.00', [iva('1000.00', '0.160000', '160.00')]),
		]);
		const replacement = {
			...pue('replacement', URE, [concepto('1000.00', [iva('1000.00', '0.160000', '160.00')])]),
			relacionados: { tipo: '04', of: ['to-replace'] },
		};
		const { json, error } = await diot(
			[received(original), received(replacement)],
			diotParameters(),
			{
				read: false,
				check: false,
			},
		);
		expect(error).toBeUndefined();
		expect(json.rows.map((r) => r.line)).toEqual([
			line({ 1: '04', 2: '85', 3: 'URE180429TM6', 12: 1000, 22: 160, 54: '01' }),
		]);
		expect(json.rows[0].cfdis).toBe(uuid('replacement'));
		expect(json.warnings).toEqual([
			`[item 1] CFDI ${uuid('to-replace')} from URE180429TM6: left out, replaced by [item 2] CFDI ${uuid('replacement')} from URE180429TM6 (TipoRelacion 04, a substitution), which counts instead: the issuer is to cancel this one (Check CFDI Status says whether it did)`,
		]);
	});
});

describe('left out, each named with why', () => {
	test('a CFDI 3.2, one without a stamp, one issued to another RFC, a payroll CFDI, one in USD without an exchange rate', async () => {
		const v32 = cfdiXml({
			version: '3.2',
			folio: '32',
			emisor: URE,
			receptor: { rfc: TAXPAYER.rfc, nombre: TAXPAYER.nombre },
			fecha: `${PERIOD}-05T10:00:00`,
		});
		const unstamped = cfdiXml({
			emisor: URE,
			receptor: { rfc: TAXPAYER.rfc, nombre: TAXPAYER.nombre },
			stamped: false,
			fecha: `${PERIOD}-05T10:00:00`,
		});
		const toOther = received(
			pue('to-other', URE, [concepto('1.00')], { receptor: { ...JUFA, cp: '01000', uso: 'G03' } }),
		);
		const nomina = cfdiXml({
			tipo: 'N',
			folio: '77',
			emisor: URE,
			receptor: { rfc: TAXPAYER.rfc, nombre: TAXPAYER.nombre },
			fecha: `${PERIOD}-05T10:00:00`,
		});
		const noRate = receivedCfdi(
			pue('usd-no-rate', URE, [concepto('1.00', [iva('1.00', '0.160000', '0.16')])], {
				moneda: 'USD',
			}),
			PERIOD,
		).xml;
		const { json } = await diot(
			[fileItem(v32.xml), fileItem(unstamped.xml), toOther, fileItem(nomina.xml), fileItem(noRate)],
			diotParameters(),
			{ read: false, check: false },
		);
		expect(json.rows).toEqual([]);
		expect(json.file_name).toBeNull();
		expect(json.warnings).toEqual([
			expect.stringMatching(
				/^\[item 1\] CFDI .* from URE180429TM6: left out, a CFDI 3\.2 \(issued before 2018\): its taxes per concepto are unknown/,
			),
			expect.stringMatching(
				/^\[item 2\] CFDI \(no UUID\) from URE180429TM6: left out, it has no stamp \(TimbreFiscalDigital\)/,
			),
			`[item 3] CFDI ${uuid('to-other')} from URE180429TM6: left out, issued to JUFA7608212V6, not to the taxpayer EKU9003173C9`,
			expect.stringMatching(/^\[item 4\] CFDI .*: left out, a payroll CFDI \(nómina\)/),
		]);
		expect(json.problems).toEqual([
			"No line: nothing paid to a supplier in 2026-10 is among the input items, so no file was made. A month without operations is declared in the SAT's DIOT itself (sin operaciones), without a file.",
			`[item 5] CFDI ${uuid('usd-no-rate')} from URE180429TM6: left out, it is in USD without an exchange rate (TipoCambio)`,
		]);
	});

	test('a CFDI the SAT does not find is reported, with a warning', async () => {
		const spec = pue('not-found', URE, [concepto('100.00', [iva('100.00', '0.160000', '16.00')])]);
		const cfdi = receivedCfdi(spec, PERIOD);
		env.sat.pin(cfdi.uuid, { outcome: 'D602' });
		const { json } = await diot([fileItem(cfdi.xml)]);
		expect(json.rows).toHaveLength(1);
		expect(json.warnings).toEqual([
			`[item 1] CFDI ${cfdi.uuid} from URE180429TM6: the SAT did not find it (No Encontrado, from Check CFDI Status): reported, but check it before filing`,
		]);
	});
});

describe('problems the bookkeeper must see before filing', () => {
	test('a credit note on a PPD invoice of an earlier month with no payment of it among the items: how much was owed cannot be told — a problem, not placed', async () => {
		const earlier = invoice(
			'ppd-of-january',
			URE,
			'2026-08-15T10:00:00',
			['A', '10'],
			[concepto('1000.00', [iva('1000.00', '0.160000', '160.00')])],
			{ metodo: 'PPD' },
		);
		const note = invoice(
			'note-on-old-ppd',
			URE,
			`${PERIOD}-10T10:00:00`,
			['NC', '10'],
			[concepto('100.00', [iva('100.00', '0.160000', '16.00')])],
			{ tipo: 'E', relacionados: { tipo: '01', of: ['ppd-of-january'] } },
		);
		const other = pue('other-purchase', URE, [
			concepto('1000.00', [iva('1000.00', '0.160000', '160.00')]),
		]);
		const { json } = await diot(
			[received(earlier), received(note), received(other)],
			diotParameters(),
			{
				check: false,
			},
		);
		// Paid in full before (its payments of earlier months are not items), the note is a return: never assumed away.
		expect(json.problems).toContainEqual(
			expect.stringContaining(
				`[item 2] CFDI ${uuid('note-on-old-ppd')} from URE180429TM6: left out, a credit note that TipoRelacion 01 of ${uuid('ppd-of-january')} (paid in installments): ${uuid('ppd-of-january')} is of 2026-08 and no payment of it among the input items says how much of it was still owed`,
			),
		);
		expect(json.ready_to_file).toBe(false);
	});

	test('a credit note that cannot be read with what it relates to: not placed, each case a problem naming the note', async () => {
		const sixteen = (amount) => [concepto(amount, [iva(amount, '0.160000', '160.00')])];
		const pueInvoice = pue('mixed-pue', URE, sixteen('1000.00'));
		const ppdInvoice = pue('mixed-ppd', URE, sixteen('1000.00'), { metodo: 'PPD' });
		const mixed = invoice(
			'note-mixed',
			URE,
			`${PERIOD}-12T10:00:00`,
			['NC', '20'],
			sixteen('1000.00'),
			{
				tipo: 'E',
				relacionados: { tipo: '01', of: ['mixed-pue', 'mixed-ppd'] },
			},
		);
		const inDollars = invoice(
			'note-usd',
			URE,
			`${PERIOD}-13T10:00:00`,
			['NC', '21'],
			sixteen('1000.00'),
			{
				tipo: 'E',
				moneda: 'USD',
				tipoCambio: '18.0000',
				relacionados: { tipo: '01', of: ['mixed-ppd'] },
			},
		);
		const { json } = await diot(
			[received(pueInvoice), received(ppdInvoice), received(mixed), received(inDollars)],
			diotParameters(),
			{ check: false },
		);
		expect(json.problems).toEqual(
			expect.arrayContaining([
				expect.stringContaining(
					`[item 3] CFDI ${uuid('note-mixed')} from URE180429TM6: left out, a credit note that TipoRelacion 01 of ${uuid('mixed-pue')}, ${uuid('mixed-ppd')}: relates invoices paid in one exhibition and in installments at once: not placed`,
				),
				expect.stringMatching(
					new RegExp(
						`^\\[item 4\\] CFDI ${uuid('note-usd')} .*the note is in USD, the invoice in MXN: not placed`,
					),
				),
			]),
		);
		expect(json.ready_to_file).toBe(false);
		// Only the PUE invoice is in the file: neither note took anything off it.
		expect(json.rows.map((r) => r.line)).toEqual([
			line({ 1: '04', 2: '85', 3: 'URE180429TM6', 12: 1000, 22: 160, 54: '01' }),
		]);
	});

	test("a credit note for last month's purchase: never a line the SAT refuses — out of the file, to settle by hand, named by its UUID", async () => {
		const lastMonth = invoice(
			'bought-last-month',
			URE,
			'2026-09-20T10:00:00',
			['A', '9'],
			[concepto('1250.00', [iva('1250.00', '0.160000', '200.00')])],
		);
		const note = invoice(
			'note-of-last-month',
			URE,
			`${PERIOD}-05T10:00:00`,
			['NC', '9'],
			[concepto('1250.00', [iva('1250.00', '0.160000', '200.00')])],
			{ tipo: 'E', relacionados: { tipo: '01', of: ['bought-last-month'] } },
		);
		const zero = pue('zero-rated', URE, [concepto('300.00', [iva('300.00', '0.000000', '0.00')])]);
		const { json } = await diot(
			[received(lastMonth), received(note), received(zero)],
			diotParameters(),
			{
				check: false,
			},
		);
		// The supplier's line holds what it can: the purchase at 0 % of the month, without the note.
		expect(json.rows.map((r) => r.line)).toEqual([
			line({ 1: '04', 2: '85', 3: 'URE180429TM6', 51: 300, 54: '01' }),
		]);
		expect(json.to_settle).toEqual([
			{
				supplier: 'Supplier URE180429TM6 (operation 85)',
				cfdi: uuid('note-of-last-month'),
				returns_16: 1250,
				creditable_iva_16: -200,
			},
		]);
		expect(json.problems).toEqual([
			`[item 2] credit note ${uuid('note-of-last-month')}: not in the file, in to_settle — Supplier URE180429TM6 (operation 85) has returns of 1250 in field 13 (returns_16) but a value paid of 0 in field 12 (paid_16) this month, and the SAT refuses a line whose returns are more than its value (a credit note for a purchase paid in another month). The line is written without it; its return (fields 13, 22) is to settle by hand: set it against a later month's purchases from the supplier, or capture it in the SAT's form.`,
		]);
		expect(json.ready_to_file).toBe(false);
		// Its invoice is last month's: left out, named; the note says where it went.
		expect(json.warnings).toEqual([
			`[item 1] CFDI ${uuid('bought-last-month')} from URE180429TM6: left out, dated 2026-09-20, not in ${PERIOD}`,
			`[item 2] CFDI ${uuid('note-of-last-month')} from URE180429TM6: credit note, a return (TipoRelacion 01 of ${uuid('bought-last-month')}): in fields 13, 22`,
		]);
	});

	test('amounts the DIOT has no field for are named, not dropped', async () => {
		const { json } = await diot(
			[
				received(
					pue('odd', URE, [
						concepto('100.00', [iva('100.00', '0.160000', '16.00')]),
						concepto('50.00', [], { objetoImp: '03' }),
						concepto('70.00', [iva('70.00', '0.110000', '7.70')]),
					]),
				),
			],
			diotParameters(),
			{ check: false },
		);
		expect(json.rows.map((r) => r.line)).toEqual([
			line({ 1: '04', 2: '85', 3: 'URE180429TM6', 12: 100, 22: 16, 54: '01' }),
		]);
		expect(json.problems).toEqual([
			`[item 1] CFDI ${uuid('odd')} from URE180429TM6: Concepto 2: ObjetoImp 03 (50.00): the CFDI does not break its IVA down, so it has no place in the DIOT`,
			`[item 1] CFDI ${uuid('odd')} from URE180429TM6: Concepto 3: IVA at 11 % (base 70.00): the DIOT has fields for 16 %, 8 % and 0 % only`,
		]);
	});
});

describe('ready to file, or check first', () => {
	const sat = built('nodes/Sat/Sat.node', 'Sat');
	test('version 3 has two outputs, Ready to File and Check First; saved workflows keep one', () => {
		const build = { resource: 'diot', operation: 'build' };
		expect(outputNames(sat, 3, build)).toEqual(['Ready to File', 'Check First']);
		expect(outputNames(sat, 2, build)).toEqual(['main']);
	});

	/** The DIOT of `items` by a node of version 3: what left by each output, or the run's error. */
	const outputs = async (items, parameters = diotParameters(), opts = {}) => {
		const workflow = chain(items, parameters, opts);
		const node = workflow.nodes.find((n) => n.name === 'DIOT');
		if (node) node.typeVersion = 3;
		const result = await env.engine.run(workflow);
		return {
			error: result.error,
			ready: result.output('DIOT', 0),
			check: result.output('DIOT', 1),
		};
	};

	test('the month as the accountant computes it leaves by Ready to File; a problem sends it to Check First', async () => {
		const month = await outputs(monthItems());
		expect(month.error).toBeUndefined();
		expect(month.check.map((i) => i.json.problems)).toEqual([]);
		expect(month.check).toEqual([]);
		expect(month.ready[0].json.ready_to_file).toBe(true);
		const withError = await outputs(
			[...monthItems(), { json: { error: 'a CFDI could not be read' } }],
			diotParameters({
				operationType: '85',
				foreignSupplier: { country: 'USA', taxId: '98-7654321' },
			}),
			{ read: false, check: false },
		);
		expect(withError.error).toBeUndefined();
		expect(withError.ready).toEqual([]);
		expect(withError.check[0].json.ready_to_file).toBe(false);
		expect(withError.check[0].binary?.data).toBeDefined();
	});

	test('the wrong taxpayer: no CFDI addressed to it stops the run, naming who the CFDIs are addressed to', async () => {
		const { error, ready, check } = await outputs(
			monthItems(),
			diotParameters({ taxpayerRfc: 'AAA010101AAA' }),
		);
		expect([ready, check]).toEqual([[], []]);
		expect(error?.message).toMatch(
			/^No DIOT was built: CFDIs that are not the taxpayer's: Taxpayer RFC AAA010101AAA: none of the \d+ CFDIs has it as its receiver \(Receptor\); they have EKU9003173C9 \(\d+\)/,
		);
	});

	test('the wrong month: none of it stops the run; most of another month is a problem', async () => {
		const none = await outputs(monthItems(), diotParameters({ period: '2026-06' }));
		expect(none.error?.message).toMatch(
			/^No DIOT was built: no CFDIs of the period: Month \(Periodo\) 2026-06: none of the \d+ CFDIs is of it; they are of 2026-10 \(\d+\)/,
		);
		const next = await outputs(monthItems(), diotParameters({ period: '2026-11' }));
		expect(next.error).toBeUndefined();
		expect(next.ready).toEqual([]);
		expect(next.check[0].json.problems).toContainEqual(
			expect.stringMatching(
				/^\d+ of the \d+ CFDIs are of other months than 2026-11 \(2026-10 \(\d+\), 2026-09 \(1\)\) and are left out \(see the warnings\): is Month \(Periodo\) the period you mean to file\?$/,
			),
		);
	});
});
