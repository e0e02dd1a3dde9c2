/** @import { RunResult } from './engine' */

import { spellingsOf } from '../simulator/spellings';

/**
 * What the hostile-network tests look for: a secret in any spelling a service or a network could hand back
 * (test/simulator/spellings.js: as it is, the JSON escapes of several platforms, URL- and form-encoded, HTML
 * references, base64), anywhere in what a run kept.
 */

/**
 * The spellings of `secret` that must appear nowhere.
 * @returns {string[]}
 */
export function formsOf(secret) {
	return [...new Set(Object.values(spellingsOf(secret)))];
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
 * The spellings of each secret found in `text` (an empty list when none leaked). `text` may be a plain text (a
 * log) or JSON (a run): a spelling is also looked for as JSON writes it inside a string.
 * @param {string} text
 * @param {string[]} secrets
 * @returns {string[]}
 */
export function leaks(text, secrets) {
	return secrets
		.flatMap(formsOf)
		.filter((form) => text.includes(form) || text.includes(JSON.stringify(form).slice(1, -1)));
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

/**
 * Runs `run` while sampling this process's memory every 20 ms (a generous guard of what a run may take, never a
 * timed bound): the run's result and how far heap and RSS grew above where they were when it started.
 * @template T
 * @param {() => Promise<T>} run
 * @returns {Promise<{ result: T; heapGrowth: number; rssGrowth: number }>}
 */
export async function withMemoryPeak(run) {
	const start = process.memoryUsage();
	let heap = start.heapUsed;
	let rss = start.rss;
	const sample = () => {
		const now = process.memoryUsage();
		heap = Math.max(heap, now.heapUsed);
		rss = Math.max(rss, now.rss);
	};
	const timer = setInterval(sample, 20);
	try {
		const result = await run();
		sample();
		return { result, heapGrowth: heap - start.heapUsed, rssGrowth: rss - start.rss };
	} finally {
		clearInterval(timer);
	}
}
