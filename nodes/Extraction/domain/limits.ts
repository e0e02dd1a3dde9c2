/**
 * The service's published limits and the permission each endpoint needs (permission names from the spec's
 * examples: `extractions:create`, `extractions:read`, `documents:download`). Plain data, no n8n types.
 */
export const LIMITS = {
	/** Status checks (GET /v1/extractions/{publicId}): 100 per minute. */
	statusChecks: { max: 100, windowMs: 60_000, label: '100 status checks per minute' },
	/** Document downloads: 1,000 per hour. */
	downloads: { max: 1000, windowMs: 3_600_000, label: '1,000 document downloads per hour' },
	/** Extraction creation: 10 per hour (not paced by the node: a 429 is reported, see docs). */
	creation: { max: 10, windowMs: 3_600_000, label: '10 extraction creations per hour' },
} as const;

const PERMISSIONS = {
	createExtraction: 'extractions:create',
	readExtraction: 'extractions:read',
	downloadDocument: 'documents:download',
} as const;

/** The permission a request needs, when the spec names it. Taxpayer registration: not known. */
export function permissionFor(method: string, path: string): string | undefined {
	if (method === 'POST' && path === '/v1/extractions') return PERMISSIONS.createExtraction;
	if (method === 'GET' && /^\/v1\/extractions\/[^/]+\/documents\/[^/]+\/download$/.test(path))
		return PERMISSIONS.downloadDocument;
	if (method === 'GET' && /^\/v1\/extractions\/[^/]+$/.test(path))
		return PERMISSIONS.readExtraction;
	return undefined;
}
