import { createHash, randomUUID, verify, X509Certificate } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { attribute, child, parseXml } from '../../nodes/shared/xml';
import { zipFile } from './zip';
/** @import { RouteTable, SimRequest, SimResponse } from './server' */
/** @import { XmlElement } from '../../nodes/shared/xml' */

/**
 * The SAT's bulk download service (Descarga Masiva de CFDI y Retenciones, web service version 1.5), served at
 * `/satbulk` (`SatBulkSimulator.address(server.url('satbulk'))` is the node's Service Address): its four services
 * — `/Autenticacion/Autenticacion.svc`, `/SolicitaDescargaService.svc`, `/VerificaSolicitudDescargaService.svc`,
 * `/DescargaMasivaService.svc` — SOAP 1.1 as the SAT's documentation of the service and the public clients
 * (phpcfdi/sat-ws-descarga-masiva, python-satcfdi, python-cfdiclient) show it.
 *
 * It verifies every signature as the SAT must, rebuilding each canonical form itself (independently of the
 * node's signing code) and checking it with the certificate the message carries:
 * - authentication: the SOAPAction; one Timestamp, one BinarySecurityToken, one Signature in `o:Security`; the
 *   references (`#` + the Timestamp's id, `#` + the token's id); the algorithms exactly exclusive c14n, RSA-SHA1
 *   and SHA-1; the Timestamp's digest; the SignedInfo's signature; Created ≤ now < Expires (5 minutes of skew).
 *   Any failure: HTTP 500 and the `a:InvalidSecurity` fault, as the SAT answers. A token bound to the
 *   certificate, valid 5 minutes.
 * - every other call: the SOAPAction matches the body's operation (else `a:ActionNotSupported`); the token
 *   (`Authorization: WRAP access_token="…"`, URL-encoded or not) alive and issued to the certificate that signs
 *   (else `300`: the SAT's answer to a bad token is not documented, this simulator's choice); the Signature inside
 *   `solicitud`/`peticionDescarga`, `URI=""`, the digest of the operation element without it, its SignedInfo
 *   signed by the certificate in KeyInfo (else `302`); that certificate's RFC = RfcSolicitante (else `303`),
 *   in force (else `304`), issued by the test CA and not a CSD (else `305`); the parameter rules of 1.5 (`301`);
 *   the same parameters as a request under way (`5005`, with that request's id); a third request for one exact
 *   period of XML (`5002`); more CFDIs than `maxCfdis` (`5003`).
 * Requests are accepted (`1`) for `delays.acceptedMs`, in process (`2`) until `delays.readyMs`, then finished
 * (`3`) with their packages — or rejected (`5`, `5004`) when nothing matched — all on the clock of the process
 * (the fake clock in engine tests); they expire (`6`) after `delays.requestLifeMs`. Packages: ZIPs, deflated, of
 * the CFDIs' XML as `<UUID>.xml`, or of the metadata as `<id>_01.txt` (`~` and CRLF) with `<id>_tercero.txt`
 * when a CFDI was issued on behalf of a third party, `packageSize` CFDIs each; a package is downloaded at most
 * twice (`5008`), and kept 72 hours (`5007`).
 * The CFDIs it holds are the test's (`know`): the tests' and `npm run dev`'s month of received CFDIs.
 */

const SOAP_ENV = 'http://schemas.xmlsoap.org/soap/envelope/';
const DSIG = 'http://www.w3.org/2000/09/xmldsig#';
const EXC_C14N = 'http://www.w3.org/2001/10/xml-exc-c14n#';
const RSA_SHA1 = 'http://www.w3.org/2000/09/xmldsig#rsa-sha1';
const SHA1 = 'http://www.w3.org/2000/09/xmldsig#sha1';
const WSSE = 'http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-secext-1.0.xsd';
const WSU = 'http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-utility-1.0.xsd';
const AUTH_NS = 'http://DescargaMasivaTerceros.gob.mx';
const DES = 'http://DescargaMasivaTerceros.sat.gob.mx';

const ACTIONS = {
	'/Autenticacion/Autenticacion.svc': [
		'http://DescargaMasivaTerceros.gob.mx/IAutenticacion/Autentica',
	],
	'/SolicitaDescargaService.svc': [
		`${DES}/ISolicitaDescargaService/SolicitaDescargaEmitidos`,
		`${DES}/ISolicitaDescargaService/SolicitaDescargaRecibidos`,
		`${DES}/ISolicitaDescargaService/SolicitaDescargaFolio`,
	],
	'/VerificaSolicitudDescargaService.svc': [
		`${DES}/IVerificaSolicitudDescargaService/VerificaSolicitudDescarga`,
	],
	'/DescargaMasivaService.svc': [`${DES}/IDescargaMasivaTercerosService/Descargar`],
};

/**
 * The test e.firma material (test/fixtures/sat/efirma), found from wherever this module runs: the sources (Jest),
 * or their compiled copy below node_modules (`npm run dev`, the e2e suites), which holds no binary files.
 */
function efirmaDir() {
	for (let dir = __dirname; ; dir = dirname(dir)) {
		const candidate = join(dir, 'test', 'fixtures', 'sat', 'efirma');
		if (existsSync(join(candidate, 'test-ca.cer'))) return candidate;
		if (dirname(dir) === dir) throw new Error(`no test/fixtures/sat/efirma above ${__dirname}`);
	}
}
const EFIRMA_DIR = efirmaDir();

/** The test e.firma's files, as the credential takes them (base64) and its password. */
export function testEfirma(name = 'EKU9003173C9') {
	const read = (file) => readFileSync(join(EFIRMA_DIR, file)).toString('base64');
	return {
		publicCertificate: read(`${name}.cer`),
		privateKey: read(`${name === 'EKU9003173C9-expired' ? 'EKU9003173C9' : name}.key`),
		keyPassword: '12345678a',
	};
}

/** Another file of the test material, base64 (`unrelated.key`, `EKU9003173C9-csd.cer`…). */
export const efirmaFile = (file) => readFileSync(join(EFIRMA_DIR, file)).toString('base64');

/** C14N attribute value. */
const c14nAttr = (s) =>
	s
		.replace(/&/g, '&amp;')
		.replace(/</g, '&lt;')
		.replace(/"/g, '&quot;')
		.replace(/\t/g, '&#x9;')
		.replace(/\n/g, '&#xA;')
		.replace(/\r/g, '&#xD;');
/** C14N text. */
const c14nText = (s) =>
	s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/\r/g, '&#xD;');
const xmlAttr = (s) =>
	String(s).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/"/g, '&quot;');
const sha1 = (s) => createHash('sha1').update(s, 'utf8').digest('base64');
const prefixOf = (e) => (e.name.includes(':') ? e.name.slice(0, e.name.indexOf(':')) : '');

/** The canonical SignedInfo of a parsed one (exclusive c14n, default xmldsig namespace on it). */
function canonicalSignedInfo(info) {
	const method = (name) => attribute(child(info, name, DSIG) ?? info, 'Algorithm') ?? '';
	const ref = child(info, 'Reference', DSIG);
	if (!ref) return undefined;
	const transforms = child(ref, 'Transforms', DSIG)?.children ?? [];
	return (
		`<SignedInfo xmlns="${DSIG}"><CanonicalizationMethod Algorithm="${c14nAttr(method('CanonicalizationMethod'))}"></CanonicalizationMethod>` +
		`<SignatureMethod Algorithm="${c14nAttr(method('SignatureMethod'))}"></SignatureMethod>` +
		`<Reference URI="${c14nAttr(attribute(ref, 'URI') ?? '')}"><Transforms>${transforms.map((t) => `<Transform Algorithm="${c14nAttr(attribute(t, 'Algorithm') ?? '')}"></Transform>`).join('')}</Transforms>` +
		`<DigestMethod Algorithm="${c14nAttr(attribute(child(ref, 'DigestMethod', DSIG) ?? ref, 'Algorithm') ?? '')}"></DigestMethod>` +
		`<DigestValue>${c14nText(child(ref, 'DigestValue', DSIG)?.text.trim() ?? '')}</DigestValue></Reference></SignedInfo>`
	);
}

/**
 * Whether a Signature is made as the service requires (the algorithms exactly, one Reference with one
 * exclusive-c14n transform and `uri`), its digest `expectedDigest` and its SignedInfo signed by `cert`.
 * @returns {string | undefined} What is wrong, or undefined.
 */
function badSignature(signature, uri, expectedDigest, cert) {
	const info = child(signature, 'SignedInfo', DSIG);
	if (!info) return 'no SignedInfo';
	const algorithm = (e, name) => attribute(child(e, name, DSIG) ?? e, 'Algorithm');
	const ref = child(info, 'Reference', DSIG);
	const transforms = child(ref ?? info, 'Transforms', DSIG)?.children ?? [];
	if (algorithm(info, 'CanonicalizationMethod') !== EXC_C14N) return 'canonicalization';
	if (algorithm(info, 'SignatureMethod') !== RSA_SHA1) return 'signature method';
	if (!ref || info.children.filter((c) => c.local === 'Reference').length !== 1)
		return 'references';
	if (attribute(ref, 'URI') !== uri) return 'reference URI';
	if (transforms.length !== 1 || attribute(transforms[0], 'Algorithm') !== EXC_C14N)
		return 'transforms';
	if (algorithm(ref, 'DigestMethod') !== SHA1) return 'digest method';
	if (child(ref, 'DigestValue', DSIG)?.text.trim() !== expectedDigest) return 'digest';
	const canonical = canonicalSignedInfo(info);
	const value = Buffer.from(child(signature, 'SignatureValue', DSIG)?.text.trim() ?? '', 'base64');
	if (!canonical || !verify('sha1', Buffer.from(canonical, 'utf8'), cert.publicKey, value))
		return 'signature value';
	return undefined;
}

/** A SOAP answer. @returns {SimResponse} */
function soap(body, header = '', status = 200) {
	return {
		status,
		headers: { 'content-type': 'text/xml; charset=utf-8' },
		raw: Buffer.from(
			`<s:Envelope xmlns:s="${SOAP_ENV}" xmlns:u="${WSU}">${header ? `<s:Header>${header}</s:Header>` : ''}<s:Body xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:xsd="http://www.w3.org/2001/XMLSchema">${body}</s:Body></s:Envelope>`,
		),
	};
}

/** A WCF fault, HTTP 500. @returns {SimResponse} */
function fault(code, ns, text) {
	return soap(
		`<s:Fault><faultcode xmlns:a="${ns}">a:${code}</faultcode><faultstring xml:lang="en-US">${text}</faultstring></s:Fault>`,
		'',
		500,
	);
}

const invalidSecurity = () =>
	fault('InvalidSecurity', WSSE, 'An error occurred when verifying security for the message.');

const MESSAGES = {
	300: 'Usuario No Válido',
	301: 'XML Mal Formado',
	302: 'Sello Mal Formado',
	303: 'Sello no corresponde con RfcSolicitante',
	304: 'Certificado Revocado o Caduco',
	305: 'Certificado Inválido',
	5000: 'Solicitud Aceptada',
	5002: 'Se agotó las solicitudes de por vida',
	5003: 'Tope máximo',
	5004: 'No se encontró la información',
	5005: 'Solicitud duplicada',
	5007: 'No existe el paquete solicitado',
	5008: 'Máximo de descargas permitidas',
};

/** The wall-clock time in Mexico City, `YYYY-MM-DDTHH:MM:SS`. */
function mexicoCityNow(ms) {
	const p = Object.fromEntries(
		new Intl.DateTimeFormat('en-CA', {
			timeZone: 'America/Mexico_City',
			year: 'numeric',
			month: '2-digit',
			day: '2-digit',
			hour: '2-digit',
			minute: '2-digit',
			second: '2-digit',
			hourCycle: 'h23',
		})
			.formatToParts(ms)
			.map((x) => [x.type, x.value]),
	);
	return `${p.year}-${p.month}-${p.day}T${p.hour}:${p.minute}:${p.second}`;
}

/**
 * @typedef {object} HeldCfdi A CFDI the SAT holds.
 * @property {string} uuid
 * @property {string} xml
 * @property {string} emisorRfc
 * @property {string} nombreEmisor
 * @property {string} receptorRfc
 * @property {string} nombreReceptor
 * @property {string} fecha `YYYY-MM-DDTHH:MM:SS`
 * @property {string} total
 * @property {string} tipo
 * @property {boolean} cancelled
 * @property {string} [terceroRfc]
 * @property {string} [terceroNombre]
 */

/**
 * @typedef {object} BulkRequest
 * @property {string} id
 * @property {string} rfc
 * @property {string} key The parameters, for duplicates.
 * @property {string} operation
 * @property {Record<string, string>} attributes
 * @property {string[]} receivers
 * @property {number} at
 * @property {HeldCfdi[]} cfdis
 * @property {string[]} packages
 */

/** A package. @typedef {{ id: string; request: string; zip: Buffer; finishedAt: number; downloads: number }} Package */

export class SatBulkSimulator {
	prefix = 'satbulk';
	/** The CFDIs the SAT holds. @type {HeldCfdi[]} */
	cfdis = [];
	/** Requests by id. @type {Map<string, BulkRequest>} */
	requests = new Map();
	/** Packages by id. @type {Map<string, Package>} */
	packages = new Map();
	/** Live tokens → the certificate (base64 DER) they were issued to and their end. @type {Map<string, { cert: string; expires: number }>} */
	tokens = new Map();
	/** Every authentication that gave a token. */
	authentications = 0;
	/** Requests per exact period of XML (operation, RFC, dates). @type {Map<string, number>} */
	periods = new Map();
	delays = { acceptedMs: 30_000, readyMs: 120_000, requestLifeMs: 72 * 3600_000 };
	/** CFDIs per package. */
	packageSize = 200;
	/** CFDIs one request may hold (5003 past it). */
	maxCfdis = 200_000;
	/** Every refusal, with what was wrong (for the tests). @type {Array<{ path: string; code: string; why: string }>} */
	refusals = [];
	/** How long a token lives (the Expires of the answer). */
	tokenLifeMs = 5 * 60_000;
	/** The next this many calls with a valid token are answered 300 all the same (a token the SAT dropped). */
	refuseTokens = 0;
	/**
	 * Changes each request's bytes before they are read (a request altered on its way, after it was signed).
	 * @type {((xml: string, path: string) => string) | undefined}
	 */
	alter;
	ca = new X509Certificate(readFileSync(join(EFIRMA_DIR, 'test-ca.cer')));

	/** The node's Service Address for this simulator at a server (`server.url('satbulk')`). */
	static address(serverUrl) {
		return serverUrl;
	}

	reset() {
		this.cfdis = [];
		this.requests.clear();
		this.packages.clear();
		this.tokens.clear();
		this.periods.clear();
		this.authentications = 0;
		this.refusals = [];
		this.delays = { acceptedMs: 30_000, readyMs: 120_000, requestLifeMs: 72 * 3600_000 };
		this.packageSize = 200;
		this.maxCfdis = 200_000;
		this.tokenLifeMs = 5 * 60_000;
		this.refuseTokens = 0;
		this.alter = undefined;
	}

	/**
	 * The CFDIs the SAT holds, from their XML (received.js's and cfdi.js's files): dates, parties and type read
	 * from it; `outcome` C… (the status simulator's cancelled codes) makes it cancelled.
	 * @param {Array<{ xml: string; outcome?: string; tercero?: { rfc: string; nombre: string } }>} files
	 */
	know(files) {
		const seen = new Set(this.cfdis.map((c) => c.uuid));
		for (const f of files) {
			const attr = (element, name) =>
				new RegExp(`<cfdi:${element}\\b[^>]*?\\s${name}="([^"]*)"`).exec(f.xml)?.[1] ?? '';
			// The stamp's UUID (a related CFDI's UUID may come first, in CfdiRelacionados).
			const uuid =
				/<tfd:TimbreFiscalDigital\b[^>]*?\sUUID="([^"]+)"/.exec(f.xml)?.[1]?.toUpperCase() ?? '';
			if (!uuid || seen.has(uuid)) continue;
			seen.add(uuid);
			this.cfdis.push({
				uuid,
				xml: f.xml,
				emisorRfc: attr('Emisor', 'Rfc'),
				nombreEmisor: attr('Emisor', 'Nombre'),
				receptorRfc: attr('Receptor', 'Rfc'),
				nombreReceptor: attr('Receptor', 'Nombre'),
				fecha: attr('Comprobante', 'Fecha'),
				total: attr('Comprobante', 'Total'),
				tipo: attr('Comprobante', 'TipoDeComprobante'),
				cancelled: (f.outcome ?? '').startsWith('C'),
				terceroRfc: f.tercero?.rfc,
				terceroNombre: f.tercero?.nombre,
			});
		}
	}

	/** @param {RouteTable} router */
	register(router) {
		const altered = (req) =>
			this.alter
				? { ...req, raw: Buffer.from(this.alter(req.raw.toString('utf8'), req.path)) }
				: req;
		router.add('POST', '/Autenticacion/Autenticacion.svc', (req) =>
			this.authenticate(altered(req)),
		);
		router.add('POST', '/SolicitaDescargaService.svc', (req) => this.service(altered(req)));
		router.add('POST', '/VerificaSolicitudDescargaService.svc', (req) =>
			this.service(altered(req)),
		);
		router.add('POST', '/DescargaMasivaService.svc', (req) => this.service(altered(req)));
	}

	/** The SOAPAction, or the fault for another one. */
	actionFault(req) {
		const action = String(req.headers.soapaction ?? '').replace(/^"|"$/g, '');
		if (/** @type {Record<string, string[]>} */ (ACTIONS)[req.path]?.includes(action))
			return undefined;
		return fault(
			'ActionNotSupported',
			'http://schemas.microsoft.com/net/2005/12/windowscommunicationfoundation/dispatcher',
			`The message with Action '${action}' cannot be processed at the receiver, due to a ContractFilter mismatch at the EndpointDispatcher.`,
		);
	}

	refuse(req, code, why) {
		this.refusals.push({ path: req.path, code: String(code), why });
	}

	/** @returns {SimResponse} */
	authenticate(/** @type {SimRequest} */ req) {
		const wrongAction = this.actionFault(req);
		if (wrongAction) return wrongAction;
		const why = this.authProblem(req);
		if (typeof why === 'string') {
			this.refuse(req, 'InvalidSecurity', why);
			return invalidSecurity();
		}
		const now = Date.now();
		const expires = now + this.tokenLifeMs;
		const serial = why.cert.serialNumber;
		const part = (o) => Buffer.from(JSON.stringify(o)).toString('base64url');
		const token = `${part({ alg: 'http://www.w3.org/2001/04/xmldsig-more#hmac-sha256', typ: 'JWT' })}.${part({ nbf: Math.floor(now / 1000), exp: Math.floor(expires / 1000) + 300, iat: Math.floor(now / 1000), iss: 'LoadSolicitudDecargaMasivaTerceros', actort: serial })}.${randomUUID().replace(/-/g, '')}%26wrap_subject%3d${serial}`;
		this.tokens.set(token, { cert: why.cert.raw.toString('base64'), expires });
		this.authentications++;
		const iso = (ms) => new Date(ms).toISOString();
		return soap(
			`<AutenticaResponse xmlns="${AUTH_NS}"><AutenticaResult>${token}</AutenticaResult></AutenticaResponse>`,
			`<o:Security s:mustUnderstand="1" xmlns:o="${WSSE}"><u:Timestamp u:Id="_0"><u:Created>${iso(now)}</u:Created><u:Expires>${iso(expires)}</u:Expires></u:Timestamp></o:Security>`,
		);
	}

	/** What is wrong with an authentication, or its certificate. */
	authProblem(req) {
		let root;
		try {
			root = parseXml(req.raw);
		} catch (error) {
			return `not XML: ${error instanceof Error ? error.message : error}`;
		}
		const security = child(child(root, 'Header', SOAP_ENV) ?? root, 'Security', WSSE);
		if (!security) return 'no Security header';
		const count = (local, ns) => security.children.filter((c) => c.local === local && c.ns === ns);
		const [stamp, ...moreStamps] = count('Timestamp', WSU);
		const [token, ...moreTokens] = count('BinarySecurityToken', WSSE);
		const [signature, ...moreSignatures] = count('Signature', DSIG);
		if (
			!stamp ||
			!token ||
			!signature ||
			moreStamps.length ||
			moreTokens.length ||
			moreSignatures.length
		)
			return 'not one Timestamp, one BinarySecurityToken and one Signature';
		const stampId = attribute(stamp, 'Id') ?? '';
		const tokenId = attribute(token, 'Id') ?? '';
		const reference = child(
			child(child(signature, 'KeyInfo', DSIG) ?? signature, 'SecurityTokenReference', WSSE) ??
				signature,
			'Reference',
			WSSE,
		);
		if (attribute(reference ?? signature, 'URI') !== `#${tokenId}`)
			return 'the KeyInfo does not reference the BinarySecurityToken';
		let cert;
		try {
			cert = new X509Certificate(Buffer.from(token.text.trim(), 'base64'));
		} catch {
			return 'the BinarySecurityToken is not a certificate';
		}
		const p = prefixOf(stamp);
		const q = p ? `${p}:` : '';
		const created = child(stamp, 'Created', WSU)?.text ?? '';
		const expires = child(stamp, 'Expires', WSU)?.text ?? '';
		const canonical = `<${q}Timestamp xmlns${p ? `:${p}` : ''}="${WSU}" ${q}Id="${c14nAttr(stampId)}"><${q}Created>${c14nText(created)}</${q}Created><${q}Expires>${c14nText(expires)}</${q}Expires></${q}Timestamp>`;
		const bad = badSignature(signature, `#${stampId}`, sha1(canonical), cert);
		if (bad) return `signature: ${bad}`;
		const now = Date.now();
		const skew = 5 * 60_000;
		if (!(Date.parse(created) <= now + skew && now < Date.parse(expires) + skew))
			return 'the Timestamp is not current';
		return { cert };
	}

	/** Request, verify and download: their common checks, then each operation. @returns {SimResponse} */
	service(/** @type {SimRequest} */ req) {
		const wrongAction = this.actionFault(req);
		if (wrongAction) return wrongAction;
		let root;
		try {
			root = parseXml(req.raw);
		} catch {
			return fault(
				'DeserializationFailed',
				'http://schemas.microsoft.com/net/2005/12/windowscommunicationfoundation/dispatcher',
				'The formatter threw an exception while trying to deserialize the message.',
			);
		}
		const operation = child(root, 'Body', SOAP_ENV)?.children[0];
		const action = String(req.headers.soapaction ?? '').replace(/^"|"$/g, '');
		if (
			!operation ||
			operation.ns !== DES ||
			!action.endsWith(
				`/${operation.local === 'PeticionDescargaMasivaTercerosEntrada' ? 'Descargar' : operation.local}`,
			)
		)
			return this.actionFault({ ...req, headers: { soapaction: 'mismatch' } }) ?? soap('');
		const inner = operation.children[0];
		const answer = (code, extra = {}) => this.answer(operation.local, String(code), extra);
		if (!inner) return answer(301);
		// The token.
		const header = String(req.headers.authorization ?? '');
		const given = /^WRAP access_token="(.*)"$/.exec(header)?.[1] ?? '';
		const held =
			this.tokens.get(given) ??
			[...this.tokens].find(([t]) => decodeURIComponent(t) === given)?.[1];
		if (!held || Date.now() >= held.expires || this.refuseTokens > 0) {
			if (held && Date.now() < held.expires) this.refuseTokens--;
			this.refuse(req, '300', held ? 'token expired or dropped' : 'no such token');
			return answer(300);
		}
		// The signature: the last child of the operation's child.
		const signature = inner.children[inner.children.length - 1];
		if (!signature || signature.local !== 'Signature' || signature.ns !== DSIG) {
			this.refuse(req, '302', 'no Signature');
			return answer(302);
		}
		const certText =
			child(
				child(child(signature, 'KeyInfo', DSIG) ?? signature, 'X509Data', DSIG) ?? signature,
				'X509Certificate',
				DSIG,
			)?.text.trim() ?? '';
		let cert;
		try {
			cert = new X509Certificate(Buffer.from(certText, 'base64'));
		} catch {
			this.refuse(req, '302', 'no certificate in KeyInfo');
			return answer(302);
		}
		const bad = badSignature(signature, '', sha1(canonicalOperation(operation, inner)), cert);
		if (bad) {
			this.refuse(req, '302', `signature: ${bad}`);
			return answer(302);
		}
		if (cert.raw.toString('base64') !== held.cert) {
			this.refuse(req, '300', 'the token was issued to another certificate');
			return answer(300);
		}
		const rfc = /x500UniqueIdentifier=([^\n]*)/.exec(cert.subject)?.[1].split(' /')[0].trim() ?? '';
		const solicitante = attribute(inner, 'RfcSolicitante') ?? '';
		if (rfc !== solicitante) {
			this.refuse(req, '303', `certificate of ${rfc}, RfcSolicitante ${solicitante}`);
			return answer(303);
		}
		const now = Date.now();
		if (now < Date.parse(cert.validFrom) || now > Date.parse(cert.validTo)) {
			this.refuse(req, '304', 'certificate out of its dates');
			return answer(304);
		}
		if (/^OU=/m.test(cert.subject) || !cert.verify(this.ca.publicKey)) {
			this.refuse(req, '305', 'a CSD, or not issued by the test CA');
			return answer(305);
		}
		if (operation.local === 'VerificaSolicitudDescarga') return this.verifyRequest(inner, rfc);
		if (operation.local === 'PeticionDescargaMasivaTercerosEntrada')
			return this.download(inner, rfc);
		return this.request(req, operation, inner, rfc);
	}

	/** The answer of `operation` with `code`. @returns {SimResponse} */
	answer(operation, code, extra = {}) {
		const message = extra.message ?? MESSAGES[code] ?? '';
		if (operation === 'PeticionDescargaMasivaTercerosEntrada')
			return soap(
				`<RespuestaDescargaMasivaTercerosSalida xmlns="${DES}">${extra.paquete ? `<Paquete>${extra.paquete}</Paquete>` : '<Paquete/>'}</RespuestaDescargaMasivaTercerosSalida>`,
				`<h:respuesta CodEstatus="${code}" Mensaje="${xmlAttr(message)}" xmlns:h="${DES}" xmlns="${DES}"/>`,
			);
		if (operation === 'VerificaSolicitudDescarga') {
			const ids = (extra.packages ?? []).map((id) => `<IdsPaquetes>${id}</IdsPaquetes>`).join('');
			return soap(
				`<VerificaSolicitudDescargaResponse xmlns="${DES}"><VerificaSolicitudDescargaResult CodEstatus="${code}" EstadoSolicitud="${extra.state ?? 0}" CodigoEstadoSolicitud="${extra.stateCode ?? 5000}" NumeroCFDIs="${extra.count ?? 0}" Mensaje="${xmlAttr(message)}">${ids}</VerificaSolicitudDescargaResult></VerificaSolicitudDescargaResponse>`,
			);
		}
		return soap(
			`<${operation}Response xmlns="${DES}"><${operation}Result${extra.id ? ` IdSolicitud="${extra.id}"` : ''} CodEstatus="${code}" Mensaje="${xmlAttr(message)}"/></${operation}Response>`,
		);
	}

	/** A request for CFDIs. @returns {SimResponse} */
	request(req, operation, inner, rfc) {
		const answer = (code, extra = {}) => this.answer(operation.local, String(code), extra);
		const a = (name) => attribute(inner, name) ?? '';
		const receivers = (child(inner, 'RfcReceptores', DES)?.children ?? []).map((c) =>
			c.text.trim(),
		);
		const refuse301 = (why) => {
			this.refuse(req, '301', why);
			return answer(301, { message: `XML Mal Formado:${why}` });
		};
		const rfcShape = /^[A-ZÑ&]{3,4}\d{6}[A-Z\d]{3}$/;
		for (const r of [a('RfcEmisor'), a('RfcReceptor'), a('RfcACuentaTerceros'), ...receivers])
			if (r && !rfcShape.test(r)) return refuse301(`El RFC ${r} no es válido.`);
		/** @type {HeldCfdi[]} */
		let cfdis;
		/** An exact period of XML, whose requests are counted. */
		let period = '';
		if (operation.local === 'SolicitaDescargaFolio') {
			const names = Object.keys(inner.attributes).filter((n) => !n.startsWith('xmlns'));
			if (names.some((n) => n !== 'Folio' && n !== 'RfcSolicitante') || !a('Folio'))
				return refuse301('La solicitud por folio sólo admite Folio y RfcSolicitante.');
			cfdis = this.cfdis.filter(
				(c) =>
					c.uuid === a('Folio').toUpperCase() && (c.emisorRfc === rfc || c.receptorRfc === rfc),
			);
		} else {
			const start = a('FechaInicial');
			const end = a('FechaFinal');
			const shape = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/;
			if (!shape.test(start) || !shape.test(end)) return refuse301('Las fechas no son válidas.');
			if (start >= end) return refuse301('La fecha inicial debe ser menor a la fecha final.');
			const today = mexicoCityNow(Date.now()).slice(0, 10);
			const earliest = `${Number(today.slice(0, 4)) - 6}${today.slice(4)}T00:00:00`;
			if (start < earliest) return refuse301('La fecha inicial es anterior a la permitida.');
			const type = a('TipoSolicitud');
			const status = a('EstadoComprobante');
			if (type !== 'CFDI' && type !== 'Metadata') return refuse301('TipoSolicitud no válido.');
			const received = operation.local === 'SolicitaDescargaRecibidos';
			if (received && a('RfcReceptor') !== rfc)
				return refuse301('RfcReceptor debe ser el solicitante.');
			if (!received && a('RfcEmisor') !== rfc)
				return refuse301('RfcEmisor debe ser el solicitante.');
			if (received && type === 'CFDI' && status !== 'Vigente')
				return refuse301(
					'La solicitud de descarga no es válida. No se permite la descarga de xml que se encuentren cancelados.',
				);
			if (receivers.length > 5) return refuse301('Se permiten hasta 5 RfcReceptor.');
			cfdis = this.cfdis.filter(
				(c) =>
					(received ? c.receptorRfc === rfc : c.emisorRfc === rfc) &&
					c.fecha >= start &&
					c.fecha <= end &&
					(status !== 'Vigente' || !c.cancelled) &&
					(status !== 'Cancelado' || c.cancelled) &&
					(!a('TipoComprobante') || c.tipo === a('TipoComprobante')) &&
					(!received || !a('RfcEmisor') || c.emisorRfc === a('RfcEmisor')) &&
					(!receivers.length || receivers.includes(c.receptorRfc)) &&
					(!a('RfcACuentaTerceros') || c.terceroRfc === a('RfcACuentaTerceros')),
			);
			if (type === 'CFDI') period = `${operation.local}|${rfc}|${start}|${end}`;
		}
		const attributes = Object.fromEntries(
			Object.entries(inner.attributes).filter(([n]) => !n.startsWith('xmlns')),
		);
		const key = JSON.stringify([operation.local, Object.entries(attributes).sort(), receivers]);
		const now = Date.now();
		const active = [...this.requests.values()].find(
			(r) => r.key === key && now - r.at < this.delays.readyMs,
		);
		if (active) return answer(5005, { id: active.id });
		if (period) {
			const used = this.periods.get(period) ?? 0;
			if (used >= 2) return answer(5002);
			this.periods.set(period, used + 1);
		}
		if (cfdis.length > this.maxCfdis) return answer(5003);
		const id = randomUUID();
		this.requests.set(id, {
			id,
			rfc,
			key,
			operation: operation.local,
			attributes,
			receivers,
			at: now,
			cfdis,
			packages: [],
		});
		return answer(5000, { id });
	}

	/** A request's state. @returns {SimResponse} */
	verifyRequest(inner, rfc) {
		const answer = (code, extra = {}) =>
			this.answer('VerificaSolicitudDescarga', String(code), extra);
		const request = this.requests.get(attribute(inner, 'IdSolicitud') ?? '');
		if (!request || request.rfc !== rfc) return answer(5004);
		const age = Date.now() - request.at;
		if (age >= this.delays.requestLifeMs)
			return answer(5000, { state: 6, stateCode: 5000, count: request.cfdis.length });
		if (age < this.delays.acceptedMs) return answer(5000, { state: 1, stateCode: 5000 });
		if (age < this.delays.readyMs) return answer(5000, { state: 2, stateCode: 5000 });
		if (!request.cfdis.length)
			return answer(5000, { state: 5, stateCode: 5004, count: 0, message: MESSAGES[5004] });
		if (!request.packages.length) this.pack(request);
		return answer(5000, {
			state: 3,
			stateCode: 5000,
			count: request.cfdis.length,
			packages: request.packages,
		});
	}

	/** The packages of a finished request. */
	pack(/** @type {BulkRequest} */ request) {
		const metadata = request.attributes.TipoSolicitud === 'Metadata';
		for (let n = 0; n * this.packageSize < request.cfdis.length; n++) {
			const part = request.cfdis.slice(n * this.packageSize, (n + 1) * this.packageSize);
			const id = `${request.id.toUpperCase()}_${String(n + 1).padStart(2, '0')}`;
			const zip = metadata
				? metadataZip(request.id, part)
				: zipFile(part.map((c) => ({ name: `${c.uuid}.xml`, data: c.xml })));
			this.packages.set(id, { id, request: request.id, zip, finishedAt: Date.now(), downloads: 0 });
			request.packages.push(id);
		}
	}

	/** A package. @returns {SimResponse} */
	download(inner, rfc) {
		const answer = (code, extra = {}) =>
			this.answer('PeticionDescargaMasivaTercerosEntrada', String(code), extra);
		const pkg = this.packages.get(attribute(inner, 'IdPaquete') ?? '');
		if (!pkg || this.requests.get(pkg.request)?.rfc !== rfc) return answer(5004);
		if (Date.now() - pkg.finishedAt > 72 * 3600_000) return answer(5007);
		if (pkg.downloads >= 2) return answer(5008);
		pkg.downloads++;
		return answer(5000, { paquete: pkg.zip.toString('base64') });
	}
}

/** The canonical operation element without its Signature, rebuilt from what was parsed (exclusive c14n). */
function canonicalOperation(/** @type {XmlElement} */ operation, /** @type {XmlElement} */ inner) {
	const p = prefixOf(operation);
	const q = p ? `${p}:` : '';
	const attributes = Object.entries(inner.attributes)
		.filter(([n]) => n !== 'xmlns' && !n.startsWith('xmlns:'))
		.sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0))
		.map(([n, v]) => ` ${n}="${c14nAttr(v)}"`)
		.join('');
	const children = inner.children
		.filter((c) => !(c.local === 'Signature' && c.ns === DSIG))
		.map(
			(c) =>
				`<${c.name}>${c.children.map((g) => `<${g.name}>${c14nText(g.text)}</${g.name}>`).join('')}</${c.name}>`,
		)
		.join('');
	const ip = prefixOf(inner);
	const declare = ip === p ? '' : ` xmlns${ip ? `:${ip}` : ''}="${inner.ns}"`;
	return `<${q}${operation.local} xmlns${p ? `:${p}` : ''}="${operation.ns}"><${inner.name}${declare}${attributes}>${children}</${inner.name}></${q}${operation.local}>`;
}

/** A metadata package: the rows as the SAT writes them (`~`, CRLF), and the third parties' file when any. */
function metadataZip(id, /** @type {HeldCfdi[]} */ cfdis) {
	const header =
		'Uuid~RfcEmisor~NombreEmisor~RfcReceptor~NombreReceptor~RfcPac~FechaEmision~FechaCertificacionSat~Monto~EfectoComprobante~Estatus~FechaCancelacion';
	const rows = cfdis.map((c) =>
		[
			c.uuid,
			c.emisorRfc,
			c.nombreEmisor,
			c.receptorRfc,
			c.nombreReceptor,
			'SAT970701NN3',
			c.fecha.replace('T', ' '),
			`${c.fecha.slice(0, 17).replace('T', ' ')}48`,
			c.total,
			c.tipo,
			c.cancelled ? '0' : '1',
			c.cancelled ? `${c.fecha.slice(0, 10)} 18:00:00` : '',
		].join('~'),
	);
	const third = cfdis.filter((c) => c.terceroRfc);
	const files = [
		{ name: `${id.toUpperCase()}_01.txt`, data: `${[header, ...rows].join('\r\n')}\r\n` },
	];
	if (third.length)
		files.push({
			name: `${id.toUpperCase()}_tercero.txt`,
			data: `${['Uuid~RfcACuentaTerceros~NombreACuentaTerceros', ...third.map((c) => `${c.uuid}~${c.terceroRfc}~${c.terceroNombre ?? ''}`)].join('\r\n')}\r\n`,
		});
	return zipFile(files);
}
