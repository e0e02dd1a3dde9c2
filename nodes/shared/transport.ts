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
import { NodeApiError, NodeOperationError } from 'n8n-workflow';
import { clock } from './clock';
import { addFacts } from './errors';
import {
	exchange,
	failureIn,
	HttpFailure,
	isRedirect,
	originOf,
	parseBody,
	type Answer,
	type Sender,
} from './http';
import {
	DEFAULT_RETRY,
	failureError,
	mayHaveBeenProcessed,
	retryDelay,
	MAX_REDIRECTS,
	shouldRetry,
	where,
	type Failure,
	type RetryPolicy,
	type SentRequest,
} from './failures';
import type { ApiPath } from './path';
import { redact, scrubError } from './redact';
import { trimEnd, withoutQuery } from './text';

/**
 * The one client of the three services. Each service configures it (`ServiceDefinition`: base address, how
 * the credential is attached, its error bodies, which writes are safe to repeat, its secrets, a signing
 * secret), and every operation of every node uses the same four calls:
 * - `read(path)`: GET, JSON answer; safe to repeat;
 * - `write(path, { method, body })`: POST/PATCH/PUT/DELETE, JSON answer; repeated only when the service says
 *   that write is safe to repeat;
 * - `sign(path, { body })`: a write that also carries the signing secret (Receipts: `X-Password`), never
 *   repeated once it may have reached the service;
 * - `download(path or address)`: GET, the bytes of a file, redirects followed hop by hop;
 * - `postText(address, { body, headers, read })`: POST a text body (a SOAP envelope) to a full address, for a
 *   public service that takes no credential and picks its address per request (the SRI's web services).
 * The rules hold for all of them because they are written once, here and in http.ts:
 * 1. the credential goes only to its own origin (scheme, host, port) — and when a service has another API with
 *    its own address and key (`sides`), that key only to that API's origin; no redirect is followed by n8n's helper:
 *    `read`/`write`/`sign` refuse one with a clear error, `download` follows at most 5, each hop checked, and
 *    once a hop leaves the credential's origin the rest of the chain carries no credential;
 * 2. every request has a wall-clock deadline (Request Timeout, retries included, cut further by a wait's
 *    deadline), however slowly the service sends its answer;
 * 3. every answer has a size cap (JSON: MAX_JSON_BYTES; files: the caller's, see files.ts);
 * 4. every answer returned and every error thrown passes the one scrubber (redact.ts) with every secret the
 *    run knows: the credential's secret fields, tokens obtained, secrets given as data (`keepSecret`);
 * 5. errors are NodeApiErrors whose facts (errors.ts) say what happened: status, the service's words, whether
 *    it may have been processed, whether it may be repeated, where a redirect pointed, sizes;
 * 6. a path is built from segments (path.ts): a path with an unsafe ID is never sent.
 */

/** Any n8n context that can make requests: a node run, a dropdown, a trigger's activation, a webhook delivery. */
export type RequestContext =
	| IExecuteFunctions
	| ILoadOptionsFunctions
	| IHookFunctions
	| IWebhookFunctions;

/** What one service tells the client about itself. */
export interface ServiceDefinition {
	/** Shown in messages, e.g. "Partners". */
	name: string;
	/**
	 * The credential the requests carry. Omitted for a public service that takes none (the SRI's web services):
	 * no credential is loaded, requests go out through n8n's plain HTTP helper, and every other rule holds.
	 */
	credentialType?: string;
	/** What the credential is called in messages about where it was (not) sent, e.g. "API key". */
	credentialLabel?: string;
	/** The base address of `read`, `write`, `sign` and `download` paths; omitted when every request names its address (`postText`). */
	baseUrl?(credentials: ICredentialDataDecryptedObject): string;
	/**
	 * Where the user sets the service's address, as messages name it (default: "Base URL of the <name>
	 * credential"), e.g. "Options → Service Address".
	 */
	addressLabel?: string;
	/**
	 * Turns an error answer into words a user can act on. `body` is the parsed JSON body when there is one, its
	 * text otherwise, already scrubbed; `token` is true for the answer of the credential's token request, `side`
	 * names the side that answered (undefined: the credential's Base URL). Returns
	 * the message (what happened), a description (details and how to fix it) and, when the service's own words
	 * are not the body's `message`, those words (`said`, kept in the error's facts).
	 */
	describeError(
		status: number,
		body: unknown,
		answer?: { token: boolean; side?: string },
	): { message: string; description?: string; said?: string };
	/**
	 * Refuses a request to the credential's Base URL before it is sent (e.g. a staging key against production).
	 * Returns a message or undefined. A request to another side is checked by that side's own `preflight`.
	 */
	preflight?(credentials: ICredentialDataDecryptedObject): string | undefined;
	/**
	 * Other APIs of the same service that the same credential reaches at addresses of their own, each with its
	 * own key (Extraction: the Ecuador API). A request names its side (`side` in its options); see ServiceSide.
	 */
	sides?: Readonly<Record<string, ServiceSide>>;
	/**
	 * The credential's expirable token field (filled by its `preAuthentication`), e.g. `accessToken`. When set,
	 * a 401 answer makes this client fetch one new token — one fetch for all requests in flight — and re-send
	 * once. Without it (a static API key) a 401 is final and nothing is re-sent.
	 */
	tokenField?: string;
	/** The credential's fields whose values are secrets: cut out of every answer and error (the token field too). */
	secretFields: readonly string[];
	/** The secret `sign` adds: its header, the credential field it comes from and its name in messages. */
	signing?: { header: string; field: string; label: string; purpose: string };
	/** Whether a write (`write`) is safe to repeat: sending it twice cannot do anything twice. Default: no write is. */
	repeatable?(method: IHttpRequestMethods, path: string): boolean;
	/**
	 * The header of the idempotency key the service documents for some writes (Receipts: `Idempotency-key` on
	 * invoice issue). A write or sign given `idempotencyKey` carries it there and is safe to repeat.
	 */
	idempotencyHeader?: string;
	/**
	 * Whether an error answer is final: sending the same request again cannot change it (a SOAP fault refusing the
	 * request's signature), so it is not re-sent even where the request is safe to repeat. Default: none is.
	 */
	finalAnswer?(status: number, body: unknown): boolean;
	/** Adds what the service can tell about a refusal (Extraction: the permission a 403 lacked). */
	explain?(error: NodeApiError, request: FailedRequest, client: ServiceClient): Promise<void>;
}

/**
 * Another API the same credential reaches (Extraction: the Ecuador API, which Taxpayer → Register calls): an
 * address of its own, its own key, attached in its own headers. For a request that names this side the client
 * takes this side's address, refuses before sending what `preflight` refuses, and adds `headers` itself — only
 * to this side's origin, and never the credential's `authenticate` (whose key belongs to the credential's Base
 * URL): each key goes only to the origin it belongs to. Every other rule of the client holds as for any request.
 */
interface ServiceSide {
	/** Shown in messages instead of the service's name, e.g. "Document Extraction (Ecuador API)". */
	name: string;
	/** The credential field that holds this side's address, for messages, e.g. "Ecuador Staging Base URL". */
	addressLabel(credentials: ICredentialDataDecryptedObject): string;
	baseUrl(credentials: ICredentialDataDecryptedObject): string;
	/** The headers that carry this side's key (its values are secret fields of the service, see `secretFields`). */
	headers(credentials: ICredentialDataDecryptedObject): Record<string, string>;
	/** Refuses a request to this side before it is sent (no address, no key). Returns a message or undefined. */
	preflight?(credentials: ICredentialDataDecryptedObject): string | undefined;
}

/**
 * The places for requests in flight that the router keeps for Options → Parallel Requests (router.ts): `run`
 * holds one place while `send` runs, first come first served, or refuses when the run is stopping (nothing sent).
 */
export interface RequestGate {
	run<T>(send: () => Promise<T>): Promise<T>;
}

/** What the client tells `explain` about the request that failed. */
export interface FailedRequest {
	method: IHttpRequestMethods;
	/** The path below the base address (no query), e.g. `/v1/extractions/ext_1`. */
	path: string;
	/** The side that answered (see ServiceDefinition.sides); undefined for the credential's Base URL. */
	side?: string;
}

export interface ClientSettings {
	/** Milliseconds one request may take, from sending it to the last byte of its answer, retries included. */
	timeoutMs?: number;
	/** Where the user sets that time, for messages (e.g. "Options → Request Timeout"). */
	timeoutOption?: string;
}

interface ReadOptions {
	query?: IDataObject;
	/** Send to this side of the service (ServiceDefinition.sides) instead of the credential's Base URL. */
	side?: string;
	/** A moment (epoch milliseconds) the request must not outlive, retries included (a wait's deadline). */
	deadline?: number;
}

interface WriteOptions extends ReadOptions {
	/** Default POST. */
	method?: 'POST' | 'PATCH' | 'PUT' | 'DELETE';
	body?: IDataObject | IDataObject[];
	/**
	 * A key the service documents for this request (ServiceDefinition.idempotencyHeader): sent with it, the
	 * request is safe to repeat — the service answers a repeated key with its first answer — so a lost answer
	 * is re-sent, with the same key, within the request's time.
	 */
	idempotencyKey?: string;
}

/** A text POST (`postText`): a SOAP envelope or any body that is not JSON. */
interface TextPostOptions<T> {
	/** The body, sent as it is. */
	body: string;
	/** Its headers (Content-Type, SOAPAction…). */
	headers: Record<string, string>;
	/** The largest answer accepted, in bytes. */
	maxBytes: number;
	/** Sending it twice cannot do anything twice (a query): re-sent like a read. Never re-sent otherwise. */
	repeatable: boolean;
	/**
	 * Reads a success answer (2xx): its value, or what is wrong with it in words that follow "the answer"
	 * (`the answer is not a SOAP envelope (…)`), which the client reports as an unusable answer.
	 */
	read(answer: Answer): { value: T } | { problem: string };
	/** A moment (epoch milliseconds) the request must not outlive, retries included. */
	deadline?: number;
}

interface DownloadOptions extends ReadOptions {
	/** The largest file accepted, in bytes. */
	maxBytes: number;
	/** The Accept header (default any type). */
	accept?: string;
}

/** A downloaded file: its bytes, the headers of the last answer and where it came from. */
interface FileAnswer {
	body: Buffer;
	headers: Record<string, string>;
	/** The address the file finally came from (after redirects). */
	url: string;
	/** Redirects followed. */
	hops: number;
	/** Whether the request that got the file carried the credential. */
	withCredential: boolean;
}

/** How long a request may take by default, retries included (Receipts lets the user change it: Request Timeout). */
const DEFAULT_TIMEOUT_MS = 60000;

/** The largest JSON answer read (16 MB): the services' answers are kilobytes; a list of thousands of records fits. */
const MAX_JSON_BYTES = 16 * 1024 * 1024;

/** One request as the client sends it (with its side's headers: see ServiceSide). */
interface Call extends SentRequest {
	side?: { key: string } & ServiceSide;
	/** The caller's own deadline (ReadOptions.deadline), kept to start the request's time again (see send). */
	deadline?: number;
}

/**
 * One client per node execution (or dropdown, activation, delivery): it reads the credential once and hands
 * the decrypted data to httpRequestWithAuthentication on every request, so n8n does not look the credential up
 * again per item. n8n still applies the credential's `authenticate` and `preAuthentication` (a token is
 * fetched when the token field is empty) and writes the token into this same object, so one token serves the
 * whole run.
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
	private tokenFailure?: Failure;
	/** Secrets the run knows besides the credential's fields: tokens obtained, secrets given as data. */
	private readonly known = new Set<string>();
	/** Bounds the requests in flight, when the router set one (throttle). */
	private gate?: RequestGate;

	constructor(
		private readonly ctx: RequestContext,
		readonly service: ServiceDefinition,
		private readonly settings: ClientSettings = {},
		private readonly retry: RetryPolicy = DEFAULT_RETRY,
	) {}

	get node(): INode {
		return this.ctx.getNode();
	}

	async credentialData(): Promise<ICredentialDataDecryptedObject> {
		return (await this.loadCredentials()).data ?? {};
	}

	/** GET `path`: the JSON answer, scrubbed. Safe to repeat: retried after 429, 5xx and network failures. */
	async read<T = IDataObject>(
		path: ApiPath,
		itemIndex?: number,
		options: ReadOptions = {},
	): Promise<T> {
		const call = await this.call('read', 'GET', path, itemIndex, options);
		return await this.json<T>(call, itemIndex);
	}

	/** POST (or PATCH, PUT, DELETE) `path` with `body`: the JSON answer, scrubbed. */
	async write<T = IDataObject>(
		path: ApiPath,
		itemIndex?: number,
		options: WriteOptions = {},
	): Promise<T> {
		const method = options.method ?? 'POST';
		const call = await this.call('write', method, path, itemIndex, options);
		call.repeatable = this.service.repeatable?.(method, path.text) ?? false;
		this.keyed(call, options.idempotencyKey);
		call.body = options.body;
		return await this.json<T>(call, itemIndex);
	}

	/** A write sent with the service's idempotency key is safe to repeat (ServiceDefinition.idempotencyHeader). */
	private keyed(call: Call, key: string | undefined): void {
		if (key === undefined) return;
		const header = this.service.idempotencyHeader;
		// A fault of the calling code, not of the user's input: a key the service does not read protects nothing.
		if (!header)
			throw new NodeOperationError(
				this.node,
				`${this.service.name} documents no idempotency key: ${where(call)} cannot be made safe to repeat`,
			);
		call.headers[header] = key;
		call.idempotent = true;
	}

	/**
	 * A write that carries the signing secret (Receipts: X-Password), to the credential's Base URL only. Never
	 * repeated once it may have reached the service.
	 */
	async sign<T = IDataObject>(
		path: ApiPath,
		itemIndex?: number,
		options: Omit<WriteOptions, 'side'> = {},
	): Promise<T> {
		const method = options.method ?? 'POST';
		const call = await this.call('sign', method, path, itemIndex, options);
		const signing = this.service.signing;
		const secret = signing ? (await this.credentialData())[signing.field] : undefined;
		if (!signing || typeof secret !== 'string' || secret === '') {
			const label = signing?.label ?? 'signing secret';
			throw new NodeOperationError(
				this.node,
				`The ${this.service.name} credential has no ${label}`,
				{
					itemIndex,
					description: `${where(call)} ${signing?.purpose ?? 'signs'}, which needs the ${label}${signing ? ` (sent as ${signing.header})` : ''}. Add it to the credential. Nothing was sent.`,
				},
			);
		}
		call.headers[signing.header] = secret;
		this.keyed(call, options.idempotencyKey);
		call.body = options.body;
		return await this.json<T>(call, itemIndex);
	}

	/**
	 * GET a file: `target` is a path below the base address or an address the service gave (a receipt's file
	 * link). The credential goes only to the credential's own origin. Redirects are followed by this client, at
	 * most MAX_REDIRECTS, each hop checked; once a hop leaves the credential's origin, the rest of the chain
	 * carries no credential. The body is refused beyond `maxBytes`.
	 */
	async download(
		target: ApiPath | string,
		itemIndex: number | undefined,
		options: DownloadOptions,
	): Promise<FileAnswer> {
		const side = this.sideOf(options.side);
		const base = await this.baseUrl(itemIndex, side);
		const baseOrigin = originOf(base);
		let url: string;
		if (typeof target === 'string') {
			if (!originOf(target)) {
				throw new NodeOperationError(this.node, `"${target}" is not an http(s) address`, {
					itemIndex,
					description: 'Only http and https addresses are downloaded. Nothing was sent.',
				});
			}
			url = target;
		} else {
			this.refuseUnsafe(target, itemIndex);
			url = `${base}${target.text}`;
		}
		const { endAt, callerDeadline } = this.timeLimit(options.deadline);
		let left = false;
		for (let hops = 0; ; hops++) {
			const withCredential: boolean = !left && originOf(url) === baseOrigin;
			left = !withCredential;
			const call: Call = {
				kind: 'download',
				method: 'GET',
				url,
				path:
					withCredential && url.startsWith(base)
						? withoutQuery(url.slice(base.length)) || '/'
						: withoutQuery(url),
				query: hops === 0 ? options.query : undefined,
				headers: { Accept: options.accept ?? '*/*' },
				withCredential,
				side,
				repeatable: true,
				maxBytes: options.maxBytes,
				endAt,
				callerDeadline,
				hops,
			};
			const answer = await this.send(call, itemIndex);
			if (!isRedirect(answer.status))
				return { body: answer.body, headers: answer.headers, url, hops, withCredential };
			const location = answer.headers.location ?? '';
			let next: string | undefined;
			try {
				next = location ? new URL(location, url).href : undefined;
			} catch {
				next = undefined;
			}
			const redirect = new HttpFailure('redirect', 'redirect', {
				status: answer.status,
				location: next ?? location,
			});
			if (!next || !originOf(next) || hops >= MAX_REDIRECTS)
				throw await this.failure(redirect, call, itemIndex);
			url = next;
		}
	}

	/**
	 * POST `options.body` (text: a SOAP envelope) to `address`, a full http(s) address, for a public service
	 * (no credential) that picks its address per request — the SRI's, one host per environment or the user's
	 * Service Address. The answer is read by `options.read`; an answer it cannot read is reported like any
	 * unusable answer, a redirect is refused, an error status is the service's `describeError`. Re-sent like a
	 * read when `options.repeatable`, within the same deadline; never otherwise.
	 */
	async postText<T>(
		address: string,
		itemIndex: number | undefined,
		options: TextPostOptions<T>,
	): Promise<T> {
		if (!originOf(address)) {
			throw new NodeOperationError(this.node, `"${address}" is not an http(s) address`, {
				itemIndex,
				description: `Check the ${this.addressLabel()}. Nothing was sent.`,
			});
		}
		const url = new URL(address);
		const call: Call = {
			kind: 'text',
			method: 'POST',
			url: address,
			path: url.pathname,
			headers: { ...options.headers },
			body: options.body,
			// A public service: no credential goes with it (and a service that has one keeps it for its own paths).
			withCredential: false,
			repeatable: options.repeatable,
			maxBytes: options.maxBytes,
			...this.timeLimit(options.deadline),
			deadline: options.deadline,
			hops: 0,
		};
		const answer = await this.send(call, itemIndex);
		if (isRedirect(answer.status)) throw await this.redirectFailure(answer, call, itemIndex);
		const read = options.read(answer);
		if ('value' in read) return read.value;
		throw await this.failure(
			new HttpFailure('malformed', read.problem, { status: answer.status, problem: 'unreadable' }),
			call,
			itemIndex,
		);
	}

	/**
	 * Adds values given as data (a SAT password, FIEL key material, Secret Fields) to the secrets cut out of
	 * everything this client returns or throws, and everything the node outputs (router.ts).
	 */
	keepSecret(...values: unknown[]): void {
		for (const value of values)
			if (typeof value === 'string' && value !== '') this.known.add(value);
	}

	/** `value` (an answer, an output item, an error) without any secret this run knows (see redact.ts). */
	scrub<T>(value: T): T {
		const secrets = this.secrets();
		return value instanceof Error ? scrubError(value, secrets) : redact(value, secrets);
	}

	private secrets(): string[] {
		const data = this.credentials?.data ?? {};
		const fields = [
			...this.service.secretFields,
			...(this.service.tokenField ? [this.service.tokenField] : []),
		];
		const values = fields
			.map((field) => data[field])
			.filter((v): v is string => typeof v === 'string' && v !== '');
		return [...values, ...this.known];
	}

	private async loadCredentials(): Promise<ICredentialsDecrypted> {
		if (this.credentials) return this.credentials;
		this.loading ??= (async () => {
			const type = this.service.credentialType;
			// A public service has no credential: nothing to load, no secret field to scrub.
			const data = type ? await this.ctx.getCredentials(type) : {};
			this.credentials = { id: '', name: type ?? '', type: type ?? '', data };
			return this.credentials;
		})();
		return await this.loading;
	}

	/** The side a request names, with its key; undefined for the credential's Base URL. */
	private sideOf(key: string | undefined): Call['side'] {
		if (key === undefined) return undefined;
		const side = this.service.sides?.[key];
		// A fault of the calling code, not of the user's input.
		if (!side) throw new NodeOperationError(this.node, `${this.service.name} has no side "${key}"`);
		return { key, ...side };
	}

	/**
	 * The base address of the request's side (the credential's Base URL, or its side's), without a trailing
	 * slash, once the credential passed that side's check; refuses an address that is not http(s).
	 */
	private async baseUrl(itemIndex: number | undefined, side: Call['side']): Promise<string> {
		const data = await this.credentialData();
		const refused = side ? side.preflight?.(data) : this.service.preflight?.(data);
		if (refused) {
			throw new NodeApiError(this.node, { message: refused } as JsonObject, {
				message: refused,
				httpCode: '400',
			});
		}
		const base = trimEnd(
			(side ? side.baseUrl(data) : (this.service.baseUrl?.(data) ?? '')).trim(),
			'/',
		);
		if (!originOf(base)) {
			const name = side?.name ?? this.service.name;
			throw new NodeOperationError(
				this.node,
				`The ${side ? `${side.addressLabel(data)} of the ${this.service.name} credential` : this.addressLabel()} is not an http(s) address`,
				{
					itemIndex,
					description: `Enter the address of the ${name} service, starting with https:// (or http://). Nothing was sent.`,
				},
			);
		}
		return base;
	}

	private refuseUnsafe(path: ApiPath, itemIndex: number | undefined): void {
		if (!path.problem) return;
		throw new NodeOperationError(this.node, `Not sent to ${this.service.name}: ${path.problem}`, {
			itemIndex,
			description: `An ID that goes into an address may hold letters, digits and signs such as - . _ ~, but no "/", "?", "#", "%" or spaces, and may not be "." or "..", so that it cannot change which address is called. Check the ID. Nothing was sent.`,
		});
	}

	private timeLimit(deadline: number | undefined): { endAt: number; callerDeadline: boolean } {
		const own = clock.now() + (this.settings.timeoutMs ?? DEFAULT_TIMEOUT_MS);
		return deadline !== undefined && deadline < own
			? { endAt: deadline, callerDeadline: true }
			: { endAt: own, callerDeadline: false };
	}

	private async call(
		kind: Call['kind'],
		method: IHttpRequestMethods,
		path: ApiPath,
		itemIndex: number | undefined,
		options: ReadOptions,
	): Promise<Call> {
		this.refuseUnsafe(path, itemIndex);
		const side = this.sideOf(options.side);
		const base = await this.baseUrl(itemIndex, side);
		return {
			kind,
			method,
			url: `${base}${path.text}`,
			path: path.text,
			query: options.query,
			headers: { Accept: 'application/json' },
			withCredential: true,
			side,
			repeatable: kind === 'read',
			maxBytes: MAX_JSON_BYTES,
			...this.timeLimit(options.deadline),
			deadline: options.deadline,
			hops: 0,
		};
	}

	/** Where the user sets the service's address, as messages name it. */
	private addressLabel(): string {
		return this.service.addressLabel ?? `Base URL of the ${this.service.name} credential`;
	}

	/** The error for a redirect answered to a request that does not follow one (all but downloads). */
	private async redirectFailure(
		answer: Answer,
		call: Call,
		itemIndex: number | undefined,
	): Promise<NodeApiError> {
		const location = answer.headers.location;
		let to = location;
		try {
			to = location ? new URL(location, call.url).href : location;
		} catch {
			// keep it as it came
		}
		return await this.failure(
			new HttpFailure('redirect', 'redirect', { status: answer.status, location: to }),
			call,
			itemIndex,
		);
	}

	/** Sends `call` and reads its answer as JSON (an empty answer is `{}`); a redirect is refused. */
	private async json<T>(call: Call, itemIndex: number | undefined): Promise<T> {
		const answer = await this.send(call, itemIndex);
		if (isRedirect(answer.status)) throw await this.redirectFailure(answer, call, itemIndex);
		const text = answer.body.toString('utf8').replace(/^\uFEFF/, '');
		if (!text.trim()) return {} as T;
		let parsed: unknown;
		try {
			parsed = JSON.parse(text);
		} catch {
			const type = answer.headers['content-type'];
			const start = JSON.stringify(text.trimStart().slice(0, 20));
			throw await this.failure(
				new HttpFailure(
					'malformed',
					`the answer is not JSON (${type ? `content-type ${type}, ` : ''}starting with ${start})`,
					{ status: answer.status, problem: 'not-json' },
				),
				call,
				itemIndex,
			);
		}
		return this.scrub((parsed ?? {}) as T);
	}

	private cancelSignal(): AbortSignal | undefined {
		const ctx = this.ctx as Partial<Pick<IExecuteFunctions, 'getExecutionCancelSignal'>>;
		return typeof ctx.getExecutionCancelSignal === 'function'
			? ctx.getExecutionCancelSignal()
			: undefined;
	}

	private sender(call: Call, credentials: ICredentialsDecrypted): Sender {
		const ctx = this.ctx;
		// A side's key is in the headers `options()` added; n8n's authenticate would add the Base URL's key.
		const type = this.service.credentialType;
		if (!call.withCredential || call.side || !type)
			return async (options) => await ctx.helpers.httpRequest(options);
		return async (options, signal) => {
			// n8n's httpRequestWithAuthentication replaces a request's abortSignal with the execution's cancel
			// signal (n8n-core, request-helpers/authentication): it is handed a context whose cancel signal is this
			// request's, which fires at the deadline and when the execution is cancelled (see http.ts).
			const scoped = Object.create(ctx, {
				getExecutionCancelSignal: { value: () => signal },
			}) as IExecuteFunctions;
			return await ctx.helpers.httpRequestWithAuthentication.call(scoped, type, options, {
				credentialsDecrypted: credentials,
				// An empty list of "token expired" statuses stops n8n's own re-send after a 401 (see above).
				preAuthenticationRetryStatusCode: [],
			});
		};
	}

	private options(call: Call, data: ICredentialDataDecryptedObject): IHttpRequestOptions {
		// A side's key goes with the request only while it stays on that side's origin (`withCredential`).
		const sideHeaders = call.withCredential && call.side ? call.side.headers(data) : {};
		const options: IHttpRequestOptions = {
			method: call.method,
			url: call.url,
			headers: { ...call.headers, ...sideHeaders },
			json: call.kind !== 'download' && call.kind !== 'text',
		};
		if (call.query) options.qs = call.query;
		if (call.body !== undefined) options.body = call.body;
		return options;
	}

	/**
	 * Bounds the requests in flight (see RequestGate): from now on every request waits for a place in `gate`
	 * before it is sent and keeps it until its answer is read, re-sends included; undefined lifts the bound.
	 */
	throttle(gate: RequestGate | undefined): void {
		this.gate = gate;
	}

	/** `sendNow`, once the request has its place in the gate (when there is one). */
	private async send(call: Call, itemIndex: number | undefined): Promise<Answer> {
		const gate = this.gate;
		if (!gate) return await this.sendNow(call, itemIndex);
		return await gate.run(async () => {
			// Request Timeout counts from sending, not from waiting for a place (a caller's deadline still holds).
			Object.assign(call, this.timeLimit(call.deadline));
			return await this.sendNow(call, itemIndex);
		});
	}

	/**
	 * Sends `call` until it has an answer that is not an error status (a 2xx or a 3xx: the caller decides about
	 * redirects), re-sending what is safe to re-send, never past `call.endAt`; throws the failure otherwise.
	 */
	private async sendNow(call: Call, itemIndex: number | undefined): Promise<Answer> {
		const credentials = await this.loadCredentials();
		const data = credentials.data ?? {};
		// A request sent without the credential, or to a side (its own static key), has no token to refresh.
		const tokenField = call.withCredential && !call.side ? this.service.tokenField : undefined;
		let refreshed = false;
		// The last failure the service (or the network) gave this request, reported instead of a later
		// attempt that only ran out of the caller's time.
		let answered: Failure | undefined;
		// An earlier attempt of a keyed request may have been processed: whatever the last attempt says, the
		// request may have been processed (a later refusal may be the service's answer to a key still in use).
		let processedEarlier = false;

		for (let attempt = 1; ; ) {
			if (this.refreshing) await this.refreshing;
			if (tokenField && data[tokenField] === '' && this.tokenFailure)
				throw await this.failure(this.tokenFailure, call, itemIndex);
			const generation = this.tokenGeneration;
			// The first request to find the token refused fetches the new one: n8n runs preAuthentication
			// because the field is empty. Everyone else waits for it (above).
			let endRefresh: (() => void) | undefined;
			if (tokenField && data[tokenField] === '' && !this.refreshing) {
				this.refreshing = new Promise<void>((resolve) => (endRefresh = resolve));
			}
			let failure: Failure;
			// A keyed request's attempt that may be followed by another waits at most half the time left, so that a
			// re-send with the same key still fits before the request's deadline.
			const attemptEnd =
				call.idempotent && attempt < this.retry.maxAttempts
					? Math.min(call.endAt, clock.now() + Math.floor((call.endAt - clock.now()) / 2))
					: call.endAt;
			try {
				const answer = await exchange(this.sender(call, credentials), this.options(call, data), {
					deadline: attemptEnd,
					maxBytes: call.maxBytes,
					cancel: this.cancelSignal(),
					request: where(call),
				});
				if (answer.status < 400) return answer;
				failure = {
					kind: 'answer',
					status: answer.status,
					headers: answer.headers,
					body: parseBody(answer.body),
				};
			} catch (error) {
				const known = failureIn(error);
				// exchange() rejects with HttpFailures only: anything else is a fault of this code, reported as it is.
				if (!known)
					throw this.scrub(
						new NodeOperationError(
							this.node,
							error instanceof Error ? error.message : String(error),
							{ itemIndex },
						),
					);
				failure = known;
			} finally {
				if (tokenField && typeof data[tokenField] === 'string' && data[tokenField] !== '')
					this.known.add(data[tokenField] as string);
				if (endRefresh) {
					this.tokenGeneration++;
					this.refreshing = undefined;
					endRefresh();
				}
			}
			if (endRefresh && tokenField && data[tokenField] === '') this.tokenFailure = failure;
			// What the token request answered is final: the credential is refused, or the service is not answering it.
			if (failure.kind !== 'answer' && failure.details.token)
				throw await this.failure(failure, call, itemIndex);
			if (failure.kind === 'deadline' && attemptEnd < call.endAt) {
				// A keyed attempt's own share of the time ran out: sent again with the same key (below).
				processedEarlier = true;
			} else if (failure.kind === 'deadline') {
				// The time ran out: the last real answer says more than "no answer in time", when there was one.
				throw await this.failure(
					answered ?? failure,
					call,
					itemIndex,
					!answered && call.callerDeadline,
					processedEarlier,
				);
			}
			if (
				failure.kind === 'answer' &&
				failure.status === 401 &&
				tokenField &&
				!refreshed &&
				!endRefresh
			) {
				// Refused token: fetch a new one once (unless a refresh happened since this request was sent).
				refreshed = true;
				if (this.tokenGeneration === generation && !this.refreshing) data[tokenField] = '';
				continue;
			}
			// An expired token, re-sent above with a new one, is not what went wrong with this request.
			if (failure.kind !== 'deadline') answered = failure;
			const retryAfter = failure.kind === 'answer' ? failure.headers['retry-after'] : undefined;
			const final =
				failure.kind === 'answer' && this.service.finalAnswer?.(failure.status, failure.body);
			const wait =
				!final && shouldRetry(failure, call, attempt, this.retry)
					? retryDelay(attempt, retryAfter, this.retry)
					: undefined;
			if (wait === undefined || clock.now() + wait >= call.endAt)
				throw await this.failure(failure, call, itemIndex, false, processedEarlier);
			if (call.idempotent && mayHaveBeenProcessed(failure, call.method)) processedEarlier = true;
			attempt++;
			await clock.sleep(wait);
		}
	}

	/** `failure` as the NodeApiError to throw: with its facts, explained by the service, scrubbed. */
	private async failure(
		failure: Failure,
		call: Call,
		itemIndex: number | undefined,
		cutByDeadline = false,
		processedEarlier = false,
	): Promise<NodeApiError> {
		const error = this.toError(failure, call, itemIndex, processedEarlier);
		if (cutByDeadline) addFacts(error, { cutByDeadline });
		if (this.service.explain && failure.kind === 'answer' && call.withCredential) {
			await this.service.explain(
				error,
				{ method: call.method, path: call.path, side: call.side?.key },
				this,
			);
		}
		return this.scrub(error);
	}

	private toError(
		failure: Failure,
		call: Call,
		itemIndex: number | undefined,
		processedEarlier = false,
	): NodeApiError {
		return failureError(failure, call, itemIndex, processedEarlier, {
			service: this.service,
			credentials: this.credentials?.data ?? {},
			address: this.addressLabel(),
			timeoutMs: this.settings.timeoutMs ?? DEFAULT_TIMEOUT_MS,
			timeoutOption: this.settings.timeoutOption,
			scrub: (value) => this.scrub(value),
			node: this.node,
		});
	}
}
