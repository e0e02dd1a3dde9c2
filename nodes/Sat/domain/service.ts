import type { PublicService, SoapQuestion } from '../../shared/soap';
import { serviceAddress } from '../../shared/soap';
import { child, xmlEscape, type XmlElement } from '../../shared/xml';
import type { ConsultaResult } from './status';

/**
 * The SAT's public status service for CFDIs, `ConsultaCFDIService` (SAT, Documentación del Servicio de Consulta
 * de CFDI v1.2): SOAP 1.1, document/literal, one operation `Consulta` (namespace `http://tempuri.org/`) with
 * one parameter, `expresionImpresa`; `SOAPAction: http://tempuri.org/IConsultaCFDIService/Consulta`. No account,
 * no credential. The answer is `ConsultaResponse/ConsultaResult`, whose children (`CodigoEstatus`, `Estado`, …)
 * are in the namespace `http://schemas.datacontract.org/2004/07/Sat.Cfdi.Negocio.ConsultaCfdi.Servicio` and read
 * by local name. What every public SOAP service shares (envelope, faults, maintenance pages, Service Address,
 * Request Timeout) is shared/soap.ts.
 */

/** The SAT's own host of the service. */
const SAT_HOST = 'https://consultaqr.facturaelectronica.sat.gob.mx';
/** The service's path, added to a Service Address that does not end with it. */
const SERVICE_PATH = '/ConsultaCFDIService.svc';
const TEMPURI = 'http://tempuri.org/';
/** The answer is a few hundred bytes; a maintenance page a few kilobytes. Anything past this is not read. */
export const MAX_ANSWER_BYTES = 1024 * 1024;

/**
 * The SAT's status service as the package's one client knows it. The SAT asks its callers not to raise their
 * volume, so a failed question is asked again at most once (after a 5xx or a broken connection, as a query may
 * be), within Request Timeout.
 */
export const SAT: PublicService = {
	name: 'SAT',
	addressLabel: 'Options → Service Address',
	retry: { maxAttempts: 2, baseDelayMs: 500, maxDelayMs: 8000, maxRetryAfterMs: 60000 },
};

/** Options → Service Address (`given`) as the address to ask (empty: the SAT's own), or why it cannot be used. */
export function consultaAddress(given: unknown): { address: string } | { problem: string } {
	return serviceAddress(given, {
		name: 'SAT',
		own: `${SAT_HOST}${SERVICE_PATH}`,
		path: SERVICE_PATH,
	});
}

/**
 * `ConsultaResult` of the answer's Body (children by local name, trimmed; an empty one is absent), or what is
 * wrong with it.
 */
function readConsulta(body: XmlElement): { value: ConsultaResult } | { problem: string } {
	const result = child(child(body, 'ConsultaResponse', TEMPURI) ?? body, 'ConsultaResult', TEMPURI);
	if (!result) return { problem: 'the answer has no ConsultaResponse/ConsultaResult' };
	const value: Record<string, string> = {};
	for (const field of result.children) {
		const text = field.text.trim();
		if (text !== '' && !Object.hasOwn(value, field.local)) value[field.local] = text;
	}
	return { value: value as ConsultaResult };
}

/**
 * The question about one CFDI's expression (`expresionImpresa`, XML-escaped in the body: the SAT takes it escaped
 * or in CDATA, so an RFC's `&` arrives as `&amp;`), asked at `address`.
 */
export function consultaQuestion(
	expression: string,
	address: string,
): SoapQuestion<ConsultaResult> {
	return {
		address,
		action: 'http://tempuri.org/IConsultaCFDIService/Consulta',
		body: `<Consulta xmlns="${TEMPURI}"><expresionImpresa>${xmlEscape(expression)}</expresionImpresa></Consulta>`,
		maxBytes: MAX_ANSWER_BYTES,
		read: readConsulta,
	};
}
