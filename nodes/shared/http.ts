import type { IHttpRequestOptions } from 'n8n-workflow';
import { clock } from './clock';

/**
 * The one request primitive of the package: one HTTP exchange whose status, headers and body bytes stay under
 * our control. Every request the package makes — the service clients (transport.ts) and the Partners token
 * request (its credential's `preAuthentication`) — goes through `exchange`, which asks n8n's HTTP helper for:
 * - `disableFollowRedirect`: the helper would otherwise follow a redirect and keep custom headers (X-Key,
 *   X-Password, the bearer token, a token request's client secret) on the way to another host. A 3xx answer
 *   comes back here like any other; what to do with it is the caller's decision;
 * - `ignoreHttpStatusErrors` + `returnFullResponse`: every status arrives as an answer, with its headers;
 * - `encoding: 'stream'`: the body is read here, chunk by chunk, against a byte cap (refused as soon as it is
 *   passed, or before reading when Content-Length announces more), so an oversized answer is never buffered
 *   whole;
 * - a wall-clock deadline: the helper's own `timeout` is an idle timer that every byte resets (a service
 *   sending one byte every 400 ms is never cut), so the whole exchange — waiting for the answer and reading it
 *   — runs against an AbortSignal that fires at the deadline, whatever the service sends meanwhile.
 * Plain functions and one error class, no n8n context.
 */

/** Why an exchange ended without an answer the caller can use. */
type HttpFailureKind =
	/** The connection failed (refused, reset, unknown host…); `code` names it when known. */
	| 'network'
	/** No complete answer before the deadline. */
	| 'deadline'
	/** The execution was cancelled while waiting. */
	| 'cancelled'
	/** The answer is larger than allowed. */
	| 'too-large'
	/** The answer is a redirect (3xx), which was not followed. */
	| 'redirect'
	/** An error status (used where a status ends the exchange, e.g. the token request). */
	| 'status'
	/** A success status whose body is not what was expected (e.g. not JSON, no access token). */
	| 'malformed';

interface HttpFailureDetails {
	/** `METHOD /path` of the request, for messages (never the full address with its query). */
	request?: string;
	status?: number;
	headers?: Record<string, string>;
	/** The answer's body: parsed JSON when it is JSON, otherwise its text. */
	body?: unknown;
	/** Socket error code (ECONNREFUSED, ECONNRESET, ENOTFOUND…). */
	code?: string;
	/** What is wrong with a `malformed` answer, in words that finish "the answer …". */
	problem?: string;
	/** `too-large`: bytes received (or announced by Content-Length) and the limit. */
	bytes?: number;
	limit?: number;
	announced?: boolean;
	/** `redirect`: where it pointed. */
	location?: string;
	/** `deadline`: how long the exchange was allowed, in milliseconds. */
	allowedMs?: number;
	/**
	 * The failure is the credential's token request's (its `preAuthentication`), not the request it was
	 * fetched for: that request was never sent.
	 */
	token?: boolean;
}

/**
 * A failed exchange, as a value with typed fields (`kind` and `details`): callers decide from those, never
 * from the message. It can travel through n8n's helpers (which wrap what a credential's `preAuthentication`
 * throws in a NodeApiError whose `cause` it becomes): `failureIn` finds it there.
 */
export class HttpFailure extends Error {
	/** Brand that survives n8n's wrapping, checked by `failureIn`. */
	readonly httpFailure = true;

	constructor(
		readonly kind: HttpFailureKind,
		message: string,
		readonly details: HttpFailureDetails = {},
	) {
		super(message);
		this.name = 'HttpFailure';
	}
}

/** The HttpFailure `error` is, or wraps (n8n puts a helper's error in `cause`), if any. */
export function failureIn(error: unknown): HttpFailure | undefined {
	let current: unknown = error;
	for (let depth = 0; depth < 4 && current && typeof current === 'object'; depth++) {
		if ((current as { httpFailure?: unknown }).httpFailure === true) return current as HttpFailure;
		current = (current as { cause?: unknown }).cause;
	}
	return undefined;
}

/** The socket error code of an error thrown by n8n's HTTP helper (it may be wrapped once or twice). */
function networkCodeOf(error: unknown): string | undefined {
	let current: unknown = error;
	for (let depth = 0; depth < 4 && current && typeof current === 'object'; depth++) {
		const code = (current as { code?: unknown }).code;
		if (typeof code === 'string' && /^E[A-Z_]+$/.test(code)) return code;
		current = (current as { cause?: unknown }).cause;
	}
	return undefined;
}

/** One complete answer: status, headers (names in lower case) and the body's bytes. */
export interface Answer {
	status: number;
	headers: Record<string, string>;
	body: Buffer;
}

interface ExchangeLimits {
	/** Epoch milliseconds by which the whole answer must have arrived. */
	deadline: number;
	/** The largest body accepted, in bytes. */
	maxBytes: number;
	/** Aborts the exchange from outside (the execution was cancelled). */
	cancel?: AbortSignal;
	/** `METHOD /path`, for messages. */
	request?: string;
}

/** Sends one request with n8n's helper (with or without the credential) under the given abort signal. */
export type Sender = (options: IHttpRequestOptions, signal: AbortSignal) => Promise<unknown>;

/** How long after the deadline the helper's own idle timer closes a connection nobody waits for (see exchange). */
const IDLE_BACKSTOP_MS = 30_000;

/** 3xx: a redirect, never followed by the HTTP helper (see above). */
export function isRedirect(status: number): boolean {
	return status >= 300 && status < 400;
}

/** `scheme://host:port` of an http(s) address, or undefined when it is not one. */
export function originOf(address: string): string | undefined {
	try {
		const url = new URL(address);
		return url.protocol === 'http:' || url.protocol === 'https:' ? url.origin : undefined;
	} catch {
		return undefined;
	}
}

/** Megabytes as people read them in a message: "10 MB", "0.5 MB". */
export function megabytes(bytes: number): string {
	const mb = bytes / (1024 * 1024);
	return `${mb >= 10 ? Math.round(mb) : Math.round(mb * 10) / 10} MB`;
}

interface Readable {
	on(event: string, listener: (...args: unknown[]) => void): unknown;
	removeListener(event: string, listener: (...args: unknown[]) => void): unknown;
	destroy(error?: Error): unknown;
}

function isReadable(value: unknown): value is Readable {
	return (
		!!value &&
		typeof value === 'object' &&
		typeof (value as Readable).on === 'function' &&
		typeof (value as Readable).destroy === 'function'
	);
}

/** Closes a body stream nobody will read (its connection is then closed too). */
function discard(body: unknown): void {
	if (isReadable(body)) body.destroy();
}

function lowerCaseHeaders(raw: unknown): Record<string, string> {
	const headers: Record<string, string> = {};
	if (!raw || typeof raw !== 'object') return headers;
	for (const [key, value] of Object.entries(raw as Record<string, unknown>)) {
		if (value !== undefined && value !== null && typeof value !== 'function')
			headers[key.toLowerCase()] = Array.isArray(value) ? value.join(', ') : String(value);
	}
	return headers;
}

function tooLarge(
	limits: ExchangeLimits,
	bytes: number,
	announced: boolean,
	status: number,
): HttpFailure {
	return new HttpFailure('too-large', `the answer is larger than ${megabytes(limits.maxBytes)}`, {
		request: limits.request,
		status,
		bytes,
		limit: limits.maxBytes,
		announced,
	});
}

function broken(
	limits: ExchangeLimits,
	message: string,
	status: number | undefined,
	code: string | undefined,
): HttpFailure {
	return new HttpFailure('network', message, { request: limits.request, status, code });
}

function stopped(limits: ExchangeLimits, allowedMs: number): HttpFailure {
	if (limits.cancel?.aborted)
		return new HttpFailure('cancelled', 'the execution was cancelled', { request: limits.request });
	return new HttpFailure(
		'deadline',
		`no complete answer within ${Math.max(1, Math.round(allowedMs / 1000))} s`,
		{ request: limits.request, allowedMs },
	);
}

/**
 * Reads a body to the end, refusing it once it passes `limits.maxBytes` and abandoning it when `signal`
 * fires. Resolves or rejects exactly once, whatever order the stream's events come in.
 */
function readBody(
	body: unknown,
	limits: ExchangeLimits,
	signal: AbortSignal,
	status: number,
	allowedMs: number,
): Promise<Buffer> {
	if (body === undefined || body === null || body === '') return Promise.resolve(Buffer.alloc(0));
	if (!isReadable(body)) {
		// A helper that answered with a buffer or text after all (e.g. n8n's evaluation mocks).
		const bytes = Buffer.isBuffer(body)
			? body
			: typeof body === 'string'
				? Buffer.from(body)
				: Buffer.from(JSON.stringify(body));
		return bytes.length > limits.maxBytes
			? Promise.reject(tooLarge(limits, bytes.length, false, status))
			: Promise.resolve(bytes);
	}
	return new Promise<Buffer>((resolve, reject) => {
		const chunks: Buffer[] = [];
		let total = 0;
		let settled = false;
		const finish = (error?: unknown) => {
			if (settled) return;
			settled = true;
			body.removeListener('data', onData);
			body.removeListener('end', onEnd);
			body.removeListener('error', onError);
			body.removeListener('close', onClose);
			signal.removeEventListener('abort', onAbort);
			if (error) {
				body.destroy();
				reject(error);
			} else {
				resolve(Buffer.concat(chunks));
			}
		};
		const onData = (chunk: unknown) => {
			const bytes = Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk));
			total += bytes.length;
			if (total > limits.maxBytes) return finish(tooLarge(limits, total, false, status));
			chunks.push(bytes);
		};
		const onEnd = () => finish();
		const onError = (error: unknown) =>
			finish(
				signal.aborted
					? stopped(limits, allowedMs)
					: broken(
							limits,
							'the connection broke while the answer was read',
							status,
							networkCodeOf(error) ?? 'ECONNRESET',
						),
			);
		const onClose = () =>
			finish(
				broken(
					limits,
					'the connection closed before the answer was complete',
					status,
					'ECONNRESET',
				),
			);
		const onAbort = () => finish(stopped(limits, allowedMs));
		if (signal.aborted) return onAbort();
		signal.addEventListener('abort', onAbort, { once: true });
		body.on('data', onData);
		body.on('end', onEnd);
		body.on('error', onError);
		// 'close' after 'end' is normal and finds the promise settled already.
		body.on('close', onClose);
	});
}

/** `pending`, unless `signal` fires first; an answer that arrives after that has its body closed. */
function unlessAborted<T>(
	pending: Promise<T>,
	signal: AbortSignal,
	onAbort: () => Error,
): Promise<T> {
	return new Promise<T>((resolve, reject) => {
		let settled = false;
		const abort = () => {
			if (settled) return;
			settled = true;
			reject(onAbort());
			pending.then(
				(late) => discard((late as { body?: unknown } | undefined)?.body),
				() => undefined,
			);
		};
		if (signal.aborted) return abort();
		signal.addEventListener('abort', abort, { once: true });
		pending.then(
			(value) => {
				signal.removeEventListener('abort', abort);
				if (settled) return discard((value as { body?: unknown } | undefined)?.body);
				settled = true;
				resolve(value);
			},
			(error: unknown) => {
				signal.removeEventListener('abort', abort);
				if (settled) return;
				settled = true;
				reject(error);
			},
		);
	});
}

/**
 * Why an exchange's deadline timer stops: the exchange is over (nobody reads it, see exchange). One Error for
 * all: n8n's sleep rejects with the abort's reason, made an Error when it is not one.
 */
const EXCHANGE_OVER = new Error('the exchange is over');

/**
 * Sends `options` once with `send` and reads the whole answer within `limits` (see the top of this file).
 * Resolves with any status, 3xx included; rejects with an HttpFailure (`network`, `deadline`, `cancelled`,
 * `too-large`) when no complete answer arrived.
 */
export async function exchange(
	send: Sender,
	options: IHttpRequestOptions,
	limits: ExchangeLimits,
): Promise<Answer> {
	const allowedMs = Math.floor(limits.deadline - clock.now());
	if (allowedMs <= 0) throw stopped(limits, 0);
	// The deadline's timer is the one clock's (clock.ts, which tests drive), stopped as soon as the exchange is over.
	const deadline = new AbortController();
	const over = new AbortController();
	void clock.sleep(allowedMs, over.signal).then(
		() => deadline.abort(),
		() => undefined,
	);
	const signal = limits.cancel
		? AbortSignal.any([deadline.signal, limits.cancel])
		: deadline.signal;
	let complete = false;
	try {
		const answer = await exchangeUntil(send, options, limits, signal, allowedMs);
		complete = true;
		return answer;
	} finally {
		// With a reason made once: without one, abort() builds a DOMException (a stack trace) at the end of every
		// exchange, on the way from one answer to the next request.
		over.abort(EXCHANGE_OVER);
		// An exchange that ends without its whole answer (too large, cut, broken) aborts the request, so its
		// connection is closed instead of left waiting for a body nobody reads.
		if (!complete) deadline.abort();
	}
}

async function exchangeUntil(
	send: Sender,
	options: IHttpRequestOptions,
	limits: ExchangeLimits,
	signal: AbortSignal,
	allowedMs: number,
): Promise<Answer> {
	const request: IHttpRequestOptions = {
		...options,
		disableFollowRedirect: true,
		ignoreHttpStatusErrors: true,
		returnFullResponse: true,
		encoding: 'stream',
		// The helper's own timer is an idle timer on the real clock, kept only as a backstop that closes a socket
		// whose helper ignores the abort signal (n8n's legacy request helper, which the credential tests use): the
		// deadline above decides. Were it as short as the deadline, a busy process could let it fire first, on
		// another clock than the deadline's (the engine tests run the deadline on a fake clock), and call an
		// answer that was on its way a failure to connect.
		timeout: allowedMs + IDLE_BACKSTOP_MS,
		abortSignal: signal,
	};
	let response: { statusCode?: unknown; headers?: unknown; body?: unknown };
	try {
		response = (await unlessAborted(send(request, signal), signal, () =>
			stopped(limits, allowedMs),
		)) as typeof response;
	} catch (error) {
		if (signal.aborted && !failureIn(error)) throw stopped(limits, allowedMs);
		throw (
			failureIn(error) ??
			broken(limits, 'the request failed before an answer arrived', undefined, networkCodeOf(error))
		);
	}
	const status = Number(response?.statusCode);
	const headers = lowerCaseHeaders(response?.headers);
	const announced = Number(headers['content-length']);
	if (Number.isFinite(announced) && announced > limits.maxBytes) {
		discard(response?.body);
		throw tooLarge(limits, announced, true, status);
	}
	const body = await readBody(response?.body, limits, signal, status, allowedMs);
	return { status, headers, body };
}

/** The body as parsed JSON when it is JSON, otherwise as trimmed text (undefined when empty). */
export function parseBody(body: Buffer): unknown {
	const text = body.toString('utf8').replace(/^\uFEFF/, '');
	if (!text.trim()) return undefined;
	try {
		return JSON.parse(text) as unknown;
	} catch {
		return text.trim();
	}
}
