import type { PublicService, SoapQuestion } from '../../shared/soap';
import { serviceAddress } from '../../shared/soap';
import { MAX_ANSWER_BYTES, readAuthorization, type AuthorizationAnswer } from './answer';
import type { Ambiente } from './kinds';

/**
 * The SRI's public web service for authorizations, offline scheme (SRI, Ficha técnica de comprobantes
 * electrónicos, esquema offline, §7, and the service's WSDL): `AutorizacionComprobantesOffline`, SOAP 1.1,
 * document/literal, namespace `http://ec.gob.sri.ws.autorizacion` with unqualified children, operation
 * `autorizacionComprobante(claveAccesoComprobante)`, `SOAPAction: ""`. No account, no credential: anyone may
 * ask about any key. One host per environment; the same path on both. What every public SOAP service shares
 * (envelope, faults, maintenance pages, Service Address, Request Timeout) is shared/soap.ts.
 */

const SERVICE_PATH = '/comprobantes-electronicos-ws/AutorizacionComprobantesOffline';

const SRI_HOSTS: Readonly<Record<Ambiente, string>> = {
	pruebas: 'https://celcer.sri.gob.ec',
	produccion: 'https://cel.sri.gob.ec',
};

const AUTHORIZATION_NS = 'http://ec.gob.sri.ws.autorizacion';

/** The SRI's public services, as the package's one client knows them. */
export const SRI: PublicService = {
	name: 'SRI',
	addressLabel:
		'Options → Service Address (empty: the SRI’s own address for the key’s environment)',
};

/**
 * Where the question about a key goes: Options → Service Address (`given`) when set, else the SRI's host for the
 * key's environment (shared/soap.ts, serviceAddress); or why the address cannot be used.
 */
export function authorizationAddress(
	ambiente: Ambiente,
	given: unknown,
): { address: string } | { problem: string } {
	return serviceAddress(given, {
		name: 'SRI',
		own: `${SRI_HOSTS[ambiente]}${SERVICE_PATH}`,
		path: SERVICE_PATH,
	});
}

/** The question about one key (`autorizacionComprobante` with `claveAccesoComprobante`, unprefixed), asked at `address`. */
export function authorizationQuestion(
	key: string,
	address: string,
): SoapQuestion<AuthorizationAnswer> {
	return {
		address,
		action: '""',
		// The key is 49 digits (validated before): nothing in it needs escaping.
		body: `<ec:autorizacionComprobante xmlns:ec="${AUTHORIZATION_NS}"><claveAccesoComprobante>${key}</claveAccesoComprobante></ec:autorizacionComprobante>`,
		maxBytes: MAX_ANSWER_BYTES,
		read: readAuthorization,
	};
}
