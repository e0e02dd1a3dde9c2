import { everythingOf, leaks } from '../harness/hostile';
import { testEfirma } from '../simulator/satBulk';
import { zipFile } from '../simulator/zip';
import { check, download, finishedRequest, NOW, out, request, startBulk } from './bulk-setup';
/** @import { BulkEnv } from './bulk-setup' */

/**
 * The SAT's answers and the network, for Bulk Download: each answer code becomes an error that says what to do
 * (5002, 5003, 5004, 5005, 5007, 5008, 300); Request and Download are never sent twice (the SAT creates a request,
 * counts a download), Check Request is asked again once; one token serves the whole run and is renewed before its
 * Expires and once when the SAT refuses it; the key, the password and the token appear nowhere, even when the
 * service echoes them; redirects are not followed, oversized packages are stopped, slow answers cut.
 */

/** @type {BulkEnv} */
let env;
beforeAll(async () => {
	env = await startBulk();
});
afterAll(async () => env.stop());
beforeEach(() => env.reset());

const paths = () =>
	env.calls().map((c) => c.path.replace(/^\/(Autenticacion\/)?/, '').replace('.svc', ''));
const ID = '4e80345d-917f-40bb-a98f-4a73939343c5';
const LATER = NOW + 200_000;

describe('answer codes', () => {
	test('5005: the same parameters while a request is under way — the earlier id is named and kept', async () => {
		const first = out(await env.run(request()))[0].json;
		const result = await env.run(request(), [{}], { continueOnFail: true, at: NOW + 1000 });
		const [item] = out(result);
		expect(item.json).toEqual({
			error: `[item 1] The SAT answered 5005 (Solicitud duplicada): a request with exactly these parameters is already under way (Solicitud duplicada)`,
			request_id: first.request_id,
			status_code: '5005',
		});
		const stopped = await env.run(request(), [{}], { at: NOW + 2000 });
		expect(stopped.error?.description).toMatch(
			new RegExp(
				`keep checking the earlier request .*The SAT gave the request id ${first.request_id}\\. Nothing was sent again\\.`,
			),
		);
	});

	test('5002: a third request for one exact period of XML — move the period by a second', async () => {
		for (const at of [NOW, NOW + 200_000])
			expect((await env.run(request(), [{}], { at })).error).toBeUndefined();
		const third = await env.run(request(), [{}], { at: NOW + 400_000 });
		expect(third.error?.message).toMatch(
			/answered 5002 .*: the requests for exactly these parameters are used up/,
		);
		expect(third.error?.description).toMatch(/move the start or the end by one second/);
	});

	test('5003: more CFDIs than a request may hold — split the period', async () => {
		env.sim.maxCfdis = 2;
		const result = await env.run(request());
		expect(result.error?.message).toMatch(
			/answered 5003 \(Tope máximo\): the period holds more than one request may/,
		);
		expect(result.error?.description).toMatch(/Split the period into shorter ones/);
	});

	test('5004 on Check Request: an id the SAT does not know', async () => {
		const result = await env.run(check({ requestId: ID }));
		expect(result.error?.message).toBe(
			`[item 1] Request ${ID}: the SAT answered 5004 (No se encontró la información): nothing was found (No se encontró la información)`,
		);
	});

	test('5008: a third download of one package — use the copy you have; never downloaded again by the node', async () => {
		const finished = await finishedRequest(env);
		for (const k of [1, 2])
			expect((await env.run(download(), [finished], { at: LATER + k })).error).toBeUndefined();
		env.server.clear();
		const third = await env.run(download(), [finished], { at: LATER + 3 });
		expect(third.error?.message).toMatch(
			/^\[item 1\] Package .*_01: the SAT answered 5008 \(Máximo de descargas permitidas\): the package was downloaded the most times allowed/,
		);
		expect(third.error?.description).toMatch(/use the copy downloaded before/);
		expect(paths()).toEqual(['Autenticacion', 'DescargaMasivaService']);
	});

	test('5007: a package past its 72 hours — make a new request', async () => {
		const finished = await finishedRequest(env);
		const result = await env.run(download(), [finished], { at: NOW + 73 * 3600_000 });
		expect(result.error?.message).toMatch(/answered 5007 .*: the package no longer exists/);
		expect(result.error?.description).toMatch(/kept 72 hours .*make a new request/);
	});

	test('an expired request: state expired, failed, with the reason', async () => {
		const asked = out(await env.run(request()))[0].json;
		const result = await env.run(check(), [asked], { at: NOW + 73 * 3600_000 });
		expect(out(result)[0].json).toMatchObject({
			state: 'expired',
			failed: true,
			finished: false,
			still_processing: false,
			reason: expect.stringMatching(/make a new request/),
		});
	});
});

describe('never sent twice what the SAT counts; asked again what it only reads', () => {
	test('Request whose answer is lost after the SAT made it: one request, an error that says it may exist', async () => {
		env.server.fail({
			service: 'satbulk',
			path: '/SolicitaDescargaService.svc',
			mode: 'error-after',
			times: 5,
		});
		const result = await env.run(request());
		expect(result.error?.message).toMatch(/SAT answered HTTP 502/);
		expect(result.error?.description).toMatch(
			/may have been processed .*check in the service before sending it again/,
		);
		expect(paths()).toEqual(['Autenticacion', 'SolicitaDescargaService']);
		expect(env.sim.requests.size).toBe(1);
	});

	test('Download whose connection drops after the SAT counted it: one download, never another', async () => {
		const finished = await finishedRequest(env);
		env.server.clear();
		env.server.fail({
			service: 'satbulk',
			path: '/DescargaMasivaService.svc',
			mode: 'drop-after',
			times: 5,
		});
		const result = await env.run(download(), [finished], { at: LATER });
		expect(result.error).toBeDefined();
		expect(paths()).toEqual(['Autenticacion', 'DescargaMasivaService']);
		expect(env.sim.packages.get(finished.package_ids[0])?.downloads).toBe(1);
	});

	test('Check Request after a 5xx: asked again once, and answered', async () => {
		const asked = out(await env.run(request()))[0].json;
		env.server.clear();
		env.server.fail({
			service: 'satbulk',
			path: '/VerificaSolicitudDescargaService.svc',
			mode: 'error-after',
			times: 1,
		});
		const result = await env.run(check(), [asked], { at: NOW + 1000 });
		expect(result.error).toBeUndefined();
		expect(out(result)[0].json.state).toBe('accepted');
		expect(paths()).toEqual([
			'Autenticacion',
			'VerificaSolicitudDescargaService',
			'VerificaSolicitudDescargaService',
		]);
	});

	test('a connection reset as Request is sent: not sent again (the SAT may have it), and the error says so', async () => {
		env.server.fail({
			service: 'satbulk',
			path: '/SolicitaDescargaService.svc',
			mode: 'reset',
			times: 1,
		});
		const result = await env.run(request());
		expect(result.error?.message).toMatch(/SAT could not be reached \(ECONNRESET\)/);
		expect(result.error?.description).toMatch(/may have been processed/);
		expect(paths()).toEqual(['Autenticacion', 'SolicitaDescargaService']);
	});
});

describe('one token per run', () => {
	test('several items, in parallel: one authentication serves them all', async () => {
		const items = Array.from({ length: 6 }, () => ({ request_id: ID }));
		const result = await env.run(check({ options: { parallelRequests: 3 } }), items, {
			continueOnFail: true,
		});
		expect(out(result)).toHaveLength(6);
		expect(env.sim.authentications).toBe(1);
		expect(paths().filter((p) => p === 'Autenticacion')).toHaveLength(1);
	});

	test('a token near its Expires is renewed before it is used again', async () => {
		env.sim.tokenLifeMs = 40_000;
		// The first item's answer comes 15 s late: the token then has less than 30 s left.
		env.server.fail({
			service: 'satbulk',
			path: '/VerificaSolicitudDescargaService.svc',
			mode: 'slow',
			delayMs: 15_000,
			times: 1,
		});
		const result = await env.run(
			check({ options: { parallelRequests: 1 } }),
			[{ request_id: ID }, { request_id: ID }],
			{ continueOnFail: true },
		);
		expect(out(result)).toHaveLength(2);
		expect(env.sim.authentications).toBe(2);
		expect(env.sim.refusals.filter((r) => r.code === '300')).toEqual([]);
	});

	test('300 (the SAT dropped the token): authenticated again once, and answered', async () => {
		const asked = out(await env.run(request()))[0].json;
		env.server.clear();
		env.sim.authentications = 0;
		env.sim.refuseTokens = 1;
		const result = await env.run(check(), [asked], { at: NOW + 1000 });
		expect(result.error).toBeUndefined();
		expect(env.sim.authentications).toBe(2);
		expect(paths()).toEqual([
			'Autenticacion',
			'VerificaSolicitudDescargaService',
			'Autenticacion',
			'VerificaSolicitudDescargaService',
		]);
	});

	test('300 again after a new token: an error, no third try', async () => {
		env.sim.refuseTokens = 5;
		const result = await env.run(request());
		expect(result.error?.message).toMatch(
			/answered 300 \(Usuario No Válido\): it refused the authentication token/,
		);
		expect(paths()).toEqual([
			'Autenticacion',
			'SolicitaDescargaService',
			'Autenticacion',
			'SolicitaDescargaService',
		]);
		expect(env.sim.requests.size).toBe(0);
	});
});

describe('secrets and a hostile network', () => {
	const tokens = () => [...env.sim.tokens.keys()].flatMap((t) => [t, decodeURIComponent(t)]);
	const SECRETS = [testEfirma().privateKey, testEfirma().keyPassword];

	test('a whole month, requested, checked and downloaded: no key, password or token in anything kept', async () => {
		const finished = await finishedRequest(env);
		const result = await env.run(download(), [finished], { at: LATER });
		expect(result.error).toBeUndefined();
		expect(leaks(everythingOf(result), [...SECRETS, ...tokens()])).toEqual([]);
	});

	test('a refusal that echoes the token in every spelling: none of them kept', async () => {
		env.server.fail({
			service: 'satbulk',
			path: '/VerificaSolicitudDescargaService.svc',
			mode: 'echo-secrets',
			status: 401,
			times: 2,
		});
		const result = await env.run(check({ requestId: ID }));
		expect(result.error).toBeDefined();
		expect(tokens().length).toBeGreaterThan(0);
		expect(leaks(everythingOf(result), [...SECRETS, ...tokens()])).toEqual([]);
	});

	test('a redirect to another origin: not followed, nothing reaches it', async () => {
		env.server.fail({
			service: 'satbulk',
			path: '/SolicitaDescargaService.svc',
			mode: 'redirect',
			to: env.otherOrigin,
			times: 1,
		});
		const result = await env.run(request());
		expect(result.error?.message).toMatch(/with a redirect \(HTTP 307\), which was not followed/);
		expect(env.server.receivedAt(env.otherOrigin)).toEqual([]);
	});

	test('a package answer of 300 MB: stopped at the cap, a shorter period suggested', async () => {
		const finished = await finishedRequest(env);
		env.server.fail({
			service: 'satbulk',
			path: '/DescargaMasivaService.svc',
			mode: 'oversize',
			as: 'text',
			times: 1,
		});
		const result = await env.run(download(), [finished], { at: LATER });
		expect(result.error?.message).toMatch(/Package .*_01 is larger than the 128 MB the node reads/);
		expect(result.error?.description).toMatch(/Ask for a shorter period/);
	});

	test('an answer dripped a byte at a time: cut at Request Timeout', async () => {
		env.server.fail({
			service: 'satbulk',
			path: '/VerificaSolicitudDescargaService.svc',
			mode: 'drip',
			intervalMs: 400,
			times: 2,
		});
		const result = await env.run(check({ requestId: ID, options: { requestTimeout: 20 } }));
		expect(result.error?.message).toMatch(
			/did not answer in time \(no complete answer within 20 s\)/,
		);
		expect(result.elapsedMs).toBeLessThan(25_000);
	});

	test('a package that is not a ZIP: a clear error that says the download counted', async () => {
		const finished = await finishedRequest(env);
		const pkg = env.sim.packages.get(finished.package_ids[0]);
		if (pkg) pkg.zip = Buffer.from('PK this is not a zip at all');
		const result = await env.run(download(), [finished], { at: LATER });
		expect(result.error?.message).toMatch(/Package .*_01 cannot be read: it is not a ZIP file/);
		expect(result.error?.description).toMatch(/this one counted/);
	});

	test('a ZIP with no CFDI and no metadata in it: an error, never a download that outputs nothing', async () => {
		const finished = await finishedRequest(env);
		const pkg = env.sim.packages.get(finished.package_ids[0]);
		if (pkg) pkg.zip = zipFile([{ name: 'leeme.pdf', data: Buffer.from('%PDF-1.4') }]);
		const result = await env.run(download(), [finished], { at: LATER });
		expect(result.error?.message).toMatch(
			/Package .*_01 cannot be read: it holds no CFDI XML file and no metadata file/,
		);
	});
});
