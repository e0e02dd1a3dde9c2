import type { IDataObject, IHookFunctions, IWebhookFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';
import { receiptsClient } from '../../Receipts/transport';
import { factsOf } from '../../shared/errors';
import { answerProblem, receiptIdOf } from './receipt';

/**
 * Asking the receipts service before a run. The service does not sign its notifications (receipts service,
 * Events; its public documentation says the same), and every notification carries the account key: whoever
 * saw one delivery can send another that claims anything. So a run starts only on what the service itself
 * answers about the receipt (`GET /edocs/{id}`, X-Key only: reading signs nothing), unless the node's
 * Trust Notification Content option says otherwise.
 */

/** Options → Service Check Timeout: seconds, default and bounds. */
export const CHECK_TIMEOUT = { defaultSeconds: 5, minSeconds: 0.5, maxSeconds: 30 } as const;

export interface CheckOptions {
	/** Start runs on the notification's word, without reading the receipt (Options → Trust Notification Content). */
	trustPayload: boolean;
	/** Wall-clock milliseconds the read may take, retries included. */
	timeoutMs: number;
}

/**
 * The node's Options, checked: a timeout that is not a number of seconds in range is an error (named in
 * the editor at activation, in n8n's log at a delivery), never a read without a bound. Only `true` trusts the
 * payload: any other value keeps the check.
 */
export function checkOptions(ctx: IHookFunctions | IWebhookFunctions): CheckOptions {
	const options = ctx.getNodeParameter('options', {}) as IDataObject;
	const seconds = options.checkTimeout ?? CHECK_TIMEOUT.defaultSeconds;
	if (typeof seconds !== 'number' || !Number.isFinite(seconds) || seconds < CHECK_TIMEOUT.minSeconds || seconds > CHECK_TIMEOUT.maxSeconds) {
		throw new NodeOperationError(ctx.getNode(), `Options → Service Check Timeout must be a number of seconds from ${CHECK_TIMEOUT.minSeconds} to ${CHECK_TIMEOUT.maxSeconds}`, {
			description: `It is ${JSON.stringify(seconds)}. Set a number such as ${CHECK_TIMEOUT.defaultSeconds}, or remove the option to use ${CHECK_TIMEOUT.defaultSeconds} seconds.`,
		});
	}
	return { trustPayload: options.trustPayload === true, timeoutMs: Math.round(seconds * 1000) };
}

/**
 * What the service says about the receipt a notification names:
 * - `receipt`: its answer (state and messages as the service holds them; secrets already cut out);
 * - `unknown`: it does not know the receipt (404), or the notification names none that can be read. Waiting
 *   does not change that, so the delivery is acknowledged without a run (a genuine sender stops retrying);
 * - `unavailable`: no usable answer within the timeout (5xx, 429, a refused key, the network, a timeout, an
 *   answer that is not this receipt). That may pass, so the delivery is answered 503 without a run: a
 *   genuine sender tries again, and the sender's word is never taken instead.
 * The reason is for n8n's log: it names the receipt id only when that id is a safe path segment.
 */
export type ServiceCheck = { receipt: IDataObject } | { unknown: string } | { unavailable: string };

export async function checkWithService(ctx: IWebhookFunctions, notification: IDataObject, timeoutMs: number): Promise<ServiceCheck> {
	const id = receiptIdOf(notification);
	if (!id) return { unknown: 'the notification names no receipt id that can be read from the service (letters, digits, "_" and "-" only)' };
	const path = `/edocs/${id}`;
	let answer: IDataObject;
	try {
		answer = await receiptsClient(ctx).read(path, undefined, Date.now() + timeoutMs);
	} catch (error) {
		if (factsOf(error).status === 404) return { unknown: `the receipts service does not know receipt ${id} (GET ${path} answered 404)` };
		return { unavailable: `reading receipt ${id} from the receipts service failed (GET ${path}): ${(error as Error).message}` };
	}
	const problem = answerProblem(id, answer);
	return problem ? { unavailable: `GET ${path} did not answer with receipt ${id}: ${problem}` } : { receipt: answer };
}
