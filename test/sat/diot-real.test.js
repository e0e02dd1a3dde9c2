import { description as diotForm } from '../../dist/nodes/Sat/actions/diot/build.operation';
import {
	concepto as conceptoOf,
	invoice,
	iva,
	paidDoc,
	paymentCfdi,
	realMonth,
	realMonthComputed,
	REAL_MONTH_SUPPLIERS,
	receivedCfdi,
	uuidOf,
} from '../simulator/received';
import { diotParameters, fileText, PERIOD, runDiot } from './diot-setup';
import { fileItem, startSat } from './setup';
/** @import { SatEnv } from './setup' */

/**
 * SAT (Mexico) → DIOT → Build DIOT File on the month a real company files (issue 43) — credit notes read with what
 * they relate to, IVA not fully creditable, 8 % by place, no line the SAT would refuse — and the form's Suppliers
 * table (issue 45), through n8n-core's engine.
 */

/** @type {SatEnv} */
let env;
beforeAll(async () => {
	env = await startSat();
});
afterAll(() => env.stop());
beforeEach(() => env.reset());

/** The file item of one CFDI received in `period`. */
const received = (spec, period = PERIOD) => fileItem(receivedCfdi(spec, period).xml);
const uuid = (name, period = PERIOD) => uuidOf(name, period);
/** A DIOT line from its fields by number (1–54), the others empty. */
const line = (fields, count = 54) =>
	Array.from({ length: count }, (_, k) => String(fields[k + 1] ?? '')).join('|');
const diot = (items, parameters = diotParameters(), opts = { check: false }) =>
	runDiot(env, items, parameters, opts);

const KIJ = { rfc: 'KIJ0906199R1', nombre: 'KIJ, S.A DE C.V.', regimen: '601' };
const URE = { rfc: 'URE180429TM6', nombre: 'UNIVERSIDAD ROBOTICA ESPAÑOLA', regimen: '601' };
const XIA = { rfc: 'XIA190128J61', nombre: 'XENON INDUSTRIAL ARTICLES', regimen: '601' };
const FOREIGN = { rfc: 'XEXX010101000', nombre: 'ACME GMBH', regimen: '616' };
const at = (day, period = PERIOD) => `${period}-${day}T10:00:00`;
const concepto = (importe, traslados = [], extra = {}) =>
	conceptoOf('43211503', 'Artículo', ['1', importe, importe], { traslados, ...extra });
const iva16 = (base, importe) => iva(base, '0.160000', importe);
/** One article bought in the month from `emisor`: 100.00 + IVA 16.00 unless `[base, rate, IVA]` say otherwise. */
const article = (name, emisor, extra = {}, [base, rate, tax] = ['100.00', '0.160000', '16.00']) =>
	received(
		invoice(name, emisor, at('03'), ['A', name], [concepto(base, [iva(base, rate, tax)])], extra),
	);

describe('the month a real company files', () => {
	/** @type {Awaited<ReturnType<typeof diot>>} */
	let run;
	const expected = realMonthComputed(PERIOD);
	beforeAll(async () => {
		env.reset();
		const files = realMonth(PERIOD);
		run = await diot(
			files.map((f) => fileItem(f.xml, { fileName: f.fileName })),
			diotParameters({ suppliers: { supplier: REAL_MONTH_SUPPLIERS }, foreignSupplier: {} }),
		);
	});

	test('every line keeps the layout: field 22 the IVA actually paid, 8 % from Chiapas south, non-creditable IVA in its field', () => {
		expect(run.error).toBeUndefined();
		const text = fileText(run.item);
		expect(text.split('\n')).toEqual(expected.lines);
		for (const row of run.json.rows) {
			// Returns never above the value, IVA only beside a value.
			for (const c of ['8_north', '8_south', '16'])
				expect(row[`returns_${c}`] ?? 0).toBeLessThanOrEqual(row[`paid_${c}`] ?? 0);
		}
	});

	test('each case named: where each credit note went, the cash purchase, what is left to settle by hand', () => {
		const { warnings, problems } = run.json;
		// Each case once, by its CFDI's UUID and its words.
		const namedOnce = (said, cases) => {
			for (const [name, words] of Object.entries(cases)) {
				const found = said.filter((w) => w.includes(uuid(name)) && w.includes(words));
				expect({ name, found }).toEqual({ name, found: [expect.any(String)] });
			}
		};
		namedOnce(warnings, expected.warnings);
		namedOnce(problems, expected.problems);
		expect(problems).toHaveLength(Object.keys(expected.problems).length);
		expect(run.json.to_settle).toEqual([
			{
				supplier: 'Supplier URE180429TM6 (operation 85)',
				cfdi: uuid('ure-credit-note-of-last-month'),
				returns_16: 1250,
				creditable_iva_16: -200,
			},
		]);
		// A filing with problems is not ready: it leaves by Check First, with its file for review.
		expect(run.json.ready_to_file).toBe(false);
	});
});

describe('credit notes by relation', () => {
	const ppd = (name, day = '02') =>
		invoice(name, KIJ, at(day), ['M', '1'], [concepto('1000.00', [iva16('1000.00', '160.00')])], {
			metodo: 'PPD',
		});
	const note = (name, of, day, tipo = '01', amounts = ['100.00', '16.00']) =>
		invoice(name, KIJ, at(day), ['NC', '1'], [concepto(amounts[0], [iva16(...amounts)])], {
			tipo: 'E',
			relacionados: { tipo, of: [of] },
		});
	const payment = (name, of, day, [before, paid, after], [base, tax]) =>
		paymentCfdi(
			name,
			KIJ,
			at(day),
			['P', '1'],
			[
				{
					fecha: at(day),
					monto: paid,
					docs: [paidDoc(of, 1, [before, paid, after], { traslados: [iva16(base, tax)] })],
				},
			],
		);

	test('a note for a part already paid is a return in its category: the invoice was paid in full before it', async () => {
		const { json } = await diot([
			received(ppd('inv')),
			received(payment('pay', 'inv', '03', ['1160.00', '1160.00', '0.00'], ['1000.00', '160.00'])),
			received(note('nc', 'inv', '10')),
		]);
		expect(json.rows.map((r) => r.line)).toEqual([
			line({ 1: '04', 2: '85', 3: 'KIJ0906199R1', 12: 1000, 13: 100, 22: 144, 54: '01' }),
		]);
		expect(json.warnings).toContainEqual(
			expect.stringContaining(
				`credit note, a return (TipoRelacion 01 of ${uuid('inv')}, paid in installments): ${uuid('inv')} had been paid in full when it was issued: in fields 13, 22`,
			),
		);
	});

	test('a note larger than what was still owed: the part above the balance is a return', async () => {
		// Paid 1,000.00 of 1,160.00; the note of 232.00 (200.00 + 32.00) takes the 160.00 left and returns 72.00.
		const { json } = await diot([
			received(ppd('inv')),
			received(payment('pay', 'inv', '03', ['1160.00', '1000.00', '160.00'], ['862.07', '137.93'])),
			received(note('nc', 'inv', '10', '01', ['200.00', '32.00'])),
		]);
		// 72 / 232 of the note: 62.07 → 62 of returns, 9.93 of IVA; 137.93 − 9.93 = 128.00.
		expect(json.rows.map((r) => r.line)).toEqual([
			line({ 1: '04', 2: '85', 3: 'KIJ0906199R1', 12: 862, 13: 62, 22: 128, 54: '01' }),
		]);
		expect(json.warnings).toContainEqual(
			expect.stringContaining('72.00 of its 232.00 is a return'),
		);
	});

	test('the payment after the note still starts from the balance before it: the payments did not net it, so it is a return', async () => {
		const { json } = await diot([
			received(ppd('inv')),
			received(note('nc', 'inv', '05')),
			received(payment('pay', 'inv', '20', ['1160.00', '1160.00', '0.00'], ['1000.00', '160.00'])),
		]);
		expect(json.rows.map((r) => r.line)).toEqual([
			line({ 1: '04', 2: '85', 3: 'KIJ0906199R1', 12: 1000, 13: 100, 22: 144, 54: '01' }),
		]);
	});

	test('a type-07 note on an invoice paid in installments: its payments net the advance', async () => {
		const { json } = await diot([
			received(ppd('inv')),
			received(note('advance', 'inv', '03', '07')),
			received(payment('pay', 'inv', '20', ['1044.00', '1044.00', '0.00'], ['900.00', '144.00'])),
		]);
		expect(json.rows.map((r) => r.line)).toEqual([
			line({ 1: '04', 2: '85', 3: 'KIJ0906199R1', 12: 900, 22: 144, 54: '01' }),
		]);
		expect(json.warnings).toContainEqual(
			expect.stringContaining('credit note, applies an advance'),
		);
	});

	test('a note on a PPD invoice that is not among the items, with no payment before it: named, not placed', async () => {
		const { json } = await diot([
			received(note('nc', 'inv', '05')),
			received(payment('pay', 'inv', '20', ['1044.00', '1044.00', '0.00'], ['900.00', '144.00'])),
		]);
		expect(json.rows.map((r) => r.line)).toEqual([
			line({ 1: '04', 2: '85', 3: 'KIJ0906199R1', 12: 900, 22: 144, 54: '01' }),
		]);
		expect(json.problems).toContainEqual(
			expect.stringContaining(
				'how much of it was still owed when the note was issued cannot be told',
			),
		);
	});
});

describe('IVA treatment, 8 % by place, what usually makes IVA not creditable', () => {
	test('the Suppliers table: a row per RFC wins over the fields for the other suppliers (which may still be expressions); a foreign supplier by its name', async () => {
		const items = [
			article('a', URE),
			received(
				invoice('b', KIJ, at('04'), ['A', '2'], [concepto('200.00', [iva16('200.00', '32.00')])]),
			),
			received(
				invoice(
					'c',
					FOREIGN,
					at('05'),
					['A', '3'],
					[concepto('300.00', [iva16('300.00', '48.00')])],
				),
			),
		];
		const { json } = await diot(
			items,
			diotParameters({
				// Today's per-item expression, for everyone without a row.
				operationType: `={{ $json.emisor?.rfc === 'URE180429TM6' ? '02' : '85' }}`,
				ivaTreatment: 'requirements',
				suppliers: {
					supplier: [
						{ rfc: 'kij0906199r1', operationType: '06', ivaTreatment: '', fiscalEffect: '02' },
						{ rfc: 'acme  gmbh', country: 'DEU', taxId: 'DE123', imports: 'goods' },
					],
				},
				foreignSupplier: {},
			}),
		);
		expect(json.rows.map((r) => r.line)).toEqual([
			line({ 1: '04', 2: '06', 3: 'KIJ0906199R1', 12: 200, 37: 32, 54: '02' }),
			line({ 1: '04', 2: '02', 3: 'URE180429TM6', 12: 100, 37: 16, 54: '01' }),
			line({ 1: '05', 2: '07', 4: 'DE123', 5: 'ACME GMBH', 6: 'DEU', 14: 300, 41: 48, 54: '01' }),
		]);
	});

	test('a table that cannot be read stops the run, naming its rows', async () => {
		const { error, count } = await diot(
			[received(invoice('a', URE, at('03'), ['A', '1'], [concepto('100.00')]))],
			diotParameters({
				suppliers: {
					supplier: [{ rfc: 'URE180429TM6' }, { rfc: ' ure180429tm6 ' }, { rfc: 'XAXX010101000' }],
				},
			}),
		);
		expect(count).toBe(0);
		const description = String(error?.description);
		expect(description).toContain('Suppliers → row 2: a second row for URE180429TM6');
		expect(description).toContain(
			"Suppliers → row 3: XAXX010101000 is a generic RFC: the global line's values are fixed",
		);
	});

	test('a proportion that is not one is a stop naming the row', async () => {
		const { error } = await diot(
			[article('a', URE)],
			diotParameters({
				suppliers: {
					supplier: [{ rfc: 'URE180429TM6', ivaTreatment: 'proportional', ivaProportion: '1.2' }],
				},
			}),
		);
		expect(String(error?.description)).toContain(
			'[item 1] Suppliers → URE180429TM6 → Creditable Proportion: must be the creditable part, from 0 to 1 (e.g. 0.8523), got "1.2"',
		);
	});

	test('8 % by the state of LugarExpedicion: Baja California north, Quintana Roo south, Jalisco neither (north, with a warning), the form overrides', async () => {
		const at8 = (name, lugar, emisor) =>
			article(name, emisor, { lugar }, ['1000.00', '0.080000', '80.00']);
		const { json } = await diot(
			[
				at8('tijuana', '22000', XIA),
				at8('cancun', '77500', KIJ),
				at8('guadalajara', '44100', URE),
				at8('overridden', '29000', { rfc: 'IIA040805DZ4', nombre: 'INDISTRIA', regimen: '601' }),
			],
			diotParameters({ suppliers: { supplier: [{ rfc: 'IIA040805DZ4', borderRegion: 'north' }] } }),
		);
		expect(json.rows.map((r) => r.line)).toEqual([
			line({ 1: '04', 2: '85', 3: 'IIA040805DZ4', 8: 1000, 18: 80, 54: '01' }),
			line({ 1: '04', 2: '85', 3: 'KIJ0906199R1', 10: 1000, 20: 80, 54: '01' }),
			line({ 1: '04', 2: '85', 3: 'URE180429TM6', 8: 1000, 18: 80, 54: '01' }),
			line({ 1: '04', 2: '85', 3: 'XIA190128J61', 8: 1000, 18: 80, 54: '01' }),
		]);
		expect(json.warnings).toEqual([
			`[item 3] CFDI ${uuid('guadalajara')} from URE180429TM6: IVA at 8 % from Jalisco (LugarExpedicion 44100), in neither border region: placed in the northern fields (8, 9, 18…) — choose its 8 % IVA Region in the Suppliers table if it is the southern`,
		]);
	});

	test('UsoCFDI S01 and cash above MXN 2,000 are warnings while the IVA is creditable; cash of 2,000 or less is not', async () => {
		const { json } = await diot([
			received(
				invoice(
					's01',
					URE,
					at('03'),
					['A', '1'],
					[concepto('100.00', [iva16('100.00', '16.00')])],
					{
						uso: 'S01',
					},
				),
			),
			received(
				invoice(
					'cash-small',
					KIJ,
					at('03'),
					['A', '2'],
					[concepto('1724.14', [iva16('1724.14', '275.86')])],
					{
						formaPago: '01',
					},
				),
			),
		]);
		expect(json.warnings).toEqual([
			`[item 1] CFDI ${uuid('s01')} from URE180429TM6: its UsoCFDI is S01 (sin efectos fiscales): the taxpayer asked for a CFDI without tax effects — its IVA is in the creditable fields (fields 12, 22): if it is not creditable, choose its IVA Treatment (Not Creditable: Lacking Requirements) in the Suppliers table`,
		]);
	});

	test('the one-peso rule: IVA rounded apart from its base that passes round(value × rate) is a warning with the figures', async () => {
		// 1,003.20 → 1003; IVA 160.51 → 161 > round(1003 × 0.16 = 160.48) = 160.
		const { json } = await diot([
			received(
				invoice(
					'peso',
					URE,
					at('03'),
					['A', '1'],
					[concepto('1003.20', [iva16('1003.20', '160.51')])],
				),
			),
		]);
		expect(json.rows.map((r) => r.line)).toEqual([
			line({ 1: '04', 2: '85', 3: 'URE180429TM6', 12: 1003, 22: 161, 54: '01' }),
		]);
		expect(json.warnings).toEqual([
			expect.stringContaining(
				'Supplier URE180429TM6 (operation 85): its IVA of field 12 (paid_16) adds up to 161 (22), more than 1003 × 16 % = 160 after rounding',
			),
		]);
	});

	test('a foreign supplier without a tax ID is left out, named in the problems; the rest is filed', async () => {
		const { json } = await diot(
			[article('f', FOREIGN), article('n', URE)],
			diotParameters({ foreignSupplier: { country: 'DEU' } }),
		);
		expect(json.rows.map((r) => r.rfc)).toEqual(['URE180429TM6']);
		expect(json.problems).toEqual([
			`[item 1] CFDI ${uuid('f')} from XEXX010101000: left out, its supplier ACME GMBH is foreign (RFC XEXX010101000) and the file needs its tax ID (Tax ID, field 4): give them in its row of the Suppliers table (RFC or Foreign Name: ACME GMBH) and run again`,
		]);
	});

	test("the Taxpayer RFC's check-digit warning says what the DIOT does with it: nothing is sent", async () => {
		const { json } = await diot(
			[
				received(
					invoice(
						'a',
						URE,
						at('03'),
						['A', '1'],
						[concepto('100.00', [iva16('100.00', '16.00')])],
						{
							receptor: {
								rfc: 'EKU9003173C8',
								nombre: 'X',
								regimen: '601',
								cp: '42501',
								uso: 'G03',
							},
						},
					),
				),
			],
			diotParameters({ taxpayerRfc: 'EKU9003173C8' }),
		);
		expect(json.warnings[0]).toMatch(
			/^Taxpayer RFC: check digit is 8 but \w was expected; the DIOT is built with it as typed, verify the RFC$/,
		);
	});
});

describe('the previous layout: months before 2025', () => {
	const PREVIOUS = '2024-10';
	const at24 = (day) => at(day, PREVIOUS);
	test('24 fields and a trailing |: values, non-creditable IVA, the IVA of returns; no field for the south or for acts not subject to IVA', async () => {
		const items = [
			invoice(
				'a16',
				URE,
				at24('03'),
				['A', '1'],
				[
					concepto('1000.00', [iva16('1000.00', '160.00')]),
					concepto('50.00', [], { objetoImp: '01' }),
				],
			),
			invoice(
				'a16-note',
				URE,
				at24('09'),
				['NC', '1'],
				[concepto('100.00', [iva16('100.00', '16.00')])],
				{
					tipo: 'E',
					relacionados: { tipo: '01', of: ['a16'] },
				},
			),
			invoice(
				'n8',
				XIA,
				at24('04'),
				['A', '2'],
				[concepto('500.00', [iva('500.00', '0.080000', '40.00')])],
				{
					lugar: '22000',
				},
			),
			invoice(
				's8',
				KIJ,
				at24('05'),
				['A', '3'],
				[concepto('300.00', [iva('300.00', '0.080000', '24.00')])],
				{
					lugar: '29000',
				},
			),
			invoice(
				'f',
				FOREIGN,
				at24('06'),
				['A', '4'],
				[concepto('200.00', [iva16('200.00', '32.00')])],
			),
		].map((spec) => received(spec, PREVIOUS));
		const { json, item } = await diot(
			items,
			diotParameters({
				period: PREVIOUS,
				foreignOperationType: '03',
				foreignSupplier: {},
				suppliers: {
					supplier: [
						{ rfc: 'ACME GmbH', country: 'DE', nationality: 'Alemana' },
						{ rfc: 'URE180429TM6', ivaTreatment: 'proportional', ivaProportion: '0.5' },
					],
				},
			}),
		);
		expect(json.layout).toBe('24 fields (before 2025)');
		const text = fileText(item).split('\n');
		expect(text).toEqual([
			// KIJ's 8 % from Chiapas has no field before 2025: a problem, and no amount left for a line.
			// URE: 1,000.00 paid (field 8); IVA 160 − 16 = 144, half not creditable: 72 (field 10); the note's IVA 16 (24).
			`${line({ 1: '04', 2: '85', 3: 'URE180429TM6', 8: 1000, 10: 72, 24: 16 }, 24)}|`,
			`${line({ 1: '04', 2: '85', 3: 'XIA190128J61', 13: 500 }, 24)}|`,
			`${line({ 1: '05', 2: '03', 5: 'ACME GMBH', 6: 'DE', 7: 'Alemana', 16: 200 }, 24)}|`,
		]);
		for (const l of text) expect(l.split('|')).toHaveLength(25);
		expect(json.problems).toEqual([
			"Supplier KIJ0906199R1 (operation 85): 300.00 of IVA at 8 % in the southern border region is not in the file: the layout before 2025 has no field for it; report it as the SAT's application asks",
		]);
		expect(json.warnings).toContainEqual(
			'Supplier URE180429TM6 (operation 85): 50.00 of acts not subject to IVA is not in the file: the layout before 2025 has no field for it',
		);
		expect(json.warnings).toContainEqual(
			expect.stringContaining('Supplier KIJ0906199R1 (operation 85): no line written'),
		);
		// The note is named with the fields of this layout (10, its non-creditable half; 24, the IVA of returns), not
		// the 2025 layout's 13 and 22;
		// the 2025 rule of returns against value paid does not apply (this layout has no value of returns).
		expect(json.warnings).toContainEqual(
			expect.stringMatching(
				/: credit note, a return \(TipoRelacion 01 of [0-9A-F-]+\): in fields 10, 24 of the layout before 2025$/,
			),
		);
		expect(json.warnings.join('\n')).not.toMatch(/fields? 13\b/);
		expect(json.to_settle).toEqual([]);
	});
});

describe('the form', () => {
	test('labels short enough for the panel not to cut them (it cut "Type of Operation (Mexican Supp…" at 31 characters)', () => {
		const labels = [];
		const walk = (props) => {
			for (const p of props) {
				if (p.type !== 'notice') labels.push(p.displayName);
				if (p.options && p.type !== 'options') walk(p.options.flatMap((o) => o.values ?? [o]));
			}
		};
		walk(diotForm);
		expect(labels).toContain('Suppliers');
		expect(labels).toContain('IVA Treatment');
		for (const label of labels)
			expect({ label, short: label.length <= 26 }).toEqual({ label, short: true });
	});

	test('the fields of the other suppliers keep their names, so a saved workflow keeps its expressions', () => {
		const names = diotForm.map((p) => p.name);
		for (const name of [
			'operationType',
			'foreignOperationType',
			'borderRegion',
			'fiscalEffect',
			'foreignSupplier',
		])
			expect(names).toContain(name);
	});
});
