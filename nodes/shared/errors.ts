import type { IDataObject, INode } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

/**
 * What the package's code knows about a failure, carried by the error itself as typed fields, so that no code
 * reads meaning back out of message text. The transport fills the request facts; the operations add what
 * exists despite the failure (`recovery`); the router names the item (`[item N]`, itemLabel) in one place.
 */
export interface FailureFacts {
	/** HTTP status of the service's answer, when there was one. */
	status?: number;
	/** The service's own words (the message of its error body), for an operation that says it in other words. */
	said?: string;
	/**
	 * The request may have been processed although no answer says so: the service answered 5xx, the connection
	 * broke after the request was sent, or no answer came in time. Whoever created something must say it may exist.
	 */
	mayHaveBeenProcessed?: boolean;
	/** The request ran out of its caller's time (a wait's deadline) before any attempt was answered. */
	cutByDeadline?: boolean;
	/**
	 * Sending the same request again cannot do anything twice: it is a read, or nothing reached the service, or
	 * the service refused it without acting on it. False when it may have created, signed or sent something.
	 */
	repeatable?: boolean;
	/** The answer was a redirect, which was not followed: where it pointed (origin and path, no query). */
	redirectedTo?: string;
	/** Redirects followed before this failure (file downloads, at most 5). */
	hops?: number;
	/** The answer was larger than allowed: its size (received so far, or announced by Content-Length) and the cap, in bytes. */
	size?: { bytes: number; limit: number; announced: boolean };
	/** A run stopped at the memory it may keep (budget.ts): what it had kept, and the limits. */
	kept?: { bytes: number; items: number; limits: { bytes: number; items: number } };
	/** Paging stopped because the service did not advance (the page answered was not the page asked, or came twice) or the page cap was reached. */
	paging?: { asked: number; answered?: number; reason: 'not-advancing' | 'repeated' | 'cap' };
	/**
	 * What exists, or may exist, despite this failure (e.g. `{ document_exists: true, id, clave_acceso }`): the
	 * fields of the error item with Continue On Fail, so a workflow can route them.
	 */
	recovery?: IDataObject;
	/** The n8n input item (0-based) whose message already names it; set by the router. */
	item?: number;
	/**
	 * The item's own input could not be read — a file that is not XML, not a receipt, too large, or missing —
	 * rather than a setting of the node or a service failing: the fields that name that input (`file_name`). Where
	 * the node has a Not Read output (shared/outputs.ts, readerOutputs), the router outputs the item there, with the
	 * input item's files, instead of stopping the node (route's `notReadAsItems`).
	 */
	notRead?: IDataObject;
	/**
	 * What names the item's input (`file_name`), on its error item with Continue On Fail (shared/router.ts failItem),
	 * so that an error row still says which file it stood for.
	 */
	about?: IDataObject;
}

type WithFacts = { facts?: FailureFacts };

/** The facts an error carries (an empty object for any other value). */
export function factsOf(error: unknown): FailureFacts {
	if (typeof error !== 'object' || error === null) return {};
	const facts = (error as WithFacts).facts;
	return facts && typeof facts === 'object' ? facts : {};
}

/** Adds `facts` to `error` (merging `recovery`), and returns the same error. */
export function addFacts<E>(error: E, facts: FailureFacts): E {
	if (typeof error !== 'object' || error === null) return error;
	const before = factsOf(error);
	const recovery = facts.recovery
		? { ...(before.recovery ?? {}), ...withoutEmpty(facts.recovery) }
		: before.recovery;
	(error as WithFacts).facts = { ...before, ...facts, ...(recovery ? { recovery } : {}) };
	return error;
}

/** True when `error` comes from a request that may have been processed by the service (see FailureFacts). */
export function mayHaveBeenProcessed(error: unknown): boolean {
	return factsOf(error).mayHaveBeenProcessed === true;
}

/** Attaches the fields that identify what exists despite `error` (e.g. `{ id, clave_acceso }`). */
export function attachRecovery<E>(error: E, fields: IDataObject): E {
	return addFacts(error, { recovery: fields });
}

/** The fields attached by `attachRecovery`, if any. */
export function recoveryOf(error: unknown): IDataObject | undefined {
	return factsOf(error).recovery;
}

/** Puts `lead` at the start of an error's message and `instruction` first in its description, keeping what it said. */
export function reword<E>(error: E, lead: string, instruction?: string): E {
	if (!(error instanceof Error)) return error;
	const e = error as Error & { description?: string | null };
	e.message = `${lead}${e.message}`;
	if (instruction) e.description = `${instruction}${e.description ? `\n${e.description}` : ''}`;
	return error;
}

/**
 * How n8n input item `itemIndex` (from 0, as n8n counts: `$itemIndex`) is named in every message: as a person
 * counts the items the editor shows, from 1 — `[item 1]` is the first, `[item 3]` the third card of the input
 * panel. The machine fields (`item_index`, n8n's error's *Item Index*) keep n8n's count from 0; a message about a
 * file names the file too, so the number is seldom needed.
 */
export function itemLabel(itemIndex: number): string {
	return `[item ${itemIndex + 1}]`;
}

/**
 * `text` without what n8n's notices swallow: the editor's pop-ups render a message as HTML, so an element name
 * written as a tag (`<factura>`, `</autorizacion>`, `<cfdi:Comprobante Version="4.0">`, a path `<infoTributaria/c>`)
 * vanishes from them. Each becomes its name in quotes (`"factura"`); a declaration, comment or CDATA opener (`<!DOCTYPE`, `<?xml`,
 * `<!--`, `<![CDATA[`) keeps its text behind a `‹`; a `<` that starts no tag stays as it is.
 */
export function withoutTags(text: string): string {
	return text
		.replace(/<\/?([A-Za-z_][\w.:-]*(?:\/[A-Za-z_][\w.:-]*)*)(?:\s[^<>]*)?\/?>/g, '"$1"')
		.replace(/<(?=[A-Za-z!?/])/g, '‹');
}

/**
 * The error a previous node left on an input item instead of its data: Continue On Fail's `{ error }`, or an item
 * of a Not Read output. A node given such an item says so, rather than that its own input "is required".
 */
export function upstreamError(json: IDataObject | undefined): string | undefined {
	const error = json?.error;
	if (typeof error === 'string' && error.trim()) return error.trim();
	if (error && typeof error === 'object' && typeof (error as IDataObject).message === 'string')
		return String((error as IDataObject).message);
	return undefined;
}

/** What to say of an input that is missing because the item is `error`, a previous node's (see upstreamError). */
export function upstreamProblem(error: string): string {
	return `is missing: the input item is not a document but the previous node's error: ${quoted(error)}. Fix that item there (or route the previous node's errors elsewhere)`;
}

/**
 * `text` between quotes as a person reads it: its own quotes left as they are, never escaped (`"[item 2] File
 * "pedido.xml": …"`, not `"[item 2] File \"pedido.xml\": …"`) — a message quoting a message quoting a file name
 * stays readable.
 */
export function quoted(text: string): string {
	return `"${text}"`;
}

function withoutEmpty(fields: IDataObject): IDataObject {
	const out: IDataObject = {};
	for (const [key, value] of Object.entries(fields))
		if (value !== undefined && value !== null && value !== '') out[key] = value;
	return out;
}

/**
 * `error` with `message` as its message, whatever n8n made of it: n8n swaps a node error's message that contains a
 * system error code (EACCES, ENOENT, ECONNREFUSED…) anywhere, in any case, for a generic sentence about files or
 * networks (n8n-workflow, NodeError.setDescriptiveErrorMessage, in the error's constructor) — and the package's
 * messages quote what it was given: "claveAcceso", an element name the SRI's XML is full of, contains EACCES. Every
 * error whose message the package wrote passes here once built.
 */
export function keptMessage<E extends Error>(error: E, message: string): E {
	error.message = message;
	return error;
}

/**
 * The error of item `itemIndex` in the package's shape: `message` says what is wrong (a field's label, then what;
 * or what the service said), kept as written (keptMessage), and `description` what happens because of it and how
 * to fix it.
 */
export function itemError(
	node: INode,
	itemIndex: number,
	message: string,
	description: string,
): NodeOperationError {
	return keptMessage(new NodeOperationError(node, message, { itemIndex, description }), message);
}
