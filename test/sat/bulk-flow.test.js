import {
	check,
	download,
	finishedRequest,
	MONTH,
	NOW,
	out,
	PERIOD,
	request,
	startBulk,
} from './bulk-setup';
/** @import { BulkEnv } from './bulk-setup' */

/**
 * Bulk Download (Descarga Masiva) through n8n-core's engine, over HTTP to the simulator of the SAT's service
 * (test/simulator/satBulk.js), which verifies every signature: a month's received CFDIs requested, checked until
 * finished and downloaded into one item per CFDI; the metadata into one item per row; the states of a request
 * as a Wait loop reads them.
 */

/** @type {BulkEnv} */
let env;
beforeAll(async () => {
	env = await startBulk();
});
afterAll(async () => env.stop());
beforeEach(() => env.reset());

const paths = () => env.calls().map((c) => c.path);

test("Request: last month's received XML — one item with the request id, what was asked, signed as the SAT verifies", async () => {
	const result = await env.run(request());
	expect(result.error).toBeUndefined();
	const [item] = out(result);
	const json = /** @type {any} */ (item.json);
	expect(json).toEqual({
		request_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
		status_code: '5000',
		message: 'Solicitud Aceptada',
		rfc: 'EKU9003173C9',
		cfdi_kind: 'cfdi',
		asked: {
			operation: 'SolicitaDescargaRecibidos',
			RfcSolicitante: 'EKU9003173C9',
			RfcReceptor: 'EKU9003173C9',
			FechaInicial: `${PERIOD}-01T00:00:00`,
			FechaFinal: `${PERIOD}-31T23:59:59`,
			TipoSolicitud: 'CFDI',
			EstadoComprobante: 'Vigente',
		},
		notes: [expect.stringMatching(/^Document Status: Vigente/)],
	});
	expect(paths()).toEqual(['/Autenticacion/Autenticacion.svc', '/SolicitaDescargaService.svc']);
	expect(env.sim.refusals).toEqual([]);
	const [auth, asked] = env.calls();
	expect(auth.headers.soapaction).toBe(
		'http://DescargaMasivaTerceros.gob.mx/IAutenticacion/Autentica',
	);
	expect(asked.headers.soapaction).toBe(
		'http://DescargaMasivaTerceros.sat.gob.mx/ISolicitaDescargaService/SolicitaDescargaRecibidos',
	);
	expect(asked.headers.authorization).toMatch(/^WRAP access_token="eyJ/);
	expect(asked.headers['content-type']).toBe('text/xml; charset=utf-8');
	expect(env.sim.requests.get(json.request_id)?.cfdis.length).toBeGreaterThan(5);
});

test('Check Request, as a Wait loop sees it: accepted, in process, then finished with its packages', async () => {
	const asked = out(await env.run(request()))[0].json;
	const states = [];
	for (const after of [1000, 60_000, env.sim.delays.readyMs + 1000]) {
		const result = await env.run(check(), [asked], { at: NOW + after });
		expect(result.error).toBeUndefined();
		states.push(out(result)[0].json);
	}
	expect(states.map((s) => [s.state, s.finished, s.still_processing, s.failed])).toEqual([
		['accepted', false, true, false],
		['in_process', false, true, false],
		['finished', true, false, false],
	]);
	const vigentes = MONTH.filter((f) => f.outcome === 'A000' && !f.name.includes('twice'));
	expect(states[2]).toMatchObject({
		request_id: asked.request_id,
		state_code: 3,
		status_code: '5000',
		request_status_code: '5000',
		cfdi_count: expect.any(Number),
		package_ids: [`${String(asked.request_id).toUpperCase()}_01`],
		package_count: 1,
		no_cfdis: false,
	});
	expect(states[2].cfdi_count).toBeLessThanOrEqual(vigentes.length);
});

test('Download: one item per CFDI, its XML as the binary <UUID>.xml, byte for byte what the SAT holds', async () => {
	const finished = await finishedRequest(env);
	const result = await env.run(download(), [finished], { at: NOW + 200_000 });
	expect(result.error).toBeUndefined();
	const items = out(result);
	expect(items).toHaveLength(Number(finished.cfdi_count));
	for (const item of items) {
		const held = env.sim.cfdis.find((c) => c.uuid === item.json.uuid);
		expect(held).toBeDefined();
		expect(held?.cancelled).toBe(false);
		expect(item.json).toEqual({
			uuid: held?.uuid,
			file_name: `${held?.uuid}.xml`,
			package_id: finished.package_ids[0],
			request_id: String(finished.request_id).toUpperCase(),
			cfdi_kind: 'cfdi',
		});
		const file = item.binary?.data;
		expect(file?.fileName).toBe(`${held?.uuid}.xml`);
		expect(file?.mimeType).toBe('application/xml');
		expect(Buffer.from(String(file?.data), 'base64').toString('utf8')).toBe(held?.xml);
	}
	// Every item is paired with the input item.
	expect(items.every((i) => JSON.stringify(i.pairedItem) === '{"item":0}')).toBe(true);
});

test('Download, metadata: one item per row, typed, cancelled CFDIs included', async () => {
	const finished = await finishedRequest(env, request({ content: 'Metadata' }));
	const result = await env.run(download(), [finished], { at: NOW + 200_000 });
	expect(result.error).toBeUndefined();
	const rows = out(result).map((i) => i.json);
	const inMonth = env.sim.cfdis.filter(
		(c) => c.receptorRfc === 'EKU9003173C9' && c.fecha.startsWith(PERIOD),
	);
	expect(rows).toHaveLength(inMonth.length);
	const cancelled = rows.find((r) => r.estatus === 'cancelado');
	expect(cancelled).toMatchObject({
		fecha_cancelacion: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T18:00:00$/),
	});
	const first = rows.find((r) => r.estatus === 'vigente');
	const held = env.sim.cfdis.find((c) => c.uuid === first?.uuid);
	expect(first).toEqual({
		uuid: held?.uuid,
		rfc_emisor: held?.emisorRfc,
		nombre_emisor: held?.nombreEmisor,
		rfc_receptor: 'EKU9003173C9',
		nombre_receptor: 'ESCUELA KEMPER URGATE',
		rfc_pac: 'SAT970701NN3',
		fecha_emision: held?.fecha,
		fecha_certificacion_sat: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:48$/),
		monto: Number(held?.total),
		efecto_comprobante: held?.tipo,
		estatus: 'vigente',
		fecha_cancelacion: null,
		rfc_a_cuenta_terceros: null,
		nombre_a_cuenta_terceros: null,
		warnings: [],
		package_id: finished.package_ids[0],
		request_id: String(finished.request_id).toUpperCase(),
		cfdi_kind: 'cfdi',
	});
	expect(typeof first?.monto).toBe('number');
});

test('Download → Package ZIP: the package as the SAT sent it, one item per package', async () => {
	const finished = await finishedRequest(env);
	const result = await env.run(
		download({ output: 'zip', binaryPropertyName: 'paquete' }),
		[finished],
		{
			at: NOW + 200_000,
		},
	);
	expect(result.error).toBeUndefined();
	const [item] = out(result);
	const pkg = env.sim.packages.get(finished.package_ids[0]);
	expect(item.json).toMatchObject({ package_id: pkg?.id, file_name: `${pkg?.id}.zip` });
	expect(
		Buffer.from(String(item.binary?.paquete.data), 'base64').equals(pkg?.zip ?? Buffer.alloc(0)),
	).toBe(true);
});

test('a request for a period without CFDIs: rejected with 5004, no_cfdis for the loop to end, not an error', async () => {
	const finished = await finishedRequest(
		env,
		request({ period: 'custom', start: '2026-01-01T00:00:00', end: '2026-01-31T23:59:59' }),
	);
	expect(finished).toMatchObject({
		state: 'rejected',
		request_status_code: '5004',
		finished: false,
		still_processing: false,
		failed: false,
		no_cfdis: true,
		package_ids: [],
		reason: 'The SAT found no CFDIs for the period and filters asked.',
	});
});

test('Request, issued, to two counterparts: SolicitaDescargaEmitidos with its signed RfcReceptores, accepted as the SAT verifies', async () => {
	const result = await env.run(
		request({ direction: 'issued', filters: { counterpartRfcs: 'URE180429TM6, XIA190128J61' } }),
	);
	expect(result.error).toBeUndefined();
	const [item] = out(result);
	expect(item.json).toMatchObject({
		status_code: '5000',
		asked: { operation: 'SolicitaDescargaEmitidos', RfcEmisor: 'EKU9003173C9' },
	});
	expect(env.sim.refusals).toEqual([]);
	const asked = env.calls().at(-1);
	expect(asked?.headers.soapaction).toBe(
		'http://DescargaMasivaTerceros.sat.gob.mx/ISolicitaDescargaService/SolicitaDescargaEmitidos',
	);
	expect(String(asked?.raw)).toMatch(
		/<des:RfcReceptores><des:RfcReceptor>URE180429TM6<\/des:RfcReceptor><des:RfcReceptor>XIA190128J61<\/des:RfcReceptor><\/des:RfcReceptores>/,
	);
});

test('Request one CFDI by UUID, then Download: that CFDI alone', async () => {
	const held = env.sim.cfdis.find((c) => !c.cancelled);
	const finished = await finishedRequest(env, request({ direction: 'uuid', uuid: held?.uuid }));
	expect(env.sim.refusals).toEqual([]);
	const result = await env.run(download(), [finished], { at: NOW + 200_000 });
	expect(result.error).toBeUndefined();
	expect(out(result).map((i) => i.json.uuid)).toEqual([held?.uuid]);
});

test('Request retention CFDIs (CFDI de retenciones): the retentions service, signed and accepted', async () => {
	const result = await env.run(request({ cfdiKind: 'retenciones' }));
	expect(result.error).toBeUndefined();
	expect(out(result)[0].json).toMatchObject({ status_code: '5000', cfdi_kind: 'retenciones' });
	expect(env.sim.refusals).toEqual([]);
});
