import type { IDataObject } from 'n8n-workflow';
import { child, parseXml, type XmlElement, type XmlLimits } from '../../shared/xml';
import { kindByRoot } from './kinds';

/**
 * What the SRI answers about a key, and what an authorization file holds (they are the same element:
 * `autorizacion`). The service's answer (SRI, Ficha técnica, esquema offline, §7; the service's WSDL):
 * `Envelope/Body/autorizacionComprobanteResponse/RespuestaAutorizacionComprobante` with
 * `claveAccesoConsultada`, `numeroComprobantes` and `autorizaciones/autorizacion*`, each with `estado`,
 * `numeroAutorizacion`, `fechaAutorizacion`, `ambiente`, `comprobante` (the receipt's XML as text, in CDATA or
 * entity-escaped) and `mensajes/mensaje*` {`identificador`, `mensaje`, `informacionAdicional`, `tipo`}. Every
 * field is optional in the WSDL. Elements are found by local name: the service's children are unqualified,
 * its response element prefixed, and saved files differ in how they spell either.
 */

/**
 * The largest answer read: 4 MB. One receipt is at most 320 KB (the SRI's limit), and the answer carries it
 * as text — in CDATA as it is, or entity-escaped, where every `<`, `>`, `&` and `"` takes 4 to 6 characters
 * (1.3 to 1.35 times the receipt for the simulator's sample of each kind; up to 6 times for one made of markup) —
 * once per authorization entry, and a key can have a rejected attempt or two before its authorized one. 4 MB
 * holds three entries of the largest receipt escaped at 4 times; anything larger is not an answer of this
 * service, and is refused before it is read whole.
 */
export const MAX_ANSWER_BYTES = 4 * 1024 * 1024;

/** Limits of the answer or an authorization file (a receipt inside is read again with its own, receipt.ts). */
const ANSWER_LIMITS: Partial<XmlLimits> = {
	maxBytes: MAX_ANSWER_BYTES,
	maxDepth: 32,
	maxAttributes: 64,
	maxElements: 100_000,
};

/** One `autorizacion` entry. */
export interface AuthorizationEntry {
	estado?: string;
	numeroAutorizacion?: string;
	fechaAutorizacion?: string;
	ambiente?: string;
	/** The receipt: its XML as text (how the SRI sends it), or its element when a file wrote it inline. */
	comprobante?: string | XmlElement;
	/** The SRI's messages, in the Receipts node's field names (`informacion_adicional`). */
	mensajes: IDataObject[];
}

export interface AuthorizationAnswer {
	claveAccesoConsultada?: string;
	/** `numeroComprobantes` as a number, when it is one. */
	numeroComprobantes?: number;
	autorizaciones: AuthorizationEntry[];
}

const nonEmpty = (value: string | undefined) => (value ? value : undefined);

/*
 * Files saved by others spell the SRI's elements their own way: `<Authorization>` (the document extraction
 * service's own parser, TaxoWS/sri-xml-2-json, writes its fixtures so), `<Autorizacion>`, a prefixed
 * `<ns2:RespuestaAutorizacionComprobante>`, the whole SOAP answer. So the authorization is found by what it
 * holds, at any depth, and every name is compared by its local name in any case.
 */

const lower = (element: XmlElement) => element.local.toLowerCase();

/** The first child of `element` whose local name is `name`, in any case and namespace. */
function kid(element: XmlElement, name: string): XmlElement | undefined {
	const wanted = name.toLowerCase();
	return element.children.find((c) => lower(c) === wanted);
}

/** The children of `element` whose local name is `name`, in any case and namespace. */
function kids(element: XmlElement, name: string): XmlElement[] {
	const wanted = name.toLowerCase();
	return element.children.filter((c) => lower(c) === wanted);
}

const kidText = (element: XmlElement, name: string) => nonEmpty(kid(element, name)?.text.trim());

/** The names of an entry: the SRI's `autorizacion`, and the English `Authorization` other tools write. */
const ENTRY_NAMES = new Set(['autorizacion', 'authorization']);

/**
 * An authorization entry: an element holding a `comprobante` or a `numeroAutorizacion`, or one named as an entry
 * that holds an `estado` (a rejected attempt may have neither). A leaf `<autorizacion>123…</autorizacion>` (as
 * the ATS writes a key) is not one.
 */
function isEntry(element: XmlElement): boolean {
	let estado = false;
	for (const c of element.children) {
		const name = lower(c);
		if (name === 'comprobante' || name === 'numeroautorizacion') return true;
		if (name === 'estado') estado = true;
	}
	return estado && ENTRY_NAMES.has(lower(element));
}

/** The answer around the entries (`RespuestaAutorizacionComprobante`): the element holding these. */
const ANSWER_CONTENT = new Set(['claveaccesoconsultada', 'numerocomprobantes', 'autorizaciones']);

function entryOf(element: XmlElement): AuthorizationEntry {
	const comprobante = kid(element, 'comprobante');
	// The receipt written inline: inside <comprobante>, or (some tools) right in the entry.
	const inline = (comprobante ?? element).children.find((c) => kindByRoot(c.local));
	const mensajes = kids(kid(element, 'mensajes') ?? element, 'mensaje')
		.filter((m) => m.children.length)
		.map((m) => {
			const out: IDataObject = {};
			for (const [from, to] of [
				['identificador', 'identificador'],
				['mensaje', 'mensaje'],
				['informacionAdicional', 'informacion_adicional'],
				['tipo', 'tipo'],
			]) {
				const value = kidText(m, from);
				if (value !== undefined) out[to] = value;
			}
			return out;
		});
	return {
		estado: kidText(element, 'estado'),
		numeroAutorizacion: kidText(element, 'numeroAutorizacion'),
		fechaAutorizacion: kidText(element, 'fechaAutorizacion'),
		ambiente: kidText(element, 'ambiente'),
		comprobante: inline ?? nonEmpty(comprobante?.text.trim()),
		mensajes,
	};
}

/**
 * The authorization under `root`, at any depth, whatever wraps it; undefined when there is none. Its entries are
 * every authorization entry in document order (a receipt's own elements are not looked into); its
 * `claveAccesoConsultada` and `numeroComprobantes` come from the first element holding them. One pass over the
 * elements: linear in the size of the document.
 */
function authorizationIn(root: XmlElement): AuthorizationAnswer | undefined {
	let respuesta: XmlElement | undefined;
	const autorizaciones: AuthorizationEntry[] = [];
	const pending = [root];
	for (let e = pending.pop(); e; e = pending.pop()) {
		if (kindByRoot(e.local)) continue;
		if (isEntry(e)) {
			autorizaciones.push(entryOf(e));
			continue;
		}
		if (!respuesta && e.children.some((c) => ANSWER_CONTENT.has(lower(c)))) respuesta = e;
		for (let k = e.children.length - 1; k >= 0; k--) pending.push(e.children[k]);
	}
	if (!respuesta && !autorizaciones.length) return undefined;
	const count = respuesta ? kidText(respuesta, 'numeroComprobantes') : undefined;
	return {
		claveAccesoConsultada: respuesta ? kidText(respuesta, 'claveAccesoConsultada') : undefined,
		numeroComprobantes: count !== undefined && /^\d+$/.test(count) ? Number(count) : undefined,
		autorizaciones,
	};
}

/** `RespuestaAutorizacionComprobante` read. */
function answerOf(respuesta: XmlElement): AuthorizationAnswer {
	return authorizationIn(respuesta) ?? { autorizaciones: [] };
}

/**
 * The Body of the service's answer (no fault in it: shared/soap.ts reads the envelope) read, or what is wrong
 * with it in words that follow "the answer".
 */
export function readAuthorization(
	soap: XmlElement,
): { value: AuthorizationAnswer } | { problem: string } {
	const respuesta = child(
		child(soap, 'autorizacionComprobanteResponse') ?? soap,
		'RespuestaAutorizacionComprobante',
	);
	if (!respuesta)
		return {
			problem: `the answer has no RespuestaAutorizacionComprobante (its body holds ${soap.children.map((c) => `<${c.name}>`).join(', ') || 'nothing'})`,
		};
	return { value: answerOf(respuesta) };
}

/** What a file given to Read XML is, once read. */
export type ReadDocument =
	| { kind: 'authorization'; answer: AuthorizationAnswer }
	| { kind: 'receipt'; receipt: XmlElement };

/**
 * A file given to Read XML: a bare receipt (`<factura>`, `<notaCredito>`, …), or its authorization wherever it
 * is — the SRI's authorization file (`<autorizacion>` with `<comprobante>` inside, as the SRI's portal and most
 * suppliers send it), the same under another spelling (`<Authorization>`, `<Autorizacion>`, any prefix), inside
 * `<RespuestaAutorizacionComprobante>` or the whole SOAP answer. Throws an XmlError for XML the reader refuses,
 * and an Error naming the root for anything else.
 */
export function readDocument(input: string | Buffer): ReadDocument {
	const root = parseXml(input, ANSWER_LIMITS);
	if (kindByRoot(root.local)) return { kind: 'receipt', receipt: root };
	const answer = authorizationIn(root);
	if (answer) return { kind: 'authorization', answer };
	throw new Error(
		`is not an SRI receipt: its root element is <${root.name}>, and it holds no authorization (an element such as <autorizacion> or <Authorization> with a <comprobante> or <numeroAutorizacion>), where a receipt has one of <factura>, <liquidacionCompra>, <notaCredito>, <notaDebito>, <guiaRemision>, <comprobanteRetencion>`,
	);
}

/** The time of an entry, for choosing the latest; NaN when it has none the package can read. */
function timeOf(entry: AuthorizationEntry): number {
	const iso = isoDateTime(entry.fechaAutorizacion);
	return iso ? Date.parse(iso) : NaN;
}

/**
 * The entry that answers the question "is it authorized?": an AUTORIZADO one when there is one (a key can
 * have rejected attempts before its authorization; OCA's l10n-ecuador picks the AUTORIZADO entry the same
 * way), else the latest attempt, else the first. Undefined when there is none (the SRI does not know the key,
 * or has not processed it yet).
 */
export function chooseEntry(entries: AuthorizationEntry[]): AuthorizationEntry | undefined {
	const authorized = entries.find((e) => (e.estado ?? '').trim().toUpperCase() === 'AUTORIZADO');
	if (authorized) return authorized;
	let chosen = entries[0];
	for (const entry of entries) if (timeOf(entry) > timeOf(chosen)) chosen = entry;
	return chosen;
}

/**
 * `fechaAutorizacion` as ISO 8601: the service gives an xs:dateTime (`2026-10-05T16:57:34.997-05:00`), kept as
 * it is; files saved from the SRI's portal write `05/10/2026 16:57:34`, read as Ecuador's time (UTC−05:00, the
 * zone of the service's own dateTimes). Undefined for anything else.
 */
export function isoDateTime(value: string | undefined): string | undefined {
	const text = (value ?? '').trim();
	if (/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})?$/.test(text))
		return text;
	const m = /^(\d{2})\/(\d{2})\/(\d{4})[ T](\d{2}):(\d{2})(?::(\d{2}))?$/.exec(text);
	if (!m) return undefined;
	const [, d, mo, y, h, mi, s = '00'] = m;
	return `${y}-${mo}-${d}T${h}:${mi}:${s}-05:00`;
}
