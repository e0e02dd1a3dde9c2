import type { RouterContext } from '../shared/router';
import type { IDataObject, NodeApiError } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';
import { FILE_TYPES, fileProblem } from '../shared/files';
import { path } from '../shared/path';
import { SlidingWindowLimiter } from '../shared/rateLimit';
import type { FailedRequest, RequestContext, ServiceDefinition } from '../shared/transport';
import { bodyMessage, ServiceClient } from '../shared/transport';
import { downloadPath, downloadQuery, fileFormatOf, type DocumentFormat } from './domain/documents';
import { baseUrlFor, credentialProblem } from './domain/environment';
import { LIMITS, permissionFor } from './domain/limits';
import { normalizeRecord } from './domain/names';
import { factsOf } from '../shared/errors';

function errorCode(body: unknown): string {
	const b = (body ?? {}) as IDataObject;
	const nested = b.error && typeof b.error === 'object' ? (b.error as IDataObject) : {};
	const code = nested.code ?? b.code;
	return typeof code === 'string' && code ? ` [${code}]` : '';
}

/**
 * Extraction service: base URL per environment, staging/production key check, errors in the spec's terms, and a
 * 403 explained with the permission it lacks. No write is safe to repeat (a create starts a job).
 */
export const extractionService: ServiceDefinition = {
	name: 'Document Extraction',
	credentialType: 'extractionApi',
	credentialLabel: 'API key',
	secretFields: ['apiKey'],
	baseUrl: (credentials) => baseUrlFor(credentials),
	preflight: (credentials) => credentialProblem(credentials),
	explain: explainForbidden,
	// A static key (no tokenField): a 401 is final, nothing is re-sent.
	describeError(status, body) {
		const said = bodyMessage(body);
		const code = errorCode(body);
		if (status === 401) {
			return {
				message: `Document Extraction refused the API key: it is missing, invalid or expired${code}`,
				description: `${said ? `The service said: ${said}. ` : ''}Check the API key of the credential (it is shown once, when created in the dashboard; rotated keys stop working), that it belongs to the chosen Environment, and the Auth Scheme (Bearer or x-api-key). Not retried.`,
			};
		}
		if (status === 403) {
			return {
				message: `Document Extraction: the API key is valid but lacks a permission for this request${code}`,
				description: `${said ? `The service said: ${said}. ` : ''}Add the permission to the key in the dashboard, or use a key that has it. Keys restricted to allowed IP addresses are also refused from other addresses. Not retried.`,
			};
		}
		if (status === 404) return { message: `Document Extraction: not found${said ? ` (${said})` : ''}${code}`, description: 'Check the ID. Documents are kept 30 days, then removed; IDs of one environment do not exist in the other.' };
		if (status === 429) {
			return {
				message: `Document Extraction: rate limit exceeded${code}`,
				description: `${said ? `${said}. ` : ''}The plan's limit was reached (${LIMITS.creation.label}, ${LIMITS.statusChecks.label}, ${LIMITS.downloads.label}; the plan's hourly request budget is in Account → Verify API Key). The request was re-sent as many times as allowed, honouring Retry-After (a 429 means the service did not process it, so nothing was created by it). Wait and run again.`,
			};
		}
		if (status === 400 || status === 422) {
			return { message: `Document Extraction rejected the request: ${said ?? 'invalid data'}${code}`, description: 'Correct the input and run again.' };
		}
		return {
			message: `Document Extraction answered ${status}: ${said ?? 'unexpected error'}${code}`,
			description: status >= 500 ? 'The service had a problem; reads were retried with backoff. Try again later.' : undefined,
		};
	},
};

interface KeyInfo {
	permissions?: string[];
	organization?: string;
}

/** What `GET /v1/auth/verify` says about the key, asked once per client (one execution) when a 403 needs it. */
const keyInfos = new WeakMap<ServiceClient, Promise<KeyInfo | undefined>>();

function keyInfoOf(client: ServiceClient): Promise<KeyInfo | undefined> {
	let info = keyInfos.get(client);
	if (!info) {
		info = client
			.read(path`/v1/auth/verify`)
			.then((a) => {
				const org = (a.organization ?? {}) as IDataObject;
				return {
					permissions: Array.isArray(a.permissions) ? a.permissions.map(String) : undefined,
					organization: typeof org.name === 'string' ? org.name : undefined,
				};
			})
			.catch(() => undefined);
		keyInfos.set(client, info);
	}
	return info;
}

/** Adds to a 403 which permission the request needs and which ones the key has (from the verify result). */
async function explainForbidden(error: NodeApiError, req: FailedRequest, client: ServiceClient): Promise<void> {
	if (factsOf(error).status !== 403 || req.path === '/v1/auth/verify') return;
	const needed = permissionFor(req.method, req.path);
	const info = await keyInfoOf(client);
	const has = info?.permissions;
	if (needed && has && !has.includes(needed)) {
		error.message = `Document Extraction: the API key lacks the permission "${needed}"`;
		error.description = `The key${info?.organization ? ` of ${info.organization}` : ''} has: ${has.length ? has.join(', ') : 'no permissions'}. Add "${needed}" to the key in the dashboard, or use a key that has it. Not retried. (${req.method} ${req.path}, HTTP 403)`;
	} else if (needed) {
		error.description = `This request needs the permission "${needed}"${has ? ` (the key's permissions: ${has.join(', ') || 'none'}; it may be restricted to other IP addresses)` : ''}. ${error.description ?? ''}`;
	} else if (has) {
		error.description = `The key's permissions: ${has.join(', ') || 'none'}. ${error.description ?? ''}`;
	}
}

/**
 * What one execution shares: the client, and the limits the node paces itself by (shared by all items):
 * 100 status checks per minute, 1,000 downloads per hour.
 */
export interface ExtractionContext extends RouterContext {
	api: ServiceClient;
	statusChecks: SlidingWindowLimiter;
	downloads: SlidingWindowLimiter;
}

export function extractionContext(ctx: RequestContext): Omit<ExtractionContext, 'created'> {
	return {
		api: new ServiceClient(ctx, extractionService),
		statusChecks: new SlidingWindowLimiter(LIMITS.statusChecks.max, LIMITS.statusChecks.windowMs),
		downloads: new SlidingWindowLimiter(LIMITS.downloads.max, LIMITS.downloads.windowMs),
	};
}

/** GET /v1/auth/verify, normalized. */
export async function verifyKey(ctx: ExtractionContext, i?: number): Promise<IDataObject> {
	return normalizeRecord(await ctx.api.read(path`/v1/auth/verify`, i));
}

/** One status check of a job, paced by the 100-per-minute budget; returns the normalized record. */
export async function readJob(ctx: ExtractionContext, publicId: string, i: number, deadline?: number): Promise<IDataObject | 'deadline'> {
	const slot = await ctx.statusChecks.acquire(deadline === undefined ? Infinity : deadline - Date.now());
	if (!slot.ok) return 'deadline';
	return normalizeRecord(await ctx.api.read(path`/v1/extractions/${publicId}`, i, { deadline }));
}

/** A downloaded document: its bytes and the type they turned out to be. */
export interface DocumentFile {
	body: Buffer;
	mimeType: string;
}

/**
 * Downloads one document, paced by the 1,000-per-hour budget (waits at most a minute for a slot), at most
 * `maxBytes`, and checks that the bytes are the format asked for (an HTML login page is not a PDF:
 * shared/files.ts); the MIME type is that of what arrived.
 */
export async function downloadDocument(ctx: ExtractionContext, publicId: string, documentId: string, format: DocumentFormat, i: number, maxBytes: number): Promise<DocumentFile> {
	const slot = await ctx.downloads.acquire(60_000);
	if (!slot.ok) {
		throw new NodeOperationError(ctx.api.node, `Download of document ${documentId} not sent: the service allows ${LIMITS.downloads.label}`, {
			itemIndex: i,
			description: `This execution already used the download budget; the next slot frees in about ${Math.ceil(slot.waitMs / 60000)} minute(s). Run again later, or download fewer formats.`,
		});
	}
	const answer = await ctx.api.download(downloadPath(publicId, documentId), i, { maxBytes, query: downloadQuery(format) });
	const expected = fileFormatOf(format);
	const problem = fileProblem(expected, answer.body, answer.headers['content-type'] ?? '');
	if (problem) {
		throw new NodeOperationError(ctx.api.node, `Document ${documentId} of extraction ${publicId} could not be downloaded as ${format}: ${problem}`, {
			itemIndex: i,
			description: `GET ${downloadPath(publicId, documentId).text}?type=${format} answered something else than the file (for example a login or error page). Nothing was saved; try again later.`,
		});
	}
	return { body: answer.body, mimeType: FILE_TYPES[expected].mimeType };
}
