import type { IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';
import { sniff } from '../shared/files';
import { originOf, type Answer } from '../shared/http';
import { numberOption } from '../shared/options';
import type { RouterContext } from '../shared/router';
import { bodyMessage, DEFAULT_RETRY } from '../shared/failures';
import { ServiceClient, type ServiceDefinition } from '../shared/transport';
import { child, parseXml, XmlError, type XmlElement } from '../shared/xml';
import { requestTimeoutOption, serviceAddressOption } from './actions/cfdi/options';
import type { ConsultaResult } from './domain/status';
import { xmlEscape } from './domain/expression';

/**
 * The SAT's public status service for CFDIs, `ConsultaCFDIService` (SAT, Documentación del Servicio de Consulta
 * de CFDI v1.2): SOAP 1.1, document/literal, one operation `Consulta` (namespace `http://tempuri.org/`) with
 * one parameter, `expresionImpresa`; `SOAPAction: http://tempuri.org/IConsultaCFDIService/Consulta`,
 * `Content-Type: text/xml; charset=utf-8`. No account, no credential. The answer is
 * `ConsultaResponse/ConsultaResult`, whose children (`CodigoEstatus`, `Estado`, …) are in the namespace
 * `http://schemas.datacontract.org/2004/07/Sat.Cfdi.Negocio.ConsultaCfdi.Servicio` and read by local name.
 *
 * Requests go through the package's one client (shared/transport.ts, `postText`): a wall-clock deadline
 * (Options → Request Timeout), a byte cap on the answer, no redirect followed. The SAT asks its callers not to
 * raise their volume, so a failed request is sent again at most once (after a 5xx or a broken connection, as
 * a query may be), within the same deadline.
 */

/** The SAT's own address of the service. */
const SAT_STATUS_ADDRESS =
	'https://consultaqr.facturaelectronica.sat.gob.mx/ConsultaCFDIService.svc';
/** The service's path, added to a Service Address that does not end with it. */
const SERVICE_PATH = 'ConsultaCFDIService.svc';
const SOAP_ACTION = 'http://tempuri.org/IConsultaCFDIService/Consulta';
const SOAP_ENVELOPE = 'http://schemas.xmlsoap.org/soap/envelope/';
const TEMPURI = 'http://tempuri.org/';
/** The answer is a few hundred bytes; a maintenance page a few kilobytes. Anything past this is not read. */
const MAX_ANSWER_BYTES = 1024 * 1024;

/** The SOAP request for one expression, XML-escaped in the body (the SAT takes it escaped or in CDATA): an RFC's `&amp;` arrives as `&amp;amp;`. */
function consultaEnvelope(expression: string): string {
	return (
		'<?xml version="1.0" encoding="utf-8"?>' +
		`<s:Envelope xmlns:s="${SOAP_ENVELOPE}"><s:Body>` +
		`<Consulta xmlns="${TEMPURI}"><expresionImpresa>${xmlEscape(expression)}</expresionImpresa></Consulta>` +
		'</s:Body></s:Envelope>'
	);
}

/** Options → Service Address as the address to POST to, or what is wrong with it. */
function serviceAddress(raw: unknown): { address: string } | { problem: string } {
	const text = typeof raw === 'string' ? raw.trim() : raw === undefined || raw === null ? '' : raw;
	if (text === '') return { address: SAT_STATUS_ADDRESS };
	if (typeof text !== 'string' || !originOf(text))
		return {
			problem: `${JSON.stringify(text)} is not an http(s) address (e.g. https://proxy.example.com/sat)`,
		};
	const url = new URL(text);
	if (url.username || url.password) return { problem: 'must not contain a user name or password' };
	if (url.search || url.hash)
		return { problem: 'must not contain a query (?…) or a fragment (#…)' };
	if (!url.pathname.toLowerCase().endsWith(SERVICE_PATH.toLowerCase()))
		url.pathname = `${url.pathname.replace(/\/+$/, '')}/${SERVICE_PATH}`;
	return { address: url.href };
}

/** The text of a SOAP fault (`faultstring`, else `faultcode`), or undefined when `body` is none. */
function faultOf(body: XmlElement | undefined): string | undefined {
	const fault = body && child(body, 'Fault', SOAP_ENVELOPE);
	if (!fault) return undefined;
	const text = (name: string) => child(fault, name)?.text.trim();
	return text('faultstring') || text('faultcode') || 'no faultstring';
}

/** The SOAP fault in an error answer's text, if it is one. */
function faultInText(text: string): string | undefined {
	try {
		const root = parseXml(text, { maxBytes: MAX_ANSWER_BYTES, maxDepth: 32 });
		return root.local === 'Envelope' && root.ns === SOAP_ENVELOPE
			? faultOf(child(root, 'Body', SOAP_ENVELOPE))
			: undefined;
	} catch {
		return undefined;
	}
}

/** An answer's text as a short quote for a message: markup removed, at most 120 characters. */
function quote(text: string): string {
	const words = bodyMessage(text) ?? '';
	return JSON.stringify(words.length > 120 ? `${words.slice(0, 119)}…` : words);
}

/**
 * `ConsultaResult` of a success answer (children by local name, trimmed; an empty one is absent), or what is
 * wrong with the answer (`the answer is …`).
 */
function readConsultaAnswer(answer: Answer): { value: ConsultaResult } | { problem: string } {
	const type = answer.headers['content-type'] ?? '';
	if (sniff(answer.body, type) === 'html')
		return {
			problem: `the answer is a web page, not a SOAP answer (${quote(answer.body.toString('utf8'))}): the service may be down for maintenance`,
		};
	let root: XmlElement;
	try {
		root = parseXml(answer.body, { maxBytes: MAX_ANSWER_BYTES, maxDepth: 32 });
	} catch (error) {
		const head = JSON.stringify(answer.body.toString('utf8', 0, 40).trim());
		return {
			problem:
				error instanceof XmlError
					? `the answer is not a SOAP answer (${type ? `content-type ${type}, ` : ''}starting with ${head}: ${error.message})`
					: `the answer could not be read (${String(error)})`,
		};
	}
	if (root.local !== 'Envelope' || root.ns !== SOAP_ENVELOPE)
		return {
			problem: `the answer is not a SOAP 1.1 envelope (its root element is <${root.name}>)`,
		};
	const body = child(root, 'Body', SOAP_ENVELOPE);
	const fault = faultOf(body);
	if (fault !== undefined) return { problem: `the answer is a SOAP fault: ${fault}` };
	const result =
		body && child(child(body, 'ConsultaResponse', TEMPURI) ?? body, 'ConsultaResult', TEMPURI);
	if (!result) return { problem: 'the answer has no ConsultaResponse/ConsultaResult' };
	const value: Record<string, string> = {};
	for (const field of result.children) {
		const text = field.text.trim();
		if (text !== '' && !Object.hasOwn(value, field.local)) value[field.local] = text;
	}
	return { value: value as ConsultaResult };
}

/** The SAT's status service as the package's client knows it: no credential, its errors in words. */
const SAT_SERVICE: ServiceDefinition = {
	name: 'SAT',
	addressLabel: 'Options → Service Address',
	secretFields: [],
	describeError(status, body) {
		const text = typeof body === 'string' ? body : JSON.stringify(body ?? '');
		const fault = typeof body === 'string' ? faultInText(body) : undefined;
		if (fault !== undefined)
			return {
				message: `SAT answered with a SOAP fault: ${fault}`,
				description:
					'The service refused the request without saying anything about the CFDI. If it repeats for every CFDI, the service or the Service Address is not the one this node expects.',
				said: fault,
			};
		if (/<html[\s>]|<!doctype html/i.test(text))
			return {
				message: `SAT answered with a web page (HTTP ${status}), not with the CFDI's status: ${quote(text)}`,
				description:
					"The SAT's service is probably down or under maintenance. Nothing about this CFDI is known: run it again later (asking again is safe, it only reads; n8n's Retry On Fail or a schedule can do it).",
			};
		return {
			message: `SAT answered HTTP ${status} instead of the CFDI's status${text.trim() ? `: ${quote(text)}` : ''}`,
			description:
				status >= 500
					? "The SAT's service failed. Nothing about this CFDI is known: run it again later (asking again is safe, it only reads)."
					: 'The service refused the request. Check Options → Service Address: empty asks the SAT itself.',
		};
	},
};

/** What every operation of the node gets: the client of this execution and the address it asks. */
export interface SatContext extends RouterContext {
	api: ServiceClient;
	/** Options → Service Address, checked (read once per execution, from the first item). */
	address: string;
}

/**
 * The context of one execution. Options → Request Timeout and Service Address are read once, from the first
 * item, as the options say: a wrong value stops the node before anything is sent (Read CFDI XML has neither
 * option: their defaults are read).
 */
export function satContext(ctx: IExecuteFunctions): SatContext {
	const once = { inOptions: true, once: true };
	const timeoutMs = numberOption.call(ctx, requestTimeoutOption, 0, once) * 1000;
	const checked = serviceAddress(
		ctx.getNodeParameter(`options.${serviceAddressOption.name}`, 0, ''),
	);
	if ('problem' in checked)
		throw new NodeOperationError(ctx.getNode(), `Options → Service Address ${checked.problem}`, {
			description:
				"Leave it empty to ask the SAT's own service, or give a full http(s) address. It applies to every item of the execution. Nothing was sent.",
		});
	return {
		api: new ServiceClient(
			ctx,
			SAT_SERVICE,
			{ timeoutMs, timeoutOption: 'Options → Request Timeout' },
			// One re-send at most: the SAT asks its callers not to raise their volume.
			{ ...DEFAULT_RETRY, maxAttempts: 2 },
		),
		address: checked.address,
	};
}

/** Asks the SAT about `expression` (the CFDI's `expresionImpresa`): the answer's ConsultaResult. */
export async function consulta(
	ctx: SatContext,
	expression: string,
	itemIndex: number,
): Promise<ConsultaResult> {
	return await ctx.api.postText(ctx.address, itemIndex, {
		body: consultaEnvelope(expression),
		headers: {
			'Content-Type': 'text/xml; charset=utf-8',
			SOAPAction: SOAP_ACTION,
			Accept: 'text/xml',
		},
		maxBytes: MAX_ANSWER_BYTES,
		repeatable: true,
		read: readConsultaAnswer,
	});
}
