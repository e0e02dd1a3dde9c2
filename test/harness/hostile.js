/** @import { RunResult } from './engine' */

/**
 * What the hostile-network tests look for: a secret in any form a service or a network could hand back
 * (as it is, JSON-escaped, URL-encoded, form-encoded), anywhere in what a run kept.
 */

/**
 * The forms of `secret` that must appear nowhere.
 * @returns {string[]}
 */
export function formsOf(secret) {
	return [
		...new Set([
			secret,
			JSON.stringify(secret).slice(1, -1),
			encodeURIComponent(secret),
			new URLSearchParams({ s: secret }).toString().slice(2),
		]),
	];
}

/**
 * Everything a run kept that a user or a log can see: its result data (every node's items and error items,
 * the error of the run) and every field of the error that stopped it (message, description, stack, the
 * service's answer, context, facts, cause, the node n8n attaches). Not the workflow itself (n8n's execution
 * stack holds the nodes with their parameters, as the workflow does).
 * @param {RunResult} result
 * @returns {string}
 */
export function everythingOf(result) {
	const e = /** @type {Record<string, unknown> | undefined} */ (
		/** @type {unknown} */ (result.error)
	);
	const fields = e
		? {
				message: e.message,
				description: e.description,
				stack: e.stack,
				messages: e.messages,
				errorResponse: e.errorResponse,
				context: e.context,
				facts: e.facts,
				cause:
					e.cause instanceof Error ? { message: e.cause.message, stack: e.cause.stack } : e.cause,
				node: e.node,
			}
		: {};
	return JSON.stringify({ resultData: result.run.data.resultData, error: fields });
}

/**
 * The forms of each secret found in `text` (an empty list when none leaked).
 * @param {string} text
 * @param {string[]} secrets
 * @returns {string[]}
 */
export function leaks(text, secrets) {
	return secrets.flatMap(formsOf).filter((form) => text.includes(form));
}

/** Request headers that carry a credential, in the spellings of the three services. */
export const CREDENTIAL_HEADERS = ['x-key', 'x-password', 'authorization', 'x-api-key'];

/**
 * The credential headers and secret body fields a request carried (what must never reach another origin).
 * @param {import('../simulator/server').SimRequest} request
 * @returns {string[]}
 */
export function credentialsIn(request) {
	const found = CREDENTIAL_HEADERS.filter((h) => request.headers[h] !== undefined);
	const body = /** @type {Record<string, unknown> | undefined} */ (request.body);
	if (body && typeof body === 'object' && 'client_secret' in body) found.push('client_secret');
	return found;
}
