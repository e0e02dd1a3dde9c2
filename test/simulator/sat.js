/** @import { RouteTable, SimRequest, SimResponse } from './server' */

/**
 * The SAT's public status service for CFDIs, `ConsultaCFDIService` (SAT, Documentación del Servicio de
 * Consulta de CFDI v1.2), served at `/sat/ConsultaCFDIService.svc`: SOAP 1.1, operation `Consulta` in
 * `http://tempuri.org/`, one parameter `expresionImpresa`, `SOAPAction: http://tempuri.org/IConsultaCFDIService/Consulta`.
 *
 * It checks the request as the SAT does: the SOAPAction (else a SOAP fault, HTTP 500), `text/xml` (else 415),
 * the envelope, and the expression's form — `?id=&re=&rr=&tt=&fe=` for CFDI 3.3/4.0 (the total with 1 to 6
 * decimals and no trailing zero but one, `fe` 8 characters when present) or `?re=&rr=&tt=&id=` for 3.2 (the total
 * 10.6 zero-padded); an RFC's `&` arrives XML-encoded inside the expression. An expression it cannot read gets
 * `N - 601`.
 *
 * Which answer a CFDI gets is chosen by its UUID, so tests and `npm run dev` pick outcomes: the first 4
 * characters of the UUID's last group name one of `OUTCOMES` (build such a UUID with cfdi.js `uuidWith`); any
 * other UUID is Vigente, cancelable without acceptance, issuer not listed (200). `pin` pins one UUID to an
 * outcome and to its CFDI's RFCs and total: asked with other data, it is not found (`N - 602`), as the SAT
 * answers.
 */

const SOAP_ACTION = 'http://tempuri.org/IConsultaCFDIService/Consulta';
const SOAP_ENV = 'http://schemas.xmlsoap.org/soap/envelope/';
const DATA_CONTRACT =
	'http://schemas.datacontract.org/2004/07/Sat.Cfdi.Negocio.ConsultaCfdi.Servicio';

const FOUND = 'S - Comprobante obtenido satisfactoriamente.';
const INVALID = 'N - 601: La expresión impresa proporcionada no es válida.';
const NOT_FOUND = 'N - 602: Comprobante no encontrado.';

/**
 * @typedef {object} StatusOutcome
 * @property {'status'} kind
 * @property {string} codigo CodigoEstatus.
 * @property {string} estado
 * @property {string | null} esCancelable
 * @property {string | null} estatusCancelacion
 * @property {string | null} efos ValidacionEFOS.
 */
/**
 * @typedef {StatusOutcome
 *   | { kind: 'fault'; faultstring: string }
 *   | { kind: 'html'; status: number }
 *   | { kind: 'slow'; delayMs?: number }
 *   | { kind: 'garbage' }
 *   | { kind: 'no-result' }} Outcome
 */

/**
 * @param {string} estado
 * @param {string | null} esCancelable
 * @param {string | null} [estatusCancelacion]
 * @param {string | null} [efos]
 * @param {string} [codigo]
 * @returns {StatusOutcome}
 */
const status = (estado, esCancelable, estatusCancelacion = null, efos = '200', codigo = FOUND) => ({
	kind: 'status',
	codigo,
	estado,
	esCancelable,
	estatusCancelacion,
	efos,
});

/**
 * Outcomes by the first 4 characters of the UUID's last group (hexadecimal, as a UUID must be).
 * @type {Readonly<Record<string, Outcome>>}
 */
export const OUTCOMES = Object.freeze({
	A000: status('Vigente', 'Cancelable sin aceptación'),
	A001: status('Vigente', 'Cancelable con aceptación'),
	A002: status('Vigente', 'Cancelable con aceptación', 'En proceso'),
	A003: status('Vigente', 'Cancelable con aceptación', 'Solicitud rechazada'),
	A004: status('Vigente', 'No cancelable'),
	C001: status('Cancelado', 'Cancelable sin aceptación', 'Cancelado sin aceptación'),
	C002: status('Cancelado', 'Cancelable con aceptación', 'Cancelado con aceptación'),
	C003: status('Cancelado', 'Cancelable con aceptación', 'Plazo vencido'),
	// Cancelled before the cancellation process of 2018: no cancellation state.
	C004: status('Cancelado', 'No cancelable', null),
	E100: status('Vigente', 'Cancelable sin aceptación', null, '100'),
	E201: status('Vigente', 'Cancelable sin aceptación', null, '201'),
	// A ValidacionEFOS the documentation does not explain.
	E300: status('Vigente', 'Cancelable sin aceptación', null, '300'),
	// No ValidacionEFOS at all (answers before the field existed).
	E000: status('Vigente', 'Cancelable sin aceptación', null, null),
	D602: status('No Encontrado', null, null, null, NOT_FOUND),
	D601: status('No Encontrado', null, null, null, INVALID),
	F500: {
		kind: 'fault',
		faultstring: 'The server was unable to process the request due to an internal error.',
	},
	F503: { kind: 'html', status: 503 },
	F200: { kind: 'html', status: 200 },
	FE00: { kind: 'slow' },
	FBAD: { kind: 'garbage' },
	F0CE: { kind: 'no-result' },
});

/** The default outcome of a UUID that names none. */
const DEFAULT = OUTCOMES.A000;

/** `&lt;` `&gt;` `&quot;` `&apos;` `&amp;` decoded (the amp last). */
const unescape = (/** @type {string} */ s) =>
	s
		.replace(/&lt;/g, '<')
		.replace(/&gt;/g, '>')
		.replace(/&quot;/g, '"')
		.replace(/&apos;/g, "'")
		.replace(/&amp;/g, '&');

/**
 * The parameters of an expression as the SAT reads it, or undefined when it cannot read it.
 * @returns {{ version: '3.3/4.0' | '3.2'; id: string; re: string; rr: string; tt: string; fe?: string } | undefined}
 */
export function parseExpression(expression) {
	// The QR code's text puts the verification page before the "?": accepted too.
	const query = expression.replace(
		/^https:\/\/verificacfdi\.facturaelectronica\.sat\.gob\.mx\/default\.aspx/,
		'',
	);
	if (!query.startsWith('?')) return undefined;
	// A parameter starts at "&name=": an RFC's "&amp;" is not one.
	const parts = query.slice(1).split(/&(?=(?:id|re|rr|tt|fe)=)/);
	/** @type {Record<string, string>} */
	const params = {};
	const order = [];
	for (const part of parts) {
		const eq = part.indexOf('=');
		const name = part.slice(0, eq);
		if (eq < 0 || Object.hasOwn(params, name)) return undefined;
		params[name] = unescape(part.slice(eq + 1));
		order.push(name);
	}
	const uuid = /^[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}$/;
	const rfc = /^[A-ZÑ&]{3,4}\d{6}[A-Z\d]{3}$/;
	if (!uuid.test(params.id ?? '') || !rfc.test(params.re ?? '') || !rfc.test(params.rr ?? ''))
		return undefined;
	if (order.join(',') === 're,rr,tt,id') {
		if (!/^\d{10}\.\d{6}$/.test(params.tt)) return undefined;
		return { version: '3.2', id: params.id, re: params.re, rr: params.rr, tt: params.tt };
	}
	const shape = order.join(',');
	if (shape !== 'id,re,rr,tt' && shape !== 'id,re,rr,tt,fe') return undefined;
	// At most 6 decimals, no trailing zero unless it is the only decimal, no leading zero.
	if (!/^(0|[1-9]\d{0,17})\.(0|\d{0,5}[1-9])$/.test(params.tt)) return undefined;
	if (params.fe !== undefined && !/^[A-Za-z0-9+/=]{8}$/.test(params.fe)) return undefined;
	return {
		version: '3.3/4.0',
		...params,
		id: params.id,
		re: params.re,
		rr: params.rr,
		tt: params.tt,
	};
}

/** @returns {SimResponse} */
function soap(inner, httpStatus = 200) {
	return {
		status: httpStatus,
		headers: { 'content-type': 'text/xml; charset=utf-8' },
		raw: Buffer.from(`<s:Envelope xmlns:s="${SOAP_ENV}"><s:Body>${inner}</s:Body></s:Envelope>`),
	};
}

/** @returns {SimResponse} */
function fault(faultcode, faultstring) {
	return soap(
		`<s:Fault><faultcode xmlns:a="http://schemas.microsoft.com/net/2005/12/windowscommunicationfoundation/dispatcher">a:${faultcode}</faultcode><faultstring xml:lang="es-MX">${faultstring}</faultstring></s:Fault>`,
		500,
	);
}

/** The answer as the service writes it: data-contract children in alphabetical order, nil when absent. */
function answer(/** @type {StatusOutcome} */ o) {
	const field = (name, value) =>
		value === null ? `<a:${name} i:nil="true"/>` : `<a:${name}>${value}</a:${name}>`;
	return soap(
		`<ConsultaResponse xmlns="http://tempuri.org/"><ConsultaResult xmlns:a="${DATA_CONTRACT}" xmlns:i="http://www.w3.org/2001/XMLSchema-instance">` +
			field('CodigoEstatus', o.codigo) +
			field('EsCancelable', o.esCancelable) +
			field('Estado', o.estado) +
			field('EstatusCancelacion', o.estatusCancelacion) +
			field('ValidacionEFOS', o.efos) +
			`</ConsultaResult></ConsultaResponse>`,
	);
}

const MAINTENANCE_PAGE =
	'<!DOCTYPE html><html><head><title>Servicio no disponible</title></head><body><h1>Servicio no disponible</h1><p>El servicio se encuentra en mantenimiento, intente más tarde.</p></body></html>';

/**
 * @typedef {object} Registered
 * @property {string} [re]
 * @property {string} [rr]
 * @property {string} [total] The CFDI's total, as a decimal text.
 * @property {Outcome} outcome
 */

/**
 * @typedef {object} Asked
 * @property {string} expression The expression as it arrived (XML decoded once).
 * @property {ReturnType<typeof parseExpression>} params
 * @property {number} seq The server's request number.
 */

export class SatSimulator {
	prefix = 'sat';
	/** @type {Map<string, Registered>} */
	pinned = new Map();
	/** Every expression asked, in order. @type {Asked[]} */
	asked = [];
	/** How late a `slow` outcome answers (ms): later than any Request Timeout a test sets. */
	slowMs = 60_000;

	/** The address of the service at a server (`server.url('sat')`). */
	static address(serverUrl) {
		return `${serverUrl}/ConsultaCFDIService.svc`;
	}

	reset() {
		this.pinned.clear();
		this.asked.length = 0;
		this.slowMs = 60_000;
	}

	/**
	 * Pins `uuid` to an outcome (a code of OUTCOMES, or an outcome) and to the CFDI data given: asked with other
	 * RFCs or another total than those given, it is not found.
	 * @param {string} uuid
	 * @param {{ re?: string; rr?: string; total?: string; outcome?: Outcome | string }} cfdi
	 */
	pin(uuid, cfdi) {
		const outcome = typeof cfdi.outcome === 'string' ? OUTCOMES[cfdi.outcome] : cfdi.outcome;
		this.pinned.set(uuid.toUpperCase(), {
			re: cfdi.re,
			rr: cfdi.rr,
			total: cfdi.total,
			outcome: outcome ?? DEFAULT,
		});
	}

	/**
	 * The CFDIs the SAT knows (a month of received CFDIs for `npm run dev`, see received.js): each pinned to its
	 * outcome (a code of OUTCOMES, Vigente when none) and to its own RFCs and total, so asked with other data it is
	 * not found, as the SAT answers.
	 * @param {Array<{ uuid: string; emisorRfc: string; receptorRfc: string; total: string; outcome?: string }>} cfdis
	 */
	know(cfdis) {
		for (const c of cfdis)
			this.pin(c.uuid, { re: c.emisorRfc, rr: c.receptorRfc, total: c.total, outcome: c.outcome });
	}

	/** @param {RouteTable} router */
	register(router) {
		router.add('POST', '/ConsultaCFDIService.svc', (req) => this.consulta(req));
	}

	/** @returns {SimResponse} */
	consulta(/** @type {SimRequest} */ req) {
		const action = String(req.headers.soapaction ?? '').replace(/^"|"$/g, '');
		if (!/^text\/xml\b/i.test(String(req.headers['content-type'] ?? '')))
			return { status: 415, raw: Buffer.alloc(0) };
		if (action !== SOAP_ACTION)
			return fault(
				'ActionNotSupported',
				`The message with Action '${action}' cannot be processed at the receiver, due to a ContractFilter mismatch at the EndpointDispatcher.`,
			);
		const body = req.raw.toString('utf8');
		const m =
			/^(?:<\?xml[^>]*\?>)?\s*<(\w+):Envelope\b[^>]*xmlns:\1="http:\/\/schemas\.xmlsoap\.org\/soap\/envelope\/"[^>]*>\s*<\1:Body>\s*<(?:(\w+):)?Consulta\b[^>]*xmlns(?::\2)?="http:\/\/tempuri\.org\/"[^>]*>\s*<(?:\2:)?expresionImpresa>([^<]*)<\/(?:\2:)?expresionImpresa>\s*<\/(?:\2:)?Consulta>\s*<\/\1:Body>\s*<\/\1:Envelope>\s*$/.exec(
				body,
			);
		if (!m)
			return fault(
				'DeserializationFailed',
				'The formatter threw an exception while trying to deserialize the message.',
			);
		const expression = unescape(m[3]);
		const params = parseExpression(expression);
		this.asked.push({ expression, params, seq: req.seq });
		if (!params) return answer(/** @type {StatusOutcome} */ (OUTCOMES.D601));
		const uuid = params.id.toUpperCase();
		const pinned = this.pinned.get(uuid);
		let outcome = pinned?.outcome ?? OUTCOMES[uuid.slice(24, 28)] ?? DEFAULT;
		if (pinned) {
			const same = (/** @type {string} */ a, /** @type {string} */ b) => Number(a) === Number(b);
			if (
				(pinned.re !== undefined && pinned.re !== params.re) ||
				(pinned.rr !== undefined && pinned.rr !== params.rr) ||
				(pinned.total !== undefined && !same(pinned.total, params.tt))
			)
				outcome = OUTCOMES.D602;
		}
		switch (outcome.kind) {
			case 'fault':
				return fault('InternalServiceFault', outcome.faultstring);
			case 'html':
				return {
					status: outcome.status,
					headers: { 'content-type': 'text/html; charset=utf-8' },
					raw: Buffer.from(MAINTENANCE_PAGE),
				};
			case 'slow':
				return {
					...answer(/** @type {StatusOutcome} */ (DEFAULT)),
					lateMs: outcome.delayMs ?? this.slowMs,
				};
			case 'garbage':
				return { status: 200, headers: { 'content-type': 'text/plain' }, raw: Buffer.from('OK') };
			case 'no-result':
				return soap('<ConsultaResponse xmlns="http://tempuri.org/"/>');
			default:
				return answer(outcome);
		}
	}
}
