import type {
	ICredentialDataDecryptedObject,
	ICredentialsDecrypted,
	IDataObject,
	IExecuteFunctions,
	IHttpRequestMethods,
	IHttpRequestOptions,
	ILoadOptionsFunctions,
	INode,
	JsonObject,
} from 'n8n-workflow';
import { NodeApiError, sleep } from 'n8n-workflow';

/** Any n8n context that can make authenticated requests. */
export type RequestContext = IExecuteFunctions | ILoadOptionsFunctions;

/** What one service tells the shared core about itself. */
export interface ServiceDefinition {
	/** Shown in messages, e.g. "Partners". */
	name: string;
	credentialType: string;
	baseUrl(credentials: ICredentialDataDecryptedObject): string;
	/**
	 * Turns an error answer into words a user can act on. `body` is the parsed JSON body when there is one.
	 * Returns the message (what happened) and a description (details and how to fix it).
	 */
	describeError(status: number, body: unknown): { message: string; description?: string };
	/** Refuses a request before it is sent (e.g. a staging key against production). Returns a message or undefined. */
	preflight?(credentials: ICredentialDataDecryptedObject): string | undefined;
	/**
	 * False when the credential has no token to fetch again (a static API key): n8n then does not re-send a
	 * request answered 401. Default true: n8n runs `preAuthentication` again and re-sends once.
	 */
	reauthenticateOn401?: boolean;
}

export interface ApiRequest {
	method: IHttpRequestMethods;
	/** Path relative to the credential's base URL, starting with `/`. */
	path: string;
	body?: IDataObject | IDataObject[];
	qs?: IDataObject;
	headers?: IDataObject;
	/**
	 * True when sending the request twice cannot create, issue or change anything twice. Defaults to true
	 * for GET. Non-idempotent requests are only re-sent when the connection was refused (nothing reached
	 * the service); a tax document is never issued twice by a retry.
	 */
	idempotent?: boolean;
	/** Answer as raw bytes with headers (downloads). */
	binary?: boolean;
}

export interface BinaryAnswer {
	body: Buffer;
	headers: Record<string, string>;
}

export interface RetryPolicy {
	/** Total attempts including the first. */
	maxAttempts: number;
	baseDelayMs: number;
	maxDelayMs: number;
	/** A Retry-After longer than this is not waited for: the error is reported instead. */
	maxRetryAfterMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = { maxAttempts: 4, baseDelayMs: 500, maxDelayMs: 8000, maxRetryAfterMs: 60000 };

/** Network failures where the request never reached the service: safe to re-send anything. */
const NOT_SENT_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN']);
/** Network failures where the request may have reached the service: re-send only idempotent requests. */
const TRANSIENT_CODES = new Set([...NOT_SENT_CODES, 'ECONNRESET', 'ETIMEDOUT', 'ECONNABORTED', 'EPIPE', 'ESOCKETTIMEDOUT']);

interface FailureInfo {
	status?: number;
	headers: Record<string, string>;
	body: unknown;
	networkCode?: string;
	rawMessage: string;
}

function inspectFailure(error: unknown): FailureInfo {
	// httpRequestWithAuthentication wraps the HTTP client's error in a NodeApiError whose `cause` is the
	// original error carrying `response` (status, headers, data) or a socket `code`.
	const outer = error as { cause?: unknown; message?: string };
	const inner = (outer.cause ?? error) as {
		response?: { status?: number; headers?: Record<string, unknown>; data?: unknown };
		code?: string;
		message?: string;
	};
	const response = inner.response;
	const headers: Record<string, string> = {};
	for (const [key, value] of Object.entries(response?.headers ?? {})) headers[key.toLowerCase()] = String(value);
	let body = response?.data;
	if (Buffer.isBuffer(body)) body = body.toString('utf8');
	if (typeof body === 'string') {
		try {
			body = JSON.parse(body);
		} catch {
			// not JSON: keep the text as it came, it is still worth showing
		}
	}
	return {
		status: response?.status,
		headers,
		body,
		networkCode: response ? undefined : inner.code,
		rawMessage: inner.message ?? outer.message ?? 'unknown error',
	};
}

/** Milliseconds to wait before attempt `attempt + 1`, or undefined to give up. */
export function retryDelay(attempt: number, retryAfter: string | undefined, policy: RetryPolicy, random = Math.random): number | undefined {
	if (retryAfter !== undefined && retryAfter.trim() !== '') {
		const seconds = Number(retryAfter);
		const ms = Number.isFinite(seconds) ? seconds * 1000 : Date.parse(retryAfter) - Date.now();
		if (Number.isFinite(ms)) return ms > policy.maxRetryAfterMs ? undefined : Math.max(0, ms);
	}
	// Exponential backoff with "equal jitter": half fixed, half random, so parallel callers spread out.
	const exp = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (attempt - 1));
	return exp / 2 + random() * (exp / 2);
}

function itemPrefix(itemIndex: number | undefined): string {
	return itemIndex === undefined ? '' : `[item ${itemIndex}] `;
}

/**
 * One client per node execution: it reads the credential once and hands the decrypted data to
 * httpRequestWithAuthentication on every request, so n8n does not look the credential up again per item
 * (about 4 ms each inside n8n). n8n still applies the credential's `authenticate` and `preAuthentication`
 * (token fetched when empty, fetched again once after a 401), and writes the token into this same object,
 * so one token serves the whole run.
 */
export class ServiceClient {
	private credentials?: ICredentialsDecrypted;
	private loading?: Promise<ICredentialsDecrypted>;

	constructor(
		private readonly ctx: RequestContext,
		readonly service: ServiceDefinition,
		private readonly retry: RetryPolicy = DEFAULT_RETRY,
	) {}

	get node(): INode {
		return this.ctx.getNode();
	}

	async credentialData(): Promise<ICredentialDataDecryptedObject> {
		return (await this.loadCredentials()).data ?? {};
	}

	private async loadCredentials(): Promise<ICredentialsDecrypted> {
		if (this.credentials) return this.credentials;
		this.loading ??= (async () => {
			const data = await this.ctx.getCredentials(this.service.credentialType);
			const refused = this.service.preflight?.(data);
			if (refused) {
				throw new NodeApiError(this.node, { message: refused } as JsonObject, { message: refused, httpCode: '400' });
			}
			this.credentials = { id: '', name: this.service.credentialType, type: this.service.credentialType, data };
			return this.credentials;
		})();
		return await this.loading;
	}

	async request<T = IDataObject>(req: ApiRequest & { binary?: false }, itemIndex?: number): Promise<T>;
	async request(req: ApiRequest & { binary: true }, itemIndex?: number): Promise<BinaryAnswer>;
	async request(req: ApiRequest, itemIndex?: number): Promise<unknown> {
		const credentials = await this.loadCredentials();
		const base = this.service.baseUrl(credentials.data ?? {}).replace(/\/+$/, '');
		const options: IHttpRequestOptions = {
			method: req.method,
			url: `${base}${req.path}`,
			headers: { Accept: 'application/json', ...(req.headers ?? {}) },
			qs: req.qs,
			json: !req.binary,
		};
		if (req.body !== undefined) options.body = req.body;
		if (req.binary) {
			options.encoding = 'arraybuffer';
			options.returnFullResponse = true;
			options.json = false;
		}
		const idempotent = req.idempotent ?? req.method === 'GET';

		for (let attempt = 1; ; attempt++) {
			try {
				const answer = await this.ctx.helpers.httpRequestWithAuthentication.call(
					this.ctx,
					this.service.credentialType,
					{ ...options, headers: { ...options.headers } },
					// An empty list of "token expired" statuses stops n8n's one re-send after a 401.
					this.service.reauthenticateOn401 === false
						? { credentialsDecrypted: credentials, preAuthenticationRetryStatusCode: [] }
						: { credentialsDecrypted: credentials },
				);
				if (!req.binary) return answer;
				const full = answer as { body: ArrayBuffer | Buffer; headers: Record<string, unknown> };
				const headers: Record<string, string> = {};
				for (const [k, v] of Object.entries(full.headers ?? {})) headers[k.toLowerCase()] = String(v);
				return { body: Buffer.from(full.body as ArrayBuffer), headers } satisfies BinaryAnswer;
			} catch (error) {
				const failure = inspectFailure(error);
				const wait = this.shouldRetry(failure, idempotent, attempt)
					? retryDelay(attempt, failure.headers['retry-after'], this.retry)
					: undefined;
				if (wait === undefined) throw this.toNodeError(failure, req, itemIndex);
				await sleep(wait);
			}
		}
	}

	private shouldRetry(failure: FailureInfo, idempotent: boolean, attempt: number): boolean {
		if (attempt >= this.retry.maxAttempts) return false;
		if (failure.status === 401 || failure.status === 403) return false;
		if (failure.networkCode !== undefined) {
			return idempotent ? TRANSIENT_CODES.has(failure.networkCode) : NOT_SENT_CODES.has(failure.networkCode);
		}
		if (!idempotent) return false;
		return failure.status === 429 || (failure.status !== undefined && failure.status >= 500);
	}

	private toNodeError(failure: FailureInfo, req: ApiRequest, itemIndex: number | undefined): NodeApiError {
		const where = `${req.method} ${req.path}`;
		if (failure.status === undefined) {
			const message = `${itemPrefix(itemIndex)}${this.service.name} could not be reached (${failure.networkCode ?? failure.rawMessage})`;
			const error = new NodeApiError(this.node, { message: failure.rawMessage } as JsonObject, {
				message,
				description: `${where} failed before an answer arrived. Check the Base URL in the ${this.service.name} credential and that the service is up.${idempotent(req) ? '' : ' The request may or may not have been processed: check in the service before sending it again.'}`,
				itemIndex,
			});
			// NodeApiError swaps a message that names a socket code (or contains one) for a generic one;
			// keep ours, it names the service and the item.
			error.message = message;
			return error;
		}
		const { message, description } = this.service.describeError(failure.status, failure.body);
		const errorBody: JsonObject =
			failure.body && typeof failure.body === 'object' && !Array.isArray(failure.body)
				? (failure.body as JsonObject)
				: { message: String(failure.body ?? '') };
		const error = new NodeApiError(this.node, errorBody, {
			message: `${itemPrefix(itemIndex)}${message}`,
			description: description ? `${description} (${where}, HTTP ${failure.status})` : `${where}, HTTP ${failure.status}`,
			httpCode: String(failure.status),
			itemIndex,
		});
		error.message = `${itemPrefix(itemIndex)}${message}`;
		return error;
	}
}

function idempotent(req: ApiRequest): boolean {
	return req.idempotent ?? req.method === 'GET';
}

/** Reads the service's `message`/`error` fields from an error body, whatever its exact shape. */
export function bodyMessage(body: unknown): string | undefined {
	if (typeof body === 'string') return body.trim() || undefined;
	if (!body || typeof body !== 'object') return undefined;
	const b = body as Record<string, unknown>;
	for (const key of ['message', 'error_description', 'error', 'detail']) {
		const value = b[key];
		if (typeof value === 'string' && value) return value;
		if (value && typeof value === 'object' && typeof (value as Record<string, unknown>).message === 'string') {
			return (value as Record<string, string>).message;
		}
	}
	return undefined;
}

/** Formats a field → messages map (422 answers) as readable lines: `client.email: is not valid`. */
export function fieldErrorLines(errors: unknown): string[] {
	if (!errors || typeof errors !== 'object') return [];
	return Object.entries(errors as Record<string, unknown>).map(([field, messages]) => {
		const list = Array.isArray(messages) ? messages.map(String) : [String(messages)];
		return `${field}: ${list.join('; ')}`;
	});
}
