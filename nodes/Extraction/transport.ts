import type { RouterContext } from '../shared/router';
import type { IDataObject, NodeApiError } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';
import { FILE_TYPES, fileProblem } from '../shared/files';
import { path } from '../shared/path';
import { SlidingWindowLimiter, type Reservation } from '../shared/rateLimit';
import { clock } from '../shared/clock';
import type { FailedRequest, RequestContext, ServiceDefinition } from '../shared/transport';
import { bodyMessage } from '../shared/failures';
import { ServiceClient } from '../shared/transport';
import { downloadPath, downloadQuery, fileFormatOf, type DocumentFormat } from './domain/documents';
import {
	baseUrlFor,
	baseUrlLabel,
	credentialProblem,
	ecuadorCredentialProblem,
} from './domain/environment';
import { LIMITS, permissionFor } from './domain/limits';
import { normalizeRecord } from './domain/names';
import { factsOf } from '../shared/errors';

function errorCode(body: unknown): string {
	const b = (body ?? {}) as IDataObject;
	const nested = b.error && typeof b.error === 'object' ? (b.error as IDataObject) : {};
	const code = nested.code ?? b.code;
	return typeof code === 'string' && code ? ` [${code}]` : '';
}

/** The side of the client that Taxpayer → Register uses (`side` in a request's options). */
export const ECUADOR = 'ecuador';

const ECUADOR_NAME = 'Document Extraction (Ecuador API)';

/**
 * Extraction service: base URL per environment, staging/production key check, errors in the spec's terms, and a
 * 403 explained with the permission it lacks. No write is safe to repeat (a create starts a job).
 *
 * Two APIs, two keys (see domain/environment.ts). The credential's Base URL and `authenticate` are the Mexico
 * API's: `Authorization: Bearer <key>` as its public documentation shows (Authentication), or `x-api-key` when
 * the user chose that scheme. The Ecuador API is the side `ecuador`: its own address and key, in `x-api-key`
 * with the organization's ID in `x-organization-id` (the Ecuador API's public documentation: every page shows
 * `x-api-key`; the newer ones, e.g. "Solicitud de Extracción y Descarga de Documentos", also require
 * `x-organization-id`, found with the key in the Ecuador dashboard). Neither documentation says the two APIs
 * share a key, so each key goes only to its own API's origin (the client's rule, shared/transport.ts).
 */
export const extractionService: ServiceDefinition = {
	name: 'Document Extraction',
	credentialType: 'extractionApi',
	credentialLabel: 'API key',
	secretFields: ['apiKey', 'ecuadorApiKey'],
	baseUrl: (credentials) => baseUrlFor(credentials),
	preflight: (credentials) => credentialProblem(credentials),
	sides: {
		[ECUADOR]: {
			name: ECUADOR_NAME,
			addressLabel: (credentials) => baseUrlLabel(credentials, 'ecuador'),
			baseUrl: (credentials) => baseUrlFor(credentials, 'ecuador'),
			preflight: (credentials) => ecuadorCredentialProblem(credentials),
			headers: (credentials) => ({
				'x-api-key': String(credentials.ecuadorApiKey ?? '').trim(),
				'x-organization-id': String(credentials.ecuadorOrganizationId ?? '').trim(),
			}),
		},
	},
	explain: explainForbidden,
	// A static key (no tokenField): a 401 is final, nothing is re-sent.
	describeError(status, body, answer) {
		const said = bodyMessage(body);
		const code = errorCode(body);
		const ecuador = answer?.side === ECUADOR;
		const refusal = (ecuador ? ecuadorRefusal : mexicoRefusal)(status, said, code);
		if (refusal) return refusal;
		const who = ecuador ? ECUADOR_NAME : 'Document Extraction';
		if (status === 400 || status === 422)
			return {
				message: `${who} rejected the request: ${said ?? 'invalid data'}${code}`,
				description: 'Correct the input and run again.',
			};
		return {
			message: `${who} answered ${status}: ${said ?? 'unexpected error'}${code}`,
			description:
				status >= 500
					? `The service had a problem${ecuador ? '' : '; reads were retried with backoff'}. Try again later.`
					: undefined,
		};
	},
};

type Described = { message: string; description?: string };

/** The Mexico API's refusals (401, 403, 404, 429) in the spec's terms, or undefined for any other status. */
function mexicoRefusal(
	status: number,
	said: string | undefined,
	code: string,
): Described | undefined {
	const saidText = said ? `The service said: ${said}. ` : '';
	if (status === 401) {
		return {
			message: `Document Extraction refused the API key: it is missing, invalid or expired${code}`,
			description: `${saidText}Check the Mexico API Key of the credential (it is shown once, when created in the dashboard; rotated keys stop working), that it belongs to the chosen Environment, and the Mexico Auth Scheme (Bearer or x-api-key). Not retried.`,
		};
	}
	if (status === 403) {
		return {
			message: `Document Extraction: the API key is valid but lacks a permission for this request${code}`,
			description: `${saidText}Add the permission to the key in the dashboard, or use a key that has it. Keys restricted to allowed IP addresses are also refused from other addresses. Not retried.`,
		};
	}
	if (status === 404)
		return {
			message: `Document Extraction: not found${said ? ` (${said})` : ''}${code}`,
			description:
				'Check the ID. Documents are kept 30 days, then removed; IDs of one environment do not exist in the other.',
		};
	if (status === 429) {
		return {
			message: `Document Extraction: rate limit exceeded${code}`,
			description: `${said ? `${said}. ` : ''}The plan's limit was reached (${LIMITS.creation.label}, ${LIMITS.statusChecks.label}, ${LIMITS.downloads.label}; the plan's hourly request budget is in Account → Verify API Key). The request was re-sent as many times as allowed, honouring Retry-After (a 429 means the service did not process it, so nothing was created by it). Wait and run again.`,
		};
	}
	return undefined;
}

/** The Ecuador API's refusals (Taxpayer → Register), naming the credential's Ecuador fields, or undefined. */
function ecuadorRefusal(
	status: number,
	said: string | undefined,
	code: string,
): Described | undefined {
	const saidText = said ? `The service said: ${said}. ` : '';
	if (status === 401) {
		return {
			message: `${ECUADOR_NAME} refused the Ecuador API key: it is missing, invalid or expired${code}`,
			description: `${saidText}Check the credential's Ecuador API Key and Ecuador Organization ID (both are in the Ecuador dashboard), and that the key belongs to the chosen Environment. The Mexico API Key is never sent to the Ecuador API. Not retried.`,
		};
	}
	if (status === 403) {
		return {
			message: `${ECUADOR_NAME}: the Ecuador API key is valid but lacks a permission for this request${code}`,
			description: `${saidText}Check in the Ecuador dashboard that the key may register taxpayers and that the Ecuador Organization ID is the key's organization. Not retried.`,
		};
	}
	if (status === 404) {
		return {
			message: `${ECUADOR_NAME}: not found${said ? ` (${said})` : ''}${code}`,
			description:
				'The Ecuador API has nothing at this address: check the Ecuador Base URL of the chosen Environment in the credential (the address of the Ecuador API, not of the Mexico one).',
		};
	}
	if (status === 429) {
		return {
			message: `${ECUADOR_NAME}: rate limit exceeded${code}`,
			description: `${said ? `${said}. ` : ''}The request was re-sent as many times as allowed, honouring Retry-After (a 429 means nothing was registered by it). Wait and run again.`,
		};
	}
	return undefined;
}

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

/**
 * Adds to a 403 which permission the request needs and which ones the key has (from the verify result). Not for
 * the Ecuador API: the verify result describes the Mexico key.
 */
async function explainForbidden(
	error: NodeApiError,
	req: FailedRequest,
	client: ServiceClient,
): Promise<void> {
	if (factsOf(error).status !== 403 || req.path === '/v1/auth/verify' || req.side !== undefined)
		return;
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
 * What one execution shares: the client, and the limits the node paces itself by (shared by all items of the
 * execution; other executions have their own): 100 status checks per minute, 1,000 downloads per hour.
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
export async function readJob(
	ctx: ExtractionContext,
	publicId: string,
	i: number,
	deadline?: number,
): Promise<IDataObject | 'deadline'> {
	const slot = await ctx.statusChecks.acquire(
		deadline === undefined ? Infinity : deadline - clock.now(),
	);
	if (!slot.ok) return 'deadline';
	return normalizeRecord(await ctx.api.read(path`/v1/extractions/${publicId}`, i, { deadline }));
}

/** A downloaded document: its bytes and the type they turned out to be. */
interface DocumentFile {
	body: Buffer;
	mimeType: string;
}

/**
 * Downloads one document, paced by the 1,000-per-hour budget: a slot of `reservation` (Download All holds
 * every slot its job needs before the first download), or one taken now (waiting at most a minute for it).
 * At most `maxBytes`, and checks that the bytes are the format asked for (an HTML login page is not a PDF:
 * shared/files.ts); the MIME type is that of what arrived.
 */
export async function downloadDocument(
	ctx: ExtractionContext,
	publicId: string,
	documentId: string,
	format: DocumentFormat,
	i: number,
	maxBytes: number,
	reservation?: Reservation,
): Promise<DocumentFile> {
	const slot = reservation?.use() ? { ok: true as const } : await ctx.downloads.acquire(60_000);
	if (!slot.ok) {
		const frees = Number.isFinite(slot.waitMs)
			? `the next slot frees in about ${Math.ceil(slot.waitMs / 60000)} minute(s)`
			: 'the rest of it is reserved by other items';
		throw new NodeOperationError(
			ctx.api.node,
			`Download of document ${documentId} not sent: the service allows ${LIMITS.downloads.label}`,
			{
				itemIndex: i,
				description: `This execution already used the download budget; ${frees}. Run again later, or download fewer formats.`,
			},
		);
	}
	const answer = await ctx.api.download(downloadPath(publicId, documentId), i, {
		maxBytes,
		query: downloadQuery(format),
	});
	const expected = fileFormatOf(format);
	const problem = fileProblem(expected, answer.body, answer.headers['content-type'] ?? '');
	if (problem) {
		throw new NodeOperationError(
			ctx.api.node,
			`Document ${documentId} of extraction ${publicId} could not be downloaded as ${format}: ${problem}`,
			{
				itemIndex: i,
				description: `GET ${downloadPath(publicId, documentId).text}?type=${format} answered something else than the file (for example a login or error page). Nothing was saved; try again later.`,
			},
		);
	}
	return { body: answer.body, mimeType: FILE_TYPES[expected].mimeType };
}
