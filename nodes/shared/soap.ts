import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { bodyMessage, DEFAULT_RETRY, type RetryPolicy } from './failures';
import { sniff } from './files';
import type { Answer } from './http';
import { numberOption } from './options';
import type { RouterContext } from './router';
import { ServiceClient, type ServiceDefinition } from './transport';
import { child, childText, parseXml, XmlError, type XmlElement, type XmlLimits } from './xml';
import { trimEnd } from './text';

/**
 * The authorities' public services (the SRI's, the SAT's): SOAP 1.1 over the one client's `postText`, no account
 * and no credential. Written once here, for every such service:
 * - the envelope (`soapEnvelope`) and the SOAPAction header;
 * - reading an answer: a web page (the authorities' maintenance pages, a proxy's) instead of SOAP, XML the
 *   package's reader refuses, a root that is not a SOAP 1.1 envelope, a SOAP fault (in a 2xx or an error answer);
 * - Options → Service Address (`serviceAddress`): empty asks the authority itself, a full address asks there, the
 *   service's path added unless the address already ends with it; checked per item, with the item's other input;
 * - Options → Request Timeout, read once per execution from the first item wherever the operation offers it
 *   (`publicServiceContext`): the whole question, re-sends included (asking is a query, re-sent after a 5xx, a
 *   429 or a broken connection, as often as the service's `retry` allows).
 * What each service is (its name, hosts, path, action, body and how its answer reads) is its node's domain/: one
 * `PublicService` and, per question, one `SoapQuestion`.
 */

const SOAP_ENVELOPE_NS = 'http://schemas.xmlsoap.org/soap/envelope/';

/** An authority's public service, as its node's domain/ describes it. */
export interface PublicService {
	/** Shown in messages, e.g. "SRI". */
	name: string;
	/** Where the user sets the address, as messages name it (e.g. "Options → Service Address (empty: …)"). */
	addressLabel: string;
	/**
	 * How often a failed question is asked again within Request Timeout (default: the client's). The SAT asks its
	 * callers not to raise their volume: once.
	 */
	retry?: RetryPolicy;
	/**
	 * Words for a SOAP fault this service answers in an error status (HTTP 500), when it has its own meaning (the
	 * SAT's bulk download: a signature it refused): the message, the description, and whether sending the same
	 * question again could change the answer (`final`: it is not re-sent).
	 */
	explainFault?(
		fault: SoapFault,
	): { message: string; description: string; final: boolean } | undefined;
}

/** One question to a public service: where it goes, what it sends, how its answer's Body reads. */
export interface SoapQuestion<T> {
	/** The full address (see `serviceAddress`). */
	address: string;
	/** The SOAPAction header as the service documents it (the SRI's WSDL: `""`; the SAT: its operation's URI). */
	action: string;
	/** The content of soap:Body: the operation's element, with its own namespace declared. */
	body: string;
	/** The largest answer read, in bytes. */
	maxBytes: number;
	/** The content of soap:Header (a WS-Security header), each prefix it uses declared in it. Default: none. */
	header?: string;
	/** HTTP headers besides Content-Type, SOAPAction and Accept (e.g. the SAT's `Authorization: WRAP …`). */
	headers?: Record<string, string>;
	/**
	 * Whether asking twice cannot do anything twice (default true: a query, re-sent within Request Timeout after a
	 * 5xx or a broken connection). False for a question that creates or counts something at the service: sent
	 * again only when nothing reached it.
	 */
	repeatable?: boolean;
	/**
	 * The local name of one element whose text may be far larger than the XML reader's limits (a file in base64,
	 * the SAT's `Paquete`): its text is cut out of the answer in one scan before the rest is read, and handed to
	 * `read` as `large` (undefined when the element is absent or empty).
	 */
	largeText?: string;
	/**
	 * Reads the answer's soap:Body (no fault in it), with its soap:Header when it has one: the value, or what is
	 * wrong with it in words that follow "the answer" (`the answer has no …`), which the client reports as an
	 * unusable answer.
	 */
	read(body: XmlElement, header?: XmlElement, large?: string): { value: T } | { problem: string };
}

/** The SOAP 1.1 envelope around `body` (and `header`, when there is one). */
function soapEnvelope(body: string, header?: string): string {
	return (
		'<?xml version="1.0" encoding="utf-8"?>' +
		`<soap:Envelope xmlns:soap="${SOAP_ENVELOPE_NS}">${header ? `<soap:Header>${header}</soap:Header>` : ''}<soap:Body>${body}</soap:Body></soap:Envelope>`
	);
}

/** The limits an answer is read with (its size is the question's `maxBytes`). */
const answerLimits = (maxBytes: number): Partial<XmlLimits> => ({
	maxBytes,
	maxDepth: 32,
	maxAttributes: 64,
	maxElements: 100_000,
});

/** `Envelope/Body` of a SOAP 1.1 document, or undefined when the root is not a SOAP 1.1 envelope. */
function soapBody(root: XmlElement): XmlElement | undefined {
	if (root.local !== 'Envelope' || root.ns !== SOAP_ENVELOPE_NS) return undefined;
	return child(root, 'Body', SOAP_ENVELOPE_NS);
}

/** A SOAP 1.1 fault: its code and its words. */
export interface SoapFault {
	faultcode?: string;
	faultstring?: string;
}

function faultIn(body: XmlElement): SoapFault | undefined {
	const fault = child(body, 'Fault');
	if (!fault) return undefined;
	const text = (name: string) => childText(fault, name)?.trim() || undefined;
	return { faultcode: text('faultcode'), faultstring: text('faultstring') };
}

/** A fault in one line: `soap:Server: Error interno` (either part may be missing). */
function faultLine(fault: SoapFault): string {
	return [fault.faultcode, fault.faultstring].filter(Boolean).join(': ') || 'no fault string';
}

/** The fault an error answer carries (HTTP 500 is how SOAP 1.1 sends one), or undefined. */
function faultOf(text: string, maxBytes: number): SoapFault | undefined {
	try {
		const body = soapBody(parseXml(text, answerLimits(maxBytes)));
		return body ? faultIn(body) : undefined;
	} catch {
		return undefined;
	}
}

/** The page title of an HTML answer (a maintenance page, a proxy's error page), if any. */
function pageTitle(text: string): string | undefined {
	const m = /<title[^>]*>([^<]{1,200})<\/title>/i.exec(text.slice(0, 4096));
	return m ? m[1].replace(/\s+/g, ' ').trim() || undefined : undefined;
}

/**
 * A success answer (2xx) read: web page, XML, envelope and fault checked here, the Body by the question's
 * `read` — or what is wrong with it, in words that follow "the answer".
 */
function readSoapAnswer<T>(
	service: PublicService,
	question: SoapQuestion<T>,
	answer: Answer,
): { value: T } | { problem: string } {
	if (sniff(answer.body, answer.headers['content-type'] ?? '') === 'html') {
		const title = pageTitle(answer.body.toString('utf8', 0, 4096));
		return {
			problem: `the answer is a web page${title ? ` (${JSON.stringify(title)})` : ''}, not a SOAP answer (is the ${service.name} in maintenance?)`,
		};
	}
	let root: XmlElement;
	let large: string | undefined;
	let text: Buffer | string = answer.body;
	if (question.largeText) {
		const cut = cutLargeText(answer.body.toString('utf8'), question.largeText);
		text = cut.rest;
		large = cut.text;
	}
	try {
		root = parseXml(text, answerLimits(question.largeText ? LARGE_REST_BYTES : question.maxBytes));
	} catch (error) {
		return {
			problem: `the answer is not XML the package can read (${error instanceof XmlError ? error.message : String(error)})`,
		};
	}
	const body = soapBody(root);
	if (!body)
		return { problem: `the answer is not a SOAP 1.1 envelope (its root is <${root.name}>)` };
	const fault = faultIn(body);
	if (fault) return { problem: `the answer is a SOAP fault (${faultLine(fault)})` };
	return question.read(body, child(root, 'Header', SOAP_ENVELOPE_NS), large);
}

/** What is left of an answer around its large text is read up to this size. */
const LARGE_REST_BYTES = 1024 * 1024;

/**
 * `xml` with the text of its first element named `local` (any prefix) cut out, and that text (undefined when the
 * element is absent, empty or has markup inside): one scan, linear in the answer's size, no regular expression
 * over the large text.
 */
function cutLargeText(xml: string, local: string): { rest: string; text?: string } {
	for (let at = xml.indexOf(local); at !== -1; at = xml.indexOf(local, at + local.length)) {
		// The tag's start is at most a short prefix before the name (never a scan back through the large text).
		let lt = at - 1;
		while (lt >= 0 && at - lt <= 41 && xml[lt] !== '<') lt--;
		if (lt < 0 || xml[lt] !== '<') continue;
		const name = xml.slice(lt + 1, at);
		if (!/^(?:[A-Za-z_][\w.-]*:)?$/.test(name)) continue;
		const afterName = xml[at + local.length];
		if (afterName !== '>' && afterName !== ' ' && afterName !== '/' && afterName !== '\n') continue;
		const open = xml.indexOf('>', at);
		if (open === -1 || xml[open - 1] === '/') return { rest: xml };
		const close = xml.indexOf('<', open + 1);
		if (close === -1 || !xml.startsWith(`</${name}${local}>`, close)) return { rest: xml };
		const text = xml.slice(open + 1, close);
		return { rest: xml.slice(0, open + 1) + xml.slice(close), text: text || undefined };
	}
	return { rest: xml };
}

/** What the one client is told about a public service: no credential, its error answers in words. */
function definition(service: PublicService, maxBytes: number): ServiceDefinition {
	const { name, addressLabel } = service;
	const final = (status: number, body: unknown) => {
		const fault = typeof body === 'string' ? faultOf(body, maxBytes) : undefined;
		return status >= 400 && fault ? service.explainFault?.(fault)?.final === true : false;
	};
	const again = 'The question was asked again within Options → Request Timeout; try again later.';
	return {
		name,
		addressLabel,
		secretFields: [],
		...(service.explainFault ? { finalAnswer: final } : {}),
		describeError(status, body) {
			const text = typeof body === 'string' ? body : '';
			const fault = text ? faultOf(text, maxBytes) : undefined;
			const own = fault ? service.explainFault?.(fault) : undefined;
			if (fault && own)
				return {
					message: own.message,
					description: own.description,
					said: fault.faultstring ?? fault.faultcode,
				};
			if (fault)
				return {
					message: `${name} answered with a SOAP fault (HTTP ${status}): ${faultLine(fault)}`,
					description: `The ${name}’s service failed while answering. ${again}`,
					said: fault.faultstring ?? fault.faultcode,
				};
			if (text && sniff(Buffer.from(text.slice(0, 512)), '') === 'html') {
				const title = pageTitle(text);
				return {
					message: `${name} is not available (HTTP ${status}${title ? `: ${title}` : ''})`,
					description: `The ${name} answered with a web page instead of a SOAP answer: its service is usually down for maintenance. ${again}`,
					said: title,
				};
			}
			const said = bodyMessage(body);
			return {
				message: `${name} answered HTTP ${status}${said ? `: ${said}` : ''}`,
				description:
					status >= 500
						? `The ${name}’s service had a problem. ${again}`
						: `Check ${addressLabel}: it must be the address of the ${name}’s service, or empty.`,
			};
		},
	};
}

/** What every operation of a public-service node gets: the execution's one client. */
export interface PublicServiceContext extends RouterContext {
	api: ServiceClient;
}

/** Options → Request Timeout's name: the router reads it wherever the operation offers it. */
const REQUEST_TIMEOUT = 'requestTimeout';

/**
 * The operation's own option `name` (in its Options collection), or undefined when it offers none. The operation
 * is the one the node runs (its resource and operation, from the first item, as the router picks it).
 */
function offeredOption(
	this: IExecuteFunctions,
	resources: Record<string, Record<string, { description: INodeProperties[] } | undefined>>,
	name: string,
): INodeProperties | undefined {
	const resource = this.getNodeParameter('resource', 0) as string;
	const operation = this.getNodeParameter('operation', 0) as string;
	const module = Object.hasOwn(resources, resource)
		? Object.hasOwn(resources[resource], operation)
			? resources[resource][operation]
			: undefined
		: undefined;
	const options = module?.description.find((p) => p.name === 'options' && p.type === 'collection');
	const found = (options?.options ?? []).find((o) => 'name' in o && o.name === name);
	return found && 'type' in found ? (found as INodeProperties) : undefined;
}

/**
 * The context of one execution of a public-service node: its one client, whose time per question is the
 * operation's Options → Request Timeout (read once, from the first item) wherever the operation offers it, the
 * client's default otherwise (an operation without it sends nothing).
 */
export function publicServiceContext(
	this: IExecuteFunctions,
	service: PublicService,
	resources: Record<string, Record<string, { description: INodeProperties[] } | undefined>>,
	maxBytes: number,
): PublicServiceContext {
	const timeout = offeredOption.call(this, resources, REQUEST_TIMEOUT);
	const seconds = timeout
		? numberOption.call(this, timeout, 0, { inOptions: true, once: true })
		: undefined;
	return {
		api: new ServiceClient(
			this,
			definition(service, maxBytes),
			{
				timeoutMs: seconds === undefined ? undefined : seconds * 1000,
				timeoutOption: 'Options → Request Timeout',
			},
			service.retry ?? DEFAULT_RETRY,
		),
	};
}

/**
 * Asks `question` of the public service (one SOAP POST, re-sent as a query within Request Timeout): the value
 * its `read` took from the answer. Every other outcome is the client's error: the service's fault or page in
 * words (`describeError` above), no answer in time, an unusable answer.
 */
export async function ask<T>(
	ctx: PublicServiceContext,
	service: PublicService,
	question: SoapQuestion<T>,
	itemIndex: number,
): Promise<T> {
	return await ctx.api.postText(question.address, itemIndex, {
		body: soapEnvelope(question.body, question.header),
		headers: {
			...question.headers,
			'Content-Type': 'text/xml; charset=utf-8',
			SOAPAction: question.action,
			Accept: 'text/xml',
		},
		maxBytes: question.maxBytes,
		repeatable: question.repeatable ?? true,
		read: (answer) => readSoapAnswer(service, question, answer),
	});
}

/**
 * Options → Service Address as the address to ask: the authority's own (`own`) when it is empty; otherwise a full
 * http(s) address (scheme, host, port, optional path), used as it is when its path already ends with the
 * service's last segment (`AutorizacionComprobantesOffline`, `ConsultaCFDIService.svc`), else with the service's
 * `path` added (`http://127.0.0.1:7401/sri` → `http://127.0.0.1:7401/sri/comprobantes-electronicos-ws/…`). Or
 * why it cannot be used, in words that follow its label.
 */
export function serviceAddress(
	raw: unknown,
	service: { name: string; own: string; path: string },
): { address: string } | { problem: string } {
	if (raw === undefined || raw === null) return { address: service.own };
	if (typeof raw !== 'string') return { problem: 'must be text: an http(s) address, or empty' };
	const given = raw.trim();
	if (!given) return { address: service.own };
	let url: URL;
	try {
		url = new URL(given);
	} catch {
		return {
			problem: `${JSON.stringify(given.slice(0, 80))} is not an address: give a full one, such as https://proxy.example.com/${service.name.toLowerCase()}, or leave it empty`,
		};
	}
	if (url.protocol !== 'http:' && url.protocol !== 'https:')
		return { problem: `must start with https:// or http://, got ${JSON.stringify(url.protocol)}` };
	if (url.username || url.password)
		return {
			problem: `must not hold a user name or password: the ${service.name} takes none, and an address would show it in every message`,
		};
	if (url.search || url.hash)
		return {
			problem:
				'must not have a query (?…) or fragment (#…): give the scheme, host, port and path only',
		};
	const base = trimEnd(given, '/');
	const last = service.path.slice(service.path.lastIndexOf('/') + 1).toLowerCase();
	return {
		address: base.toLowerCase().endsWith(`/${last}`) ? base : `${base}${service.path}`,
	};
}
