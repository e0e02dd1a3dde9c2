import type { Ambiente } from './kinds';
import { trimEnd } from '../../shared/text';

/**
 * The SRI's public web service for authorizations, offline scheme (SRI, Ficha técnica de comprobantes
 * electrónicos, esquema offline, §7, and the service's WSDL): `AutorizacionComprobantesOffline`, SOAP 1.1,
 * document/literal, namespace `http://ec.gob.sri.ws.autorizacion` with unqualified children, operation
 * `autorizacionComprobante(claveAccesoComprobante)`, `SOAPAction: ""`. No account, no credential: anyone may
 * ask about any key. One host per environment; the same path on both.
 */

const SERVICE_PATH = '/comprobantes-electronicos-ws/AutorizacionComprobantesOffline';

const SRI_HOSTS: Readonly<Record<Ambiente, string>> = {
	pruebas: 'https://celcer.sri.gob.ec',
	produccion: 'https://cel.sri.gob.ec',
};

const AUTHORIZATION_NS = 'http://ec.gob.sri.ws.autorizacion';
export const SOAP_ENVELOPE_NS = 'http://schemas.xmlsoap.org/soap/envelope/';

/** The headers of a SOAP 1.1 request to the service (its WSDL's binding: soapAction ""). */
export const SOAP_HEADERS: Readonly<Record<string, string>> = {
	'Content-Type': 'text/xml; charset=utf-8',
	SOAPAction: '""',
	Accept: 'text/xml',
};

/**
 * The largest answer read: 4 MB. One receipt is at most 320 KB (the SRI's limit), and the answer carries it
 * as text — in CDATA as it is, or entity-escaped, where every `<`, `>`, `&` and `"` takes 4 to 6 characters
 * (1.3 to 1.35 times the receipt for the simulator's sample of each kind; up to 6 times for one made of markup) —
 * once per authorization entry, and a key can have a rejected attempt or two before its authorized one. 4 MB
 * holds three entries of the largest receipt escaped at 4 times; anything larger is not an answer of this
 * service, and is refused before it is read whole.
 */
export const MAX_ANSWER_BYTES = 4 * 1024 * 1024;

/** The request body for one key: `autorizacionComprobante` with `claveAccesoComprobante` (unprefixed). */
export function authorizationRequest(key: string): string {
	// The key is 49 digits (validated before): nothing in it needs escaping.
	return (
		'<?xml version="1.0" encoding="UTF-8"?>' +
		`<soapenv:Envelope xmlns:soapenv="${SOAP_ENVELOPE_NS}" xmlns:ec="${AUTHORIZATION_NS}">` +
		'<soapenv:Header/><soapenv:Body><ec:autorizacionComprobante>' +
		`<claveAccesoComprobante>${key}</claveAccesoComprobante>` +
		'</ec:autorizacionComprobante></soapenv:Body></soapenv:Envelope>'
	);
}

/**
 * Where the question about a key goes: the Service Address when given, else the SRI's host for the key's
 * environment. A Service Address is a full http(s) address (scheme, host, port, optional path): when its path
 * already ends with the service's name it is used as it is; otherwise the service's path is added to it
 * (`http://127.0.0.1:7401/sri` → `http://127.0.0.1:7401/sri/comprobantes-electronicos-ws/AutorizacionComprobantesOffline`).
 */
export function serviceUrl(ambiente: Ambiente, serviceAddress: string): string {
	const given = serviceAddress.trim();
	if (!given) return `${SRI_HOSTS[ambiente]}${SERVICE_PATH}`;
	const base = trimEnd(given, '/');
	return base.endsWith('/AutorizacionComprobantesOffline') ? base : `${base}${SERVICE_PATH}`;
}

/** Why a Service Address cannot be used, in words that follow its label, or undefined (empty is fine). */
export function serviceAddressProblem(value: unknown): string | undefined {
	if (value === undefined || value === null) return undefined;
	if (typeof value !== 'string') return 'must be text: an http(s) address, or empty';
	const given = value.trim();
	if (!given) return undefined;
	let url: URL;
	try {
		url = new URL(given);
	} catch {
		return `${JSON.stringify(given.slice(0, 80))} is not an address: give a full one, such as https://proxy.example.com/sri, or leave it empty`;
	}
	if (url.protocol !== 'http:' && url.protocol !== 'https:')
		return `must start with https:// or http://, got ${JSON.stringify(url.protocol)}`;
	if (url.username || url.password)
		return 'must not hold a user name or password: the SRI takes none, and an address would show it in every message';
	if (url.search || url.hash)
		return 'must not have a query (?…) or fragment (#…): give the scheme, host, port and path only';
	return undefined;
}
