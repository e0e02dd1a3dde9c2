import { cfdiXml, uuidWith } from '../simulator/cfdi';
import { cfdiItem, fileItem, readXml, startSat } from './setup';
/** @import { SatEnv } from './setup' */

/** Read CFDI XML through n8n-core's engine: what it outputs, one item per concepto, and what it refuses. */

/** @type {SatEnv} */
let env;
beforeAll(async () => {
	env = await startSat();
});
afterAll(async () => env.stop());
beforeEach(() => env.reset());

const items = (result) => result.output('SAT (Mexico)');

test('one item per CFDI: summary, conceptos, comprobante, warnings, and the file passed on; nothing is sent', async () => {
	const cfdi = cfdiXml({ uuid: uuidWith('A000', 9) });
	const result = await env.run(readXml(), [fileItem(cfdi.xml, { fileName: `${cfdi.uuid}.xml` })]);
	expect(result.error).toBeUndefined();
	const [item] = items(result);
	expect(Object.keys(item.json)).toEqual([
		'uuid',
		'version',
		'tipo',
		'serie',
		'folio',
		'fecha',
		'emisor',
		'receptor',
		'moneda',
		'tipo_cambio',
		'subtotal',
		'descuento',
		'total',
		'impuestos',
		'metodo_pago',
		'forma_pago',
		'timbre',
		'conceptos',
		'comprobante',
		'warnings',
	]);
	expect(item.json).toMatchObject({ uuid: cfdi.uuid, total: 1346.18, warnings: [] });
	expect(item.json.conceptos).toHaveLength(2);
	expect(item.binary?.data?.fileName).toBe(`${cfdi.uuid}.xml`);
	expect(item.pairedItem).toEqual({ item: 0 });
	expect(env.calls()).toEqual([]);
});

test('One Item per Concepto: a row per concepto with the CFDI’s identity, paired with its CFDI', async () => {
	const a = cfdiXml({ uuid: uuidWith('A000', 1), folio: '1' });
	const b = cfdiXml({
		uuid: uuidWith('A000', 2),
		folio: '2',
		conceptos: [{ descripcion: 'Papel', cantidad: 10, valorUnitario: 12.5, unidad: 'Caja' }],
	});
	const result = await env.run(readXml({ onePerConcepto: true }), [
		fileItem(a.xml),
		fileItem(b.xml),
	]);
	expect(result.error).toBeUndefined();
	const rows = items(result);
	expect(rows.map((r) => [r.json.uuid, r.json.concepto_numero, r.pairedItem])).toEqual([
		[a.uuid, 1, { item: 0 }],
		[a.uuid, 2, { item: 0 }],
		[b.uuid, 1, { item: 1 }],
	]);
	expect(rows[2].json).toEqual({
		uuid: b.uuid,
		version: '4.0',
		tipo: 'ingreso',
		serie: 'A',
		folio: '2',
		fecha: '2026-10-15T10:30:00',
		emisor_rfc: 'EKU9003173C9',
		emisor_nombre: 'ESCUELA KEMPER URGATE',
		receptor_rfc: 'URE180429TM6',
		receptor_nombre: 'UNIVERSIDAD ROBOTICA ESPAÑOLA',
		moneda: 'MXN',
		tipo_cambio: null,
		concepto_numero: 1,
		clave_prod_serv: '43232408',
		no_identificacion: 'SKU-5',
		descripcion: 'Papel',
		cantidad: 10,
		clave_unidad: 'H87',
		unidad: 'Caja',
		valor_unitario: 12.5,
		importe: 125,
		descuento: 0,
		objeto_imp: '02',
		impuestos_trasladados: 20,
		impuestos_retenidos: 0,
		iva_base: 125,
		iva_tipo_factor: 'Tasa',
		iva_tasa: 0.16,
		iva_trasladado: 20,
		ieps_base: null,
		ieps_tipo_factor: null,
		ieps_tasa_o_cuota: null,
		ieps_trasladado: 0,
		iva_retenido_base: null,
		iva_retenido_tipo_factor: null,
		iva_retenido_tasa: null,
		iva_retenido: 0,
		isr_retenido_base: null,
		isr_retenido_tipo_factor: null,
		isr_retenido_tasa: null,
		isr_retenido: 0,
		ieps_retenido_base: null,
		ieps_retenido_tipo_factor: null,
		ieps_retenido_tasa_o_cuota: null,
		ieps_retenido: 0,
		warnings: '',
	});
	// The columns in this order: the concepto's, then each tax's base, factor, rate and amount.
	expect(Object.keys(rows[2].json).slice(-22, -1)).toEqual([
		'impuestos_retenidos',
		'iva_base',
		'iva_tipo_factor',
		'iva_tasa',
		'iva_trasladado',
		'ieps_base',
		'ieps_tipo_factor',
		'ieps_tasa_o_cuota',
		'ieps_trasladado',
		'iva_retenido_base',
		'iva_retenido_tipo_factor',
		'iva_retenido_tasa',
		'iva_retenido',
		'isr_retenido_base',
		'isr_retenido_tipo_factor',
		'isr_retenido_tasa',
		'isr_retenido',
		'ieps_retenido_base',
		'ieps_retenido_tipo_factor',
		'ieps_retenido_tasa_o_cuota',
		'ieps_retenido',
	]);
	expect(rows[0].binary).toBeUndefined();
});

test('from text (an expression), CFDI 3.3 and 3.2', async () => {
	const result = await env.run(readXml({ xmlSource: 'text', xml: '={{ $json.xml }}' }), [
		{ xml: cfdiXml({ version: '3.3' }).xml },
		{ xml: cfdiXml({ version: '3.2' }).xml },
	]);
	expect(result.error).toBeUndefined();
	expect(items(result).map((i) => [i.json.version, i.json.total])).toEqual([
		['3.3', 1346.18],
		['3.2', 1346.18],
	]);
});

test('a CFDI in windows-1252 or ISO-8859-1, as older CFDIs were written', async () => {
	const xml = cfdiXml({ version: '3.2' }).xml.replace('encoding="UTF-8"', 'encoding="ISO-8859-1"');
	const result = await env.run(readXml(), [fileItem(Buffer.from(xml, 'latin1'))]);
	expect(result.error).toBeUndefined();
	expect(items(result)[0].json.receptor.nombre).toBe('UNIVERSIDAD ROBOTICA ESPAÑOLA');
});

describe('what it refuses, naming the field', () => {
	test('no such binary field', async () => {
		const result = await env.run(readXml({ binaryPropertyName: 'xml' }), [cfdiItem()]);
		expect(result.error?.message).toBe(
			'[item 1] Input Binary Field "xml": the input item has no such binary field; it has "data"',
		);
		const none = await env.run(readXml(), [{ json: {} }]);
		expect(none.error?.message).toBe(
			'[item 1] Input Binary Field "data": the input item has no such binary field: it carries no file at all, so the previous node did not output one',
		);
	});

	test('an empty file, empty text', async () => {
		expect((await env.run(readXml(), [fileItem('   ')])).error?.message).toBe(
			'[item 1] File "cfdi.xml": is an empty file',
		);
		expect(
			(await env.run(readXml({ xmlSource: 'text', xml: '={{ "  " }}' }), [{}])).error?.message,
		).toBe('[item 1] XML: is required: give the XML text');
	});

	test('a PDF, broken XML, a file that is not a CFDI: what is wrong and where', async () => {
		const pdf = await env.run(readXml(), [
			fileItem(Buffer.from('%PDF-1.4\n%âãÏÓ\n1 0 obj', 'latin1')),
		]);
		expect(pdf.error?.message).toMatch(
			/^\[item 1\] File "cfdi.xml": is not XML the package can read: /,
		);
		expect(pdf.error?.description).toMatch(/not its PDF, a ZIP or an acknowledgment/);
		const broken = await env.run(readXml(), [
			fileItem(cfdiXml().xml.replace('</cfdi:Conceptos>', '')),
		]);
		expect(broken.error?.message).toMatch(
			/^\[item 1\] File "cfdi.xml": is not XML the package can read: the XML is not well-formed: the end tag "cfdi:Comprobante" at line 2, column \d+ does not match "cfdi:Conceptos"/,
		);
		const other = await env.run(readXml(), [fileItem('<?xml version="1.0"?><Acuse/>')]);
		expect(other.error?.message).toBe(
			'[item 1] File "cfdi.xml": it is not a CFDI: its root element is "Acuse" without a namespace, where a CFDI has "cfdi:Comprobante" in http://www.sat.gob.mx/cfd/4 (4.0) or http://www.sat.gob.mx/cfd/3 (3.3, 3.2)',
		);
	});

	test('with Continue On Fail, a bad file is an error item and the others are read', async () => {
		const result = await env.run(
			readXml(),
			[cfdiItem(), fileItem('nope'), cfdiItem({ version: '3.3' })],
			true,
		);
		expect(items(result).map((i) => i.json.version ?? i.json.error)).toEqual([
			'4.0',
			expect.stringMatching(/^\[item 2\] File "cfdi.xml": is not XML the package can read/),
			'3.3',
		]);
	});
});

test('One Item per Concepto: withheld taxes, one column per tax', async () => {
	const cfdi = cfdiXml({
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
	const result = await env.run(readXml({ onePerConcepto: true }), [fileItem(cfdi.xml)]);
	expect(items(result)[0].json).toMatchObject({
		impuestos_trasladados: 1600,
		impuestos_retenidos: 2066.67,
		iva_trasladado: 1600,
		ieps_trasladado: 0,
		isr_retenido: 1000,
		iva_retenido: 1066.67,
		ieps_retenido: 0,
	});
	expect(items(result)[0].json).not.toHaveProperty('retenciones');
});

test('the memory budget counts what n8n holds: a 4 MB CFDI read as 30,000 rows stops the run, saying why', async () => {
	// 30,000 rows of short conceptos: 25 MB of JSON text, all the budget counted before (a 10 MB CFDI's 57 MB passed
	// it while n8n took 840 MB); counted as n8n holds them (budget.ts keptSize), they pass 512 MB and the item fails.
	const concepto = (n) =>
		`<cfdi:Concepto ClaveProdServ="01010101" Cantidad="1" ClaveUnidad="H87" Descripcion="Art ${n}" ValorUnitario="1" Importe="1" ObjetoImp="01"/>\n`;
	const xml = cfdiXml({ uuid: uuidWith('A000', 7) }).xml.replace(
		/<cfdi:Conceptos>[\s\S]*<\/cfdi:Conceptos>/,
		`<cfdi:Conceptos>${Array.from({ length: 30_000 }, (_, n) => concepto(n)).join('')}</cfdi:Conceptos>`,
	);
	expect(xml.length).toBeGreaterThan(3_500_000);
	const bigCfdi = () => xml;
	const result = await env.run(
		readXml({ xmlSource: 'text', xml: '={{ $json.xml }}', onePerConcepto: true }),
		[{ xml: bigCfdi() }],
	);
	expect(result.error?.message).toBe(
		'[item 1] SAT (Mexico): this run would keep more than 512 MB in memory',
	);
	expect(result.error?.description).toMatch(
		/One run of a node keeps at most 512 MB .* Read fewer CFDIs per run .* passes the limit alone/,
	);
}, 60000);
