/**
 * The one place that keeps secrets out of output items, error messages and logs, for every node of the
 * package. Secrets reach us two ways, and there is one net for each:
 * - by field name: the services echo secrets in their answers (the receipts service puts the account key in
 *   `api-key` and a `certificate-password` beside signing failures; the extraction service may echo the
 *   taxpayer's SAT password or FIEL key). A field whose name says "secret" keeps its place but its value is
 *   replaced by `[redacted]` (an empty or null value says nothing and stays as it is).
 * - by value: the exact secrets a request carried (API key, certificate password, SAT password…) are cut out
 *   of every text, wherever they appear (a free-text message, an error description, a stack).
 * Plain functions, no n8n types.
 */

export const REDACTED = '[redacted]';

/** Field names whose values are secrets, in the spellings the three services and their users write. */
export const SECRET_FIELD =
	/^(password|pass|contrase(n|ñ)a|ciec|secret|private[-_]?key|key[-_]?password|fiel[-_]?(key|password)|api[-_]?key|x[-_]?key|x[-_]?password|certificate[-_]?password)$/i;

/** Secret values shorter than this are only masked by field name (cutting "ab" out of every text would mangle it). */
const MIN_SCRUB_LENGTH = 4;

/** `text` with every occurrence of each secret replaced by `[redacted]`. */
export function scrubText(text: string, secrets: readonly string[]): string {
	let out = text;
	for (const secret of secrets) {
		if (typeof secret === 'string' && secret.length >= MIN_SCRUB_LENGTH && out.includes(secret)) out = out.split(secret).join(REDACTED);
	}
	return out;
}

function isEmpty(value: unknown): boolean {
	return value === null || value === undefined || value === '';
}

/** A deep copy of `value` with secret-named fields masked and the given secret values cut out of every string. */
export function redact<T>(value: T, secrets: readonly string[] = []): T {
	if (typeof value === 'string') return scrubText(value, secrets) as T;
	if (Array.isArray(value)) return value.map((v) => redact(v, secrets)) as T;
	if (!value || typeof value !== 'object' || Buffer.isBuffer(value)) return value;
	const out: Record<string, unknown> = {};
	for (const [key, v] of Object.entries(value as Record<string, unknown>)) {
		out[key] = SECRET_FIELD.test(key) && !isEmpty(v) && typeof v !== 'object' ? REDACTED : redact(v, secrets);
	}
	return out as T;
}

/**
 * The same error with the given secrets cut out of everything a user or a log can see: message, stack,
 * description, the messages list, the service's answer and the request context n8n attaches.
 */
export function scrubError<E>(error: E, secrets: readonly string[]): E {
	if (!(error instanceof Error)) return error;
	const e = error as Error & { description?: unknown; messages?: unknown; errorResponse?: unknown; context?: Record<string, unknown>; facts?: Record<string, unknown> };
	e.message = scrubText(e.message, secrets);
	if (typeof e.stack === 'string') e.stack = scrubText(e.stack, secrets);
	if (typeof e.description === 'string') e.description = scrubText(e.description, secrets);
	if (Array.isArray(e.messages)) e.messages = e.messages.map((m) => scrubText(String(m), secrets));
	if (e.errorResponse !== undefined) e.errorResponse = redact(e.errorResponse, secrets);
	if (e.context) e.context = redact(e.context, secrets);
	if (e.facts) e.facts = redact(e.facts, secrets);
	return error;
}
