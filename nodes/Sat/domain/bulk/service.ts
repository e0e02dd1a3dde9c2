import type { PublicService, SoapFault, SoapQuestion } from '../../../shared/soap';
import { serviceAddress } from '../../../shared/soap';
import { attribute, child, type XmlElement } from '../../../shared/xml';
import type { Efirma } from '../efirma';
import { queryOperation, type Query } from './query';
import { securityHeader, signedOperation, WSSE_NS, WSU_NS, wsuTime } from './signing';

/**
 * The SAT's bulk download service ("Descarga Masiva de CFDI y Retenciones", web service version 1.5, in force
 * since 2025-05-30), as the SAT's documentation of its four services and phpcfdi/sat-ws-descarga-masiva describe
 * it: SOAP 1.1 over HTTPS, four services — authentication (a token for the e.firma), request (issued, received or
 * one UUID: three operations since 1.5), verification (the request's state and packages) and download (a package,
 * a ZIP in base64) — on the hosts of regular CFDIs or of retention CFDIs. Every call but authentication carries
 * the token (`Authorization: WRAP access_token="…"`) and its own signature (signing.ts).
 * What each question sends and how its answer reads; the tokens, answer codes and items are the operations'.
 */

/** Which CFDIs: regular ones, or retention CFDIs (CFDI de Retenciones e Información de Pagos), on their hosts. */
export type CfdiKind = 'cfdi' | 'retenciones';

/** The four services' addresses for one kind of CFDI. */
export interface BulkAddresses {
	auth: string;
	request: string;
	verify: string;
	download: string;
}

/** The SAT's own hosts (phpcfdi's ServiceEndpoints; the same in python-satcfdi and python-cfdiclient). */
const HOSTS: Readonly<Record<CfdiKind, { request: string; download: string }>> = {
	cfdi: {
		request: 'https://cfdidescargamasivasolicitud.clouda.sat.gob.mx',
		download: 'https://cfdidescargamasiva.clouda.sat.gob.mx',
	},
	retenciones: {
		request: 'https://retendescargamasivasolicitud.clouda.sat.gob.mx',
		download: 'https://retendescargamasiva.clouda.sat.gob.mx',
	},
};

const PATHS = {
	login: '/Autenticacion/Autenticacion.svc',
	request: '/SolicitaDescargaService.svc',
	verify: '/VerificaSolicitudDescargaService.svc',
	download: '/DescargaMasivaService.svc',
} as const;

/** Authentication's namespace: note, without `.sat` (unlike every other operation's). */
const AUTH_NS = 'http://DescargaMasivaTerceros.gob.mx';
const DES_NS = 'http://DescargaMasivaTerceros.sat.gob.mx';

/** The SOAPAction of each operation. */
const ACTIONS = {
	authentication: 'http://DescargaMasivaTerceros.gob.mx/IAutenticacion/Autentica',
	SolicitaDescargaEmitidos: `${DES_NS}/ISolicitaDescargaService/SolicitaDescargaEmitidos`,
	SolicitaDescargaRecibidos: `${DES_NS}/ISolicitaDescargaService/SolicitaDescargaRecibidos`,
	SolicitaDescargaFolio: `${DES_NS}/ISolicitaDescargaService/SolicitaDescargaFolio`,
	verify: `${DES_NS}/IVerificaSolicitudDescargaService/VerificaSolicitudDescarga`,
	download: `${DES_NS}/IDescargaMasivaTercerosService/Descargar`,
} as const;

/** Answers but a package's are a few kilobytes. */
const MAX_BULK_ANSWER_BYTES = 1024 * 1024;

/** How long a token is used: until this long before the Expires its answer gives. */
export const TOKEN_MARGIN_MS = 30_000;

/**
 * The bulk download service as the package's one client knows it: a failed question is asked again at most once
 * (and only one that is safe to repeat), within Request Timeout; a refused signature is final.
 */
export const SAT_BULK: PublicService = {
	name: 'SAT',
	addressLabel: 'Options → Service Address',
	retry: { maxAttempts: 2, baseDelayMs: 1000, maxDelayMs: 8000, maxRetryAfterMs: 60000 },
	explainFault(fault: SoapFault) {
		const code = fault.faultcode ?? '';
		if (/InvalidSecurity|FailedAuthentication/i.test(code))
			return {
				message: 'The SAT refused the e.firma’s authentication (InvalidSecurity)',
				description:
					'It could not verify the signed request for a token: the certificate, the key or the clock of this machine (the request is valid for 5 minutes from now) is not what it expects. Check the credential with its Test button and this machine’s clock.',
				final: true,
			};
		if (/ActionNotSupported|ContractFilter/i.test(code))
			return {
				message: `The SAT does not know the operation asked (${code})`,
				description:
					'The service answered that it has no such operation: its version may have changed. Report this as a problem of the node.',
				final: true,
			};
		return undefined;
	},
};

/**
 * Options → Service Address as the four services' addresses: empty, the SAT's own hosts for `kind`; else every
 * service below that address (`<address>/Autenticacion/Autenticacion.svc`, `<address>/SolicitaDescargaService.svc`…),
 * for a proxy or a simulator. Or why it cannot be used.
 */
export function bulkAddresses(given: unknown, kind: CfdiKind): BulkAddresses | { problem: string } {
	const base = serviceAddress(given, { name: 'SAT', own: '', path: '' });
	if ('problem' in base) return base;
	const hosts = base.address ? { request: base.address, download: base.address } : HOSTS[kind];
	return {
		auth: `${hosts.request}${PATHS.login}`,
		request: `${hosts.request}${PATHS.request}`,
		verify: `${hosts.request}${PATHS.verify}`,
		download: `${hosts.download}${PATHS.download}`,
	};
}

/** An element's child by local name, any namespace, in any case (phpcfdi reads the answers so). */
function childNamed(element: XmlElement | undefined, local: string): XmlElement | undefined {
	const wanted = local.toLowerCase();
	return element?.children.find((c) => c.local.toLowerCase() === wanted);
}

/** The token and when it stops being valid (epoch ms). */
export interface AuthAnswer {
	token: string;
	expires: number;
}

/** The authentication question, signed at `now` (epoch ms) for 5 minutes. */
export function authQuestion(
	efirma: Efirma,
	address: string,
	now: number,
): SoapQuestion<AuthAnswer> {
	const created = wsuTime(now);
	const expires = wsuTime(now + 5 * 60_000);
	return {
		address,
		action: ACTIONS.authentication,
		header: securityHeader(efirma, created, expires),
		body: `<Autentica xmlns="${AUTH_NS}"></Autentica>`,
		maxBytes: MAX_BULK_ANSWER_BYTES,
		read(body, header) {
			const token = child(
				child(body, 'AutenticaResponse', AUTH_NS) ?? body,
				'AutenticaResult',
				AUTH_NS,
			)?.text.trim();
			if (!token)
				return { problem: 'the answer has no AutenticaResponse/AutenticaResult (the token)' };
			const stamp = child(child(header ?? body, 'Security', WSSE_NS) ?? body, 'Timestamp', WSU_NS);
			const given = Date.parse(child(stamp ?? body, 'Expires', WSU_NS)?.text.trim() ?? '');
			// Without an Expires, the token lives what the request asked: 5 minutes from its creation.
			return { value: { token, expires: Number.isNaN(given) ? now + 5 * 60_000 : given } };
		},
	};
}

/** `Authorization: WRAP access_token="<token>"`, the token as the SAT gave it. */
const authorization = (token: string) => ({ Authorization: `WRAP access_token="${token}"` });

/** What a request, verification or download answers besides its data: its code and the SAT's words. */
export interface Status {
	code: string;
	message: string;
}

/** The request's answer. */
interface RequestAnswer extends Status {
	requestId?: string;
}

/** The question of a request (Request), signed. Never re-sent once it may have reached the SAT. */
export function requestQuestion(
	efirma: Efirma,
	query: Query,
	address: string,
	token: string,
): SoapQuestion<RequestAnswer> {
	return {
		address,
		action: ACTIONS[query.operation],
		headers: authorization(token),
		body: signedOperation(efirma, queryOperation(query)),
		maxBytes: MAX_BULK_ANSWER_BYTES,
		repeatable: false,
		read(body) {
			const result = childNamed(
				childNamed(body, `${query.operation}Response`),
				`${query.operation}Result`,
			);
			if (!result)
				return { problem: `the answer has no ${query.operation}Response/${query.operation}Result` };
			const code = attribute(result, 'CodEstatus')?.trim();
			if (!code) return { problem: 'the answer has no CodEstatus' };
			return {
				value: {
					code,
					message: attribute(result, 'Mensaje')?.trim() ?? '',
					requestId: attribute(result, 'IdSolicitud')?.trim() || undefined,
				},
			};
		},
	};
}

/** The verification's answer. */
interface VerifyAnswer extends Status {
	/** `EstadoSolicitud`. */
	state: string;
	/** `CodigoEstadoSolicitud`. */
	stateCode: string;
	cfdiCount: number;
	packageIds: string[];
}

/** The question of a verification (Check Request), signed: a read, asked again once after a failure. */
export function verifyQuestion(
	efirma: Efirma,
	requestId: string,
	address: string,
	token: string,
): SoapQuestion<VerifyAnswer> {
	return {
		address,
		action: ACTIONS.verify,
		headers: authorization(token),
		body: signedOperation(efirma, {
			operation: 'VerificaSolicitudDescarga',
			child: 'solicitud',
			attributes: { IdSolicitud: requestId, RfcSolicitante: efirma.rfc },
		}),
		maxBytes: MAX_BULK_ANSWER_BYTES,
		read(body) {
			const result = childNamed(
				childNamed(body, 'VerificaSolicitudDescargaResponse'),
				'VerificaSolicitudDescargaResult',
			);
			if (!result)
				return {
					problem:
						'the answer has no VerificaSolicitudDescargaResponse/VerificaSolicitudDescargaResult',
				};
			const code = attribute(result, 'CodEstatus')?.trim();
			if (!code) return { problem: 'the answer has no CodEstatus' };
			const count = Number(attribute(result, 'NumeroCFDIs')?.trim() || '0');
			return {
				value: {
					code,
					message: attribute(result, 'Mensaje')?.trim() ?? '',
					state: attribute(result, 'EstadoSolicitud')?.trim() ?? '',
					stateCode: attribute(result, 'CodigoEstadoSolicitud')?.trim() ?? '',
					cfdiCount: Number.isSafeInteger(count) && count >= 0 ? count : 0,
					packageIds: result.children
						.filter((c) => c.local.toLowerCase() === 'idspaquetes')
						.map((c) => c.text.trim())
						.filter(Boolean),
				},
			};
		},
	};
}

/** The download's answer: the package's ZIP in base64, when the code is 5000. */
interface DownloadAnswer extends Status {
	packageBase64?: string;
}

/**
 * The question of a download (Download), signed. Never re-sent once it may have reached the SAT: the SAT counts
 * every download of a package (two at most). `maxBytes`: the largest answer read.
 */
export function downloadQuestion(
	efirma: Efirma,
	packageId: string,
	address: string,
	token: string,
	maxBytes: number,
): SoapQuestion<DownloadAnswer> {
	return {
		address,
		action: ACTIONS.download,
		headers: authorization(token),
		body: signedOperation(efirma, {
			operation: 'PeticionDescargaMasivaTercerosEntrada',
			child: 'peticionDescarga',
			attributes: { IdPaquete: packageId, RfcSolicitante: efirma.rfc },
		}),
		maxBytes,
		repeatable: false,
		largeText: 'Paquete',
		read(body, header, large) {
			const status = childNamed(header, 'respuesta');
			const code = status ? attribute(status, 'CodEstatus')?.trim() : undefined;
			if (!status || !code)
				return { problem: 'the answer has no respuesta with a CodEstatus in its SOAP header' };
			const result = childNamed(body, 'RespuestaDescargaMasivaTercerosSalida');
			const inline = childNamed(result, 'Paquete')?.text.trim();
			return {
				value: {
					code,
					message: attribute(status, 'Mensaje')?.trim() ?? '',
					packageBase64: large?.trim() || inline || undefined,
				},
			};
		},
	};
}
