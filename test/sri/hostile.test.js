import { answerXml, entryXml, keyFor, receiptXml } from '../simulator/sri';
import { jsonOf, startSri } from './setup';
/** @import { SriEnv } from './setup' */

/**
 * XML from strangers, in both places the node reads it: a file given to Read XML (text or binary) and the
 * answer of the service Check Authorization asks (a proxy or a simulator at the Service Address can send
 * anything). Each ends with an error that says what is wrong, through the package's XML reader
 * (shared/xml.ts: no DOCTYPE, no entity expansion, limits); its speed on such inputs is measured by its own
 * benchmark, not timed here.
 */

/** @type {SriEnv} */
let env;
beforeAll(async () => (env = await startSri()));
afterAll(() => env.stop());
beforeEach(() => env.reset());

const key = keyFor();
const receipt = receiptXml(key);

const BILLION_LAUGHS = `<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;"><!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;"><!ENTITY lol4 "&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;"><!ENTITY lol9 "&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;">]><factura id="comprobante"><infoTributaria><razonSocial>&lol9;</razonSocial></infoTributaria></factura>`;
const XXE = `<?xml version="1.0"?><!DOCTYPE factura [<!ENTITY xxe SYSTEM "file:///etc/passwd">]><factura id="comprobante"><infoTributaria><razonSocial>&xxe;</razonSocial></infoTributaria></factura>`;
const UNDECLARED_ENTITY = receipt.replace('Distribuidora Andina S.A.', '&xxe;');
const DEEP = `${'<factura>'.repeat(50_000)}${'</factura>'.repeat(50_000)}`;
const attributes = (n) =>
	`<factura ${Array.from({ length: n }, (_, k) => `a${k}="x"`).join(' ')}></factura>`;
const MILLION_ATTRIBUTES = attributes(1_000_000);
const UNCLOSED = '<factura id="comprobante"><infoTributaria><ruc>1790016919001</ruc>';
/** A receipt of about 400 KB: the SRI's limit for one receipt is 320 KB. */
const LARGE = receipt.replace(
	'<infoAdicional>',
	`<infoAdicional><campoAdicional nombre="Notas">${'x'.repeat(400 * 1024)}</campoAdicional>`,
);

describe('Read XML of a hostile file: a clear error naming the field', () => {
	test.each([
		[
			'a DOCTYPE with entities that expand a billion times',
			BILLION_LAUGHS,
			'XML: is not XML the package can read: the XML declares a DOCTYPE (line 1, column 22), which is refused',
		],
		[
			'an external entity (XXE)',
			XXE,
			'XML: is not XML the package can read: the XML declares a DOCTYPE',
		],
		[
			'a reference to an entity nobody declared',
			UNDECLARED_ENTITY,
			'XML: is not XML the package can read: the XML is not well-formed: ',
		],
		[
			'50,000 nested elements',
			DEEP,
			'XML: is not XML the package can read: the XML nests elements deeper than 32 levels',
		],
		[
			'a million attributes (about 9 MB)',
			MILLION_ATTRIBUTES,
			'XML: is not XML the package can read: the XML is larger than 4 MB',
		],
		[
			'ten thousand attributes',
			attributes(10_000),
			'XML: is not XML the package can read: the element "factura" has more than 64 attributes',
		],
		[
			'unclosed tags',
			UNCLOSED,
			'XML: is not XML the package can read: the XML is not well-formed: the document ends before the element "infoTributaria" is closed',
		],
		[
			'a receipt larger than the SRI accepts',
			LARGE,
			"XML: is a receipt of 404 KB, larger than the SRI's limit for one receipt (320 KB)",
		],
	])('%s', async (_, xml, message) => {
		const result = await env.run(env.readText(), [{ xml }], true);
		expect(String(jsonOf(result)[0].error)).toContain(`[item 1] ${message}`);
		expect(env.calls()).toHaveLength(0);
	});

	test('the same from a binary field; a file larger than 4 MB is refused before it is parsed', async () => {
		const result = await env.runWithFiles(
			env.readBinary(),
			[BILLION_LAUGHS, MILLION_ATTRIBUTES],
			true,
		);
		expect(jsonOf(result).map((j) => j.error)).toEqual([
			expect.stringContaining(
				'[item 1] File "comprobante.xml": is not XML the package can read: the XML declares a DOCTYPE',
			),
			'[item 2] File "comprobante.xml": is larger than 4 MB: no receipt or authorization file of the SRI is (a receipt is at most 320 KB)',
		]);
	});

	test('an authorization file whose receipt is hostile: the receipt is refused, with the same reasons', async () => {
		const file = (comprobante) =>
			entryXml({ estado: 'AUTORIZADO', key, comprobante, escaped: true });
		const result = await env.run(
			env.readText(),
			[{ xml: file(BILLION_LAUGHS) }, { xml: file(LARGE) }, { xml: file(UNCLOSED) }],
			true,
		);
		expect(jsonOf(result).map((j) => j.error)).toEqual([
			expect.stringContaining(
				'[item 1] XML: holds a "comprobante" that cannot be read: the XML declares a DOCTYPE',
			),
			expect.stringMatching(
				/^\[item 2\] XML: holds a "comprobante" that cannot be read: the XML is larger than 320 KB/,
			),
			expect.stringContaining(
				'[item 3] XML: holds a "comprobante" that cannot be read: the XML is not well-formed',
			),
		]);
	});
});

describe('Check Authorization of a hostile answer: an error naming the access key', () => {
	const answer = (text) => ({
		status: 200,
		headers: { 'content-type': 'text/xml' },
		raw: Buffer.from(text),
	});

	test('a DOCTYPE in the envelope, an envelope nested 50,000 deep, unclosed tags: not an answer the package reads', async () => {
		const keys = [keyFor({ sequential: 1 }), keyFor({ sequential: 2 }), keyFor({ sequential: 3 })];
		env.sim.answers.set(keys[0], answer(BILLION_LAUGHS));
		env.sim.answers.set(keys[1], answer(DEEP));
		env.sim.answers.set(keys[2], answer(UNCLOSED));
		const result = await env.run(
			env.check(),
			keys.map((k) => ({ key: k })),
			true,
		);
		expect(jsonOf(result).map((j) => j.error)).toEqual([
			expect.stringContaining(
				`[item 1] Access key ${keys[0]}: SRI: the answer is not XML the package can read (the XML declares a DOCTYPE`,
			),
			expect.stringContaining(
				`[item 2] Access key ${keys[1]}: SRI: the answer is not XML the package can read (the XML nests elements deeper than 32 levels`,
			),
			expect.stringContaining(
				`[item 3] Access key ${keys[2]}: SRI: the answer is not XML the package can read (the XML is not well-formed`,
			),
		]);
	});

	test('an authorization whose receipt is hostile or larger than 320 KB: refused, nothing of it given', async () => {
		const keys = [keyFor({ sequential: 4 }), keyFor({ sequential: 5 })];
		env.sim.receipts.set(keys[0], BILLION_LAUGHS);
		env.sim.receipts.set(keys[1], LARGE);
		const result = await env.run(
			env.check(),
			keys.map((k) => ({ key: k })),
			true,
		);
		const [a, b] = jsonOf(result);
		expect(a).toEqual({
			error: expect.stringContaining(
				`[item 1] Access key ${keys[0]}: the SRI's answer holds a receipt that cannot be read (the XML declares a DOCTYPE`,
			),
		});
		expect(b).toEqual({
			error: expect.stringMatching(
				new RegExp(
					`^\\[item 2\\] Access key ${keys[1]}: the SRI's answer holds a receipt that cannot be read \\(the XML is larger than 320 KB`,
				),
			),
		});
	});

	test('a SOAP fault answered 200, and an answer without RespuestaAutorizacionComprobante', async () => {
		const keys = [keyFor({ sequential: 6 }), keyFor({ sequential: 7 })];
		env.sim.answers.set(
			keys[0],
			answer(
				'<S:Envelope xmlns:S="http://schemas.xmlsoap.org/soap/envelope/"><S:Body><S:Fault><faultcode>S:Server</faultcode><faultstring>Error interno</faultstring></S:Fault></S:Body></S:Envelope>',
			),
		);
		env.sim.answers.set(
			keys[1],
			answer(
				'<S:Envelope xmlns:S="http://schemas.xmlsoap.org/soap/envelope/"><S:Body><otra/></S:Body></S:Envelope>',
			),
		);
		const result = await env.run(
			env.check(),
			keys.map((k) => ({ key: k })),
			true,
		);
		expect(jsonOf(result).map((j) => j.error)).toEqual([
			`[item 1] Access key ${keys[0]}: SRI: the answer is a SOAP fault (S:Server: Error interno)`,
			`[item 2] Access key ${keys[1]}: SRI: the answer has no RespuestaAutorizacionComprobante (its body holds "otra")`,
		]);
	});

	test('an answer whose envelope says something else than the receipt it holds is read by what the receipt says', async () => {
		// A proxy that answers every key with the same receipt: the warning names the difference.
		const asked = keyFor({ sequential: 8 });
		env.sim.answers.set(
			asked,
			answer(answerXml(asked, [entryXml({ estado: 'AUTORIZADO', key, comprobante: receipt })])),
		);
		const [json] = jsonOf(await env.run(env.check(), [{ key: asked }]));
		expect(json.clave_acceso).toBe(asked);
		expect(json.warnings).toEqual([
			expect.stringContaining(
				`The receipt's claveAcceso ${key} is not the access key asked about (${asked})`,
			),
		]);
	});
});
