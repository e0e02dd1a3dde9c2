import { cfdiXml, uuidWith } from '../simulator/cfdi';
import { parseExpression } from '../simulator/sat';
import {
	cfdiItem,
	fields,
	fieldsOf,
	fileItem,
	fromXml,
	readXml,
	satWorkflow,
	startSat,
} from './setup';
/** @import { SatEnv } from './setup' */

/**
 * Check CFDI Status through n8n-core's engine, over HTTP to the SAT simulator (test/simulator/sat.js): what is
 * asked (SOAP 1.1 as the SAT documents it), what each kind of answer becomes, and what is refused before asking.
 */

/** @type {SatEnv} */
let env;
beforeAll(async () => {
	env = await startSat();
});
afterAll(async () => env.stop());
beforeEach(() => env.reset());

const json = (result, n = 0) => result.output('SAT (Mexico)')[n]?.json;

describe('the request', () => {
	test('one SOAP 1.1 POST with the SAT’s SOAPAction, text/xml and the expression as the QR code writes it', async () => {
		const item = fieldsOf({ uuid: uuidWith('A000', 7), folio: '7' });
		const result = await env.run(fields(), [item]);
		expect(result.error).toBeUndefined();
		const [call] = env.calls();
		expect(env.calls()).toHaveLength(1);
		expect(call.method).toBe('POST');
		expect(call.path).toBe('/ConsultaCFDIService.svc');
		expect(call.headers.soapaction).toBe('http://tempuri.org/IConsultaCFDIService/Consulta');
		expect(call.headers['content-type']).toBe('text/xml; charset=utf-8');
		const body = call.raw.toString('utf8');
		expect(body).toBe(
			'<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body>' +
				'<Consulta xmlns="http://tempuri.org/"><expresionImpresa>' +
				`?id=${item.uuid}&amp;re=EKU9003173C9&amp;rr=URE180429TM6&amp;tt=${Number(item.tt)}&amp;fe=${item.fe}` +
				'</expresionImpresa></Consulta></soap:Body></soap:Envelope>',
		);
		expect(env.sat.asked[0].params).toMatchObject({
			version: '3.3/4.0',
			id: item.uuid,
			tt: item.tt.replace(/0+$/, ''),
		});
		expect(json(result).expresion_impresa).toBe(env.sat.asked[0].expression);
	});

	test('an RFC with "&": encoded in the expression, and the expression escaped again in the body', async () => {
		const withAmp = 'A&B010101AB5';
		const result = await env.run(fields(), [{ ...fieldsOf(), re: withAmp }]);
		expect(result.error).toBeUndefined();
		expect(env.calls()[0].raw.toString('utf8')).toContain('&amp;re=A&amp;amp;B010101AB5&amp;rr=');
		expect(env.sat.asked[0].params?.re).toBe(withAmp);
	});

	test('CFDI Version 3.2: re, rr, tt (10.6) and id, no seal', async () => {
		const result = await env.run(fields({ cfdiVersion: '3.2' }), [
			{ ...fieldsOf(), tt: '1346.18' },
		]);
		expect(result.error).toBeUndefined();
		expect(env.sat.asked[0].expression).toBe(
			`?re=EKU9003173C9&rr=URE180429TM6&tt=0000001346.180000&id=${fieldsOf().uuid}`,
		);
		expect(json(result)).toMatchObject({ estado: 'Vigente', valid: true });
	});

	test('given the XML, the question is built from the CFDI’s own stamp, RFCs, total and seal', async () => {
		const cfdi = cfdiXml({ uuid: uuidWith('A000', 3) });
		const result = await env.run(fromXml(), [fileItem(cfdi.xml)]);
		expect(result.error).toBeUndefined();
		expect(env.sat.asked[0].expression).toBe(
			`?id=${cfdi.uuid}&re=${cfdi.emisorRfc}&rr=${cfdi.receptorRfc}&tt=${Number(cfdi.total)}&fe=${cfdi.sello.slice(-8)}`,
		);
	});

	test('Service Address: an address without the service’s path gets it; the SAT’s own host by default', async () => {
		const result = await env.run(
			fields({ options: { serviceAddress: `${env.server.url('sat')}/` } }),
			[fieldsOf()],
		);
		expect(result.error).toBeUndefined();
		expect(env.calls()).toHaveLength(1);
		const node = env.engine.nodeTypes.getByNameAndVersion('n8n-nodes-latam-fiscal.sat');
		const options = node.description.properties.find((p) => p.name === 'options');
		expect(JSON.stringify(options)).toContain('consultaqr.facturaelectronica.sat.gob.mx');
	});

	test('a Service Address that is not an http(s) address stops the node before anything is sent', async () => {
		const result = await env.run(fields({ options: { serviceAddress: 'ftp://example.com' } }), [
			fieldsOf(),
			fieldsOf(),
		]);
		expect(result.error?.message).toBe(
			'[item 1] Options → Service Address: must start with https:// or http://, got "ftp:"',
		);
		expect(result.error?.description).toMatch(/Nothing was sent/);
		expect(env.calls()).toEqual([]);
	});
});

describe('each kind of answer', () => {
	/** Asks about a CFDI whose UUID names the simulator's outcome `code`. */
	const ask = async (code, continueOnFail = false) => {
		const item = fieldsOf({ uuid: uuidWith(code, 1) });
		const result = await env.run(fields(), [item], continueOnFail);
		return { result, item, out: json(result) };
	};

	test.each([
		['A000', 'Cancelable sin aceptación', null],
		['A001', 'Cancelable con aceptación', null],
		['A002', 'Cancelable con aceptación', 'En proceso'],
		['A003', 'Cancelable con aceptación', 'Solicitud rechazada'],
		['A004', 'No cancelable', null],
	])('Vigente (%s): valid, found, %s, cancellation %s', async (code, esCancelable, estatus) => {
		const { result, item, out } = await ask(code);
		expect(result.error).toBeUndefined();
		expect(out).toEqual({
			uuid: item.uuid,
			estado: 'Vigente',
			valid: true,
			found: true,
			es_cancelable: esCancelable,
			estatus_cancelacion: estatus,
			efos: {
				code: '200',
				listed: false,
				meaning:
					"The issuer is not on the SAT's list under article 69-B of the Código Fiscal de la Federación (EFOS).",
			},
			codigo_estatus: 'S - Comprobante obtenido satisfactoriamente.',
			expresion_impresa: env.sat.asked[0].expression,
			// A cancellation in process: the CFDI stands today, but may not tomorrow.
			warnings:
				estatus === 'En proceso'
					? [
							"The issuer asked the SAT to cancel this CFDI and the cancellation is in process (EstatusCancelacion: En proceso): it is Vigente today, but it is cancelled once the receiver accepts or lets the deadline pass (Plazo vencido). Do not book it before the cancellation is settled: ask the issuer, or answer the request in the SAT's portal.",
						]
					: [],
		});
	});

	test.each([
		['C001', 'Cancelado sin aceptación'],
		['C002', 'Cancelado con aceptación'],
		['C003', 'Plazo vencido'],
		['C004', null],
	])('Cancelado (%s): not valid, found, cancellation %s', async (code, estatus) => {
		const { out } = await ask(code);
		expect(out).toMatchObject({
			estado: 'Cancelado',
			valid: false,
			found: true,
			estatus_cancelacion: estatus,
		});
	});

	test('N - 602: not found, not valid — an item, not an error', async () => {
		const { result, out } = await ask('D602');
		expect(result.error).toBeUndefined();
		expect(out).toMatchObject({
			estado: 'No Encontrado',
			valid: false,
			found: false,
			es_cancelable: null,
			estatus_cancelacion: null,
			efos: null,
			codigo_estatus: 'N - 602: Comprobante no encontrado.',
		});
	});

	test('N - 601: an error that says which inputs to check, and what was asked', async () => {
		const { result, item } = await ask('D601');
		expect(result.error?.message).toBe(
			`[item 1] CFDI ${item.uuid}: the SAT could not read the data it was asked with (N - 601: La expresión impresa proporcionada no es válida.): check UUID (Folio Fiscal), Issuer RFC (RFC Emisor), Receiver RFC (RFC Receptor), Total, Seal, Last 8 Characters (Sello), CFDI Version`,
		);
		expect(result.error?.description).toMatch(
			/^Check UUID \(Folio Fiscal\), Issuer RFC \(RFC Emisor\), Receiver RFC \(RFC Receptor\), Total, Seal, Last 8 Characters \(Sello\), CFDI Version: /,
		);
		expect(result.error?.description).toContain(`The SAT was asked with: ?id=${item.uuid}&re=`);
	});

	test.each([
		[
			'E100',
			{
				code: '100',
				listed: true,
				meaning: expect.stringMatching(/^The issuer is on the SAT's list under article 69-B/),
			},
		],
		[
			'E201',
			{ code: '201', listed: false, meaning: expect.stringMatching(/is not on the SAT's list/) },
		],
		[
			'E300',
			{
				code: '300',
				listed: null,
				meaning: expect.stringMatching(/^The SAT answered the code 300, which its documentation/),
			},
		],
		['E000', null],
	])('ValidacionEFOS (%s): the listing and its meaning', async (code, efos) => {
		const { out } = await ask(code);
		expect(out.efos).toEqual(efos);
		expect(out.valid).toBe(true);
	});

	test('a SOAP fault (HTTP 500): an error naming the UUID and the fault; sent twice at most', async () => {
		const { result, item } = await ask('F500');
		expect(result.error?.message).toBe(
			`[item 1] CFDI ${item.uuid}: SAT answered with a SOAP fault (HTTP 500): a:InternalServiceFault: The server was unable to process the request due to an internal error.`,
		);
		expect(env.calls()).toHaveLength(2);
	});

	test.each([
		['F503', 503],
		['F200', 200],
	])(
		'a maintenance page (%s, HTTP %i): an error naming the UUID, saying it is a web page',
		async (code) => {
			const { result, item } = await ask(code);
			expect(result.error?.message).toMatch(new RegExp(`^\\[item 1\\] CFDI ${item.uuid}: SAT`));
			expect(result.error?.message).toMatch(/web page|is not available/);
			expect(result.error?.message).toContain('Servicio no disponible');
		},
	);

	test('an answer that is not XML, or a SOAP answer without ConsultaResult: errors naming the UUID', async () => {
		const garbage = await ask('FBAD');
		expect(garbage.result.error?.message).toMatch(
			new RegExp(
				`^\\[item 1\\] CFDI ${garbage.item.uuid}: SAT: the answer is not XML the package can read \\(the XML is not well-formed`,
			),
		);
		env.reset();
		const empty = await ask('F0CE');
		expect(empty.result.error?.message).toBe(
			`[item 1] CFDI ${empty.item.uuid}: SAT: the answer has no ConsultaResponse/ConsultaResult`,
		);
	});

	test('Continue On Fail: an error item whose message names the UUID', async () => {
		const { result, item } = await ask('F500', true);
		expect(result.error).toBeUndefined();
		expect(json(result)).toEqual({
			error: expect.stringMatching(
				new RegExp(`^\\[item 1\\] CFDI ${item.uuid}: SAT answered with a SOAP fault`),
			),
		});
	});

	test('On Error → Continue (using error output): the error on the error output, with the input item’s fields', async () => {
		const item = fieldsOf({ uuid: uuidWith('F503', 1) });
		const workflow = satWorkflow({ ...fields(), options: { serviceAddress: env.address } }, [
			{ json: item },
		]);
		const node = /** @type {any} */ (workflow.nodes.find((n) => n.name === 'SAT (Mexico)'));
		node.onError = 'continueErrorOutput';
		const result = await env.engine.run(workflow);
		expect(result.error).toBeUndefined();
		const outputs = result.run.data.resultData.runData['SAT (Mexico)'][0].data?.main ?? [];
		expect(outputs[0]).toEqual([]);
		expect(outputs[1]?.map((i) => i.json)).toEqual([
			{
				...item,
				error: expect.stringMatching(
					new RegExp(
						`^\\[item 1\\] CFDI ${item.uuid}: SAT is not available \\(HTTP 503: Servicio no disponible\\)`,
					),
				),
			},
		]);
	});
});

describe('the deadline and the network', () => {
	test('a late answer: an error naming the UUID after Request Timeout, not later', async () => {
		const item = fieldsOf({ uuid: uuidWith('FE00', 1) });
		const result = await env.runTimed(fields({ options: { requestTimeout: 10 } }), [item]);
		expect(result.error?.message).toBe(
			`[item 1] CFDI ${item.uuid}: SAT did not answer in time (no complete answer within 10 s)`,
		);
		expect(result.elapsedMs).toBeGreaterThanOrEqual(10_000);
		expect(result.elapsedMs).toBeLessThan(11_000);
	});

	test('a service that cannot be reached: an error naming the UUID and the Service Address', async () => {
		const item = fieldsOf();
		const result = await env.runTimed(
			fields({ options: { serviceAddress: 'http://127.0.0.1:9' } }),
			[item],
		);
		expect(result.error?.message).toBe(
			`[item 1] CFDI ${item.uuid}: SAT could not be reached (ECONNREFUSED)`,
		);
		expect(result.error?.description).toMatch(/Options → Service Address/);
	});

	test('a redirect is not followed', async () => {
		env.server.fail({ service: 'sat', mode: 'redirect', to: env.otherOrigin, times: 1 });
		const item = fieldsOf();
		const result = await env.run(fields(), [item]);
		expect(result.error?.message).toMatch(
			new RegExp(
				`^\\[item 1\\] CFDI ${item.uuid}: SAT answered POST /sat/ConsultaCFDIService.svc with a redirect \\(HTTP 307\\), which was not followed`,
			),
		);
		expect(env.server.receivedAt(env.otherOrigin)).toEqual([]);
	});

	test('an oversized answer is cut at 1 MB', async () => {
		env.server.fail({
			service: 'sat',
			mode: 'oversize',
			bytes: 50 * 1024 * 1024,
			as: 'text',
			times: 1,
		});
		const item = fieldsOf();
		const result = await env.run(fields(), [item]);
		expect(result.error?.message).toMatch(
			new RegExp(`^\\[item 1\\] CFDI ${item.uuid}: SAT: the answer is larger than 1 MB`),
		);
	});

	test('a 503 once, then the answer: asked again once, within the deadline', async () => {
		env.server.fail({ service: 'sat', status: 503, raw: 'busy', times: 1 });
		const result = await env.runTimed(fields(), [fieldsOf()]);
		expect(result.error).toBeUndefined();
		expect(json(result).valid).toBe(true);
		expect(env.calls()).toHaveLength(2);
	});

	test('a 503 twice: the error, after two requests, never a third', async () => {
		env.server.fail({ service: 'sat', status: 503, raw: 'busy', times: 5 });
		const item = fieldsOf();
		const result = await env.runTimed(fields(), [item]);
		expect(result.error?.message).toBe(`[item 1] CFDI ${item.uuid}: SAT answered HTTP 503: busy`);
		expect(env.calls()).toHaveLength(2);
	});
});

describe('checked before asking: nothing is sent', () => {
	test('every problem of the item in one error, in the form’s labels', async () => {
		const result = await env.run(fields(), [
			{ uuid: 'not-a-uuid', re: 'ABC', rr: 'URE180429TM6', tt: '1,160.00', fe: '' },
		]);
		expect(result.error?.message).toMatch(
			/^\[item 1\] UUID \(Folio Fiscal\): "not-a-uuid" is not a UUID/,
		);
		expect(result.error?.description).toContain(
			'- Issuer RFC (RFC Emisor): "ABC" must be 12 (company) or 13 (person) characters long',
		);
		expect(result.error?.description).toContain('- Total: "1,160.00" is not a CFDI total');
		expect(result.error?.description).toContain('Nothing was sent to the service.');
		expect(env.calls()).toEqual([]);
	});

	test('a CFDI Version that is none, from an expression, is reported with the other problems', async () => {
		const result = await env.run(fields({ cfdiVersion: '={{ "5.0" }}' }), [
			{ ...fieldsOf(), uuid: 'x' },
		]);
		expect(result.error?.message).toBe(
			'[item 1] CFDI Version: must be one of "4.0", "3.3", "3.2", got "5.0"',
		);
		expect(result.error?.description).toContain('- UUID (Folio Fiscal): "x" is not a UUID');
		expect(env.calls()).toEqual([]);
	});

	test('an empty total is refused (0 must be written: a payment CFDI’s total is 0)', async () => {
		const result = await env.run(fields(), [{ ...fieldsOf(), tt: '' }]);
		expect(result.error?.message).toMatch(/^\[item 1\] Total: "" is not a CFDI total/);
		expect(env.calls()).toEqual([]);
	});

	test('an RFC whose check digit fails is asked about anyway, with a warning (some real RFCs fail it)', async () => {
		const result = await env.run(fields(), [{ ...fieldsOf(), re: 'AAA010101AAA' }]);
		expect(result.error).toBeUndefined();
		expect(env.calls()).toHaveLength(1);
		expect(json(result).warnings).toEqual([
			'Issuer RFC (RFC Emisor): check digit is A but 1 was expected; sent anyway, verify the RFC',
		]);
	});

	test('a CFDI XML without a stamp: nothing to ask', async () => {
		const result = await env.run(fromXml(), [cfdiItem({ stamped: false })]);
		expect(result.error?.message).toMatch(
			/^\[item 1\] File "cfdi.xml": the CFDI has no stamp \(TimbreFiscalDigital with its UUID\)/,
		);
		expect(env.calls()).toEqual([]);
	});

	test('a file that is not a CFDI: nothing sent, the field named', async () => {
		const result = await env.run(fromXml(), [fileItem('<factura id="comprobante"/>')]);
		expect(result.error?.message).toMatch(
			/^\[item 1\] File "cfdi.xml": it is not a CFDI: its root element is "factura" without a namespace/,
		);
		expect(result.error?.description).toMatch(/^Nothing was sent to the SAT\./);
		expect(env.calls()).toEqual([]);
	});

	test('with Continue On Fail, the bad item is an error item and the others are asked about', async () => {
		const result = await env.run(
			fields(),
			[fieldsOf(), { ...fieldsOf(), uuid: 'x' }, fieldsOf({ uuid: uuidWith('C001') })],
			true,
		);
		const out = result.output('SAT (Mexico)').map((i) => i.json);
		expect(out.map((o) => o.valid ?? 'error')).toEqual([true, 'error', false]);
		expect(out[1].error).toMatch(/^\[item 2\] UUID \(Folio Fiscal\): "x" is not a UUID/);
		expect(env.calls()).toHaveLength(2);
	});
});

describe('given the XML', () => {
	test('the output: the status, then the same summary, conceptos, JSON and warnings as Read CFDI XML', async () => {
		const cfdi = cfdiXml({
			uuid: uuidWith('C002', 4),
			emisor: { rfc: 'AAA010101AAA', nombre: 'PROVEEDOR' },
		});
		const checked = await env.run(fromXml(), [fileItem(cfdi.xml)]);
		const read = await env.run(readXml(), [fileItem(cfdi.xml)]);
		const status = json(checked);
		const summary = json(read);
		expect(status).toMatchObject({
			uuid: cfdi.uuid,
			estado: 'Cancelado',
			valid: false,
			found: true,
		});
		const {
			estado,
			valid,
			found,
			es_cancelable,
			estatus_cancelacion,
			efos,
			codigo_estatus,
			expresion_impresa,
			...rest
		} = status;
		expect(
			[
				estado,
				valid,
				found,
				es_cancelable,
				estatus_cancelacion,
				efos,
				codigo_estatus,
				expresion_impresa,
			].every((v) => v !== undefined),
		).toBe(true);
		expect(rest).toEqual(summary);
		expect(summary.warnings).toEqual([
			expect.stringMatching(/^Emisor RFC AAA010101AAA: its check digit is A, but 1 was expected/),
		]);
	});

	test('from text, and the item’s file goes along with the output', async () => {
		const cfdi = cfdiXml({ uuid: uuidWith('A000', 5) });
		const text = await env.run(fromXml({ xmlSource: 'text', xml: '={{ $json.xml }}' }), [
			{ xml: cfdi.xml },
		]);
		expect(json(text)).toMatchObject({ uuid: cfdi.uuid, valid: true, total: Number(cfdi.total) });
		const file = await env.run(fromXml(), [fileItem(cfdi.xml)]);
		expect(file.output('SAT (Mexico)')[0].binary?.data?.fileName).toBe('cfdi.xml');
	});
});

describe('many CFDIs', () => {
	test('two at a time by default (the SAT asks callers not to raise their volume), output in input order', async () => {
		const codes = ['A000', 'C001', 'D602', 'A002', 'E100', 'C003', 'A004', 'A000'];
		const items = codes.map((code, n) => fieldsOf({ uuid: uuidWith(code, n + 1) }));
		env.server.delayMs = 50;
		const result = await env.run(fields(), items);
		expect(result.error).toBeUndefined();
		expect(result.output('SAT (Mexico)').map((i) => i.json.uuid)).toEqual(items.map((i) => i.uuid));
		expect(result.output('SAT (Mexico)').map((i) => i.pairedItem)).toEqual(
			items.map((_, n) => ({ item: n })),
		);
		expect(env.server.peakInFlight).toBe(2);
	});

	test('Options → Parallel Requests raises it, up to 10', async () => {
		const items = Array.from({ length: 6 }, (_, n) => fieldsOf({ uuid: uuidWith('A000', n + 1) }));
		env.server.delayMs = 50;
		const result = await env.run(fields({ options: { parallelRequests: 4 } }), items);
		expect(result.error).toBeUndefined();
		expect(env.server.peakInFlight).toBe(4);
		const tooMany = await env.run(fields({ options: { parallelRequests: 11 } }), items);
		expect(tooMany.error?.message).toMatch(
			/^Options → Parallel Requests: must be a whole number from 1 to 10, got 11/,
		);
	});
});

test('the simulator reads expressions as the SAT does (its own check)', () => {
	expect(
		parseExpression(
			'?id=5FB2822E-396D-4725-8521-CDC4BDD20CCF&re=EKU9003173C9&rr=XAXX010101000&tt=1000.00',
		),
	).toBeUndefined();
	expect(
		parseExpression(
			'?id=5FB2822E-396D-4725-8521-CDC4BDD20CCF&re=EKU9003173C9&rr=XAXX010101000&tt=1000.0',
		),
	).toBeDefined();
	expect(
		parseExpression(
			'?re=EKU9003173C9&rr=XAXX010101000&tt=1000.000000&id=5FB2822E-396D-4725-8521-CDC4BDD20CCF',
		),
	).toBeUndefined();
});
