import { keyFor, receiptXml } from '../simulator/sri';
import { realAuthorizationFiles } from './real-files';
import { jsonOf, startSri } from './setup';
/** @import { SriEnv } from './setup' */

/**
 * Read XML, through n8n-core's engine, on authorization files as real tools write them (real-files.js): every
 * wrapper is read, and the receipt inside gives the same output whatever wraps it; an authorization number that
 * is not the receipt's access key is said.
 */

/** @type {SriEnv} */
let env;
beforeAll(async () => (env = await startSri()));
afterAll(() => env.stop());
beforeEach(() => env.reset());

/** What the file says of the receipt, without what only an authorization says (or how it spells its date). */
const receiptPart = (json) =>
	Object.fromEntries(
		Object.entries(json).filter(
			([key]) =>
				![
					'estado',
					'authorized',
					'found',
					'source',
					'numero_autorizacion',
					'fecha_autorizacion',
					'numero_comprobantes',
					'sri_messages',
				].includes(key),
		),
	);

describe.each([
	['factura', '01'],
	['comprobante_retencion', '07'],
	['nota_credito', '04'],
])('%s', (tipo, type) => {
	const key = keyFor({ type, sequential: 700 + Number(type) });
	const receipt = receiptXml(key);
	const files = realAuthorizationFiles(key, receipt);

	test('every wrapper is read, as text and as a file, with the receipt read as the bare receipt is', async () => {
		const text = await env.run(env.readText(), [
			{ xml: receipt },
			...files.map((f) => ({ xml: f.xml })),
		]);
		expect(text.error).toBeUndefined();
		const [bare, ...wrapped] = jsonOf(text);
		expect(bare).toMatchObject({ tipo, clave_acceso: key, source: 'receipt_file', warnings: [] });
		expect(wrapped.map((j, n) => [files[n].name, j.source, j.estado, j.authorized])).toEqual(
			files.map((f) => [f.name, 'authorization_file', 'AUTORIZADO', true]),
		);
		for (const [n, json] of wrapped.entries())
			expect([files[n].name, receiptPart(json)]).toEqual([files[n].name, receiptPart(bare)]);
		expect(wrapped.map((j) => j.fecha_autorizacion)).toEqual(
			files.map((f) =>
				f.xml.includes('.127-05:00')
					? '2026-10-21T10:15:42.127-05:00'
					: '2026-10-21T10:15:42-05:00',
			),
		);

		const binary = await env.runWithFiles(
			env.readBinary(),
			files.map((f) => f.xml),
		);
		expect(binary.error).toBeUndefined();
		expect(jsonOf(binary).map(receiptPart)).toEqual(files.map(() => receiptPart(bare)));
		expect(env.calls()).toEqual([]);
	});
});

describe('the authorization number and the access key', () => {
	const key = keyFor({ sequential: 801 });
	const receipt = receiptXml(key);
	const [taxo] = realAuthorizationFiles(key, receipt);

	test("a 49-digit numeroAutorizacion that is not the receipt's claveAcceso is said; the receipt's key is the output's", async () => {
		const other = keyFor({ sequential: 802 });
		const [json] = jsonOf(
			await env.run(env.readText(), [{ xml: taxo.xml.replace(`>${key}<`, `>${other}<`) }]),
		);
		expect(json).toMatchObject({ clave_acceso: key, numero_autorizacion: other });
		expect(json.warnings).toEqual([
			`The authorization's numeroAutorizacion ${other} is not the receipt's claveAcceso ${key}: the SRI authorizes a receipt under its own access key, so the authorization is for another receipt, or the file was altered. Check the access key with the SRI (Check Authorization) before booking.`,
		]);
	});

	test('a number that is not 49 digits (the online scheme’s, or shortened) is not compared', async () => {
		const [json] = jsonOf(
			await env.run(env.readText(), [
				{ xml: taxo.xml.replace(`>${key}<`, `>${key.slice(0, 42)}<`) },
			]),
		);
		expect(json.numero_autorizacion).toBe(key.slice(0, 42));
		expect(json.warnings).toEqual([]);
	});
});

describe('what is not an authorization', () => {
	test.each([
		[
			'an ATS, whose <autorizacion> elements hold only a number',
			'<iva><detalleCompras><autorizacion>1234567890</autorizacion></detalleCompras></iva>',
			'"iva"',
		],
		[
			'a SOAP fault',
			'<S:Envelope xmlns:S="http://schemas.xmlsoap.org/soap/envelope/"><S:Body><S:Fault><faultcode>S:Server</faultcode><faultstring>Error</faultstring></S:Fault></S:Body></S:Envelope>',
			'"S:Envelope"',
		],
	])('%s', async (_, xml, root) => {
		const result = await env.run(env.readText(), [{ xml }], true);
		expect(String(jsonOf(result)[0].error)).toContain(
			`[item 1] XML: is not an SRI receipt: its root element is ${root}, and it holds no authorization`,
		);
	});

	test('an authorization file with no entry is a file that holds none (found: false), as the SRI answers an unknown key', async () => {
		const [json] = jsonOf(
			await env.run(env.readText(), [
				{
					xml: '<RespuestaAutorizacionComprobante><claveAccesoConsultada>1</claveAccesoConsultada><numeroComprobantes>0</numeroComprobantes><autorizaciones/></RespuestaAutorizacionComprobante>',
				},
			]),
		);
		expect(json).toMatchObject({ found: false, authorized: false, numero_comprobantes: 0 });
	});
});
