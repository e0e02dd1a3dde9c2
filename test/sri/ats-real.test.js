import { INFORMANT, PARTIES, receiptOf } from '../fixtures/sri/month';
import { REAL_PARTIES, realMonth } from '../fixtures/sri/real-month';
import { keyFor } from '../simulator/sri';
import { IVA_WITHHELD_FIELDS } from '../../nodes/Sri/domain/ats/catalog';
import {
	MONTH,
	annexOf,
	atsParameters,
	blocks,
	chain,
	checkStep,
	elements,
	field,
	fileItem,
} from './ats-setup';
import { startSri } from './setup';
/** @import { IDataObject } from 'n8n-workflow' */
/** @import { SriEnv } from './setup' */

/**
 * The ATS a real company files (issue 42), through n8n's engine: a month with a reimbursement invoice, a purchase
 * settlement paid abroad with its retention, withholdings at 0 % IVA, an export invoice, a voided receipt and a
 * supplier receipt only the SRI's list has (test/fixtures/sri/real-month.js), given as files → Check Authorization →
 * the ATS with the voided receipts' keys and the SRI's list: each written as the schema writes it (every file
 * checked by xmllint, annexOf), the export and the missing receipt named in problems. Then each rule alone: what
 * stops, what is a problem, what is only said.
 */

/** @type {SriEnv} */
let env;
const month = realMonth(MONTH);
const byName = Object.fromEntries(month.receipts.map((r, item) => [r.name, { ...r, item }]));
const files = month.receipts.map((r) => fileItem(r.file, {}, 'data', r.fileName));

beforeAll(async () => (env = await startSri()));
afterAll(() => env.stop());
beforeEach(() => {
	env.reset();
	for (const r of [...month.receipts, month.onlyInList]) env.sim.receipts.set(r.key, r.xml);
});

/** The options of the month as a bookkeeper sets them: the voided receipts' keys as text, the SRI's list as a list. */
const monthOptions = () => ({
	voidedReceipts: month.voided.join('\n'),
	sriListedKeys: `={{ ${JSON.stringify(month.list.keys)} }}`,
});

/** `items` → Check Authorization → the ATS of MONTH with `parameters` (`options` merged over the month's). */
const build = async (items = files, parameters = {}) =>
	env.engine.run(
		chain(items, [
			checkStep(env.address),
			{
				name: 'ATS',
				parameters: atsParameters({
					...parameters,
					options: { ...monthOptions(), ...(parameters.options ?? {}) },
				}),
			},
		]),
	);

/** The `<detalleCompras>` of `xml` whose secuencial is `secuencial` (9 digits). */
const purchase = (xml, secuencial) =>
	String(blocks(xml, 'detalleCompras').find((b) => b.includes(`<secuencial>${secuencial}<`)));

/** The named children of `block`, in the order the file writes them. */
const children = (block, names) =>
	Object.fromEntries(names.map((n) => [n, field(block, n)]).filter(([, v]) => v !== undefined));

/** Every child of `block` with text, as [name, text] in the order the file writes them. */
const pairs = (block) => [...block.matchAll(/<(\w+)>([^<]*)<\/\1>/g)].map((m) => [m[1], m[2]]);

/** The IVA withheld fields of a purchase (valRetBien10 … valRetServ100), each at `0.00`: nothing withheld. */
const IVA_FIELDS = IVA_WITHHELD_FIELDS.map(([, name]) => name);
const NOTHING_WITHHELD = Object.fromEntries(IVA_FIELDS.map((name) => [name, '0.00']));

describe('a real company’s month: files → Check Authorization → the ATS with the voided receipts and the SRI’s list', () => {
	/** @type {ReturnType<typeof annexOf>} */
	let annex;
	beforeAll(async () => {
		env.reset();
		for (const r of [...month.receipts, month.onlyInList]) env.sim.receipts.set(r.key, r.xml);
		annex = annexOf(await build());
	});

	test('a reimbursement invoice: tipoComprobante 41, totbasesImpReemb, one reembolso per reimbursed document in the schema’s order', () => {
		const b = purchase(annex.xml, '000002201');
		expect(
			children(b, [
				'tipoComprobante',
				'codSustento',
				'baseNoGraIva',
				'baseImpGrav',
				'montoIva',
				'totbasesImpReemb',
			]),
		).toEqual({
			tipoComprobante: '41',
			codSustento: '02',
			baseNoGraIva: '135.00',
			baseImpGrav: '10.00',
			montoIva: '1.50',
			totbasesImpReemb: '120.00',
		});
		const reembolsos = blocks(b, 'reembolso');
		expect(reembolsos).toHaveLength(2);
		// Every element, in order: the schema's reembolsoType.
		expect(reembolsos.map(pairs)).toEqual([
			[
				['tipoComprobanteReemb', '01'],
				['tpIdProvReemb', '01'],
				['idProvReemb', REAL_PARTIES.hotel.id],
				['establecimientoReemb', '002'],
				['puntoEmisionReemb', '001'],
				['secuencialReemb', '000001234'],
				['fechaEmisionReemb', '02/10/2026'],
				[
					'autorizacionReemb',
					keyFor({
						ruc: REAL_PARTIES.hotel.id,
						series: '002001',
						sequential: 1234,
						date: '02102026',
					}),
				],
				['baseImponibleReemb', '0.00'],
				['baseImpGravReemb', '100.00'],
				['baseNoGraIvaReemb', '0.00'],
				['baseImpExeReemb', '0.00'],
				['montoIceRemb', '0.00'],
				['montoIvaRemb', '15.00'],
			],
			[
				['tipoComprobanteReemb', '01'],
				['tpIdProvReemb', '01'],
				['idProvReemb', REAL_PARTIES.taxista.id],
				['establecimientoReemb', '001'],
				['puntoEmisionReemb', '001'],
				['secuencialReemb', '000000088'],
				['fechaEmisionReemb', '03/10/2026'],
				['autorizacionReemb', '1122334455'],
				['baseImponibleReemb', '20.00'],
				['baseImpGravReemb', '0.00'],
				['baseNoGraIvaReemb', '0.00'],
				['baseImpExeReemb', '0.00'],
				['montoIceRemb', '0.00'],
				['montoIvaRemb', '0.00'],
			],
		]);
		// The reembolsos close the row, after the retention's number (the schema's order, not Odoo's template's).
		expect(b.indexOf('<reembolsos>')).toBeGreaterThan(b.indexOf('<fechaEmiRet1>'));
		const row = /** @type {IDataObject[]} */ (annex.json.compras).find(
			(r) => r.numero === '001-001-000002201',
		);
		expect(row).toMatchObject({
			tipoComprobante: '41',
			totbasesImpReemb: '120.00',
			// One column per field of the reimbursed documents, their values in order (a sheet takes it flat).
			idProvReemb: expect.stringMatching(new RegExp(`^${REAL_PARTIES.hotel.id}, `)),
		});
	});

	test('the retention on it names it as 41 without its access key: found by its number; its IVA at 0 % (code 8) adds nothing', () => {
		const b = purchase(annex.xml, '000002201');
		expect(children(b, [...IVA_FIELDS, 'codRetAir', 'valRetAir', 'secRetencion1'])).toEqual({
			...NOTHING_WITHHELD,
			codRetAir: '344',
			valRetAir: '0.20',
			secRetencion1: '000000701',
		});
	});

	test('a purchase settlement paid abroad: pagoExterior as the company’s retention says, the country in the general regime’s element', () => {
		const b = purchase(annex.xml, '000000016');
		expect(
			children(b, [
				'tpIdProv',
				'idProv',
				'tipoProv',
				'denoProv',
				'valRetServ100',
				'codRetAir',
				'valRetAir',
			]),
		).toEqual({
			tpIdProv: '03',
			idProv: REAL_PARTIES.software.id,
			tipoProv: '02',
			denoProv: 'Cloud Tools LLC',
			valRetServ100: '150.00',
			codRetAir: '500',
			valRetAir: '250.00',
		});
		const pago = String(blocks(b, 'pagoExterior')[0]);
		expect(pairs(pago)).toEqual([
			['pagoLocExt', '02'],
			['tipoRegi', '01'],
			['paisEfecPagoGen', '110'],
			['paisEfecPago', '110'],
			['aplicConvDobTrib', 'NO'],
			['pagExtSujRetNorLeg', 'SI'],
		]);
	});

	test('withholdings at 0 % IVA (code 7): nothing in the IVA fields, the income tax in air, nothing stops', () => {
		const b = purchase(annex.xml, '000005050');
		expect(children(b, [...IVA_FIELDS, 'valRetAir'])).toEqual({
			...NOTHING_WITHHELD,
			valRetAir: '7.00',
		});
	});

	test('the export: out of ventas, named in problems as an export, listed for the DIMM', () => {
		const exported = byName['export invoice'];
		expect(annex.xml).not.toContain(REAL_PARTIES.andes.id);
		expect(blocks(annex.xml, 'detalleVentas').map((b) => field(b, 'idCliente'))).toEqual([
			PARTIES.ferreteria.id,
		]);
		expect(annex.json.problems).toContainEqual(
			expect.stringMatching(
				new RegExp(
					`^\\[item ${exported.item + 1}\\] factura 001-001-000000105 .* is an export \\(comercioExterior EXPORTADOR, destination country 110\\), of 2000\\.00 before taxes\\. The ATS reports exports in their own section, exportaciones`,
				),
			),
		);
		expect(annex.json.exportaciones_por_completar).toEqual([
			{
				item: exported.item,
				clave_acceso: exported.key,
				numero: '001-001-000000105',
				fecha_emision: '2026-10-17',
				cliente: REAL_PARTIES.andes.name,
				identificacion_cliente: REAL_PARTIES.andes.id,
				pais_destino: '110',
				incoterm: 'FOB',
				valor: 2000,
			},
		]);
	});

	test('the voided receipts: anulados in the schema’s order, one row each; the voided sale kept out of ventas, said', () => {
		const rows = blocks(annex.xml, 'detalleAnulados').map(pairs);
		expect(rows).toEqual([
			[
				['tipoComprobante', '01'],
				['establecimiento', '001'],
				['puntoEmision', '001'],
				['secuencialInicio', '000000107'],
				['secuencialFin', '000000107'],
				['autorizacion', month.voided[0]],
			],
			[
				['tipoComprobante', '01'],
				['establecimiento', '002'],
				['puntoEmision', '001'],
				['secuencialInicio', '000000061'],
				['secuencialFin', '000000061'],
				['autorizacion', month.voided[1]],
			],
		]);
		expect(annex.xml.indexOf('<anulados>')).toBeGreaterThan(
			annex.xml.indexOf('</ventasEstablecimiento>'),
		);
		const voided = byName['voided sale'];
		expect(elements(annex.xml, 'numeroComprobantes')).toEqual(['1']);
		expect(annex.json.warnings).toEqual([
			`[item ${voided.item + 1}] factura 001-001-000000107 of ${INFORMANT.name} (${INFORMANT.ruc}), access key ${voided.key}: left out, voided (Options → Voided Receipts (Access Keys)): it is reported in anulados, not as a sale or a purchase.`,
		]);
		expect(annex.json.anulados).toEqual([
			expect.objectContaining({ clave_acceso: month.voided[0], secuencialInicio: '000000107' }),
			expect.objectContaining({ clave_acceso: month.voided[1], secuencialInicio: '000000061' }),
		]);
	});

	test('held against the SRI’s list: the supplier invoice only the list has is a problem; the export and it are the only problems', () => {
		expect(annex.json.problems).toHaveLength(2);
		expect(annex.json.problems).toContainEqual(
			`The SRI lists factura 001-002-000004601 of ${PARTIES.papeleria.id}, issued 2026-10-26 (access key ${month.onlyInList.key}), as issued to you, and it is not among the items: a purchase missing from the annex is IVA credit lost. Fetch it with Check Authorization and run again, or add it in the DIMM.`,
		);
		expect(annex.json.ready_to_file).toBe(false);
	});

	test('the totals: the reimbursed bases beside the purchases’, credit notes none', () => {
		const totals = /** @type {Record<string, Record<string, number>>} */ (annex.json.totals);
		expect(totals.compras).toMatchObject({
			baseNoGraIva: 135,
			baseImpGrav: 1500,
			montoIva: 225,
			valRetServ100: 150,
			totbasesImpReemb: 120,
			valRetAir: 257.2,
		});
		expect(annex.json.counts).toMatchObject({
			compras: 4,
			ventas_comprobantes: 1,
			retenciones_emitidas: 3,
			anulados: 2,
			exportaciones_por_completar: 1,
		});
	});
});

describe('each rule alone', () => {
	const me = { id: INFORMANT.ruc, name: INFORMANT.name, type: '04' };
	/**
	 * A purchase invoice of `to` (100.00 at 15 %, the 5th), and the company's retention on it (the 6th) withholding
	 * `lines`, paid `abroad` when given: their files.
	 */
	/**
	 * @param {Array<{ codigo: string, codigoRetencion: string, base: number, percent: number }>} lines
	 * @param {{ sequential?: number, abroad?: import('../fixtures/sri/month').Abroad, to?: typeof PARTIES.papeleria }} [o]
	 */
	const withheld = (
		lines,
		{ sequential = 900, abroad = undefined, to = PARTIES.papeleria } = {},
	) => {
		const invoice = receiptOf({
			name: 'p',
			type: '01',
			issuer: to,
			to: me,
			series: '001002',
			sequential,
			date: '05/10/2026',
			payment: '20',
			lines: [{ description: 'Papel', quantity: 1, price: 100, code: 4 }],
		});
		const retention = receiptOf({
			name: 'r',
			type: '07',
			issuer: me,
			to,
			series: '001001',
			sequential: 9000 + sequential,
			date: '06/10/2026',
			retains: [
				{
					doc: {
						type: '01',
						number: `001002${String(sequential).padStart(9, '0')}`,
						date: '05/10/2026',
						key: invoice.key,
						total: invoice.total,
						taxes: invoice.taxes,
					},
					abroad,
					lines,
				},
			],
		});
		return [fileItem(invoice.xml), fileItem(retention.xml)];
	};
	/** The ATS of `items` read from their files, nothing checked with the SRI, no option. */
	const bare = (items, parameters = {}) =>
		env.engine.run(chain(items, [{ name: 'ATS', parameters: atsParameters(parameters) }]));

	test('a 0 % IVA line that says it withheld something: a problem naming the retention, nothing added', async () => {
		const zero = annexOf(
			await bare(withheld([{ codigo: '2', codigoRetencion: '7', base: 15, percent: 0 }])),
		);
		expect(field(zero.xml, 'valorRetBienes')).toBe('0.00');
		expect(zero.json.problems).toEqual([expect.stringContaining('without asking the SRI')]);
		// The fixture withholds base × percent: a code 8 line at 30 % says 4.50 withheld.
		const odd = withheld([{ codigo: '2', codigoRetencion: '8', base: 15, percent: 30 }], {
			sequential: 901,
		});
		const result = annexOf(await bare(odd));
		expect(field(result.xml, 'valorRetBienes')).toBe('0.00');
		expect(result.json.problems).toContainEqual(
			expect.stringMatching(
				/^\[item 2\] comprobante de retención 001-001-000009901 .*: its IVA withholding of code 8 at 30 % says 4\.50 withheld; a withholding at 0 % withholds nothing, so nothing of it is in the annex\./,
			),
		);
	});

	test('an IVA percentage the ATS has no field for still stops the annex, naming the retention', async () => {
		const result = await bare(
			withheld([{ codigo: '2', codigoRetencion: '4', base: 15, percent: 25 }], { sequential: 902 }),
		);
		expect(result.error?.message).toMatch(
			/^No ATS was built: IVA withheld at a percentage the ATS has no field for: \[item 2\] comprobante de retención 001-001-000009902 .*: 25 % \(retention code 4\)$/,
		);
	});

	test('paid abroad in a tax haven (02): the country in paisEfecPagoParFis; a preferential regime (03) asks a name no retention has: a problem', async () => {
		const haven = annexOf(
			await bare(
				withheld([{ codigo: '1', codigoRetencion: '500', base: 100, percent: 25 }], {
					sequential: 903,
					abroad: {
						tipoRegi: '02',
						country: '129',
						convenio: 'NO',
						sujetoRetencion: 'SI',
						regimenFiscal: 'SI',
					},
				}),
			),
		);
		const pago = String(blocks(haven.xml, 'pagoExterior')[0]);
		expect(pairs(pago)).toEqual([
			['pagoLocExt', '02'],
			['tipoRegi', '02'],
			['paisEfecPagoParFis', '129'],
			['paisEfecPago', '129'],
			['aplicConvDobTrib', 'NO'],
			['pagExtSujRetNorLeg', 'SI'],
			['pagoRegFis', 'SI'],
		]);
		const preferential = annexOf(
			await bare(
				withheld([{ codigo: '1', codigoRetencion: '500', base: 100, percent: 25 }], {
					sequential: 904,
					abroad: { tipoRegi: '03', country: '118', convenio: 'NO', sujetoRetencion: 'SI' },
				}),
			),
		);
		expect(preferential.xml).not.toContain('<denopagoRegFis>');
		expect(preferential.json.problems).toContainEqual(
			expect.stringContaining(
				'paid abroad, as [item 2] comprobante de retención 001-001-000009904',
			),
		);
		expect(preferential.json.problems).toContainEqual(
			expect.stringContaining('by its name (denopagoRegFis), which a retention does not carry'),
		);
	});

	test('a purchase settlement to a supplier identified abroad with no retention saying where it was paid: a problem naming it', async () => {
		const settlement = month.receipts.find((r) => r.name === 'purchase settlement paid abroad');
		const annex = annexOf(await bare([fileItem(String(settlement?.file))]));
		expect(field(annex.xml, 'pagoLocExt')).toBe('01');
		expect(annex.json.problems).toContainEqual(
			expect.stringMatching(
				/^\[item 1\] liquidación de compra 001-001-000000016 .*: a purchase from a supplier identified abroad \(tpIdProv 03\), and no retention of yours among the items says where it was paid \(pagoLocExt\): it is written as paid in Ecuador \(pagoLocExt 01\)\./,
			),
		);
	});

	test('a registration date before the emission date is a problem', async () => {
		const items = withheld([{ codigo: '1', codigoRetencion: '312', base: 100, percent: 1.75 }], {
			sequential: 905,
		}).map((item, k) => ({ ...item, json: { registro: k === 0 ? '2026-10-01' : '' } }));
		const annex = annexOf(
			await bare(items, { options: { registrationDate: '={{ $json.registro }}' } }),
		);
		expect(annex.json.problems).toContainEqual(
			expect.stringMatching(
				/^\[item 1\] factura 001-002-000000905 .*: registered 2026-10-01 \(Registration Date per Item\), before it was issued on 2026-10-05: a purchase is booked on or after its emission date/,
			),
		);
	});

	test('a retention dated early next month for a purchase of the month: counted with its purchase, in the month of the purchase', async () => {
		const [invoice] = withheld([], { sequential: 906 });
		const late = receiptOf({
			name: 'late',
			type: '07',
			issuer: me,
			to: PARTIES.papeleria,
			series: '001001',
			sequential: 9906,
			date: '03/11/2026',
			retains: [
				{
					doc: { type: '01', number: '001002000000906', date: '05/10/2026', total: 115, taxes: [] },
					lines: [{ codigo: '1', codigoRetencion: '312', base: 100, percent: 1.75 }],
				},
			],
		});
		const annex = annexOf(await bare([invoice, fileItem(late.xml)]));
		expect([field(annex.xml, 'fechaEmiRet1'), field(annex.xml, 'valRetAir')]).toEqual([
			'03/11/2026',
			'1.75',
		]);
		expect(annex.json.warnings).toEqual([]);
	});

	test('the company’s retention on a purchase of the month that is not among the items: a problem (its purchase and withholding would be missing), not ready', async () => {
		// A pre-printed invoice (its authorization 10 digits) is never an electronic item: only the retention says it.
		const [, retention] = withheld(
			[{ codigo: '1', codigoRetencion: '312', base: 100, percent: 1.75 }],
			{ sequential: 907 },
		);
		const [invoice] = withheld([], { sequential: 908 });
		const run = await bare([invoice, retention]);
		const annex = annexOf(run);
		const about = /** @type {string[]} */ (annex.json.problems).filter((p) =>
			p.startsWith('[item 2]'),
		);
		expect(about).toEqual([
			expect.stringMatching(
				/^\[item 2\] comprobante de retención 001-001-000009907 .*: left out, it withholds on factura 001002000000907 of 1791012348001, which is not among the items, so neither that purchase nor its withholding is in compras/,
			),
		]);
		expect(annex.json.ready_to_file).toBe(false);
		expect(field(annex.xml, 'valRetAir')).toBeUndefined();
	});

	test('a retention that lists its purchase twice (two blocks of withholdings): one retention on one purchase, every line counted', async () => {
		const [invoice] = withheld([], { sequential: 909 });
		const twice = receiptOf({
			name: 'twice',
			type: '07',
			issuer: me,
			to: PARTIES.papeleria,
			series: '001001',
			sequential: 9909,
			date: '06/10/2026',
			retains: [
				{
					doc: { type: '01', number: '001002000000909', date: '05/10/2026', total: 115, taxes: [] },
					lines: [{ codigo: '1', codigoRetencion: '312', base: 100, percent: 1.75 }],
				},
				{
					doc: { type: '01', number: '001002000000909', date: '05/10/2026', total: 115, taxes: [] },
					lines: [{ codigo: '2', codigoRetencion: '9', base: 15, percent: 10 }],
				},
			],
		});
		const annex = annexOf(await bare([invoice, fileItem(twice.xml)]));
		expect(annex.json.problems).not.toContainEqual(expect.stringContaining('retentions ('));
		expect([field(annex.xml, 'valRetAir'), field(annex.xml, 'valRetBien10')]).toEqual([
			'1.75',
			'1.50',
		]);
	});

	test('Voided Receipts: a key you did not issue, or that is not a key, stops the annex; one of another month is said and left out', async () => {
		const foreign = keyFor({
			ruc: PARTIES.papeleria.id,
			series: '001002',
			sequential: 1,
			date: '05102026',
		});
		const notYours = await bare(files, { options: { voidedReceipts: foreign } });
		expect(notYours.error?.message).toBe(
			`No ATS was built: form fields to fix: Options → Voided Receipts (Access Keys): factura 001-002-000000001, access key ${foreign} was issued by ${PARTIES.papeleria.id}, not by you (${INFORMANT.ruc})`,
		);
		const notAKey = await bare(files, { options: { voidedReceipts: `${month.voided[0]}, 123` } });
		expect(notAKey.error?.message).toBe(
			'No ATS was built: form fields to fix: Options → Voided Receipts (Access Keys): entry 2, "123", must be exactly 49 digits, got 3 digits',
		);
		const september = keyFor({ ruc: INFORMANT.ruc, sequential: 99, date: '30092026' });
		const annex = annexOf(
			await bare(files, { options: { voidedReceipts: `={{ ["${september}"] }}` } }),
		);
		expect(annex.xml).not.toContain('<anulados>');
		expect(annex.json.warnings).toContainEqual(
			`Options → Voided Receipts (Access Keys): factura 001-001-000000099, access key ${september}: left out of anulados, issued 2026-09-30, outside the period 2026-10-01 – 2026-10-31.`,
		);
	});

	test('a key the SRI gives no receipt for: a warning; held against the SRI’s list, a problem — never "is not a receipt"', async () => {
		const written = receiptOf({
			name: 'u',
			type: '01',
			issuer: PARTIES.papeleria,
			to: me,
			series: '001002',
			sequential: 4700,
			date: '20/10/2026',
			lines: [{ description: 'Papel', quantity: 1, price: 10, code: 4 }],
		});
		// Its key with a numeric code the simulator holds nothing for.
		const key = keyFor({
			scenario: 'unknown',
			ruc: PARTIES.papeleria.id,
			series: '001002',
			sequential: 4700,
			date: '20102026',
		});
		const unknown = { key, xml: written.xml.replace(written.key, key) };
		// The simulator does not hold it: Check Authorization says NO ENCONTRADO on the row, the file on the item.
		const items = [...files, fileItem(unknown.xml, {}, 'data', 'desconocida.xml')];
		const item = items.length - 1;
		const named = `[item ${item + 1}] factura 001-002-000004700 of ${PARTIES.papeleria.name} (${PARTIES.papeleria.id}), access key ${unknown.key}: left out, the SRI gave no receipt for it (NO ENCONTRADO)`;
		const warned = annexOf(await build(items, { options: { sriListedKeys: '' } }));
		expect(warned.json.warnings).toContainEqual(expect.stringContaining(named));
		expect(warned.json.problems).toEqual([expect.stringContaining('is an export')]);
		const listed = annexOf(
			await build(items, {
				options: { sriListedKeys: `={{ ${JSON.stringify([...month.list.keys, unknown.key])} }}` },
			}),
		);
		expect(listed.json.problems).toContainEqual(
			expect.stringContaining(
				`${named}: the file on the item is not the SRI's word. The SRI lists what was issued to you`,
			),
		);
		// Without the file: the ledger row alone (the key's row of a list) is the same receipt the SRI gave none for.
		const rowOnly = annexOf(
			await env.engine.run(
				chain(
					[{ json: { key: unknown.key } }],
					[
						checkStep(env.address, { accessKey: '={{ $json.key }}' }),
						{ name: 'ATS', parameters: atsParameters() },
					],
				),
			),
		);
		expect(rowOnly.json.warnings).toEqual([
			`[item 1] access key ${unknown.key}: left out, the SRI gave no receipt for it (NO ENCONTRADO).`,
		]);
	});

	test('a receipt the SRI lists for another month, not among the items: counted in one warning, not a problem', async () => {
		const september = keyFor({ ruc: PARTIES.papeleria.id, sequential: 1, date: '30092026' });
		const annex = annexOf(
			await build(files, { options: { sriListedKeys: `={{ ["${september}"] }}` } }),
		);
		expect(annex.json.problems).toEqual([expect.stringContaining('is an export')]);
		expect(annex.json.warnings).toContainEqual(
			'Options → Receipts the SRI Lists for You (Access Keys): one receipt the SRI lists is of another period than 2026-10-01 – 2026-10-31, and not among the items: not held against this annex.',
		);
	});
});
