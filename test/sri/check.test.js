import { SRI_CODES } from '../../nodes/shared/sri/sriMessages';
import { checkDigit, keyFor, SriSimulator } from '../simulator/sri';
import { jsonOf, NODE, startSri } from './setup';
/** @import { SriEnv } from './setup' */

/**
 * Check Authorization through n8n's engine, over real HTTP, against the SRI simulator (test/simulator/sri.js):
 * every kind of answer the SRI gives, what is refused before anything is sent, and what the network and the
 * service do wrong. Time runs on the fake clock where it matters.
 */

/** @type {SriEnv} */
let env;
beforeAll(async () => (env = await startSri()));
afterAll(() => env.stop());
beforeEach(() => env.reset());

const keysAsked = () => SriSimulator.keysAsked(env.calls());

describe('the question sent', () => {
	test('one SOAP 1.1 POST per key, as the WSDL binds it: text/xml, SOAPAction "", autorizacionComprobante/claveAccesoComprobante', async () => {
		const key = keyFor();
		const result = await env.run(env.check(), [{ key }]);
		expect(result.error).toBeUndefined();
		const [request] = env.calls();
		expect(env.calls()).toHaveLength(1);
		expect(request.method).toBe('POST');
		expect(request.path).toBe('/comprobantes-electronicos-ws/AutorizacionComprobantesOffline');
		expect(request.headers['content-type']).toBe('text/xml; charset=utf-8');
		expect(request.headers.soapaction).toBe('""');
		const body = request.raw.toString('utf8');
		expect(body).toContain('xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"');
		expect(body).toMatch(
			new RegExp(
				`<ec:autorizacionComprobante xmlns:ec="[^"]+"><claveAccesoComprobante>${key}</claveAccesoComprobante></ec:autorizacionComprobante>`,
			),
		);
		expect(body).toContain('xmlns:ec="http://ec.gob.sri.ws.autorizacion"');
	});

	test('spaces in a key copied from a RIDE are ignored; a Service Address ending with the service name is used as it is', async () => {
		const key = keyFor();
		const spaced = key.replace(/(\d{7})/g, '$1 ');
		const result = await env.run(
			env.check({
				serviceAddress: `${env.address}/comprobantes-electronicos-ws/AutorizacionComprobantesOffline/`,
			}),
			[{ key: spaced }],
		);
		expect(result.error).toBeUndefined();
		expect(jsonOf(result)[0].clave_acceso).toBe(key);
		expect(keysAsked()).toEqual([key]);
	});
});

describe('what the SRI answers', () => {
	test('AUTORIZADO, the receipt in CDATA: authorized, its number, date, environment and summary, the authorization file attached', async () => {
		const key = keyFor();
		const result = await env.run(env.check(), [{ key }]);
		const [item] = result.output(NODE);
		expect(item.json).toMatchObject({
			clave_acceso: key,
			estado: 'AUTORIZADO',
			authorized: true,
			found: true,
			source: 'sri',
			numero_autorizacion: key,
			fecha_autorizacion: '2026-10-21T10:15:42.127-05:00',
			ambiente: 'produccion',
			numero_comprobantes: 1,
			sri_messages: [],
			tipo: 'factura',
			version: '2.1.0',
			numero: '001-001-000000123',
			fecha_emision: '2026-10-21',
			emisor: { ruc: '1790016919001', razon_social: 'Distribuidora Andina S.A.' },
			comprador: {
				identificacion: '1713175071',
				razon_social: 'María José Pérez & Hijos',
				tipo_identificacion: '05',
			},
			total_sin_impuestos: 25,
			iva: 3,
			importe_total: 28,
			warnings: [],
		});
		expect(item.json.comprobante).toMatchObject({
			id: 'comprobante',
			version: '2.1.0',
			infoTributaria: { claveAcceso: key, secuencial: '000000123', estab: '001' },
			infoFactura: { importeTotal: 28, totalConImpuestos: { totalImpuesto: expect.any(Array) } },
		});
		expect(item.json.comprobante).not.toHaveProperty('Signature');
		expect(item.binary?.data).toMatchObject({
			fileName: `${key}.xml`,
			mimeType: 'application/xml',
		});
		const file = Buffer.from(String(item.binary?.data.data), 'base64').toString('utf8');
		expect(file).toMatch(
			/^<\?xml version="1.0" encoding="UTF-8"\?>\n<autorizacion><estado>AUTORIZADO<\/estado>/,
		);
		expect(file).toContain(
			'<comprobante><![CDATA[<?xml version="1.0" encoding="UTF-8"?><factura id="comprobante" version="2.1.0">',
		);
		expect(item.pairedItem).toEqual({ item: 0 });
	});

	test('AUTORIZADO with the receipt entity-escaped: the same output as in CDATA', async () => {
		const cdata = keyFor({ sequential: 7 });
		const escaped = keyFor({ scenario: 'escaped', sequential: 7 });
		const result = await env.run(env.check(), [{ key: cdata }, { key: escaped }]);
		const [a, b] = jsonOf(result);
		const strip = (j) => ({
			...j,
			clave_acceso: undefined,
			numero_autorizacion: undefined,
			comprobante: { ...j.comprobante, infoTributaria: undefined },
		});
		expect(b.authorized).toBe(true);
		expect(strip(b)).toEqual(strip(a));
	});

	test('NO AUTORIZADO: not authorized, the SRI messages explained as the Receipts node explains them, the receipt read, no file', async () => {
		const key = keyFor({ scenario: 'notAuthorized' });
		const result = await env.run(env.check(), [{ key }]);
		const [item] = result.output(NODE);
		expect(item.json).toMatchObject({
			clave_acceso: key,
			estado: 'NO AUTORIZADO',
			authorized: false,
			found: true,
			tipo: 'factura',
			importe_total: 28,
			sri_messages: [
				{
					identificador: '52',
					tipo: 'ERROR',
					mensaje: 'ERROR EN DIFERENCIAS',
					informacion_adicional: 'La suma de los valores no coincide con el importe total',
					source: 'autorizacion',
					explanation: SRI_CODES['52'].explanation,
					next_step: SRI_CODES['52'].nextStep.replace('{resend}', 'send it again'),
				},
			],
		});
		expect(item.json).not.toHaveProperty('numero_autorizacion');
		expect(item.binary).toBeUndefined();
	});

	test('several entries: the AUTORIZADO one is the answer, and how many there were is said', async () => {
		const key = keyFor({ scenario: 'several' });
		const [json] = jsonOf(await env.run(env.check(), [{ key }]));
		expect(json).toMatchObject({ estado: 'AUTORIZADO', authorized: true, numero_comprobantes: 2 });
		expect(json.sri_messages).toEqual([]);
	});

	test('several entries, none authorized: the latest attempt is the answer', async () => {
		const key = keyFor({ scenario: 'twoRejections' });
		const [json] = jsonOf(await env.run(env.check(), [{ key }]));
		expect(json).toMatchObject({
			estado: 'NO AUTORIZADO',
			authorized: false,
			fecha_autorizacion: '2026-10-21T11:40:03.500-05:00',
			numero_comprobantes: 2,
		});
	});

	test('an unknown key (no entry): found false, no estado, no summary', async () => {
		const key = keyFor({ scenario: 'unknown' });
		const result = await env.run(env.check(), [{ key }]);
		const [item] = result.output(NODE);
		expect(item.json).toEqual({
			clave_acceso: key,
			authorized: false,
			found: false,
			source: 'sri',
			ambiente: 'produccion',
			numero_comprobantes: 0,
			sri_messages: [],
			warnings: [],
		});
		expect(item.binary).toBeUndefined();
	});

	test('EN PROCESO: found, not authorized, message 70 explained', async () => {
		const key = keyFor({ scenario: 'inProcess' });
		const [json] = jsonOf(await env.run(env.check(), [{ key }]));
		expect(json).toMatchObject({ estado: 'EN PROCESO', authorized: false, found: true });
		expect(json.sri_messages).toEqual([
			expect.objectContaining({ identificador: '70', explanation: SRI_CODES['70'].explanation }),
		]);
		expect(json).not.toHaveProperty('tipo');
	});

	test('a test-environment key is asked about as such and flagged: message 60 and a warning', async () => {
		const key = keyFor({ env: '1', type: '07' });
		const [json] = jsonOf(await env.run(env.check(), [{ key }]));
		expect(json).toMatchObject({
			ambiente: 'pruebas',
			authorized: true,
			tipo: 'comprobante_retencion',
			retenido: { renta: 1.75, iva: 4.5 },
			total_retenido: 6.25,
		});
		expect(json.sri_messages).toEqual([
			expect.objectContaining({ identificador: '60', tipo: 'ADVERTENCIA' }),
		]);
		expect(json.warnings).toEqual([expect.stringContaining("SRI's test environment")]);
	});

	test("the receipt's own access key differs from the one asked: a warning, and it names both", async () => {
		const key = keyFor({ scenario: 'otherKey' });
		const [json] = jsonOf(await env.run(env.check(), [{ key }]));
		expect(json.authorized).toBe(true);
		expect(json.warnings).toEqual(
			expect.arrayContaining([
				expect.stringMatching(new RegExp(`is not the access key asked about \\(${key}\\)`)),
			]),
		);
	});

	test('amounts that do not add up: a warning naming the figures', async () => {
		const key = keyFor({ scenario: 'badTotals' });
		const [json] = jsonOf(await env.run(env.check(), [{ key }]));
		expect(json.importe_total).toBe(29);
		expect(json.warnings).toEqual([
			'The amounts do not add up (a cent per line is allowed): totalSinImpuestos plus the taxes (and tip or export costs) is 28.00, but importeTotal is 29.00.',
		]);
	});
});

describe('options', () => {
	test('Attach XML File off: no binary; Put XML in Field names it', async () => {
		const key = keyFor();
		const off = await env.run(env.check({ attachXml: false }), [{ key }]);
		expect(off.output(NODE)[0].binary).toBeUndefined();
		const named = await env.run(env.check({ binaryPropertyName: 'autorizado' }), [{ key }]);
		expect(Object.keys(named.output(NODE)[0].binary ?? {})).toEqual(['autorizado']);
	});

	test('Parallel Requests: 2 at a time by default, as set when set, output in input order', async () => {
		const keys = Array.from({ length: 6 }, (_, k) => ({ key: keyFor({ sequential: k + 1 }) }));
		env.server.delayMs = 30;
		const byDefault = await env.run(env.check(), keys);
		expect(env.server.peakInFlight).toBe(2);
		expect(jsonOf(byDefault).map((j) => j.clave_acceso)).toEqual(keys.map((k) => k.key));
		env.server.clear();
		env.server.delayMs = 30;
		await env.run(env.check({ parallelRequests: 3 }), keys);
		expect(env.server.peakInFlight).toBe(3);
		env.server.clear();
		const tooMany = await env.run(env.check({ parallelRequests: 11 }), keys);
		expect(tooMany.error?.message).toBe(
			'Options → Parallel Requests: must be a whole number from 1 to 10, got 11 (read once per execution, from the first item)',
		);
		expect(env.calls()).toHaveLength(0);
	});
});

describe('refused before anything is sent', () => {
	test.each([
		['48 digits', keyFor().slice(0, 48), 'Access Key: must be exactly 49 digits, got 48 digits'],
		[
			'a wrong check digit',
			`${keyFor().slice(0, 48)}${(Number(keyFor()[48]) + 1) % 10}`,
			'Access Key: has check digit',
		],
		[
			'letters',
			`${keyFor().slice(0, 40)}ABCDEFGHI`,
			'Access Key: must be exactly 49 digits, got "',
		],
		['empty', '', 'Access Key: is required'],
	])('%s: an error naming the field, nothing sent', async (_, key, message) => {
		const result = await env.run(env.check(), [{ key }]);
		expect(result.error?.message).toContain(`[item 1] ${message}`);
		expect(result.error?.description).toContain('Nothing was sent');
		expect(env.calls()).toHaveLength(0);
	});

	test('a document type the SRI does not issue (02) or an environment digit other than 1 and 2', async () => {
		const build = (key, at, digit) => {
			const first48 = `${key.slice(0, at)}${digit}${key.slice(at + digit.length, 48)}`;
			return `${first48}${checkDigit(first48)}`;
		};
		const result = await env.run(
			env.check(),
			[{ key: build(keyFor(), 8, '02') }, { key: build(keyFor(), 23, '3') }],
			true,
		);
		expect(jsonOf(result).map((j) => j.error)).toEqual([
			expect.stringMatching(
				/^\[item 1\] Access Key: has document type 02 \(digits 9–10\), which is not one of the SRI's receipts/,
			),
			expect.stringMatching(/^\[item 2\] Access Key: has environment digit 3 \(digit 24\)/),
		]);
		expect(env.calls()).toHaveLength(0);
	});

	test('with Continue On Fail, a bad key is an error item of its own and the others are asked about', async () => {
		const result = await env.run(
			env.check(),
			[{ key: keyFor() }, { key: '123' }, { key: keyFor({ scenario: 'unknown' }) }],
			true,
		);
		const items = result.output(NODE);
		expect(items.map((i) => i.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
		expect(items[1].json).toEqual({
			error: '[item 2] Access Key: must be exactly 49 digits, got 3 digits',
			problems: ['Access Key: must be exactly 49 digits, got 3 digits'],
		});
		expect(items[0].json.authorized).toBe(true);
		expect(items[2].json.found).toBe(false);
		expect(keysAsked()).toHaveLength(2);
	});

	test.each([
		['ftp://sri.example.com', 'must start with https:// or http://'],
		['https://user:pw@proxy.example.com', 'must not hold a user name or password'],
		['https://proxy.example.com/sri?x=1', 'must not have a query'],
		['not an address', 'is not an address'],
	])('Service Address %s: refused, nothing sent', async (serviceAddress, message) => {
		const result = await env.run(env.check({ serviceAddress }), [{ key: keyFor() }]);
		expect(result.error?.message).toContain(`[item 1] Options → Service Address: `);
		expect(result.error?.message).toContain(message);
		expect(env.calls()).toHaveLength(0);
	});
});

describe('answers that are not a usable SOAP answer: an error naming the key, within Request Timeout', () => {
	test('a SOAP fault (HTTP 500): asked again within the deadline, then an error with the fault', async () => {
		const key = keyFor({ scenario: 'fault' });
		const result = await env.runTimed(env.check(), [{ key }]);
		expect(result.error?.message).toBe(
			`[item 1] Access key ${key}: SRI answered with a SOAP fault (HTTP 500): soap:Server: java.lang.NullPointerException`,
		);
		expect(env.calls().length).toBeGreaterThan(1);
		expect(result.elapsedMs).toBeLessThan(30_000);
	});

	test('the maintenance page (HTTP 503, HTML): "not available", with its title', async () => {
		const key = keyFor({ scenario: 'maintenance' });
		const result = await env.runTimed(env.check(), [{ key }], true);
		expect(jsonOf(result)[0].error).toBe(
			`[item 1] Access key ${key}: SRI is not available (HTTP 503: SRI - Servicio en mantenimiento)`,
		);
	});

	test('a maintenance page answered 200: not a SOAP answer, said so, not retried', async () => {
		const key = keyFor({ scenario: 'maintenance200' });
		const result = await env.run(env.check(), [{ key }], true);
		expect(jsonOf(result)[0].error).toBe(
			`[item 1] Access key ${key}: SRI: the answer is a web page ("SRI - Servicio en mantenimiento"), not a SOAP answer (is the SRI in maintenance?)`,
		);
		expect(env.calls()).toHaveLength(1);
	});

	test('a slow answer: cut at Request Timeout, the batch goes on with Continue On Fail', async () => {
		const slow = keyFor({ scenario: 'slow' });
		const fine = keyFor();
		env.sim.slowMs = 120_000;
		const result = await env.runTimed(
			env.check({ requestTimeout: 10 }),
			[{ key: slow }, { key: fine }],
			true,
		);
		const [a, b] = jsonOf(result);
		expect(a.error).toBe(
			`[item 1] Access key ${slow}: SRI did not answer in time (no complete answer within 10 s)`,
		);
		expect(b.authorized).toBe(true);
		expect(result.elapsedMs).toBeGreaterThanOrEqual(10_000);
		expect(result.elapsedMs).toBeLessThan(12_000);
	});

	test('a redirect is not followed', async () => {
		env.server.fail({ service: 'sri', mode: 'redirect', to: env.otherOrigin, times: 1 });
		const key = keyFor();
		const result = await env.run(env.check(), [{ key }]);
		expect(result.error?.message).toMatch(
			new RegExp(
				`^\\[item 1\\] Access key ${key}: SRI answered POST /sri/comprobantes-electronicos-ws/AutorizacionComprobantesOffline with a redirect \\(HTTP 307\\), which was not followed`,
			),
		);
		expect(env.server.receivedAt(env.otherOrigin)).toHaveLength(0);
	});

	test('an answer larger than 4 MB is refused before it is read whole', async () => {
		env.server.fail({
			service: 'sri',
			mode: 'oversize',
			bytes: 50 * 1024 * 1024,
			declareLength: false,
			as: 'text',
			times: 1,
		});
		const key = keyFor();
		const result = await env.run(env.check(), [{ key }]);
		expect(result.error?.message).toBe(
			`[item 1] Access key ${key}: SRI: the answer is larger than 4 MB (more than 4 MB arrived)`,
		);
		const [delivery] = await env.server.delivered();
		expect(delivery.closedEarly).toBe(true);
		expect(delivery.sent).toBeLessThan(10 * 1024 * 1024);
	});

	test('a refused connection: an error naming the key and the Service Address to check', async () => {
		const result = await env.runTimed(env.check({ serviceAddress: 'http://127.0.0.1:1/sri' }), [
			{ key: keyFor() },
		]);
		expect(result.error?.message).toMatch(
			/^\[item 1\] Access key \d{49}: SRI could not be reached \(ECONNREFUSED\)/,
		);
		expect(result.error?.description).toContain('Options → Service Address');
	});
});
