import type {
	ICredentialDataDecryptedObject,
	ICredentialsDecrypted,
	IDataObject,
	IExecuteFunctions,
	IHookFunctions,
	IHttpRequestMethods,
	IHttpRequestOptions,
	ILoadOptionsFunctions,
	INode,
	IWebhookFunctions,
	JsonObject,
} from 'n8n-workflow';
import { NodeApiError, sleep } from 'n8n-workflow';
import { addFacts, factsOf } from './errors';

/**
 * Any n8n context that can make authenticated requests (a node run, a dropdown, a trigger's activation, a
 * trigger checking a delivery with the service).
 */
export type RequestContext = IExecuteFunctions | ILoadOptionsFunctions | IHookFunctions | IWebhookFunctions;

/** What one service tells the shared core about itself. */
export interface ServiceDefinition {
	/** Shown in messages, e.g. "Partners". */
	name: string;
	credentialType: string;
	baseUrl(credentials: ICredentialDataDecryptedObject): string;
	/**
	 * Turns an error answer into words a user can act on. `body` is the parsed JSON body when there is one.
	 * Returns the message (what happened), a description (details and how to fix it) and, when the service's
	 * own words are not the body's `message`, those words (`said`, kept in the error's facts).
	 */
	describeError(status: number, body: unknown): { message: string; description?: string; said?: string };
	/** Refuses a request before it is sent (e.g. a staging key against production). Returns a message or undefined. */
	preflight?(credentials: ICredentialDataDecryptedObject): string | undefined;
	/**
	 * The credential's expirable token field (filled by its `preAuthentication`), e.g. `accessToken`. When set,
	 * a 401 answer makes this client fetch one new token — one fetch for all requests in flight — and re-send
	 * once. Without it (a static API key) a 401 is final and nothing is re-sent.
	 */
	tokenField?: string;
	/** Milliseconds before a request without an answer is abandoned (default 60 s). */
	timeoutMs?: number;
}

export interface ApiRequest {
	method: IHttpRequestMethods;
	/** Path relative to the credential's base URL, starting with `/`. */
	path: string;
	/**
	 * An absolute address used instead of base URL + `path` (e.g. a link the service returned). `path` then
	 * only names the request in messages.
	 */
	url?: string;
	/**
	 * Send without the credential (no `authenticate`, no token): for addresses outside the service, which must
	 * never see its keys.
	 */
	anonymous?: boolean;
	body?: IDataObject | IDataObject[];
	qs?: IDataObject;
	headers?: IDataObject;
	/**
	 * True when sending the request twice cannot create, issue, send or change anything twice, nor turn a
	 * success into a reported failure. Defaults to true for GET. Only such requests are re-sent after a 5xx
	 * answer or a network failure that may have happened after the service processed them. Any request is
	 * re-sent after a 429 (the service says it did not process it) or a refused connection (nothing reached
	 * the service). See `shouldRetry`.
	 */
	idempotent?: boolean;
	/** Overrides the service's request timeout (milliseconds). */
	timeoutMs?: number;
	/**
	 * A moment (epoch milliseconds) this request must not outlive, retries included: each attempt's timeout
	 * is cut to the time left, and no retry starts that would end after it (a wait's status check must not
	 * keep the item beyond its Timeout).
	 */
	deadline?: number;
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

/** A request without an answer after this long is abandoned (and, if it is not safe to repeat, reported). */
export const DEFAULT_TIMEOUT_MS = 60000;

/** Network failures where the request never reached the service: safe to re-send anything. */
const NOT_SENT_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN']);

/**
 * How a wait (Wait for Final State, Create + Wait) takes a status check that failed:
 * - `ends`: a refused key (401/403) does not pass by waiting, so the wait ends at once;
 * - `counts`: whether it is the wait's last failure, reported if the deadline comes; not when the check was
 *   cut short by the deadline with no answer at all, which is the wait timing out, not a failure of its own.
 */
export function failedCheck(error: unknown): { ends: boolean; counts: boolean } {
	const { status, cutByDeadline } = factsOf(error);
	const ends = status === 401 || status === 403;
	return { ends, counts: ends || !cutByDeadline };
}

/**
 * The failure a wait ends with: a 404 that lasted until the deadline is explained (the service had not made
 * what it just created visible yet, `GET <path>` says not found).
 */
export function lastCheckFailure<E>(error: E, path: string, what: string): E {
	const e = error as { description?: string | null };
	if (factsOf(error).status === 404) e.description = `GET ${path} still answered 404 (not found) when the wait ended: the service had not made the new ${what} visible yet.`;
	return error;
}

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
	const rawMessage = inner.message ?? outer.message ?? 'unknown error';
	let networkCode = response ? undefined : inner.code;
	// A timeout shows up as ECONNABORTED or ETIMEDOUT depending on the HTTP client; name it one way.
	if (!response && (networkCode === 'ECONNABORTED' || /timeout/i.test(rawMessage))) networkCode = 'ETIMEDOUT';
	return { status: response?.status, headers, body, networkCode, rawMessage };
}

function maybeProcessed(failure: FailureInfo): boolean {
	if (failure.status !== undefined) return failure.status >= 500;
	return !NOT_SENT_CODES.has(failure.networkCode ?? '');
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

/**
 * One client per node execution: it reads the credential once and hands the decrypted data to
 * httpRequestWithAuthentication on every request, so n8n does not look the credential up again per item
 * (about 4 ms each inside n8n). n8n still applies the credential's `authenticate` and `preAuthentication`
 * (a token is fetched when the token field is empty) and writes the token into this same object, so one
 * token serves the whole run.
 *
 * Token refresh: n8n's own re-send after a 401 is switched off (`preAuthenticationRetryStatusCode: []`),
 * because with parallel requests every request in flight would fetch its own token. Instead the first
 * request answered 401 empties the token field and re-sends (n8n fetches one new token for it); requests
 * that were answered 401 meanwhile, and new ones, wait for that re-send and then use the new token.
 */
export class ServiceClient {
	private credentials?: ICredentialsDecrypted;
	private loading?: Promise<ICredentialsDecrypted>;
	/** Bumped after every token refresh: a 401 on a request sent before the bump needs no new refresh. */
	private tokenGeneration = 0;
	/** Settles when the request fetching a new token has its answer. */
	private refreshing?: Promise<void>;
	/** Set when fetching a token failed: the other requests report it instead of each fetching again. */
	private tokenFailure?: FailureInfo;

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
		const data = credentials.data ?? {};
		const base = this.service.baseUrl(data).replace(/\/+$/, '');
		const options: IHttpRequestOptions = {
			method: req.method,
			url: req.url ?? `${base}${req.path}`,
			headers: { Accept: 'application/json', ...(req.headers ?? {}) },
			qs: req.qs,
			json: !req.binary,
		};
		const timeoutMs = req.timeoutMs ?? this.service.timeoutMs ?? DEFAULT_TIMEOUT_MS;
		const deadline = req.deadline ?? Infinity;
		if (req.body !== undefined) options.body = req.body;
		if (req.binary) {
			options.encoding = 'arraybuffer';
			options.returnFullResponse = true;
			options.json = false;
		}
		const idempotent = req.idempotent ?? req.method === 'GET';
		// A request sent without the credential has no token to refresh.
		const tokenField = req.anonymous ? undefined : this.service.tokenField;
		let refreshed = false;
		// The last failure the service (or the network) gave this request, reported instead of a later
		// attempt that only ran out of the caller's time.
		let answered: FailureInfo | undefined;

		for (let attempt = 1; ; ) {
			if (this.refreshing) await this.refreshing;
			if (tokenField && data[tokenField] === '' && this.tokenFailure) throw this.toNodeError(this.tokenFailure, req, itemIndex);
			const generation = this.tokenGeneration;
			// The first request to find the token refused fetches the new one: n8n runs preAuthentication
			// because the field is empty. Everyone else waits for it (above).
			let endRefresh: (() => void) | undefined;
			if (tokenField && data[tokenField] === '' && !this.refreshing) {
				this.refreshing = new Promise<void>((resolve) => (endRefresh = resolve));
			}
			const timeLeft = deadline - Date.now();
			const cutByDeadline = timeLeft < timeoutMs;
			try {
				const attempt = { ...options, headers: { ...options.headers }, timeout: Math.max(1, Math.min(timeoutMs, timeLeft)) };
				const answer = req.anonymous
					? await this.ctx.helpers.httpRequest(attempt)
					: await this.ctx.helpers.httpRequestWithAuthentication.call(
							this.ctx,
							this.service.credentialType,
							attempt,
							// An empty list of "token expired" statuses stops n8n's own re-send after a 401 (see above).
							{ credentialsDecrypted: credentials, preAuthenticationRetryStatusCode: [] },
						);
				if (!req.binary) return answer;
				const full = answer as { body: ArrayBuffer | Buffer; headers: Record<string, unknown> };
				const headers: Record<string, string> = {};
				for (const [k, v] of Object.entries(full.headers ?? {})) headers[k.toLowerCase()] = String(v);
				return { body: Buffer.from(full.body as ArrayBuffer), headers } satisfies BinaryAnswer;
			} catch (error) {
				const failure = inspectFailure(error);
				if (cutByDeadline && failure.networkCode === 'ETIMEDOUT') {
					// This attempt's timeout was the time the caller had left, and it ran out.
					if (answered) throw this.toNodeError(answered, req, itemIndex);
					throw addFacts(this.toNodeError(failure, req, itemIndex), { cutByDeadline: true });
				}
				if (endRefresh && tokenField && data[tokenField] === '') this.tokenFailure = failure;
				if (failure.status === 401 && tokenField && !refreshed && !endRefresh) {
					// Refused token: fetch a new one once (unless a refresh happened since this request was sent).
					refreshed = true;
					if (this.tokenGeneration === generation && !this.refreshing) data[tokenField] = '';
					continue;
				}
				// An expired token, re-sent above with a new one, is not what went wrong with this request.
				answered = failure;
				const wait = this.shouldRetry(failure, idempotent, attempt)
					? retryDelay(attempt, failure.headers['retry-after'], this.retry)
					: undefined;
				if (wait === undefined || Date.now() + wait >= deadline) throw this.toNodeError(failure, req, itemIndex);
				attempt++;
				await sleep(wait);
			} finally {
				if (endRefresh) {
					this.tokenGeneration++;
					this.refreshing = undefined;
					endRefresh();
				}
			}
		}
	}

	/**
	 * Whether attempt `attempt` may be followed by another. Never after 401/403 (the credential is wrong). Any
	 * request after a 429 (not processed: the service asks to come back later) or a refused connection
	 * (nothing reached the service). After a 5xx or a connection that broke once the request was sent, only
	 * requests that are safe to repeat (`idempotent`): an issue, a delete or a message could otherwise
	 * happen twice, or a success be reported as a failure.
	 */
	private shouldRetry(failure: FailureInfo, idempotent: boolean, attempt: number): boolean {
		if (attempt >= this.retry.maxAttempts) return false;
		if (failure.status === 401 || failure.status === 403) return false;
		if (failure.status === 429) return true;
		if (failure.status === undefined && NOT_SENT_CODES.has(failure.networkCode ?? '')) return true;
		if (!idempotent) return false;
		return failure.status === undefined || failure.status >= 500;
	}

	private toNodeError(failure: FailureInfo, req: ApiRequest, itemIndex: number | undefined): NodeApiError {
		const where = `${req.method} ${req.path}`;
		const maybe = maybeProcessed(failure);
		let failureSaid: string | undefined;
		const caution = maybe && !idempotent(req) ? ' The request may have been processed before the answer was lost: check in the service before sending it again.' : '';
		let error: NodeApiError;
		if (failure.status === undefined) {
			const what = failure.networkCode === 'ETIMEDOUT' ? 'did not answer in time' : 'could not be reached';
			const message = `${this.service.name} ${what} (${failure.networkCode ?? failure.rawMessage})`;
			error = new NodeApiError(this.node, { message: failure.rawMessage } as JsonObject, {
				message,
				description: `${where} failed before an answer arrived. Check the Base URL in the ${this.service.name} credential and that the service is up.${caution}`,
				itemIndex,
			});
			// NodeApiError swaps a message that names a socket code (or contains one) for a generic one;
			// keep ours, it names the service and the item.
			error.message = message;
		} else {
			const { message, description, said } = this.service.describeError(failure.status, failure.body);
			failureSaid = said ?? bodyMessage(failure.body);
			const errorBody: JsonObject =
				failure.body && typeof failure.body === 'object' && !Array.isArray(failure.body)
					? (failure.body as JsonObject)
					: { message: String(failure.body ?? '') };
			const details = `${description ? `${description} ` : ''}(${where}, HTTP ${failure.status})${caution}`;
			error = new NodeApiError(this.node, errorBody, {
				message,
				description: details,
				httpCode: String(failure.status),
				itemIndex,
			});
			error.message = message;
		}
		return addFacts(error, { status: failure.status, said: failureSaid, mayHaveBeenProcessed: maybe });
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
