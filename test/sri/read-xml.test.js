import { monthOfReceipts } from '../fixtures/sri/month';
import { entryXml, keyFor, receiptXml } from '../simulator/sri';
import { jsonOf, NODE, startSri } from './setup';
/** @import { SriEnv } from './setup' */

/**
 * Read XML: a receipt of every kind and version the SRI publishes, bare or inside its authorization file (as
 * the SRI's portal and suppliers send it, in CDATA or escaped, possibly inside the service's answer), from a
 * binary field or from text, gives the same summary as Check Authorization gives for it; nothing is sent.
 */

/** @type {SriEnv} */
let env;
beforeAll(async () => (env = await startSri()));
afterAll(() => env.stop());
beforeEach(() => env.reset());

/**
 * Every kind and version of the SRI's XSDs, with the amounts of the simulator's sample of it.
 * @type {Array<[string, string, string, Record<string, unknown>]>}
 */
const KINDS = [
	['factura', '01', '1.0.0', { total_sin_impuestos: 25, iva: 3, importe_total: 28 }],
	['factura', '01', '1.1.0', { total_sin_impuestos: 25, iva: 3, importe_total: 28 }],
	['factura', '01', '2.0.0', { total_sin_impuestos: 25, iva: 3, importe_total: 28 }],
	['factura', '01', '2.1.0', { total_sin_impuestos: 25, iva: 3, importe_total: 28 }],
	['liquidacion_compra', '03', '1.0.0', { total_sin_impuestos: 25, iva: 3, importe_total: 28 }],
	['liquidacion_compra', '03', '1.1.0', { total_sin_impuestos: 25, iva: 3, importe_total: 28 }],
	['nota_credito', '04', '1.0.0', { total_sin_impuestos: 10, iva: 1.5, importe_total: 11.5 }],
	['nota_credito', '04', '1.1.0', { total_sin_impuestos: 10, iva: 1.5, importe_total: 11.5 }],
	['nota_debito', '05', '1.0.0', { total_sin_impuestos: 10, iva: 1.5, importe_total: 11.5 }],
	['guia_remision', '06', '1.0.0', {}],
	['guia_remision', '06', '1.1.0', {}],
	[
		'comprobante_retencion',
		'07',
		'1.0.0',
		{ retenido: { renta: 1.75, iva: 4.5 }, total_retenido: 6.25 },
	],
	[
		'comprobante_retencion',
		'07',
		'2.0.0',
		{
			total_sin_impuestos: 100,
			iva: 15,
			importe_total: 115,
			retenido: { renta: 1.75, iva: 4.5 },
			total_retenido: 6.25,
		},
	],
];

/** The summary fields (what a receipt says of itself), without what only an authorization says. */
const summaryOf = (json) =>
	Object.fromEntries(
		Object.entries(json).filter(
			([key]) =>
				![
					'estado',
					'authorized',
					'source',
					'numero_autorizacion',
					'fecha_autorizacion',
					'numero_comprobantes',
					'sri_messages',
				].includes(key),
		),
	);

/** The SRI portal's authorization file: the receipt in CDATA, its date as the portal writes it. */
const authorizationFile = (key, receipt, escaped = false) =>
	`<?xml version="1.0" encoding="UTF-8"?>\n${entryXml({ estado: 'AUTORIZADO', key, comprobante: receipt, escaped, fecha: '21/10/2026 10:15:42' })}`;

describe.each(KINDS)('%s %s version %s', (tipo, type, version, amounts) => {
	const key = keyFor({ type, sequential: 40 + Number(type) });
	const receipt = receiptXml(key, { version });

	test('the bare receipt, its authorization file and Check Authorization give the same summary', async () => {
		const read = await env.run(env.readText(), [
			{ xml: receipt },
			{ xml: authorizationFile(key, receipt) },
			{ xml: authorizationFile(key, receipt, true) },
		]);
		expect(read.error).toBeUndefined();
		const [bare, file, escaped] = jsonOf(read);
		env.sim.receipts.set(key, receipt);
		const checked = await env.run(env.check(), [{ key }]);
		const [sri] = jsonOf(checked);
		expect(env.calls()).toHaveLength(1); // Check Authorization's question; Read XML sent nothing

		expect(bare).toMatchObject({
			clave_acceso: key,
			authorized: false,
			found: true,
			source: 'receipt_file',
			ambiente: 'produccion',
			tipo,
			version,
			numero: `001-001-${String(40 + Number(type)).padStart(9, '0')}`,
			fecha_emision: '2026-10-21',
			emisor: { ruc: '1790016919001', razon_social: 'Distribuidora Andina S.A.' },
			warnings: [],
			...amounts,
		});
		expect(bare).not.toHaveProperty('estado');
		expect(file).toMatchObject({
			estado: 'AUTORIZADO',
			authorized: true,
			source: 'authorization_file',
			fecha_autorizacion: '2026-10-21T10:15:42-05:00',
		});
		expect(sri).toMatchObject({ estado: 'AUTORIZADO', authorized: true, source: 'sri' });
		expect(summaryOf(file)).toEqual(summaryOf(bare));
		expect(summaryOf(escaped)).toEqual(summaryOf(bare));
		expect(summaryOf(sri)).toEqual(summaryOf(bare));
	});
});

describe('what Read XML reads', () => {
	const key = keyFor();
	const receipt = receiptXml(key);

	test('a binary field (an e-mail attachment): the file is passed on as <clave>.xml, nothing is sent', async () => {
		const file = authorizationFile(key, receipt);
		const result = await env.runWithFiles(env.readBinary(), [file]);
		expect(result.error).toBeUndefined();
		const [item] = result.output(NODE);
		expect(item.json).toMatchObject({ clave_acceso: key, authorized: true, tipo: 'factura' });
		expect(item.binary?.data.fileName).toBe(`${key}.xml`);
		expect(Buffer.from(String(item.binary?.data.data), 'base64').toString('utf8')).toBe(file);
		expect(env.calls()).toHaveLength(0);
	});

	test('the output of Check Authorization read again gives the same item', async () => {
		const checked = await env.run(env.check(), [{ key }]);
		const [item] = checked.output(NODE);
		const file = Buffer.from(String(item.binary?.data.data), 'base64');
		const read = await env.runWithFiles(env.readBinary(), [file]);
		const [again] = jsonOf(read);
		expect({ ...again, source: 'sri' }).toEqual(item.json);
	});

	test('the whole SOAP answer saved to a file, and RespuestaAutorizacionComprobante alone, are read as the service answers them', async () => {
		const entry = entryXml({ estado: 'AUTORIZADO', key, comprobante: receipt });
		const respuesta = `<RespuestaAutorizacionComprobante><claveAccesoConsultada>${key}</claveAccesoConsultada><numeroComprobantes>1</numeroComprobantes><autorizaciones>${entry}</autorizaciones></RespuestaAutorizacionComprobante>`;
		const envelope = `<soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body><ns2:autorizacionComprobanteResponse xmlns:ns2="http://ec.gob.sri.ws.autorizacion">${respuesta}</ns2:autorizacionComprobanteResponse></soap:Body></soap:Envelope>`;
		const result = await env.run(env.readText(), [{ xml: respuesta }, { xml: envelope }]);
		expect(jsonOf(result).map((j) => [j.clave_acceso, j.estado, j.numero_comprobantes])).toEqual([
			[key, 'AUTORIZADO', 1],
			[key, 'AUTORIZADO', 1],
		]);
	});

	test('a comprobante written inline (the receipt as elements, not text) is read too', async () => {
		const inline = `<autorizacion><estado>AUTORIZADO</estado><numeroAutorizacion>${key}</numeroAutorizacion><comprobante>${receipt.replace(/^<\?xml[^>]*\?>/, '')}</comprobante></autorizacion>`;
		const [json] = jsonOf(await env.run(env.readText(), [{ xml: inline }]));
		expect(json).toMatchObject({
			clave_acceso: key,
			authorized: true,
			tipo: 'factura',
			importe_total: 28,
		});
	});

	test('ISO-8859-1 as its declaration says, a BOM, leading blank lines', async () => {
		const latin = Buffer.from(
			receipt.replace('encoding="UTF-8"', 'encoding="ISO-8859-1"'),
			'latin1',
		);
		const bom = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(receipt)]);
		const result = await env.runWithFiles(env.readBinary(), [latin, bom]);
		expect(result.error).toBeUndefined();
		expect(jsonOf(result).map((j) => j.comprador)).toEqual([
			expect.objectContaining({ razon_social: 'María José Pérez & Hijos' }),
			expect.objectContaining({ razon_social: 'María José Pérez & Hijos' }),
		]);
		const text = await env.run(env.readText(), [{ xml: `\n\n  ${receipt}` }]);
		expect(jsonOf(text)[0].tipo).toBe('factura');
	});

	test('a bare receipt of the test environment, with a RUC that fails its check: warnings, never an error', async () => {
		const testKey = keyFor({ env: '1', ruc: '1791251236001' });
		const [json] = jsonOf(await env.run(env.readText(), [{ xml: receiptXml(testKey) }]));
		expect(json.ambiente).toBe('pruebas');
		expect(json.warnings).toEqual([
			expect.stringMatching(
				/^The issuer's RUC 1791251236001 fails its check: RUC \(company\) check digit/,
			),
			expect.stringContaining("SRI's test environment"),
		]);
	});

	test('a receipt whose own access key fails its check digit and disagrees with it: both said', async () => {
		const wrong = `${key.slice(0, 48)}${(Number(key[48]) + 1) % 10}`;
		const xml = receipt
			.replace(`<claveAcceso>${key}</claveAcceso>`, `<claveAcceso>${wrong}</claveAcceso>`)
			.replace('<secuencial>000000123</secuencial>', '<secuencial>000000124</secuencial>');
		const [json] = jsonOf(await env.run(env.readText(), [{ xml }]));
		expect(json.clave_acceso).toBe(wrong);
		expect(json.warnings).toEqual([
			expect.stringMatching(
				new RegExp(
					`^The receipt's claveAcceso ${wrong} is not a valid access key: it has check digit`,
				),
			),
		]);
		const mismatch = receipt.replace(
			'<secuencial>000000123</secuencial>',
			'<secuencial>000000124</secuencial>',
		);
		const [other] = jsonOf(await env.run(env.readText(), [{ xml: mismatch }]));
		expect(other.warnings).toEqual([
			`The access key ${key} does not match the receipt: the sequential is 000000123 in the key, 000000124 in the receipt. The SRI builds the key from these fields; a receipt whose key disagrees with them was altered or badly built.`,
		]);
	});

	test('Attach XML File off, and another output field', async () => {
		const off = await env.run(env.readText({ attachXml: false }), [{ xml: receipt }]);
		expect(off.output(NODE)[0].binary).toBeUndefined();
		const named = await env.run(env.readText({ binaryPropertyName: 'xml' }), [{ xml: receipt }]);
		expect(Object.keys(named.output(NODE)[0].binary ?? {})).toEqual(['xml']);
	});
});

describe('what Read XML refuses, naming the field', () => {
	test('a missing binary field names the ones the item has', async () => {
		const result = await env.runWithFiles(
			env.readBinary({}, 'adjunto'),
			[receiptXml(keyFor())],
			true,
		);
		expect(jsonOf(result)[0].error).toBe(
			'[item 1] Input Binary Field "adjunto": the input item has no such binary field; it has "data"',
		);
	});

	test.each([
		['empty text', '', 'XML: is required: give the XML text'],
		['not XML', 'factura 001-001-123', 'XML: is not XML the package can read: '],
		[
			'an HTML page',
			'<html><body>hola</body></html>',
			'XML: is not an SRI receipt: its root element is "html"',
		],
		[
			'another document whose root contains EACCES (claveAcceso)',
			'<claveAcceso>123</claveAcceso>',
			'XML: is not an SRI receipt: its root element is "claveAcceso"',
		],
		[
			'an authorization whose comprobante is not a receipt',
			'<autorizacion><estado>AUTORIZADO</estado><comprobante>&lt;pedido/&gt;</comprobante></autorizacion>',
			'XML: holds a "comprobante" that cannot be read: holds "pedido", which is not one of the SRI\'s receipts',
		],
	])('%s', async (_, xml, message) => {
		const result = await env.run(env.readText(), [{ xml }], true);
		expect(String(jsonOf(result)[0].error)).toContain(`[item 1] ${message}`);
	});
});

test('a retention that lists the same document twice counts that document’s total once; what it withheld, every line', async () => {
	const month = monthOfReceipts({ year: 2026, month: 10 });
	const retention = month.find((r) => r.name === 'own retention on the goods invoice');
	const once = jsonOf(await env.run(env.readText(), [{ xml: retention?.xml }]))[0];
	const twice = String(retention?.xml).replace(/(<docSustento>[\s\S]*?<\/docSustento>)/, '$1$1');
	expect(twice.match(/<docSustento>/g)).toHaveLength(2);
	const [json] = jsonOf(await env.run(env.readText(), [{ xml: twice }]));
	expect([json.total_sin_impuestos, json.iva, json.importe_total]).toEqual([
		once.total_sin_impuestos,
		once.iva,
		once.importe_total,
	]);
	expect(json.total_retenido).toBe(Math.round(Number(once.total_retenido) * 2 * 100) / 100);
});
