import { cfdiXml } from '../simulator/cfdi';
import { fileItem, fromXml, readXml, startSat } from './setup';
/** @import { SatEnv } from './setup' */

/**
 * CFDI XML and SOAP answers come from strangers: a DTD, entities (expanded or external), a file past the size
 * cap, deep nesting, thousands of attributes and unclosed tags each end with a clear error naming the item and
 * the field, and nothing is sent to the SAT. The reader is the package's (shared/xml.ts, with its own tests);
 * these check that both operations of the SAT node use it, with its limits, on files and on the SAT's answers.
 */

/** @type {SatEnv} */
let env;
beforeAll(async () => {
	env = await startSat();
});
afterAll(async () => env.stop());
beforeEach(() => env.reset());

const cfdi = cfdiXml().xml;
const body = cfdi.replace(/^<\?xml[^>]*\?>\n/, '');

const BILLION_LAUGHS =
	'<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">' +
	'<!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">]>' +
	body.replace('Nombre="ESCUELA KEMPER URGATE"', 'Nombre="&lol3;"');
const XXE =
	'<?xml version="1.0"?><!DOCTYPE c [<!ENTITY x SYSTEM "file:///etc/passwd">]>' +
	body.replace('Nombre="ESCUELA KEMPER URGATE"', 'Nombre="&x;"');

describe.each([
	['Read CFDI XML', readXml()],
	['Check CFDI Status', fromXml()],
])('%s', (_name, parameters) => {
	const refused = async (xml, message) => {
		const result = await env.run(parameters, [fileItem(xml)]);
		expect(result.error?.message).toMatch(message);
		expect(env.calls()).toEqual([]);
		return result;
	};

	test('a DOCTYPE with nested entities (billion laughs): refused, nothing expanded', async () => {
		await refused(
			BILLION_LAUGHS,
			/^\[item 1\] File "cfdi.xml": is not XML the package can read: the XML declares a DOCTYPE \(line 1, column 22\), which is refused/,
		);
	});

	test('an external entity (XXE): refused, no file read', async () => {
		const result = await refused(XXE, /the XML declares a DOCTYPE/);
		expect(JSON.stringify(result.run.data.resultData)).not.toContain('root:');
	});

	test('an entity reference without a DTD', async () => {
		await refused(
			body.replace('Nombre="ESCUELA KEMPER URGATE"', 'Nombre="&nbsp;"'),
			/the entity &nbsp; is not defined/,
		);
	});

	test('100,000 nested elements: refused at the depth limit', async () => {
		await refused(
			`${'<a>'.repeat(100_000)}${'</a>'.repeat(100_000)}`,
			/^\[item 1\] File "cfdi.xml": is not XML the package can read: the XML nests elements deeper than 100 levels/,
		);
	});

	test('100,000 attributes on one element: refused at the attribute limit', async () => {
		const attributes = Array.from({ length: 100_000 }, (_, n) => `a${n}="1"`).join(' ');
		await refused(
			body.replace('<cfdi:Emisor ', `<cfdi:Emisor ${attributes} `),
			/the element "cfdi:Emisor" has more than 256 attributes/,
		);
	});

	test('a file whose element is named like a system error code keeps its message (n8n would swap it)', async () => {
		await refused(
			'<EACCES/>',
			/^\[item 1\] File "cfdi.xml": it is not a CFDI: its root element is "EACCES" without a namespace/,
		);
	});

	test('unclosed tags', async () => {
		await refused(
			`<cfdi:Comprobante xmlns:cfdi="http://www.sat.gob.mx/cfd/4" Version="4.0">${'<cfdi:Concepto>'.repeat(50)}`,
			/the document ends before the element "cfdi:Concepto" is closed/,
		);
	});

	test('a file larger than 10 MB: refused without parsing it', async () => {
		const result = await env.runCode(
			parameters,
			`return [{ json: {}, binary: { data: { mimeType: 'application/xml', fileName: 'big.xml', data: Buffer.from('<a>' + 'x'.repeat(10 * 1024 * 1024) + '</a>').toString('base64') } } }];`,
		);
		expect(result.error?.message).toBe(
			'[item 1] File "big.xml": is larger than 10 MB, which no CFDI is',
		);
		expect(env.calls()).toEqual([]);
	});

	test('text larger than 10 MB: refused by the reader', async () => {
		const result = await env.runCode(
			{ ...parameters, xmlSource: 'text', xml: '={{ $json.xml }}' },
			`return [{ json: { xml: '<a>' + 'x'.repeat(10 * 1024 * 1024) + '</a>' } }];`,
		);
		expect(result.error?.message).toMatch(
			/^\[item 1\] XML: is not XML the package can read: the XML is larger than 10 MB/,
		);
		expect(env.calls()).toEqual([]);
	});
});

describe('hostile answers from the service', () => {
	const ask = () =>
		env.run(
			{
				resource: 'cfdi',
				operation: 'checkStatus',
				inputMode: 'xml',
				xmlSource: 'text',
				xml: '={{ $json.xml }}',
			},
			[{ xml: cfdi }],
		);

	test('an answer with a DOCTYPE and entities: unusable, nothing expanded', async () => {
		env.server.fail({
			service: 'sat',
			status: 200,
			headers: { 'content-type': 'text/xml' },
			raw: BILLION_LAUGHS,
			times: 1,
		});
		const result = await ask();
		expect(result.error?.message).toMatch(
			/^\[item 1\] CFDI [0-9A-F-]{36}: SAT: the answer is not XML the package can read \(the XML declares a DOCTYPE/,
		);
	});

	test('an answer nested 100,000 levels deep: unusable, refused at the limit', async () => {
		env.server.fail({
			service: 'sat',
			status: 200,
			headers: { 'content-type': 'text/xml' },
			raw: `${'<a>'.repeat(100_000)}${'</a>'.repeat(100_000)}`,
			times: 1,
		});
		const result = await ask();
		expect(result.error?.message).toMatch(/the XML nests elements deeper than 32 levels/);
	});

	test('a SOAP fault whose text is markup: quoted as text, never interpreted, its tags as names the notices keep', async () => {
		env.server.fail({
			service: 'sat',
			status: 500,
			headers: { 'content-type': 'text/xml' },
			raw: '<s:Envelope xmlns:s="http://schemas.xmlsoap.org/soap/envelope/"><s:Body><s:Fault><faultcode>s:Client</faultcode><faultstring>&lt;script&gt;alert(1)&lt;/script&gt;</faultstring></s:Fault></s:Body></s:Envelope>',
			times: 2,
		});
		const result = await ask();
		expect(result.error?.message).toMatch(
			/SAT answered with a SOAP fault \(HTTP 500\): s:Client: "script"alert\(1\)"script"$/,
		);
	});
});
