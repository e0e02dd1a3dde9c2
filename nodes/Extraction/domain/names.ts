/**
 * Names from the service's beta that still appear (webhook samples, older workflows): `extractionId` for
 * `publicId`, and direction values `RECEIVED`/`ISSUED` for `INBOUND`/`OUTBOUND`. Inputs accept both; every
 * output uses the current names. Plain functions, no n8n types, so the trigger can use them too.
 */
export const DIRECTIONS = ['INBOUND', 'OUTBOUND'] as const;
type Direction = (typeof DIRECTIONS)[number];

const BETA_DIRECTIONS: Record<string, Direction> = {
	RECEIVED: 'INBOUND',
	ISSUED: 'OUTBOUND',
};

/** `RECEIVED` → `INBOUND`, `ISSUED` → `OUTBOUND`, current names kept (case-insensitive); anything else as given. */
export function normalizeDirection(value: unknown): unknown {
	if (typeof value !== 'string') return value;
	const upper = value.trim().toUpperCase();
	if ((DIRECTIONS as readonly string[]).includes(upper)) return upper;
	return BETA_DIRECTIONS[upper] ?? value;
}

type Json = Record<string, unknown>;

/**
 * Rewrites a record from the service (job, document, webhook data) to current names, at every depth:
 * `extractionId` becomes `publicId` (unless `publicId` is already there, then the beta name is dropped),
 * and `direction` values are normalized. Unknown fields pass through unchanged.
 */
export function normalizeRecord<T>(value: T): T {
	if (Array.isArray(value)) return value.map((v) => normalizeRecord(v)) as T;
	if (!value || typeof value !== 'object' || Buffer.isBuffer(value)) return value;
	const out: Json = {};
	const input = value as Json;
	for (const [key, v] of Object.entries(input)) {
		if (key === 'extractionId') {
			if (input.publicId === undefined) out.publicId = v;
			continue;
		}
		out[key] = key === 'direction' ? normalizeDirection(v) : normalizeRecord(v);
	}
	return out as T;
}

/** The job ID carried by an input item, under either name, at the top or under `data` (webhook deliveries). */
export function jobIdIn(json: Json | undefined): string | undefined {
	if (!json) return undefined;
	const data = (json.data && typeof json.data === 'object' ? json.data : {}) as Json;
	for (const candidate of [json.publicId, json.extractionId, data.publicId, data.extractionId]) {
		if ((typeof candidate === 'string' && candidate.trim()) || typeof candidate === 'number')
			return String(candidate).trim();
	}
	return undefined;
}
