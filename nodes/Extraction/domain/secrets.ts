/**
 * Secrets that arrive as data (the taxpayer's SAT password, FIEL private key and its password) must never
 * appear in an output item or an error message, even when the service echoes them back. Two nets:
 * fields whose name says "secret" are masked wherever they are, and the exact secret values sent are cut
 * out of any text. Plain functions, no n8n types.
 */
export const REDACTED = '[redacted]';

/** Field names treated as secret in anything the service returns. */
export const SECRET_FIELD = /^(password|pass|contrase(n|ñ)a|ciec|privateKey|private_key|keyPassword|key_password|fielKey|fielPassword|secret|apiKey|api_key)$/i;

/** Values shorter than this are only masked by field name (cutting "ab" out of every text would mangle it). */
const MIN_SCRUB_LENGTH = 4;

export function scrubText(text: string, secrets: readonly string[]): string {
	let out = text;
	for (const secret of secrets) {
		if (secret.length >= MIN_SCRUB_LENGTH && out.includes(secret)) out = out.split(secret).join(REDACTED);
	}
	return out;
}

/** A deep copy with secret fields masked and secret values cut out of every string. */
export function redact<T>(value: T, secrets: readonly string[] = []): T {
	if (typeof value === 'string') return scrubText(value, secrets) as T;
	if (Array.isArray(value)) return value.map((v) => redact(v, secrets)) as T;
	if (!value || typeof value !== 'object' || Buffer.isBuffer(value)) return value;
	const out: Record<string, unknown> = {};
	for (const [key, v] of Object.entries(value as Record<string, unknown>)) {
		out[key] = SECRET_FIELD.test(key) && v !== null && v !== undefined && typeof v !== 'object' ? REDACTED : redact(v, secrets);
	}
	return out as T;
}
