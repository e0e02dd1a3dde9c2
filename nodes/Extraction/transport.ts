import type { RouterContext } from '../shared/router';
import type { IDataObject } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';
import { SlidingWindowLimiter } from '../shared/rateLimit';
import type { ApiRequest, BinaryAnswer, RequestContext, ServiceDefinition } from '../shared/transport';
import { bodyMessage, ServiceClient } from '../shared/transport';
import { downloadPath, downloadQuery, type DocumentFormat } from './domain/documents';
import { baseUrlFor, credentialProblem } from './domain/environment';
import { LIMITS, permissionFor } from './domain/limits';
import { normalizeRecord } from './domain/names';
import { scrubError } from '../shared/redact';
import { factsOf } from '../shared/errors';

function errorCode(body: unknown): string {
	const b = (body ?? {}) as IDataObject;
	const nested = b.error && typeof b.error === 'object' ? (b.error as IDataObject) : {};
	const code = nested.code ?? b.code;
	return typeof code === 'string' && code ? ` [${code}]` : '';
}

/** Extraction service: base URL per environment, staging/production key check, errors in the spec's terms. */
export const extractionService: ServiceDefinition = {
	name: 'Document Extraction',
	credentialType: 'extractionApi',
	baseUrl: (credentials) => baseUrlFor(credentials),
	preflight: (credentials) => credentialProblem(credentials),
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

type AnyError = Error & { description?: string | null };

export interface CallOptions {
	/** Values that must not appear in errors (SAT password, FIEL key material). */
	secrets?: string[];
}

/**
 * One per node execution: the shared request core plus what is particular to this service: the limits
 * the node paces itself by (shared by all items of the execution), the 403 explanation that names the
 * missing permission, and secrets kept out of errors.
 */
export class ExtractionApi {
	readonly client: ServiceClient;
	readonly statusChecks = new SlidingWindowLimiter(LIMITS.statusChecks.max, LIMITS.statusChecks.windowMs);
	readonly downloads = new SlidingWindowLimiter(LIMITS.downloads.max, LIMITS.downloads.windowMs);
	private keyInfo?: Promise<KeyInfo | undefined>;

	constructor(private readonly ctx: RequestContext) {
		this.client = new ServiceClient(ctx, extractionService);
	}

	async request<T = IDataObject>(req: ApiRequest & { binary?: false }, i?: number, opts?: CallOptions): Promise<T>;
	async request(req: ApiRequest & { binary: true }, i?: number, opts?: CallOptions): Promise<BinaryAnswer>;
	async request(req: ApiRequest, i?: number, opts: CallOptions = {}): Promise<unknown> {
		try {
			return await this.client.request(req as ApiRequest & { binary?: false }, i);
		} catch (error) {
			if (factsOf(error).status === 403) await this.explainForbidden(error as AnyError, req);
			throw scrubError(error, opts.secrets ?? []);
		}
	}

	/** GET /v1/auth/verify, normalized. */
	async verify(i?: number): Promise<IDataObject> {
		return normalizeRecord(await this.request({ method: 'GET', path: '/v1/auth/verify' }, i));
	}

	/** One status check of a job, paced by the 100-per-minute budget; returns the normalized record. */
	async job(publicId: string, i: number, deadline = Infinity): Promise<IDataObject | 'deadline'> {
		const slot = await this.statusChecks.acquire(deadline - Date.now());
		if (!slot.ok) return 'deadline';
		return normalizeRecord(await this.request({ method: 'GET', path: `/v1/extractions/${encodeURIComponent(publicId)}`, deadline }, i));
	}

	/** Downloads one document, paced by the 1,000-per-hour budget (waits at most a minute for a slot). */
	async download(publicId: string, documentId: string, format: DocumentFormat, i: number): Promise<BinaryAnswer> {
		const slot = await this.downloads.acquire(60_000);
		if (!slot.ok) {
			throw new NodeOperationError(this.ctx.getNode(), `Download of document ${documentId} not sent: the service allows ${LIMITS.downloads.label}`, {
				itemIndex: i,
				description: `This execution already used the download budget; the next slot frees in about ${Math.ceil(slot.waitMs / 60000)} minute(s). Run again later, or download fewer formats.`,
			});
		}
		return await this.request(
			{ method: 'GET', path: downloadPath(publicId, documentId), qs: downloadQuery(format), binary: true, headers: { Accept: '*/*' } },
			i,
		);
	}

	/** Adds to a 403 which permission the request needs and which ones the key has (from the verify result). */
	private async explainForbidden(error: AnyError, req: ApiRequest): Promise<void> {
		const needed = permissionFor(req.method, req.path);
		if (req.path === '/v1/auth/verify') return;
		this.keyInfo ??= this.client
			.request({ method: 'GET', path: '/v1/auth/verify' })
			.then((answer) => {
				const a = (answer ?? {}) as IDataObject;
				const org = (a.organization ?? {}) as IDataObject;
				return {
					permissions: Array.isArray(a.permissions) ? a.permissions.map(String) : undefined,
					organization: typeof org.name === 'string' ? org.name : undefined,
				};
			})
			.catch(() => undefined);
		const info = await this.keyInfo;
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
}

export interface ExtractionContext extends RouterContext {
	api: ExtractionApi;
}

