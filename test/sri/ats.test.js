import { withFakeClock } from '../harness/clock';
import { built, outputNames } from '../harness/engine';
import { EXPECTED, INFORMANT, PARTIES, monthOfReceipts, receiptOf } from '../fixtures/sri/month';
import {
	MONTH,
	annexOf,
	atsParameters,
	blocks,
	centsOf,
	chain,
	checkStep,
	readXmlStep,
	elements,
	field,
	fileItem,
} from './ats-setup';
import { startSri } from './setup';
import { xsdErrors } from './xsd';
/** @import { SriEnv } from './setup' */

/**
 * Monthly Annex (ATS) → Build through n8n's engine: a month of receipts (test/fixtures/sri/month.js) given as
 * files, as Read XML's JSON and through Check Authorization, gives an ATS the SRI's schema accepts (xmllint, every
 * time), whose totals agree to the cent with the receipts and whose warnings name every receipt left out; bad
 * input stops the run with one error naming every item concerned, and no file.
 */

/** @type {SriEnv} */
let env;
const month = monthOfReceipts(MONTH);
const byName = Object.fromEntries(month.map((r, item) => [r.name, { ...r, item }]));
/** The month as the files of a folder: authorization files, and the company's own receipts bare. */
const files = month.map((r) => fileItem(r.file, {}, 'data', r.fileName));

beforeAll(async () => (env = await startSri()));
afterAll(() => env.stop());
beforeEach(() => {
	env.reset();
	for (const r of month) env.sim.receipts.set(r.key, r.xml);
});

/**
 * Monthly Annex → Build of `items` (the month's files unless given), the form's parameters overridden.
 * @param {Record<string, unknown>} [parameters]
 * @param {Array<{ json: import("n8n-workflow").IDataObject, binary?: import("n8n-workflow").IDataObject }>} [items]
 */
const build = (parameters = {}, items = files) =>
	env.engine.run(chain(items, [{ name: 'ATS', parameters: atsParameters(parameters) }]));

const sum = (xml, block, name) =>
	blocks(xml, block).reduce((total, b) => {
		const sign = field(b, 'tipoComprobante') === '04' ? -1 : 1;
		return total + sign * centsOf(field(b, name) ?? '0');
	}, 0);

describe('the fixture month, from its files', () => {
	/** @type {ReturnType<typeof annexOf>} */
	let annex;
	beforeAll(async () => {
		env.reset();
		annex = annexOf(await build());
	});

	test('the header: the informant, the period, its establishments; the file named after them', () => {
		const { xml, json, fileName } = annex;
		expect(fileName).toBe(`ATS_${INFORMANT.ruc}_2026_10.xml`);
		expect(json.file_name).toBe(fileName);
		expect(xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n<iva>')).toBe(true);
		for (const [name, value] of [
			['TipoIDInformante', 'R'],
			['IdInformante', INFORMANT.ruc],
			['razonSocial', 'Distribuidora Andina SA'],
			['Anio', '2026'],
			['Mes', '10'],
			['numEstabRuc', '002'],
			['totalVentas', '0.00'],
			['codigoOperativo', 'IVA'],
		])
			expect([name, elements(xml, name)]).toEqual([name, [value]]);
		expect(elements(xml, 'regimenMicroempresa')).toEqual([]);
		expect(elements(xml, 'codEstab')).toEqual(['001', '002']);
		expect(elements(xml, 'ventasEstab')).toEqual(['0.00', '0.00']);
		expect(json.periodo).toEqual({ desde: '2026-10-01', hasta: '2026-10-31' });
	});

	test('purchases: the totals agree to the cent with the receipts, credit notes subtracted', () => {
		const { xml, json } = annex;
		expect(blocks(xml, 'detalleCompras')).toHaveLength(EXPECTED.compras.rows);
		const totals = /** @type {Record<string, Record<string, number>>} */ (json.totals);
		for (const [name, value] of Object.entries(EXPECTED.compras)) {
			if (name === 'rows') continue;
			if (name !== 'valRetAir')
				expect([name, sum(xml, 'detalleCompras', name)]).toEqual([name, Math.round(value * 100)]);
			expect([name, totals.compras[name]]).toEqual([name, value]);
		}
		expect(elements(xml, 'valRetAir').reduce((a, v) => a + centsOf(v), 0)).toBe(8875);
	});

	test('sales: grouped by client and document type; the totals agree to the cent', () => {
		const { xml, json } = annex;
		const ventas = blocks(xml, 'detalleVentas');
		expect(ventas).toHaveLength(EXPECTED.ventas.groups);
		expect(ventas.reduce((n, b) => n + Number(field(b, 'numeroComprobantes')), 0)).toBe(
			EXPECTED.ventas.documents,
		);
		const totals = /** @type {Record<string, Record<string, number>>} */ (json.totals);
		for (const [name, value] of Object.entries(EXPECTED.ventas)) {
			if (name === 'groups' || name === 'documents') continue;
			expect([name, sum(xml, 'detalleVentas', name)]).toEqual([name, Math.round(value * 100)]);
			expect([name, totals.ventas[name]]).toEqual([name, value]);
		}
	});

	test('a purchase withheld by the company: its retention fills the withholding fields, its tax support and registration date', () => {
		const row = blocks(annex.xml, 'detalleCompras').find((b) =>
			b.includes('<secuencial>000004521<'),
		);
		const retention = byName['own retention on the goods invoice'];
		expect(row).toBeDefined();
		const b = String(row);
		expect(
			Object.fromEntries(
				[
					'codSustento',
					'tpIdProv',
					'idProv',
					'tipoComprobante',
					'parteRel',
					'fechaRegistro',
					'establecimiento',
					'puntoEmision',
					'fechaEmision',
					'autorizacion',
					'baseImpGrav',
					'montoIva',
					'valRetBien10',
					'valorRetBienes',
					'valRetServ100',
					'codRetAir',
					'baseImpAir',
					'porcentajeAir',
					'valRetAir',
					'estabRetencion1',
					'ptoEmiRetencion1',
					'secRetencion1',
					'autRetencion1',
					'fechaEmiRet1',
					'formaPago',
					'pagoLocExt',
					'paisEfecPago',
				].map((n) => [n, field(b, n)]),
			),
		).toEqual({
			codSustento: '06',
			tpIdProv: '01',
			idProv: PARTIES.papeleria.id,
			tipoComprobante: '01',
			parteRel: 'NO',
			fechaRegistro: '03/10/2026',
			establecimiento: '001',
			puntoEmision: '002',
			fechaEmision: '03/10/2026',
			autorizacion: byName['goods invoice'].key,
			baseImpGrav: '200.00',
			montoIva: '30.00',
			valRetBien10: '0.00',
			valorRetBienes: '9.00',
			valRetServ100: '0.00',
			codRetAir: '312',
			baseImpAir: '200.00',
			porcentajeAir: '1.75',
			valRetAir: '3.50',
			estabRetencion1: '001',
			ptoEmiRetencion1: '001',
			secRetencion1: '000000601',
			autRetencion1: retention.key,
			fechaEmiRet1: '04/10/2026',
			formaPago: '20',
			pagoLocExt: '01',
			paisEfecPago: 'NA',
		});
		const json = /** @type {Array<Record<string, any>>} */ (annex.json.compras).find(
			(r) => r.numero === '001-002-000004521',
		);
		expect(json).toMatchObject({
			item: byName['goods invoice'].item,
			retencion_items: [retention.item],
			proveedor: PARTIES.papeleria.name,
			valorRetBienes: '9.00',
			// Flat, as a sheet takes it: a repeated element's fields each one column.
			formasDePago: '20',
			codRetAir: '312',
			baseImpAir: '200.00',
			porcentajeAir: '1.75',
			valRetAir: '3.50',
			pagoLocExt: '01',
		});
		expect(
			Object.values(json ?? {}).some((v) => v && typeof v === 'object' && !Array.isArray(v)),
		).toBe(false);
	});

	test('a related party is marked from the retention that says so; 100 % of the IVA withheld', () => {
		const b = String(
			blocks(annex.xml, 'detalleCompras').find((x) => x.includes(`<idProv>${PARTIES.abogada.id}<`)),
		);
		expect([field(b, 'parteRel'), field(b, 'codSustento'), field(b, 'valRetServ100')]).toEqual([
			'SI',
			'01',
			'120.00',
		]);
		expect([field(b, 'codRetAir'), field(b, 'valRetAir')]).toEqual(['303', '80.00']);
	});

	test('the four bases of IVA by percentage code: no objeto, 0 %, 15 %, exento', () => {
		const b = String(
			blocks(annex.xml, 'detalleCompras').find((x) =>
				x.includes(`<idProv>${PARTIES.contable.id}<`),
			),
		);
		expect(
			['baseNoGraIva', 'baseImponible', 'baseImpGrav', 'baseImpExe', 'montoIva', 'formaPago'].map(
				(n) => field(b, n),
			),
		).toEqual(['20.00', '45.50', '1000.00', '12.30', '150.00', '19']);
		expect(field(b, 'codSustento')).toBe('01'); // the form's: no retention, no item value
		expect(b).not.toContain('<air>');
		expect(b).not.toContain('<estabRetencion1>');
	});

	test('credit and debit notes received: the document they modify, with its access key; the note takes its tax support', () => {
		const rows = blocks(annex.xml, 'detalleCompras');
		const credit = String(rows.find((x) => x.includes('<tipoComprobante>04<')));
		expect(
			[
				'codSustento',
				'docModificado',
				'estabModificado',
				'ptoEmiModificado',
				'secModificado',
				'autModificado',
			].map((n) => field(credit, n)),
		).toEqual(['06', '01', '001', '002', '000004521', byName['goods invoice'].key]);
		expect(credit).not.toContain('<formasDePago>');
		const debit = String(rows.find((x) => x.includes('<tipoComprobante>05<')));
		expect([
			field(debit, 'autModificado'),
			field(debit, 'baseImpGrav'),
			field(debit, 'montoIva'),
		]).toEqual([byName['zero-rate invoice'].key, '10.00', '1.50']);
	});

	test('the company’s own purchase settlement: a purchase from the supplier it names (cédula: 02)', () => {
		const b = String(
			blocks(annex.xml, 'detalleCompras').find((x) => x.includes('<tipoComprobante>03<')),
		);
		expect(
			['codSustento', 'tpIdProv', 'idProv', 'baseImponible', 'codRetAir', 'valRetAir'].map((n) =>
				field(b, n),
			),
		).toEqual(['07', '02', PARTIES.agricultor.id, '300.00', '312', '5.25']);
	});

	test('sales: invoices as 18, credit notes as 04, a passport as 06 with its name, consumidor final as 07 without a related party', () => {
		const rows = blocks(annex.xml, 'detalleVentas').map((b) =>
			Object.fromEntries(
				[
					'tpIdCliente',
					'idCliente',
					'parteRelVtas',
					'tipoCliente',
					'denoCli',
					'tipoComprobante',
					'tipoEmision',
					'numeroComprobantes',
					'baseImponible',
					'baseImpGrav',
					'montoIva',
					'valorRetIva',
					'valorRetRenta',
					'formaPago',
				]
					.map((n) => [n, field(b, n)])
					.filter(([, v]) => v !== undefined),
			),
		);
		expect(rows).toEqual([
			{
				tpIdCliente: '05',
				idCliente: PARTIES.cliente.id,
				parteRelVtas: 'NO',
				tipoComprobante: '18',
				tipoEmision: 'E',
				numeroComprobantes: '1',
				baseImponible: '0.00',
				baseImpGrav: '60.00',
				montoIva: '9.00',
				valorRetIva: '0.00',
				valorRetRenta: '0.00',
				formaPago: '01',
			},
			{
				tpIdCliente: '04',
				idCliente: PARTIES.ferreteria.id,
				parteRelVtas: 'NO',
				tipoComprobante: '04',
				tipoEmision: 'E',
				numeroComprobantes: '1',
				baseImponible: '0.00',
				baseImpGrav: '25.00',
				montoIva: '3.75',
				valorRetIva: '0.00',
				valorRetRenta: '0.00',
			},
			{
				tpIdCliente: '04',
				idCliente: PARTIES.ferreteria.id,
				parteRelVtas: 'NO',
				tipoComprobante: '18',
				tipoEmision: 'E',
				numeroComprobantes: '2',
				baseImponible: '80.00',
				baseImpGrav: '370.00',
				montoIva: '55.50',
				valorRetIva: '11.25',
				valorRetRenta: '4.38',
				formaPago: '20',
			},
			{
				tpIdCliente: '07',
				idCliente: PARTIES.consumidor.id,
				tipoComprobante: '18',
				tipoEmision: 'E',
				numeroComprobantes: '2',
				baseImponible: '4.50',
				baseImpGrav: '30.00',
				montoIva: '4.50',
				valorRetIva: '0.00',
				valorRetRenta: '0.00',
				formaPago: '01',
			},
			{
				tpIdCliente: '06',
				idCliente: PARTIES.turista.id,
				parteRelVtas: 'NO',
				tipoCliente: '01',
				denoCli: 'John Smith',
				tipoComprobante: '18',
				tipoEmision: 'E',
				numeroComprobantes: '1',
				baseImponible: '0.00',
				baseImpGrav: '500.00',
				montoIva: '75.00',
				valorRetIva: '0.00',
				valorRetRenta: '0.00',
				formaPago: '19',
			},
		]);
		const company = /** @type {Array<Record<string, any>>} */ (annex.json.ventas).find(
			(r) => r.idCliente === PARTIES.ferreteria.id && r.tipoComprobante === '18',
		);
		expect(company).toMatchObject({
			items: [byName['sale to a company'].item, byName['second sale to the company'].item],
			retencion_items: [byName['retention received from the company'].item],
			cliente: PARTIES.ferreteria.name,
		});
	});

	test('nothing is dropped silently: every item is in the annex or named in a warning with its reason', () => {
		const warnings = /** @type {string[]} */ (annex.json.warnings);
		const named = (item) => warnings.filter((w) => w.startsWith(`[item ${item + 1}] `));
		const reasons = {
			'purchase of the month before': 'outside the period 2026-10-01 – 2026-10-31',
			'the zero-rate invoice again': `the same receipt as [item ${byName['zero-rate invoice'].item + 1}] (kept once)`,
			'test-environment purchase': "issued in the SRI's test environment",
			'own retention on a purchase not among the receipts':
				'factura 001001000000299 of 1793331114001 of 2026-09-28, a purchase of an earlier period, which is not among the items: that purchase and this withholding belong to the annex of 2026-09',
			'own waybill': 'a waybill is not part of the ATS',
		};
		for (const name of EXPECTED.leftOut) {
			const item = byName[name].item;
			expect([name, named(item)]).toEqual([name, [expect.stringContaining(reasons[name])]]);
			expect(named(item)[0]).toContain('left out');
		}
		expect(warnings).toHaveLength(EXPECTED.leftOut.length);
		const counts = /** @type {Record<string, number>} */ (annex.json.counts);
		expect(counts).toMatchObject({
			items: month.length,
			in_annex: month.length - EXPECTED.leftOut.length,
			left_out: EXPECTED.leftOut.length,
			compras: 7,
			ventas_comprobantes: 7,
			ventas_grupos: 5,
			retenciones_emitidas: 3,
			retenciones_recibidas: 1,
		});
	});

	test('the company’s own receipts read from bare files were not checked with the SRI: one problem names them', () => {
		const problems = /** @type {string[]} */ (annex.json.problems);
		expect(problems).toHaveLength(1);
		const bare = month
			.map((r, item) => ({ r, item }))
			.filter(({ r }) => r.file === r.xml && r.role !== 'leftOut')
			.map(({ item }) => `[item ${item + 1}]`);
		expect(problems[0]).toContain('without asking the SRI whether it is authorized');
		expect(problems[0].match(/\[item \d+\]/g)).toEqual(bare);
	});
});

test('the items in another order give the same file', async () => {
	const forward = annexOf(await build());
	const backward = annexOf(await build({}, [...files].reverse()));
	// The duplicate kept is the first one met, so the item numbers differ; the file does not.
	expect(backward.xml).toBe(forward.xml);
});

test('Read XML’s JSON without its file gives the same file as the files', async () => {
	const fromFiles = annexOf(await build());
	const result = await env.engine.run(
		chain(files, [readXmlStep(), { name: 'ATS', parameters: atsParameters() }]),
	);
	const fromJson = annexOf(result);
	expect(result.output('Read XML')[0].binary).toBeUndefined();
	expect(fromJson.xml).toBe(fromFiles.xml);
});

test('through Check Authorization: every receipt checked with the SRI, nothing left unchecked; pairing with every input item', async () => {
	const keys = month.map((r) => ({ json: { key: r.key } }));
	const result = await env.engine.run(
		chain(keys, [
			{ name: 'Check', parameters: env.check() },
			{ name: 'ATS', parameters: atsParameters() },
		]),
	);
	const annex = annexOf(result);
	expect(annex.json.problems).toEqual([]);
	expect(annex.json.totals).toEqual(annexOf(await build()).json.totals);
	expect(annex.item.pairedItem).toEqual(month.map((_, item) => ({ item })));
});

test('new nodes (version 2): the files through Read XML and Check Authorization with nothing set give the same file', async () => {
	const fromFiles = annexOf(await build());
	const read = {
		resource: 'receipt',
		operation: 'readXml',
		xmlSource: 'binary',
		binaryPropertyName: 'data',
	};
	const result = await env.engine.run(
		chain(files, [
			{ name: 'Read XML', parameters: read, typeVersion: 2 },
			checkStep(env.address),
			{ name: 'ATS', parameters: atsParameters() },
		]),
	);
	const annex = annexOf(result);
	// Version 2 passes each file on (its ledger row has no comprobante): the ATS reads the files.
	expect(result.output('Check').every((i) => i.binary?.data !== undefined)).toBe(true);
	expect(annex.xml).toBe(fromFiles.xml);
	expect(annex.json.problems).toEqual([]);
});

describe('what the bookkeeper chooses', () => {
	test('Tax Support per Item wins over the form and the retention, and names the disagreement', async () => {
		const items = month.map((r) =>
			fileItem(r.file, {
				sustento: r.name === 'goods invoice' ? '03' : r.name === 'mixed invoice' ? 7 : '',
			}),
		);
		const annex = annexOf(await build({ taxSupportPerItem: '={{ $json.sustento }}' }, items));
		const rows = blocks(annex.xml, 'detalleCompras');
		const of = (id, seq) =>
			field(
				String(rows.find((b) => b.includes(`<idProv>${id}<`) && b.includes(seq))),
				'codSustento',
			);
		expect(of(PARTIES.papeleria.id, '000004521')).toBe('03');
		expect(of(PARTIES.contable.id, '000000310')).toBe('07');
		expect(of(PARTIES.lacteos.id, '000010234')).toBe('01');
		expect(annex.json.problems).toContainEqual(
			expect.stringContaining('Tax Support per Item says 03, your retention'),
		);
	});

	test('Related Party per Item marks purchases and sales (never consumidor final)', async () => {
		const related = new Set(['mixed invoice', 'sale to a person', 'sale to consumidor final']);
		const items = month.map((r) => fileItem(r.file, { rel: related.has(r.name) ? 'SI' : false }));
		const annex = annexOf(await build({ relatedParty: '={{ $json.rel }}' }, items));
		const compras = blocks(annex.xml, 'detalleCompras');
		expect(field(String(compras.find((b) => b.includes(PARTIES.contable.id))), 'parteRel')).toBe(
			'SI',
		);
		const ventas = blocks(annex.xml, 'detalleVentas');
		expect(field(String(ventas.find((b) => b.includes(PARTIES.cliente.id))), 'parteRelVtas')).toBe(
			'SI',
		);
		expect(
			field(String(ventas.find((b) => b.includes(PARTIES.consumidor.id))), 'parteRelVtas'),
		).toBeUndefined();
	});

	test('Registration Date per Item moves a purchase into the period (fechaRegistro) or out of it', async () => {
		const moved = new Set(['purchase of the month before']);
		const out = new Set(['mixed invoice']);
		const items = month.map((r) =>
			fileItem(r.file, {
				registro: moved.has(r.name) ? '02/10/2026' : out.has(r.name) ? '2026-11-02' : '',
			}),
		);
		const annex = annexOf(
			await build({ options: { registrationDate: '={{ $json.registro }}' } }, items),
		);
		const row = String(blocks(annex.xml, 'detalleCompras').find((b) => b.includes('000004400')));
		expect([field(row, 'fechaRegistro'), field(row, 'fechaEmision')]).toEqual([
			'02/10/2026',
			'28/09/2026',
		]);
		expect(annex.xml).not.toContain('<secuencial>000000310<');
		expect(annex.json.warnings).toContainEqual(
			expect.stringContaining('registered 2026-11-02, outside the period'),
		);
	});

	test('Own Electronic Sales → Leave Out: no ventas, each sale and the retention on it named', async () => {
		const annex = annexOf(await build({ electronicSales: 'leaveOut' }));
		expect(annex.xml).not.toContain('<ventas>');
		expect(elements(annex.xml, 'codEstab')).toEqual(['001', '002']);
		const warnings = /** @type {string[]} */ (annex.json.warnings);
		for (const r of month.filter((x) => x.role === 'sale'))
			expect(warnings).toContainEqual(
				expect.stringMatching(
					new RegExp(`^\\[item ${month.indexOf(r) + 1}\\] .*own electronic sales are left out`),
				),
			);
		expect(warnings).toContainEqual(
			expect.stringContaining('left out with the sale it withholds on'),
		);
	});

	test('Semestral: the semester declared as month 06 with regimenMicroempresa SI, its six months in it', async () => {
		const june = monthOfReceipts({ year: 2026, month: 6 });
		const march = monthOfReceipts({ year: 2026, month: 3 }).filter((r) => r.role === 'purchase');
		const items = [...june, ...march].map((r) => fileItem(r.file));
		const annex = annexOf(await build({ filing: 'semestral', yearMonth: '2026-06' }, items));
		expect([elements(annex.xml, 'Mes'), elements(annex.xml, 'regimenMicroempresa')]).toEqual([
			['06'],
			['SI'],
		]);
		expect(annex.json.periodo).toEqual({ desde: '2026-01-01', hasta: '2026-06-30' });
		// March's purchases and the purchase of May (June's "month before") are in it.
		expect(blocks(annex.xml, 'detalleCompras')).toHaveLength(7 + 7 + 1);
	});

	test('Period → The Last Complete One: the previous month in Ecuador, from the one clock', async () => {
		const { result } = await withFakeClock(() => build({ period: 'previous', yearMonth: '' }));
		const annex = annexOf(result);
		const now = new Date(Date.now() - 5 * 3600_000);
		const previous = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1));
		expect([annex.json.anio, annex.json.mes]).toEqual([
			String(previous.getUTCFullYear()),
			String(previous.getUTCMonth() + 1).padStart(2, '0'),
		]);
	});
});

describe('bad input: a clear error naming every item concerned, and no file', () => {
	test('purchases without a tax support: every one named, with where to set it', async () => {
		const result = await build({ taxSupport: '' });
		expect(result.output('ATS')).toEqual([]);
		expect(result.error?.message).toMatch(
			/^No ATS was built: purchases without a tax support \(codSustento\): \[item \d+\] factura .* \(3 problems in all: see the details\)$/,
		);
		for (const name of ['zero-rate invoice', 'mixed invoice', 'debit note received'])
			expect(result.error?.description).toContain(`[item ${byName[name].item + 1}] `);
		expect(result.error?.description).toContain('Choose Tax Support (codSustento)');
		expect(result.error?.description).toContain('No file was built.');
	});

	test('with Continue On Fail: one error item, paired with every input item', async () => {
		const result = await env.engine.run(
			chain(files, [
				{ name: 'ATS', parameters: atsParameters({ taxSupport: '' }), continueOnFail: true },
			]),
		);
		const out = result.output('ATS');
		expect(out).toHaveLength(1);
		expect(out[0].binary).toBeUndefined();
		expect(String(out[0].json.error)).toMatch(/^No ATS was built/);
		expect(out[0].pairedItem).toEqual(month.map((_, item) => ({ item })));
	});

	test('a tax support the document type does not take, and one that is not a code', async () => {
		const items = month.map((r) =>
			fileItem(r.file, {
				s: r.name === 'own purchase settlement' ? '09' : r.name === 'mixed invoice' ? 'ab' : '',
			}),
		);
		const result = await build({ taxSupportPerItem: '={{ $json.s }}' }, items);
		expect(result.error?.description).toContain(
			`[item ${byName['own purchase settlement'].item + 1}] liquidación de compra 001-001-000000015`,
		);
		expect(result.error?.description).toContain('a liquidación de compra accepts 01, 02, 03');
		expect(result.error?.description).toContain(
			`[item ${byName['mixed invoice'].item + 1}] factura`,
		);
		expect(result.error?.description).toContain('"ab"');
	});

	test('Informant RUC: not a RUC of 13 digits ending in 001 (an expression may give nothing)', async () => {
		for (const ruc of ['={{ "" }}', '179214673900', '1792146739002']) {
			const result = await build({ informantRuc: ruc });
			expect(result.error?.message).toMatch(
				/^No ATS was built: form fields to fix: Informant RUC: must be your RUC, 13 digits ending in 001/,
			);
			expect(result.output('ATS')).toEqual([]);
		}
	});

	test('a RUC that fails its check digit builds the file, with a problem saying so', async () => {
		const ruc = '1792146739001'.slice(0, 9) + '0001';
		const annex = annexOf(await build({ informantRuc: ruc }, [{ json: { error: 'none read' } }]));
		expect(annex.json.problems).toContainEqual(
			expect.stringContaining(`Informant RUC ${ruc} fails its check`),
		);
	});

	test('a receipt neither issued by nor addressed to the informant, and items that are not receipts', async () => {
		const stranger = receiptOf({
			name: 'x',
			type: '01',
			issuer: PARTIES.papeleria,
			to: PARTIES.cliente,
			series: '001002',
			sequential: 9,
			date: '05/10/2026',
			lines: [{ description: 'Papel', quantity: 1, price: 10, code: 4 }],
		});
		const items = [
			...files.slice(0, 3),
			fileItem(stranger.xml),
			{ json: { cliente: 'no es un comprobante' } },
			fileItem('<pedido>1</pedido>'),
			fileItem('<factura'),
		];
		const result = await build({}, items);
		const text = String(result.error?.description);
		expect(result.error?.message).toMatch(
			/^No ATS was built: items that are not receipts the annex can read: \[item 5\] is not a receipt.* \(4 problems in all: see the details\)$/,
		);
		expect(text).toContain(
			'[item 4] factura 001-002-000000009 of Papelería Central Cía. Ltda. (1791012348001)',
		);
		expect(text).toContain(`to Carlos Andrés Mena (${PARTIES.cliente.id})`);
		expect(text).toContain(
			'[item 5] is not a receipt: it has neither a receipt XML file in its binary field "data" (it has no file)',
		);
		expect(text).toContain(
			'[item 6] comprobante.xml (binary field "data"): is not an SRI receipt: its root element is "pedido"',
		);
		expect(text).toContain(
			'[item 7] comprobante.xml (binary field "data"): is not XML the package can read',
		);
		expect(text).toContain('No file was built.');
	});

	test('Year and Month: not a month, and a semester that does not end in June or December', async () => {
		expect((await build({ yearMonth: '10/2026' })).error?.message).toBe(
			'No ATS was built: form fields to fix: Year and Month: must be a year and month as yyyy-mm, e.g. 2026-10, got "10/2026"',
		);
		expect((await build({ filing: 'semestral', yearMonth: '2026-10' })).error?.message).toContain(
			'a semester is declared as its last month: 2026-06 (January to June) or 2026-12',
		);
	});
});

describe('what the SRI or the node before said', () => {
	test('an error item of the node before is a problem; a key the SRI does not know and a rejected receipt are warnings', async () => {
		const rejected = month[0];
		const items = [
			...files.slice(1, 4),
			{ json: { error: 'Access key 2110…: SRI did not answer in time' } },
			{ json: { clave_acceso: '1'.repeat(49), found: false, authorized: false, source: 'sri' } },
			fileItem(
				rejected.file.replace('<estado>AUTORIZADO</estado>', '<estado>NO AUTORIZADO</estado>'),
			),
		];
		const annex = annexOf(await build({}, items));
		expect(annex.json.problems).toContainEqual(
			expect.stringMatching(
				/^\[item 4\] came from the node before as an error: "Access key 2110…: SRI did not answer in time"/,
			),
		);
		expect(annex.json.warnings).toEqual(
			expect.arrayContaining([
				expect.stringMatching(
					/^\[item 5\] access key 1{49}: left out, the SRI gave no receipt for it/,
				),
				expect.stringMatching(
					/^\[item 6\] factura 001-002-000004521 .*left out, not authorized by the SRI \(NO AUTORIZADO\)/,
				),
			]),
		);
	});

	test('no receipt at all builds an empty annex of the period, valid all the same', async () => {
		const annex = annexOf(await build({}, [{ json: { error: 'nothing found' } }]));
		expect(annex.xml).not.toContain('<compras>');
		expect(xsdErrors(annex.xml)).toEqual([]);
	});
});

describe('ready to file, or check first', () => {
	const sri = built('nodes/Sri/Sri.node', 'Sri');
	test('version 3 has two outputs, Ready to File and Check First; saved workflows keep one', () => {
		const build = { resource: 'monthlyAnnex', operation: 'build' };
		expect(outputNames(sri, 3, build)).toEqual(['Ready to File', 'Check First']);
		expect(outputNames(sri, 2, build)).toEqual(['main']);
		expect(outputNames(sri, 3, { resource: 'receipt', operation: 'readXml' })).toEqual([
			'Read',
			'Not Read',
		]);
	});

	/** The ATS of `items` by a node of version 3: what left by each output. */
	const outputs = async (items, parameters = {}) => {
		const result = await env.engine.run(
			chain(items, [{ name: 'ATS', parameters: atsParameters(parameters), typeVersion: 3 }]),
		);
		if (result.error) throw result.error;
		return { ready: result.output('ATS', 0), check: result.output('ATS', 1) };
	};

	test('a month with nothing to check leaves by Ready to File, the file on it', async () => {
		const keys = month.map((r) => ({ json: { key: r.key } }));
		const result = await env.engine.run(
			chain(keys, [
				{ name: 'Check', parameters: env.check() },
				{ name: 'ATS', parameters: atsParameters(), typeVersion: 3 },
			]),
		);
		expect(result.output('ATS', 1)).toEqual([]);
		const [item] = result.output('ATS', 0);
		expect(item.json.ready_to_file).toBe(true);
		expect(item.json.problems).toEqual([]);
		expect(item.binary?.data.fileName).toBe(`ATS_${INFORMANT.ruc}_2026_10.xml`);
	});

	test('a month with problems leaves by Check First, the file on it, never by Ready to File', async () => {
		const { ready, check } = await outputs(files);
		expect(ready).toEqual([]);
		expect(check).toHaveLength(1);
		expect(check[0].json.ready_to_file).toBe(false);
		expect(check[0].json.problems).toHaveLength(1);
		expect(check[0].binary?.data).toBeDefined();
	});

	test('the wrong month: no receipt of it stops the run, naming the period and the months the receipts are of', async () => {
		const result = await build({ yearMonth: '2026-08' });
		expect(result.output('ATS')).toEqual([]);
		expect(result.error?.message).toMatch(
			/^No ATS was built: no purchases and sales of the period: Year and Month 2026-08: none of the \d+ purchases and sales is of it; they are of 2026-10 \(\d+\), 2026-09 \(\d+\)/,
		);
		expect(result.error?.description).toContain('Check Year and Month');
	});

	test('most receipts of another month: built, with a problem asking whether the period is the one meant', async () => {
		const annex = annexOf(await build({ yearMonth: '2026-09' }));
		expect(annex.json.ready_to_file).toBe(false);
		expect(annex.json.problems).toContainEqual(
			expect.stringMatching(
				/^\d+ of the \d+ purchases and sales are of other months than 2026-09 \(2026-10 \(\d+\)\) and are left out \(see the warnings\): is Year and Month the period you mean to file\?$/,
			),
		);
	});
});
