import { createPrivateKey, verify, X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ZipError } from '../../nodes/shared/zip';
import {
	checkQuery,
	earliestStart,
	lastMonth,
	queryOperation,
	serviceDateTime,
} from '../../nodes/Sat/domain/bulk/query';
import {
	metadataRows,
	packageEntries,
	cfdiOfEntry,
	stampUuid,
} from '../../nodes/Sat/domain/bulk/packages';
import { bulkAddresses } from '../../nodes/Sat/domain/bulk/service';
import {
	canonicalOperation,
	canonicalTimestamp,
	digest,
	securityHeader,
	signedInfo,
	signedOperation,
} from '../../nodes/Sat/domain/bulk/signing';
import { readEfirma } from '../../nodes/Sat/domain/efirma';
import { withFakeClock } from '../harness/clock';
import { built, Engine } from '../harness/engine';
import { SatBulkSimulator, efirmaFile, testEfirma } from '../simulator/satBulk';
import { SimulatorServer } from '../simulator/server';
import { zipFile } from '../simulator/zip';
import { MONTH, NOW } from './bulk-setup';

/**
 * The rules of Bulk Download that are not an operation: the canonical strings hashed and signed (checked against
 * the digests and a signature of phpcfdi/sat-ws-descarga-masiva's fixtures, which the SAT accepted), the e.firma's
 * reading, the rules of version 1.5, the packages' shapes; the credential's Test button; and the simulator's own
 * verification, given messages signed with another key or for another RFC.
 */

const efirma = () => {
	const read = readEfirma(testEfirma(), NOW);
	if ('problem' in read) throw new Error(read.problem);
	return read;
};

describe('canonical strings (exclusive c14n) and their digests, as phpcfdi writes them', () => {
	test("the authentication's Timestamp: phpcfdi's fixture digest", () => {
		expect(digest(canonicalTimestamp('2019-08-01T03:38:19.000Z', '2019-08-01T03:43:19.000Z'))).toBe(
			'nQnU35aTer+opzz7HKZiemZZRj8=',
		);
	});

	test("a verification's operation element: phpcfdi's fixture digest", () => {
		const op = {
			operation: 'VerificaSolicitudDescarga',
			child: 'solicitud',
			attributes: {
				RfcSolicitante: 'EKU9003173C9',
				IdSolicitud: '3f30a4e1-af73-4085-8991-e4d97eef16bd',
			},
		};
		expect(canonicalOperation(op)).toBe(
			'<des:VerificaSolicitudDescarga xmlns:des="http://DescargaMasivaTerceros.sat.gob.mx"><des:solicitud IdSolicitud="3f30a4e1-af73-4085-8991-e4d97eef16bd" RfcSolicitante="EKU9003173C9"></des:solicitud></des:VerificaSolicitudDescarga>',
		);
		expect(digest(canonicalOperation(op))).toBe('DVHsbfyUP1fm7CPdctOp8N6132E=');
	});

	test("a request's attributes sorted by name, empty ones left out: phpcfdi's (pre-1.5) issued-request digest", () => {
		const op = {
			operation: 'SolicitaDescarga',
			child: 'solicitud',
			attributes: {
				TipoSolicitud: 'CFDI',
				RfcSolicitante: 'EKU9003173C9',
				RfcEmisor: 'EKU9003173C9',
				FechaInicial: '2019-01-01T00:00:00',
				FechaFinal: '2019-01-01T00:04:00',
				RfcACuentaTerceros: '',
			},
		};
		expect(digest(canonicalOperation(op))).toBe('/YlxNcMVGC0/BxfUu2f/xvcZl2M=');
	});

	test("the canonical SignedInfo: phpcfdi's fixture signature verifies over it with the fixture's certificate", () => {
		// phpcfdi tests/_files/verify/request.xml: its DigestValue, SignatureValue and X509Certificate (the SAT's
		// public test certificate of EKU9003173C9).
		const fixture = JSON.parse(readFileSync(join(__dirname, 'bulk-phpcfdi-verify.json'), 'utf8'));
		const cert = new X509Certificate(Buffer.from(fixture.certificate, 'base64'));
		const info = signedInfo('', 'DVHsbfyUP1fm7CPdctOp8N6132E=');
		expect(
			verify(
				'sha1',
				Buffer.from(info),
				cert.publicKey,
				Buffer.from(fixture.signatureValue, 'base64'),
			),
		).toBe(true);
		expect(
			verify(
				'sha1',
				Buffer.from(info.replace('URI=""', 'URI="#x"')),
				cert.publicKey,
				Buffer.from(fixture.signatureValue, 'base64'),
			),
		).toBe(false);
		expect(cert.issuer.split('\n').join(',')).toBe(fixture.issuerName);
		expect(BigInt(`0x${cert.serialNumber}`).toString()).toBe(fixture.serialNumber);
	});

	test('values are escaped as c14n escapes them; receivers are children, the signature last inside the child', () => {
		const query = {
			direction: 'issued',
			operation: 'SolicitaDescargaEmitidos',
			attributes: {
				RfcSolicitante: 'A&B010101AB1',
				RfcEmisor: 'A&B010101AB1',
				FechaInicial: '2026-10-01T00:00:00',
				FechaFinal: '2026-10-31T23:59:59',
				TipoSolicitud: 'CFDI',
				EstadoComprobante: 'Todos',
			},
			receivers: ['AÑO010101AB1', 'URE180429TM6'],
		};
		const canonical = canonicalOperation(queryOperation(/** @type {any} */ (query)));
		expect(canonical).toContain('RfcEmisor="A&amp;B010101AB1"');
		expect(canonical).toContain(
			'<des:RfcReceptores><des:RfcReceptor>AÑO010101AB1</des:RfcReceptor><des:RfcReceptor>URE180429TM6</des:RfcReceptor></des:RfcReceptores></des:solicitud>',
		);
		const signed = signedOperation(efirma(), queryOperation(/** @type {any} */ (query)));
		expect(signed).toMatch(
			/<\/des:RfcReceptores><Signature xmlns="http:\/\/www\.w3\.org\/2000\/09\/xmldsig#"><SignedInfo>.*<Reference URI="">.*<X509SerialNumber>\d+<\/X509SerialNumber>.*<\/Signature><\/des:solicitud><\/des:SolicitaDescargaEmitidos>$/,
		);
		expect(signed.replace(/<Signature [\s\S]*<\/Signature>/, '')).toBe(canonical);
	});
});

describe('the e.firma', () => {
	test('read: RFC, serial as the SAT numbers certificates, issuer in certificate order, dates', () => {
		const e = efirma();
		expect(e).toMatchObject({
			rfc: 'EKU9003173C9',
			holder: 'ESCUELA KEMPER URGATE SA DE CV',
			certificateNumber: '30001000000500000001',
			serialDecimal: BigInt('0x3330303031303030303030353030303030303031').toString(),
			issuerName:
				'CN=AC DE PRUEBAS N8N-NODES-LATAM-FISCAL (FICTICIA),O=n8n-nodes-latam-fiscal test material,C=MX',
		});
		expect(e.validTo.toISOString()).toBe('2029-01-01T00:00:00.000Z');
		expect(e.certificateBase64).toBe(testEfirma().publicCertificate);
	});

	test('an unencrypted key is read with or without the password', () => {
		const key = createPrivateKey({
			key: readFileSync(join(__dirname, '..', 'fixtures', 'sat', 'efirma', 'EKU9003173C9.key')),
			format: 'der',
			type: 'pkcs8',
			passphrase: '12345678a',
		});
		const plain = key.export({ format: 'pem', type: 'pkcs8' }).toString();
		expect('rfc' in readEfirma({ ...testEfirma(), privateKey: plain, keyPassword: '' }, NOW)).toBe(
			true,
		);
	});

	test('a certificate expires on its last day; one problem at a time, in the order a person fixes them', () => {
		expect(readEfirma(testEfirma(), Date.parse('2029-01-01T00:00:01Z'))).toMatchObject({
			problem: 'expired on 2029-01-01',
		});
		expect(
			readEfirma({ ...testEfirma(), keyPassword: 'x', publicCertificate: '' }, NOW),
		).toMatchObject({ field: 'Certificate (.cer)', problem: 'is empty' });
		expect(
			readEfirma(
				{ ...testEfirma(), privateKey: efirmaFile('unrelated.key'), keyPassword: 'nope' },
				NOW,
			),
		).toMatchObject({ field: 'Key Password' });
	});
});

describe('the Test button of the credential (no request to the SAT)', () => {
	const engine = new Engine(
		[built('nodes/Sat/Sat.node', 'Sat')],
		[built('credentials/SatEfirmaApi.credentials', 'SatEfirmaApi')],
	);
	test('the test e.firma: OK, with its RFC and expiry date', async () => {
		expect(await engine.testCredential('satEfirmaApi', testEfirma())).toEqual({
			status: 'OK',
			message:
				'e.firma of RFC EKU9003173C9 (ESCUELA KEMPER URGATE SA DE CV), certificate 30001000000500000001, valid until 2029-01-01: the key opens with the password and belongs to the certificate. Nothing was sent to the SAT.',
		});
	});
	test.each([
		[
			{ keyPassword: 'wrong-password-123' },
			/^Key Password does not open the private key\. Enter the password/,
		],
		[
			{ privateKey: efirmaFile('unrelated.key') },
			/^Private Key \(\.key\) does not belong to the certificate\./,
		],
		[
			{ publicCertificate: efirmaFile('EKU9003173C9-expired.cer') },
			/^Certificate \(\.cer\) expired on 2024-01-01\. Renew/,
		],
		[
			{
				publicCertificate: efirmaFile('EKU9003173C9-csd.cer'),
				privateKey: efirmaFile('EKU9003173C9-csd.key'),
			},
			/^Certificate \(\.cer\) is a CSD/,
		],
		[
			{ publicCertificate: 'not a certificate' },
			/^Certificate \(\.cer\) is not an X\.509 certificate\. Load the e\.firma's \.cer file/,
		],
		[
			{ publicCertificate: 'C:\\Users\\me\\x.cer' },
			/^Certificate \(\.cer\) is neither base64 nor PEM/,
		],
	])('%o: an error saying what to do, without the key or password', async (data, message) => {
		const result = await engine.testCredential('satEfirmaApi', { ...testEfirma(), ...data });
		expect(result.status).toBe('Error');
		expect(result.message).toMatch(message);
		for (const secret of [testEfirma().privateKey, testEfirma().keyPassword, 'wrong-password-123'])
			expect(result.message).not.toContain(secret);
	});
});

describe('the rules of version 1.5', () => {
	const base = {
		direction: /** @type {const} */ ('received'),
		content: /** @type {const} */ ('CFDI'),
		counterparts: [],
	};
	test('dates: a date alone is its midnight (or last second for the end); a zone is converted to Mexico City', () => {
		expect(serviceDateTime('2026-10-01')).toBe('2026-10-01T00:00:00');
		expect(serviceDateTime('2026-10-31', true)).toBe('2026-10-31T23:59:59');
		expect(serviceDateTime('2026-10-01T06:00:00.000Z')).toBe('2026-10-01T00:00:00');
		expect(serviceDateTime('2026-10-01T00:00:00-06:00')).toBe('2026-10-01T00:00:00');
		expect(serviceDateTime('2026-02-30')).toBeUndefined();
		expect(serviceDateTime('2026-10-01T24:00:00')).toBeUndefined();
	});
	test('last month, in Mexico City (the 1st at 00:30 UTC is still last month there)', () => {
		expect(lastMonth(Date.parse('2026-12-01T05:30:00Z'))).toEqual({
			start: '2026-10-01T00:00:00',
			end: '2026-10-31T23:59:59',
		});
		expect(lastMonth(Date.parse('2026-03-15T12:00:00Z'))).toEqual({
			start: '2026-02-01T00:00:00',
			end: '2026-02-28T23:59:59',
		});
		expect(lastMonth(Date.parse('2027-01-10T12:00:00Z'))).toEqual({
			start: '2026-12-01T00:00:00',
			end: '2026-12-31T23:59:59',
		});
	});
	test('the earliest start: today − 6 years at 00:00', () => {
		expect(earliestStart(Date.parse('2025-01-13T18:00:00Z'))).toBe('2019-01-13T00:00:00');
	});
	test('received XML: Vigente chosen when no status is given, and said', () => {
		const r = checkQuery({ ...base, start: '2026-10-01', end: '2026-10-31' }, 'EKU9003173C9', NOW);
		expect('query' in r && r.query.attributes.EstadoComprobante).toBe('Vigente');
		expect('picked' in r && r.picked).toHaveLength(1);
		const meta = checkQuery(
			{ ...base, content: 'Metadata', start: '2026-10-01', end: '2026-10-31' },
			'EKU9003173C9',
			NOW,
		);
		expect('query' in meta && meta.query.attributes.EstadoComprobante).toBe('Todos');
	});
	test('by UUID: the UUID alone; any other filter refused, naming the rule', () => {
		const r = checkQuery(
			{
				...base,
				direction: 'uuid',
				uuid: '5fb2822e-396d-4725-8521-cdc4bdd20ccf',
				start: '',
				end: '',
				counterparts: ['URE180429TM6'],
				documentType: 'I',
			},
			'EKU9003173C9',
			NOW,
		);
		expect(r).toEqual({
			problems: [
				{
					field: 'counterparts',
					problem:
						'cannot be used with a request by UUID: the SAT takes only the UUID there (SolicitaDescargaFolio)',
				},
				{
					field: 'documentType',
					problem:
						'cannot be used with a request by UUID: the SAT takes only the UUID there (SolicitaDescargaFolio)',
				},
			],
		});
		const ok = checkQuery(
			{
				...base,
				direction: 'uuid',
				uuid: '5fb2822e-396d-4725-8521-cdc4bdd20ccf',
				start: '',
				end: '',
			},
			'EKU9003173C9',
			NOW,
		);
		expect('query' in ok && ok.query.attributes).toEqual({
			Folio: '5FB2822E-396D-4725-8521-CDC4BDD20CCF',
			RfcSolicitante: 'EKU9003173C9',
		});
	});
	test('addresses: the SAT hosts by kind, or every service below a Service Address', () => {
		expect(bulkAddresses('', 'retenciones')).toEqual({
			auth: 'https://retendescargamasivasolicitud.clouda.sat.gob.mx/Autenticacion/Autenticacion.svc',
			request: 'https://retendescargamasivasolicitud.clouda.sat.gob.mx/SolicitaDescargaService.svc',
			verify:
				'https://retendescargamasivasolicitud.clouda.sat.gob.mx/VerificaSolicitudDescargaService.svc',
			download: 'https://retendescargamasiva.clouda.sat.gob.mx/DescargaMasivaService.svc',
		});
		expect(bulkAddresses('http://127.0.0.1:7401/satbulk/', 'cfdi')).toMatchObject({
			download: 'http://127.0.0.1:7401/satbulk/DescargaMasivaService.svc',
		});
	});
});

describe('packages', () => {
	const limits = { maxEntries: 100, maxTotalBytes: 10 * 1024 * 1024, maxRatio: 200 };
	test('metadata: CRLF, a bare LF inside a name dropped, extra and missing fields, third parties joined by UUID', () => {
		const text = [
			'Uuid~RfcEmisor~NombreEmisor~RfcReceptor~NombreReceptor~RfcPac~FechaEmision~FechaCertificacionSat~Monto~EfectoComprobante~Estatus~FechaCancelacion',
			'0f0e0d0c-1111-4a2b-9c3d-000000000001~AAA010101AAA~PROVEEDOR\nDEMO SA DE CV~EKU9003173C9~ESCUELA KEMPER URGATE SA DE CV~SAT970701NN3~2025-03-14 09:12:00~2025-03-14 09:12:41~1160.00~I~1~',
			'0f0e0d0c-1111-4a2b-9c3d-000000000002~AAA010101AAA~"COMILLAS" SA~EKU9003173C9~E~SAT970701NN3~2025-03-15 10:00:00~2025-03-15 10:00:41~-5.5~E~0~2025-03-20 12:00:00~extra',
			'0f0e0d0c-1111-4a2b-9c3d-000000000003~AAA010101AAA',
		].join('\r\n');
		const zip = zipFile([
			{ name: 'ABC_01.txt', data: `${text}\r\n` },
			{
				name: 'ABC_tercero.txt',
				data: 'Uuid~RfcACuentaTerceros~NombreACuentaTerceros\r\n0F0E0D0C-1111-4A2B-9C3D-000000000002~XIA190128J61~XENON\r\n',
			},
			{ name: '__MACOSX/._ABC_01.txt', data: 'junk' },
		]);
		const content = packageEntries(zip, limits);
		expect(content.kind).toBe('metadata');
		const rows = [...metadataRows(zip, content)];
		expect(rows[0]).toMatchObject({
			uuid: '0F0E0D0C-1111-4A2B-9C3D-000000000001',
			nombre_emisor: 'PROVEEDORDEMO SA DE CV',
			monto: 1160,
			estatus: 'vigente',
			fecha_emision: '2025-03-14T09:12:00',
			fecha_cancelacion: null,
			rfc_a_cuenta_terceros: null,
			warnings: [],
		});
		expect(rows[1]).toMatchObject({
			nombre_emisor: '"COMILLAS" SA',
			monto: -5.5,
			estatus: 'cancelado',
			fecha_cancelacion: '2025-03-20T12:00:00',
			rfc_a_cuenta_terceros: 'XIA190128J61',
			nombre_a_cuenta_terceros: 'XENON',
			warnings: ['the row has 1 more fields than the header'],
		});
		expect(rows[2]).toMatchObject({ rfc_emisor: 'AAA010101AAA', monto: null, estatus: null });
		expect(rows[2].warnings).toEqual(['Estatus "" is neither 1 (vigente) nor 0 (cancelado)']);
	});

	test('CFDIs: the UUID of the stamp, <UUID>.xml.xml names, other entries left out', () => {
		const [a, b] = MONTH;
		const zip = zipFile([
			{ name: `${a.uuid.toLowerCase()}.xml.xml`, data: a.xml },
			{ name: 'renamed.xml', data: b.xml },
			{ name: 'folder/', data: '', method: 0 },
			{ name: 'nested/c.xml', data: b.xml },
			{ name: 'empty.xml', data: '' },
		]);
		const content = packageEntries(zip, limits);
		expect(content.kind).toBe('cfdi');
		expect(content.entries.map((e) => cfdiOfEntry(zip, e).fileName)).toEqual([
			`${a.uuid}.xml`,
			`${b.uuid}.xml`,
		]);
		expect(
			stampUuid(Buffer.from('<x xsi:schemaLocation="a TimbreFiscalDigitalv11.xsd"/>')),
		).toBeUndefined();
	});

	test('a zip bomb: refused before anything is inflated', () => {
		const zip = zipFile([{ name: 'a.xml', data: Buffer.alloc(20 * 1024 * 1024), level: 9 }]);
		expect(() => packageEntries(zip, limits)).toThrow(ZipError);
	});
});

describe('the simulator refuses what the SAT refuses, whoever signs', () => {
	/** @type {SimulatorServer} */
	let server;
	const sim = new SatBulkSimulator();
	beforeAll(async () => {
		server = await new SimulatorServer([sim]).start();
	});
	afterAll(() => server.stop());
	beforeEach(() => {
		sim.reset();
		server.clear();
	});
	const envelope = (body, header = '') =>
		`<soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/">${header ? `<soap:Header>${header}</soap:Header>` : ''}<soap:Body>${body}</soap:Body></soap:Envelope>`;
	const post = async (path, action, body, headers = {}) => {
		const { result: res } = await withFakeClock(async () => {
			jest.setSystemTime(NOW);
			const answer = await fetch(`${server.url('satbulk')}${path}`, {
				method: 'POST',
				headers: { 'content-type': 'text/xml; charset=utf-8', soapaction: action, ...headers },
				body,
			});
			return { status: answer.status, text: await answer.text() };
		});
		return res;
	};
	const AUTH = 'http://DescargaMasivaTerceros.gob.mx/IAutenticacion/Autentica';
	const VERIFY =
		'http://DescargaMasivaTerceros.sat.gob.mx/IVerificaSolicitudDescargaService/VerificaSolicitudDescarga';
	const withKey = (file, cert = 'EKU9003173C9.cer') => {
		const e = readEfirma(
			{ ...testEfirma(), publicCertificate: efirmaFile(cert) },
			Date.parse('2023-06-01T00:00:00Z') < 0 ? 0 : NOW,
		);
		const base = 'rfc' in e ? e : efirma();
		return {
			...base,
			certificate: new X509Certificate(Buffer.from(efirmaFile(cert), 'base64')),
			certificateBase64: efirmaFile(cert),
			key: createPrivateKey({
				key: readFileSync(join(__dirname, '..', 'fixtures', 'sat', 'efirma', file)),
				format: 'der',
				type: 'pkcs8',
				passphrase: '12345678a',
			}),
		};
	};
	const authenticate = async (signer) => {
		const now = NOW;
		const iso = (ms) => new Date(Math.floor(ms / 1000) * 1000).toISOString();
		return await post(
			'/Autenticacion/Autenticacion.svc',
			AUTH,
			envelope(
				'<Autentica xmlns="http://DescargaMasivaTerceros.gob.mx"/>',
				securityHeader(signer, iso(now), iso(now + 300_000)),
			),
		);
	};
	const tokenOf = (text) => /<AutenticaResult>([^<]*)</.exec(text)?.[1] ?? '';
	const verifyWith = async (signer, token, rfc = 'EKU9003173C9') =>
		await post(
			'/VerificaSolicitudDescargaService.svc',
			VERIFY,
			envelope(
				signedOperation(signer, {
					operation: 'VerificaSolicitudDescarga',
					child: 'solicitud',
					attributes: { IdSolicitud: '3f30a4e1-af73-4085-8991-e4d97eef16bd', RfcSolicitante: rfc },
				}),
			),
			{ authorization: `WRAP access_token="${token}"` },
		);
	const code = (text) => /CodEstatus="(\d+)"/.exec(text)?.[1];

	test('an authentication signed with another key (the FIEL certificate, an unrelated key): InvalidSecurity, HTTP 500', async () => {
		const answer = await authenticate(withKey('unrelated.key'));
		expect(answer.status).toBe(500);
		expect(answer.text).toContain('a:InvalidSecurity</faultcode>');
		expect(sim.refusals).toEqual([
			{
				path: '/Autenticacion/Autenticacion.svc',
				code: 'InvalidSecurity',
				why: 'signature: signature value',
			},
		]);
	});

	test('a verification signed with another key: 302; for another RFC: 303; with a token of another certificate: 300', async () => {
		const token = tokenOf((await authenticate(efirma())).text);
		expect(code((await verifyWith(efirma(), token)).text)).toBe('5004');
		expect(code((await verifyWith(withKey('unrelated.key'), token)).text)).toBe('302');
		expect(code((await verifyWith(efirma(), token, 'URE180429TM6')).text)).toBe('303');
		const csd = withKey('EKU9003173C9-csd.key', 'EKU9003173C9-csd.cer');
		expect(code((await verifyWith(csd, token)).text)).toBe('300');
		expect(code((await verifyWith(efirma(), 'made-up-token')).text)).toBe('300');
	});

	test('a CSD gets a token, then 305; an expired e.firma gets a token, then 304 (the SAT vets the certificate at the services)', async () => {
		const csd = withKey('EKU9003173C9-csd.key', 'EKU9003173C9-csd.cer');
		expect(code((await verifyWith(csd, tokenOf((await authenticate(csd)).text))).text)).toBe('305');
		const expired = withKey('EKU9003173C9.key', 'EKU9003173C9-expired.cer');
		expect(
			code((await verifyWith(expired, tokenOf((await authenticate(expired)).text))).text),
		).toBe('304');
	});

	test('the wrong SOAPAction: ActionNotSupported', async () => {
		const answer = await post(
			'/Autenticacion/Autenticacion.svc',
			'http://tempuri.org/Other',
			envelope('<x/>'),
		);
		expect(answer.status).toBe(500);
		expect(answer.text).toContain('a:ActionNotSupported');
	});
});
