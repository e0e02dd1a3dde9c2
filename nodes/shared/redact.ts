/**
 * The one scrubber that keeps secrets out of output items, error messages and logs, for every node of the
 * package (the service client applies it to everything it returns and throws, the router to every item and
 * error a node emits: see transport.ts and router.ts). Secrets reach us two ways, and there is one net for each:
 * - by field name: the services echo secrets in their answers (the receipts service puts the account key in
 *   `api-key` and a `certificate-password` beside signing failures; the extraction service may echo the
 *   taxpayer's SAT password or FIEL key). A field whose name says "secret" keeps its place but its value is
 *   replaced by `[redacted]` (an empty or null value says nothing and stays as it is).
 * - by value: the exact secrets a request carried (API key, certificate password, SAT password…) are cut out
 *   of every text, wherever they appear (a free-text message, an error description, a stack).
 * Plain functions, no n8n types.
 */

export const REDACTED = '[redacted]';

/** Field names whose values are secrets, in the spellings the three services, OAuth and their users write. */
export const SECRET_FIELD =
	/^(password|pass|contrase(n|ñ)a|ciec|secret|private[-_]?key|key[-_]?password|fiel[-_]?(key|password)|api[-_]?key|x[-_]?key|x[-_]?password|certificate[-_]?password|client[-_]?secret|(access|refresh)[-_]?token|authorization|webhook[-_]?secret)$/i;

/** Secret values shorter than this are only masked by field name (cutting "ab" out of every text would mangle it). */
const MIN_SCRUB_LENGTH = 4;

/** `\uXXXX` escapes for every character outside printable ASCII, and `\/` for `/`, as PHP's json_encode writes. */
function asciiJson(escaped: string): string {
	return escaped
		.replace(/\//g, '\\/')
		.replace(/[^\x20-\x7e]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/**
 * The spellings in which a secret comes back from a service that echoes it: as it is, JSON-escaped (a quote
 * or a backslash in a text that is not parsed as JSON, e.g. an HTML error page or a message quoting a JSON
 * body), JSON-escaped the PHP way (`\/`, `\u00f1`), URL-encoded (`%20`) and form-encoded (`+`).
 */
export function secretForms(secret: string): string[] {
	const json = JSON.stringify(secret).slice(1, -1);
	const form = new URLSearchParams({ s: secret }).toString().slice(2);
	return [...new Set([secret, json, asciiJson(json), encodeURIComponent(secret), form])];
}

type Cut = (text: string) => string;

/**
 * The last cutters made, by their secrets: a run scrubs every answer with the same few secrets, so their forms
 * are computed once, not once per answer (a small cache; the secrets are in this process's memory anyway).
 */
const recentCutters = new Map<string, Cut>();
const RECENT_CUTTERS = 16;

/** A function that cuts every form of every secret out of a text (the forms computed once). */
function cutter(secrets: readonly string[]): Cut {
	const key = secrets.join('\u0000');
	const known = recentCutters.get(key);
	if (known) return known;
	const made = makeCutter(secrets);
	recentCutters.set(key, made);
	if (recentCutters.size > RECENT_CUTTERS)
		recentCutters.delete(recentCutters.keys().next().value as string);
	return made;
}

function makeCutter(secrets: readonly string[]): Cut {
	const forms = [
		...new Set(
			secrets
				.filter((s) => typeof s === 'string' && s.length >= MIN_SCRUB_LENGTH)
				.flatMap(secretForms),
		),
	];
	// The longest first, so that a form containing another one (two secrets may overlap) is cut whole.
	forms.sort((a, b) => b.length - a.length);
	return (text) => {
		let out = text;
		for (const form of forms) if (out.includes(form)) out = out.split(form).join(REDACTED);
		return out;
	};
}

/** `text` with every occurrence of each secret, in each of its forms (`secretForms`), replaced by `[redacted]`. */
export function scrubText(text: string, secrets: readonly string[]): string {
	return cutter(secrets)(text);
}

function isEmpty(value: unknown): boolean {
	return value === null || value === undefined || value === '';
}

function redactWith<T>(value: T, cut: Cut): T {
	if (typeof value === 'string') return cut(value) as T;
	if (Array.isArray(value)) return value.map((v) => redactWith(v, cut)) as T;
	if (!value || typeof value !== 'object' || Buffer.isBuffer(value)) return value;
	const out: Record<string, unknown> = {};
	for (const [key, v] of Object.entries(value as Record<string, unknown>)) {
		out[key] =
			SECRET_FIELD.test(key) && !isEmpty(v) && typeof v !== 'object'
				? REDACTED
				: redactWith(v, cut);
	}
	return out as T;
}

/** A deep copy of `value` with secret-named fields masked and the given secret values cut out of every string. */
export function redact<T>(value: T, secrets: readonly string[] = []): T {
	return redactWith(value, cutter(secrets));
}

function scrubErrorWith<E>(error: E, cut: Cut, depth: number): E {
	if (!(error instanceof Error)) return error;
	const e = error as Error & {
		description?: unknown;
		messages?: unknown;
		errorResponse?: unknown;
		context?: Record<string, unknown>;
		facts?: Record<string, unknown>;
		node?: unknown;
	};
	e.message = cut(e.message);
	if (typeof e.stack === 'string') e.stack = cut(e.stack);
	if (typeof e.description === 'string') e.description = cut(e.description);
	if (Array.isArray(e.messages)) e.messages = e.messages.map((m) => cut(String(m)));
	if (e.errorResponse !== undefined) e.errorResponse = redactWith(e.errorResponse, cut);
	if (e.context) e.context = redactWith(e.context, cut);
	if (e.facts) e.facts = redactWith(e.facts, cut);
	// The node n8n attaches (kept with the execution's error) carries its parameters, where a secret given as
	// data was typed (Extraction's SAT password): a scrubbed copy, the workflow's own node left as it is.
	if (e.node && typeof e.node === 'object') e.node = redactWith(e.node, cut);
	if (e.cause instanceof Error && depth < 3) scrubErrorWith(e.cause, cut, depth + 1);
	return error;
}

/**
 * The same error with the given secrets cut out of everything a user or a log can see: message, stack,
 * description, the messages list, the service's answer, the request context and the node n8n attaches, the
 * error's facts and its causes.
 */
export function scrubError<E>(error: E, secrets: readonly string[]): E {
	return scrubErrorWith(error, cutter(secrets), 0);
}
