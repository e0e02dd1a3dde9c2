import { createHash, sign } from 'node:crypto';
import type { Efirma } from '../efirma';

/**
 * The signatures of the SAT's bulk download service (Descarga Masiva de CFDI y Retenciones, version 1.5), written
 * with `node:crypto` and text: XML-DSig with exclusive canonicalization (`xml-exc-c14n#`), RSA-SHA1 and SHA-1
 * digests, laid out byte for byte as phpcfdi/sat-ws-descarga-masiva lays them out (its fixtures' digests are
 * reproduced by these strings), which the SAT accepts in production:
 * - authentication: a WS-Security header (`o:Security`) with a `u:Timestamp` (Created, Expires), the certificate as
 *   a `BinarySecurityToken`, and a `Signature` whose one Reference is the Timestamp (`#_0`);
 * - every other call: a `Signature` inside the operation's child element (`des:solicitud`, `des:peticionDescarga`),
 *   after its children, whose one Reference (`URI=""`) digests the operation element without the Signature, and
 *   whose KeyInfo carries the certificate (X509IssuerSerial, X509Certificate).
 * What is hashed and signed is the exclusive canonical form of those elements (W3C, Exclusive XML Canonicalization
 * 1.0): the namespace declarations of the prefixes an element uses on the first element that uses them, attributes
 * sorted by name, no XML declaration, empty elements as start and end tag, and the escaping of `c14nAttribute` and
 * `c14nText`. The message carries the same bytes, so that whoever canonicalizes it again gets them.
 */

const XMLDSIG_NS = 'http://www.w3.org/2000/09/xmldsig#';
const EXC_C14N = 'http://www.w3.org/2001/10/xml-exc-c14n#';
const RSA_SHA1 = 'http://www.w3.org/2000/09/xmldsig#rsa-sha1';
const SHA1 = 'http://www.w3.org/2000/09/xmldsig#sha1';
export const WSSE_NS =
	'http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-secext-1.0.xsd';
export const WSU_NS =
	'http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-utility-1.0.xsd';
const X509V3 =
	'http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-x509-token-profile-1.0#X509v3';
const BASE64_BINARY =
	'http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-soap-message-security-1.0#Base64Binary';
const SOAP_NS = 'http://schemas.xmlsoap.org/soap/envelope/';
/** The namespace of every operation but authentication (prefix `des`). */
const DES_NS = 'http://DescargaMasivaTerceros.sat.gob.mx';

/** The id of the Timestamp, which the authentication's signature references. */
const TIMESTAMP_ID = '_0';
/** The id of the certificate's BinarySecurityToken (free: the SAT reads the reference). */
const CERTIFICATE_REFERENCE_ID = 'X509Token-1';

/** An attribute value in canonical form (C14N 1.0, §2.3 "Attribute Nodes"). */
function c14nAttribute(value: string): string {
	return value
		.replace(/&/g, '&amp;')
		.replace(/</g, '&lt;')
		.replace(/"/g, '&quot;')
		.replace(/\t/g, '&#x9;')
		.replace(/\n/g, '&#xA;')
		.replace(/\r/g, '&#xD;');
}

/** Character data in canonical form (C14N 1.0, §2.3 "Text Nodes"). */
export function c14nText(value: string): string {
	return value
		.replace(/&/g, '&amp;')
		.replace(/</g, '&lt;')
		.replace(/>/g, '&gt;')
		.replace(/\r/g, '&#xD;');
}

/** Base64 of SHA-1 of the UTF-8 bytes of `canonical`: a Reference's DigestValue. */
export function digest(canonical: string): string {
	return createHash('sha1').update(canonical, 'utf8').digest('base64');
}

/** The canonical `SignedInfo` of one Reference (URI `uri`, the exclusive-c14n transform, a SHA-1 digest). */
export function signedInfo(uri: string, digestValue: string): string {
	return (
		`<SignedInfo xmlns="${XMLDSIG_NS}">` +
		`<CanonicalizationMethod Algorithm="${EXC_C14N}"></CanonicalizationMethod>` +
		`<SignatureMethod Algorithm="${RSA_SHA1}"></SignatureMethod>` +
		`<Reference URI="${c14nAttribute(uri)}"><Transforms><Transform Algorithm="${EXC_C14N}"></Transform></Transforms>` +
		`<DigestMethod Algorithm="${SHA1}"></DigestMethod><DigestValue>${digestValue}</DigestValue></Reference>` +
		`</SignedInfo>`
	);
}

/** RSA PKCS#1 v1.5 over SHA-1 of the canonical SignedInfo, base64: the SignatureValue. */
function signatureValue(efirma: Efirma, canonicalSignedInfo: string): string {
	return sign('sha1', Buffer.from(canonicalSignedInfo, 'utf8'), efirma.key).toString('base64');
}

/** `2026-11-28T10:15:43.000Z`: the WS-Security Timestamp's format, to the second, as phpcfdi writes it. */
export function wsuTime(ms: number): string {
	return new Date(Math.floor(ms / 1000) * 1000).toISOString();
}

/** The canonical Timestamp the authentication signs. */
export function canonicalTimestamp(created: string, expires: string): string {
	return (
		`<u:Timestamp xmlns:u="${WSU_NS}" u:Id="${TIMESTAMP_ID}">` +
		`<u:Created>${created}</u:Created><u:Expires>${expires}</u:Expires></u:Timestamp>`
	);
}

/**
 * The authentication's `o:Security` header, signed: valid from `created` to `expires` (`wsuTime`). It declares
 * every prefix it uses, `s` for `s:mustUnderstand` included, so it reads the same in any envelope.
 */
export function securityHeader(efirma: Efirma, created: string, expires: string): string {
	const timestamp = canonicalTimestamp(created, expires);
	const info = signedInfo(`#${TIMESTAMP_ID}`, digest(timestamp));
	return (
		`<o:Security xmlns:o="${WSSE_NS}" xmlns:s="${SOAP_NS}" xmlns:u="${WSU_NS}" s:mustUnderstand="1">` +
		`<u:Timestamp u:Id="${TIMESTAMP_ID}"><u:Created>${created}</u:Created><u:Expires>${expires}</u:Expires></u:Timestamp>` +
		`<o:BinarySecurityToken u:Id="${CERTIFICATE_REFERENCE_ID}" ValueType="${X509V3}" EncodingType="${BASE64_BINARY}">${efirma.certificateBase64}</o:BinarySecurityToken>` +
		`<Signature xmlns="${XMLDSIG_NS}">${info.replace(` xmlns="${XMLDSIG_NS}"`, '')}` +
		`<SignatureValue>${signatureValue(efirma, info)}</SignatureValue>` +
		`<KeyInfo><o:SecurityTokenReference><o:Reference ValueType="${X509V3}" URI="#${CERTIFICATE_REFERENCE_ID}"></o:Reference></o:SecurityTokenReference></KeyInfo>` +
		`</Signature></o:Security>`
	);
}

/** One operation of the service, before it is signed: its element, its child's attributes and children. */
export interface UnsignedOperation {
	/** The element in `s:Body`, e.g. `SolicitaDescargaEmitidos` (prefix `des`). */
	operation: string;
	/** Its one child, e.g. `solicitud`, `peticionDescarga`. */
	child: string;
	/** The child's attributes; empty values are left out, as phpcfdi leaves them out. */
	attributes: Record<string, string | undefined>;
	/** Elements inside the child, already canonical (e.g. `des:RfcReceptores`). */
	inner?: string;
}

/** The operation element in exclusive canonical form, without its Signature: what the Reference digests. */
export function canonicalOperation(op: UnsignedOperation): string {
	const attributes = Object.entries(op.attributes)
		.filter((entry): entry is [string, string] => entry[1] !== undefined && entry[1] !== '')
		.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
		.map(([name, value]) => ` ${name}="${c14nAttribute(value)}"`)
		.join('');
	return (
		`<des:${op.operation} xmlns:des="${DES_NS}"><des:${op.child}${attributes}>${op.inner ?? ''}` +
		`</des:${op.child}></des:${op.operation}>`
	);
}

/**
 * The operation element signed with the e.firma: its canonical form with the Signature placed last inside the
 * child — the body of the SOAP message.
 */
export function signedOperation(efirma: Efirma, op: UnsignedOperation): string {
	const canonical = canonicalOperation(op);
	const info = signedInfo('', digest(canonical));
	const signature =
		`<Signature xmlns="${XMLDSIG_NS}">${info.replace(` xmlns="${XMLDSIG_NS}"`, '')}` +
		`<SignatureValue>${signatureValue(efirma, info)}</SignatureValue>` +
		`<KeyInfo><X509Data><X509IssuerSerial><X509IssuerName>${c14nText(efirma.issuerName)}</X509IssuerName>` +
		`<X509SerialNumber>${efirma.serialDecimal}</X509SerialNumber></X509IssuerSerial>` +
		`<X509Certificate>${efirma.certificateBase64}</X509Certificate></X509Data></KeyInfo></Signature>`;
	const close = `</des:${op.child}></des:${op.operation}>`;
	return `${canonical.slice(0, -close.length)}${signature}${close}`;
}
