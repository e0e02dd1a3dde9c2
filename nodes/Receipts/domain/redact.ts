/**
 * Keys whose values are secrets: the service puts the account key into event payloads (`api-key`) and a
 * `certificate-password` next to signing failures. They never reach a node's output or an error.
 */
const SECRET_KEY = /^(api[-_]?key|x[-_]key|x[-_]password|certificate[-_]password|password|apikey)$/i;

export const REDACTED = '[redacted]';

/** A deep copy of `value` without secret fields (removed) and with known secret strings masked. */
export function redact<T>(value: T, secrets: string[] = []): T {
	const known = secrets.filter((s) => typeof s === 'string' && s.length >= 4);
	const walk = (v: unknown): unknown => {
		if (typeof v === 'string') return known.reduce((text, s) => text.split(s).join(REDACTED), v);
		if (Array.isArray(v)) return v.map(walk);
		if (v && typeof v === 'object') {
			const out: Record<string, unknown> = {};
			for (const [k, inner] of Object.entries(v as Record<string, unknown>)) {
				if (SECRET_KEY.test(k)) continue;
				out[k] = walk(inner);
			}
			return out;
		}
		return v;
	};
	return walk(value) as T;
}
