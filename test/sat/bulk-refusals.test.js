import { everythingOf, leaks } from '../harness/hostile';
import { efirmaFile, testEfirma } from '../simulator/satBulk';
import { check, download, NOW, out, request, startBulk } from './bulk-setup';
/** @import { BulkEnv } from './bulk-setup' */

/**
 * What Bulk Download refuses before sending anything — every rule of the SAT's service 1.5 the node knows, and an
 * e.firma that cannot sign (a wrong password, a key of another e.firma, a certificate out of its dates, a CSD,
 * files that are not the e.firma's) — each with a clear error that names the rule or the field, nothing reaching
 * the simulator and nothing of the key or the password in anything the run kept. And what the SAT refuses once
 * sent: a request altered after it was signed.
 */

/** @type {BulkEnv} */
let env;
beforeAll(async () => {
	env = await startBulk();
});
afterAll(async () => env.stop());
beforeEach(() => env.reset());

const SECRETS = [testEfirma().privateKey, testEfirma().keyPassword];

/** Runs `parameters`, expects an error matching `message` with nothing sent. */
async function refused(parameters, message, items = [{}]) {
	const result = await env.run(parameters, items);
	expect(result.error?.message).toMatch(message);
	expect(result.error?.description).toMatch(/Nothing was sent to the SAT/);
	expect(env.calls()).toEqual([]);
	expect(leaks(everythingOf(result), SECRETS)).toEqual([]);
	return result;
}

const custom = (start, end, extra = {}) => request({ period: 'custom', start, end, ...extra });

describe('the rules of version 1.5, refused before sending', () => {
	test.each([
		[
			'start after end',
			custom('2026-10-31T00:00:00', '2026-10-01T00:00:00'),
			/^\[item 1\] End: 2026-10-01T00:00:00 is not after the start 2026-10-31T00:00:00: since version 1\.5 the SAT takes only a period whose start is before its end$/,
		],
		[
			'an instant (start = end)',
			custom('2026-10-01T10:00:00', '2026-10-01T10:00:00'),
			/End: .* is not after the start/,
		],
		[
			'more than 6 years ago',
			custom('2020-11-14T23:59:59', '2020-12-01T00:00:00'),
			/^\[item 1\] Start: 2020-11-14T23:59:59 is more than 6 years ago: the SAT takes a start no earlier than today − 6 years at 00:00 \(2020-11-15T00:00:00\)$/,
		],
		[
			'received XML of every status',
			request({ filters: { status: 'Todos' } }),
			/^\[item 1\] Filters → Document Status: is All: the SAT gives received CFDIs as XML only for vigente ones/,
		],
		[
			'received XML of cancelled ones',
			request({ filters: { status: 'Cancelado' } }),
			/Document Status: is Cancelled: the SAT gives received CFDIs as XML only for vigente ones/,
		],
		[
			'six receivers for issued CFDIs',
			request({
				direction: 'issued',
				filters: {
					counterpartRfcs:
						'URE180429TM6, XIA190128J61, IIA040805DZ4, KIJ0906199R1, EWE1709045U0, CACX7605101P8',
				},
			}),
			/Counterpart RFCs: names 6 receivers: the SAT takes at most 5 receivers' RFCs for issued CFDIs/,
		],
		[
			'two issuers for received CFDIs',
			request({ filters: { counterpartRfcs: 'URE180429TM6,XIA190128J61' } }),
			/names 2 issuers: the SAT takes at most one issuer's RFC for received CFDIs/,
		],
		[
			'a lower-case RFC',
			request({ filters: { counterpartRfcs: 'ure180429tm6' } }),
			/"ure180429tm6" must be written in upper case: the SAT refuses a lower-case RFC \(301 XML Mal Formado\)/,
		],
		[
			'an RFC of the wrong shape',
			request({ content: 'Metadata', filters: { thirdPartyRfc: 'ABC' } }),
			/Third Party RFC: "ABC" is not an RFC/,
		],
		[
			'a UUID that is none',
			request({ direction: 'uuid', uuid: '1234' }),
			/^\[item 1\] UUID \(Folio Fiscal\): "1234" is not a UUID/,
		],
		[
			'a complement that is no code',
			request({ content: 'Metadata', filters: { complement: 'pagos 2.0' } }),
			/Complement: "pagos 2.0" is not a complement code/,
		],
		[
			'a date that is none',
			custom('yesterday', '2026-10-01'),
			/Start: "yesterday" is not a date-time/,
		],
		[
			'a Service Address that is not one',
			request({ options: { serviceAddress: 'ftp://example.com' } }),
			/Options → Service Address: must start with https:\/\/ or http:\/\//,
		],
	])('%s', async (_name, parameters, message) => {
		await refused(parameters, message);
	});

	test('every problem of an item in one error; a batch stops before the first request', async () => {
		const result = await refused(
			custom('2026-10-31', '2026-10-01', { filters: { status: 'Todos', counterpartRfcs: 'a' } }),
			/^\[item 1\] End: /,
			[{}, {}],
		);
		expect(result.error?.description).toMatch(
			/Also wrong in this item:\n- .*Counterpart RFCs.*\n- .*Document Status/,
		);
	});

	test('Check Request and Download: an id that is none, or missing, is refused before sending', async () => {
		await refused(check({ requestId: 'not-an-id' }), /Request ID: "not-an-id" is not a request id/);
		await refused(check(), /Request ID: is missing: give it, or connect Request/);
		await refused(download(), /Package IDs: is missing: give them, or connect Check Request/);
		await refused(download(), /the input item is a request that is not finished/, [
			{ finished: false, package_ids: [] },
		]);
		await refused(download({ packageIds: 'a/b' }), /Package IDs: "a\/b" is not a package id/);
		await refused(
			check(),
			/Request ID: is missing: the input item is not a document but the previous node's error/,
			[{ error: 'the SAT refused it' }],
		);
	});
});

describe('an e.firma that cannot sign: refused with what to do, nothing sent, nothing leaked', () => {
	const withEfirma = (data) =>
		env.engine.credentials.set('satEfirmaApi', { ...testEfirma(), ...data });

	test.each([
		[
			'a wrong password',
			{ keyPassword: 'not-the-password' },
			/^\[item 1\] SAT e\.firma \(FIEL\) credential: Key Password does not open the private key$/,
			/password of this \.key file/,
		],
		[
			'the key of another e.firma',
			{ privateKey: efirmaFile('unrelated.key') },
			/credential: Private Key \(\.key\) does not belong to the certificate$/,
			/issued together with this \.cer/,
		],
		[
			'an expired certificate',
			{ publicCertificate: efirmaFile('EKU9003173C9-expired.cer') },
			/credential: Certificate \(\.cer\) expired on 2024-01-01$/,
			/Renew the e\.firma with the SAT/,
		],
		[
			'a CSD instead of the e.firma',
			{
				publicCertificate: efirmaFile('EKU9003173C9-csd.cer'),
				privateKey: efirmaFile('EKU9003173C9-csd.key'),
			},
			/credential: Certificate \(\.cer\) is a CSD \(Certificado de Sello Digital, for stamping invoices; its branch: "Sucursal 1"\), not the e\.firma$/,
			/takes only the e\.firma \(FIEL\)/,
		],
		[
			'the certificate in the key field',
			{ privateKey: efirmaFile('EKU9003173C9.cer') },
			/credential: Private Key \(\.key\) is not a private key$/,
			/Load the e\.firma's \.key file/,
		],
		[
			'an empty password',
			{ keyPassword: '' },
			/credential: Key Password is empty, and the key is encrypted$/,
			/Enter the password/,
		],
		[
			'a file that is not base64',
			{ publicCertificate: 'C:\\Users\\me\\EKU9003173C9.cer' },
			/credential: Certificate \(\.cer\) is neither base64 nor PEM$/,
			/base64 -w0 file/,
		],
	])('%s', async (_name, given, message, fix) => {
		const data = /** @type {Record<string, string>} */ (given);
		withEfirma(data);
		for (const parameters of [
			request(),
			check({ requestId: '4e80345d-917f-40bb-a98f-4a73939343c5' }),
		]) {
			const result = await refused(parameters, message);
			expect(result.error?.description).toMatch(fix);
			if (data.keyPassword) expect(leaks(everythingOf(result), [data.keyPassword])).toEqual([]);
		}
	});

	test('PEM files are read as well as base64', async () => {
		const pem = (type, b64) =>
			`-----BEGIN ${type}-----\n${b64.match(/.{1,64}/g)?.join('\n')}\n-----END ${type}-----\n`;
		withEfirma({
			publicCertificate: pem('CERTIFICATE', testEfirma().publicCertificate),
			privateKey: pem('ENCRYPTED PRIVATE KEY', testEfirma().privateKey),
		});
		const result = await env.run(request());
		expect(result.error).toBeUndefined();
		expect(out(result)[0].json.status_code).toBe('5000');
	});

	test('the certificate not yet in force: refused on the date it is not', async () => {
		const result = await env.run(request(), [{}], { at: Date.parse('2024-12-31T12:00:00Z') });
		expect(result.error?.message).toMatch(
			/Certificate \(\.cer\) is not in force yet: it is valid from 2025-01-01/,
		);
		expect(env.calls()).toEqual([]);
	});
});

describe('what the SAT refuses once sent', () => {
	test('a request altered after it was signed (an RFC changed on the way): 302, never sent again', async () => {
		env.sim.alter = (xml, path) =>
			path === '/SolicitaDescargaService.svc'
				? xml.replace('TipoSolicitud="CFDI"', 'TipoSolicitud="Metadata"')
				: xml;
		const result = await env.run(request());
		expect(result.error?.message).toBe(
			'[item 1] The SAT answered 302 (Sello Mal Formado): it refused the signature (Sello Mal Formado)',
		);
		expect(env.sim.refusals).toEqual([
			{ path: '/SolicitaDescargaService.svc', code: '302', why: 'signature: digest' },
		]);
		expect(env.calls().map((c) => c.path)).toEqual([
			'/Autenticacion/Autenticacion.svc',
			'/SolicitaDescargaService.svc',
		]);
		expect(env.sim.requests.size).toBe(0);
	});

	test('an authentication altered after it was signed: InvalidSecurity, final (not asked again), nothing requested', async () => {
		env.sim.alter = (xml, path) =>
			path === '/Autenticacion/Autenticacion.svc'
				? xml.replace(
						/<u:Expires>[^<]*<\/u:Expires>/,
						'<u:Expires>2026-11-15T19:00:00.000Z</u:Expires>',
					)
				: xml;
		const result = await env.run(request());
		expect(result.error?.message).toBe(
			'[item 1] The SAT refused the e.firma’s authentication (InvalidSecurity)',
		);
		expect(result.error?.description).toMatch(
			/Check the credential with its Test button and this machine’s clock/,
		);
		expect(env.calls().map((c) => c.path)).toEqual(['/Autenticacion/Autenticacion.svc']);
		expect(env.sim.refusals).toEqual([
			{
				path: '/Autenticacion/Autenticacion.svc',
				code: 'InvalidSecurity',
				why: 'signature: digest',
			},
		]);
	});

	test('a signature value altered: 302 (the digest holds, the RSA signature does not)', async () => {
		env.sim.alter = (xml, path) =>
			path === '/VerificaSolicitudDescargaService.svc'
				? xml.replace(/<SignatureValue>(.)/, (_, c) => `<SignatureValue>${c === 'A' ? 'B' : 'A'}`)
				: xml;
		const result = await env.run(check({ requestId: '4e80345d-917f-40bb-a98f-4a73939343c5' }));
		expect(result.error?.message).toMatch(/the SAT answered 302 \(Sello Mal Formado\)/);
		expect(env.sim.refusals.map((r) => r.why)).toEqual(['signature: signature value']);
	});
});

test('Continue On Fail: each refused item is an error item, the others are sent', async () => {
	const result = await env.run(
		check({ requestId: '={{ $json.id }}' }),
		[{ id: 'nope' }, { id: '4e80345d-917f-40bb-a98f-4a73939343c5' }],
		{ continueOnFail: true, at: NOW },
	);
	expect(result.error).toBeUndefined();
	const [bad, unknown] = out(result).map((i) => i.json);
	expect(bad.error).toMatch(/^\[item 1\] Request ID: "nope" is not a request id/);
	expect(unknown.error).toMatch(
		/^\[item 2\] Request 4e80345d-917f-40bb-a98f-4a73939343c5: the SAT answered 5004/,
	);
});
