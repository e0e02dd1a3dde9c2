import type {
	ICredentialDataDecryptedObject,
	IDataObject,
	IHttpRequestMethods,
	INode,
	JsonObject,
} from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';
import { clock } from './clock';
import { addFacts, keptMessage, type FailureFacts } from './errors';
import { megabytes, originOf, type HttpFailure } from './http';
import { markupWords, withoutQuery } from './text';

/**
 * What the one client (transport.ts) knows about a request that failed: whether it may have been processed,
 * whether it may be sent again (and after how long), and the NodeApiError that says what happened — status,
 * the service's words, where a redirect pointed, sizes — in words a user can act on.
 */

/** What `failureError` reads of the client whose request failed. */
interface FailingClient {
	service: {
		name: string;
		credentialType?: string;
		credentialLabel?: string;
		describeError(
			status: number,
			body: unknown,
			answer?: { token: boolean; side?: string },
		): { message: string; description?: string; said?: string };
	};
	/** The credential's data (a side's address label reads it). */
	credentials: ICredentialDataDecryptedObject;
	/** Where the user sets the service's address, as messages name it. */
	address: string;
	timeoutMs: number;
	timeoutOption?: string;
	scrub<T>(value: T): T;
	node: INode;
}

/** Redirects a download follows at most. */
export const MAX_REDIRECTS = 5;

export interface RetryPolicy {
	/** Total attempts including the first. */
	maxAttempts: number;
	baseDelayMs: number;
	maxDelayMs: number;
	/** A Retry-After longer than this is not waited for: the error is reported instead. */
	maxRetryAfterMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = {
	maxAttempts: 4,
	baseDelayMs: 500,
	maxDelayMs: 8000,
	maxRetryAfterMs: 60000,
};

/** Network failures where the request never reached the service: safe to re-send anything. */
const NOT_SENT_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN']);

/** Milliseconds to wait before attempt `attempt + 1`, or undefined to give up. */
export function retryDelay(
	attempt: number,
	retryAfter: string | undefined,
	policy: RetryPolicy,
	random = Math.random,
): number | undefined {
	if (retryAfter !== undefined && retryAfter.trim() !== '') {
		const seconds = Number(retryAfter);
		const ms = Number.isFinite(seconds) ? seconds * 1000 : Date.parse(retryAfter) - clock.now();
		if (Number.isFinite(ms)) return ms > policy.maxRetryAfterMs ? undefined : Math.max(0, ms);
	}
	// Exponential backoff with "equal jitter": half fixed, half random, so parallel callers spread out.
	const exp = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (attempt - 1));
	return exp / 2 + random() * (exp / 2);
}

/** A failure of one attempt: an error status the service answered, or an HttpFailure (no usable answer). */
export type Failure =
	| { kind: 'answer'; status: number; headers: Record<string, string>; body: unknown }
	| HttpFailure;

export const where = (call: SentRequest) => `${call.method} ${call.path}`;

function statusOf(failure: Failure): number | undefined {
	return failure.kind === 'answer' ? failure.status : failure.details.status;
}

/** Whether the service may have done what was asked although no usable answer says so. */
export function mayHaveBeenProcessed(failure: Failure, method: IHttpRequestMethods): boolean {
	if (failure.kind === 'answer') return failure.status >= 500;
	// The token request failed: the request itself was never sent.
	if (failure.details.token) return false;
	// 307 and 308 ask for the same request elsewhere: not done. A write answered 301, 302 or 303 may have been
	// done already ("created, now look there").
	if (failure.kind === 'redirect')
		return method !== 'GET' && [301, 302, 303].includes(failure.details.status ?? 0);
	if (failure.kind === 'status') return (failure.details.status ?? 0) >= 500;
	if (failure.kind === 'network')
		return failure.details.status !== undefined
			? failure.details.status < 400 || failure.details.status >= 500
			: !NOT_SENT_CODES.has(failure.details.code ?? '');
	if (failure.kind === 'too-large')
		return (failure.details.status ?? 200) < 400 || (failure.details.status ?? 0) >= 500;
	// deadline, cancelled (no complete answer), malformed (a success whose body cannot be read)
	return true;
}

/**
 * Reads the service's `message`/`error` fields from an error body, whatever its exact shape; a text body (an
 * HTML error page, say) gives its text without markup, at most 300 characters, read from the first kilobytes
 * of the body in one scan (text.ts): an answer of 120,000 `<` is no slower to read than any other.
 */
export function bodyMessage(body: unknown): string | undefined {
	if (typeof body === 'string') {
		const text = markupWords(body);
		return text ? (text.length > 300 ? `${text.slice(0, 300)}…` : text) : undefined;
	}
	if (!body || typeof body !== 'object') return undefined;
	const b = body as Record<string, unknown>;
	for (const key of ['message', 'error_description', 'error', 'detail']) {
		const value = b[key];
		if (typeof value === 'string' && value) return value;
		if (
			value &&
			typeof value === 'object' &&
			typeof (value as Record<string, unknown>).message === 'string'
		) {
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

/** One request as the client sends it. */
export interface SentRequest {
	kind: 'read' | 'write' | 'sign' | 'download' | 'text';
	method: IHttpRequestMethods;
	url: string;
	/** The path below the base address, or the address without its query (another host), for messages. */
	path: string;
	query?: IDataObject;
	body?: IDataObject | IDataObject[] | string;
	headers: IDataObject;
	/**
	 * Whether the credential (and the signing secret) go with it: only to the origin of the address the request
	 * was built on — the credential's Base URL, or its side's.
	 */
	withCredential: boolean;
	/** The side it goes to (ServiceDefinition.sides): that side's headers instead of the credential's `authenticate`. */
	side?: {
		key: string;
		name: string;
		addressLabel(credentials: ICredentialDataDecryptedObject): string;
	};
	/** Safe to send twice (see FailureFacts.repeatable). */
	repeatable: boolean;
	/**
	 * Carries the service's idempotency key (WriteOptions.idempotencyKey): re-sent after a lost answer with the
	 * same key, also when its own share of the time ran out, but reported as a write that may have been processed
	 * when every attempt failed.
	 */
	idempotent?: boolean;
	maxBytes: number;
	/** Epoch milliseconds the request must be over by, retries included. */
	endAt: number;
	/** The caller's deadline (a wait's), not the request's own time, is what `endAt` is. */
	callerDeadline: boolean;
	/** Redirects followed before this request (downloads). */
	hops: number;
}

/**
 * Whether attempt `attempt` may be followed by another. Never after 401/403 (the credential is wrong). Any
 * request after a 429 (not processed: the service asks to come back later) or a refused connection
 * (nothing reached the service). After a 5xx or a connection that broke once the request was sent, only
 * requests that are safe to repeat: an issue, a delete or a message could otherwise happen twice, or a
 * success be reported as a failure — and requests that carry the service's idempotency key (the service
 * answers the same key with its first response), also after their own share of the time ran out. Never after
 * a redirect, an oversized or unreadable answer.
 */
export function shouldRetry(
	failure: Failure,
	call: SentRequest,
	attempt: number,
	retry: RetryPolicy,
): boolean {
	if (attempt >= retry.maxAttempts) return false;
	const repeatable = call.repeatable || call.idempotent === true;
	if (failure.kind === 'deadline') return call.idempotent === true;
	if (failure.kind === 'answer') {
		if (failure.status === 429) return true;
		return repeatable && failure.status >= 500;
	}
	if (failure.kind !== 'network') return false;
	if (failure.details.status === undefined && NOT_SENT_CODES.has(failure.details.code ?? ''))
		return true;
	return repeatable;
}

export function failureError(
	failure: Failure,
	call: SentRequest,
	itemIndex: number | undefined,
	processedEarlier: boolean,
	client: FailingClient,
): NodeApiError {
	// Who answered (a side has a name of its own), and the credential field that holds its address.
	const name = call.side?.name ?? client.service.name;
	const address = call.side
		? `${call.side.addressLabel(client.credentials)} of the ${client.service.name} credential`
		: client.address;
	const request =
		failure.kind !== 'answer' && failure.details.request ? failure.details.request : where(call);
	const processed = processedEarlier || mayHaveBeenProcessed(failure, call.method);
	const caution =
		processed && !call.repeatable
			? ' The request may have been processed before the answer was lost: check in the service before sending it again.'
			: '';
	const status = statusOf(failure);
	const facts: FailureFacts = {
		status,
		mayHaveBeenProcessed: processed,
		repeatable: call.repeatable || !processed,
	};
	if (call.hops) facts.hops = call.hops;
	let message: string;
	let description: string | undefined;
	let body: JsonObject = {
		message: failure.kind === 'answer' ? `HTTP ${failure.status}` : failure.message,
	};
	if (failure.kind === 'answer') {
		const scrubbed = client.scrub(failure.body);
		if (scrubbed && typeof scrubbed === 'object' && !Array.isArray(scrubbed))
			body = scrubbed as JsonObject;
		else if (scrubbed !== undefined) body = { message: String(scrubbed).slice(0, 2000) };
		if (
			!call.withCredential &&
			client.service.credentialType &&
			(failure.status === 401 || failure.status === 403)
		) {
			// Not "the key was refused": none was sent.
			const label = client.service.credentialLabel ?? 'credential';
			message = `HTTP ${failure.status} to a request without the ${label}`;
			description = `${originOf(call.url)} is not the origin of the ${address}, so the ${label} was not sent there (it is never sent to another host). A file address that needs it cannot be downloaded here: open it in a browser to see what it asks for.`;
		} else {
			const described = client.service.describeError(failure.status, scrubbed, {
				token: false,
				side: call.side?.key,
			});
			facts.said = described.said ?? bodyMessage(scrubbed);
			message = described.message;
			description = `${described.description ? `${described.description} ` : ''}(${request}, HTTP ${failure.status})${caution}`;
		}
	} else if (failure.kind === 'status') {
		// An error status that ended a request of its own (the token request): the service's words, as for any answer.
		const scrubbed = client.scrub(failure.details.body);
		if (scrubbed && typeof scrubbed === 'object' && !Array.isArray(scrubbed))
			body = scrubbed as JsonObject;
		const described = client.service.describeError(failure.details.status ?? 0, scrubbed, {
			token: failure.details.token === true,
		});
		facts.said = described.said ?? bodyMessage(scrubbed);
		message = described.message;
		description = `${described.description ? `${described.description} ` : ''}(${request}, HTTP ${failure.details.status ?? '?'})`;
	} else if (failure.kind === 'network') {
		const code = failure.details.code ?? 'network error';
		if (failure.details.status === undefined) {
			message = `${name} could not be reached (${code})`;
			description = `${request} failed before an answer arrived. Check the ${address} and that the service is up.${caution}`;
		} else {
			message = `${name}: ${failure.message} (${code})`;
			description = `${request} was answered (HTTP ${failure.details.status}), but ${failure.message}.${caution}`;
		}
	} else if (failure.kind === 'deadline') {
		const seconds = Math.max(1, Math.round((failure.details.allowedMs ?? client.timeoutMs) / 1000));
		message = `${name} did not answer in time (no complete answer within ${seconds} s)`;
		const limit = call.callerDeadline
			? 'the time left before the wait’s Timeout'
			: `the most one request may take${client.timeoutOption ? ` (${client.timeoutOption})` : ''}, retries included`;
		description = `${request} had no complete answer within ${seconds} s, ${limit}. An answer that arrives slowly is cut at that time too.${caution}`;
	} else if (failure.kind === 'cancelled') {
		message = `${name}: the execution was cancelled while ${request} waited for its answer`;
		description = caution.trim() || undefined;
	} else if (failure.kind === 'too-large') {
		const { bytes = 0, limit = call.maxBytes, announced = false } = failure.details;
		facts.size = { bytes, limit, announced };
		const size = announced
			? `it announced ${megabytes(bytes)}`
			: `more than ${megabytes(limit)} arrived`;
		if (call.kind === 'download') {
			message = `${name}: the file is larger than ${megabytes(limit)} (${size})`;
			description = `${request}: the download was stopped at the Max File Size of ${megabytes(limit)} and nothing was kept. If the file is expected to be this large, raise Max File Size.`;
		} else {
			message = `${name}: the answer is larger than ${megabytes(limit)} (${size})`;
			description = `${request}: a ${name} answer is read up to ${megabytes(limit)}; this one was stopped there and nothing was kept.${caution}`;
		}
	} else if (failure.kind === 'redirect') {
		const to = failure.details.location ?? '';
		const shown = withoutQuery(to);
		facts.redirectedTo = shown || undefined;
		if (call.kind === 'download' && call.hops >= MAX_REDIRECTS && originOf(to)) {
			message = `${name}: more than ${MAX_REDIRECTS} redirects (${request})`;
			description = `The address redirected again and again (last to ${shown}); a download follows at most ${MAX_REDIRECTS}.`;
		} else if (call.kind === 'download') {
			message = `${name}: a redirect (HTTP ${failure.details.status ?? '?'}) to ${shown ? `"${shown}", which is not an http(s) address` : 'no address'}`;
			description = `${request} was redirected somewhere a download cannot follow. Nothing was downloaded.`;
		} else {
			message = `${name} answered ${request} with a redirect (HTTP ${failure.details.status ?? '?'}), which was not followed`;
			description =
				`It pointed to ${shown || 'no address'}. ${client.service.credentialType ? `Requests that carry the ${name} credential` : `Requests to ${name}`} never follow a redirect, so nothing was sent there. ` +
				`Check the ${address}: it must be the service's own address (for example https:// instead of http://, and no extra path).${caution}`;
		}
	} else {
		// malformed: a success status whose body is not what it should be
		message = `${name}: ${failure.message}`;
		description = `${request} answered HTTP ${failure.details.status ?? '?'}, but ${failure.message}. Check the ${address}: it must be the service's own address.${caution}`;
	}
	const error = new NodeApiError(client.node, body, {
		message,
		description,
		httpCode: status !== undefined ? String(status) : undefined,
		itemIndex,
	});
	error.description = description ?? null;
	return addFacts(keptMessage(error, message), facts);
}
