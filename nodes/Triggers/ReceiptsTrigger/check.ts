import type {
	ICredentialDataDecryptedObject,
	IDataObject,
	IHookFunctions,
	INodeProperties,
	IWebhookFunctions,
} from 'n8n-workflow';
import { receiptsService } from '../../Receipts/transport';
import { clock } from '../../shared/clock';
import { factsOf } from '../../shared/errors';
import { fixedPath, path } from '../../shared/path';
import { triggerNumberOption } from '../../shared/options';
import { DEFAULT_RETRY } from '../../shared/failures';
import { ServiceClient } from '../../shared/transport';
import { answerProblem, receiptIdOf, WHOLE_RECEIPT_READS } from './receipt';

/**
 * Asking the receipts service before a run. The service does not sign its notifications (receipts service,
 * Events; its public documentation says the same), and every notification carries the account key: whoever
 * saw one delivery can send another that claims anything. So a run starts only on what the service itself
 * answers about the receipt (X-Key only: reading signs nothing), and outputs only that, unless the node's
 * Trust Notification Content option says otherwise.
 */

/** Options → Service Check Timeout: the form's bounds are the rule (shared/options.ts). */
export const checkTimeoutField: INodeProperties = {
	displayName: 'Service Check Timeout (Seconds)',
	name: 'checkTimeout',
	type: 'number',
	typeOptions: { minValue: 0.5, maxValue: 30, numberPrecision: 1 },
	default: 5,
	description:
		'How long reading the notified receipt from the receipts service may take (at most two reads, never re-sent). When the time runs out the notification is answered 503 (so the service sends it again) and no run starts.',
};

/** Options → Trust Notification Content. */
export const trustPayloadField: INodeProperties = {
	displayName: 'Trust Notification Content',
	name: 'trustPayload',
	type: 'boolean',
	default: false,
	description:
		'Whether to start the run with the state the notification claims, without reading the receipt from the receipts service (saves one read per notification). Risky: the service does not sign its notifications, so anyone who has seen one (its URL and the account key it carries) can then start runs that say any receipt is AUTORIZADO, or that the service never issued.',
};

interface CheckOptions {
	/** Start runs on the notification's word, without reading the receipt (Options → Trust Notification Content). */
	trustPayload: boolean;
	/** Wall-clock milliseconds the reads may take together. */
	timeoutMs: number;
}

/**
 * The node's Options, checked: a timeout out of the form's range, or not a number, is an error (it stops the
 * activation, where the user sees it, and a delivery answered 500, with the reason in n8n's log), never a
 * read without a bound. Only `true` trusts the payload: any other value keeps the check.
 */
export function checkOptions(ctx: IHookFunctions | IWebhookFunctions): CheckOptions {
	const seconds = triggerNumberOption.call(ctx, checkTimeoutField, { inOptions: true });
	const trustPayload = ctx.getNodeParameter(`options.${trustPayloadField.name}`, false) === true;
	return { trustPayload, timeoutMs: Math.round(seconds * 1000) };
}

/**
 * What the service says about the receipt a notification names:
 * - `receipt`: the receipt as the service holds it (secrets already cut out): its whole record when the service
 *   has a read for its kind (WHOLE_RECEIPT_READS), else its `GET /edocs/{id}` answer;
 * - `unknown`: it does not know the receipt (404), or the notification names none that can be read. Waiting
 *   does not change that, so the delivery is acknowledged without a run (a genuine sender stops retrying);
 * - `unavailable`: no usable answer within the timeout (5xx, 429, a refused key, the network, a timeout, an
 *   answer that is not this receipt). That may pass, so the delivery is answered 503 without a run: a
 *   genuine sender tries again, and the sender's word is never taken instead.
 * The reason is for n8n's log: it names the receipt id only when that id is a safe path segment.
 */
type ServiceCheck = { receipt: IDataObject } | { unknown: string } | { unavailable: string };

/**
 * Asks the service about the receipt `notification` names, with the credential fields a delivery needs
 * (`credentials`, read through the trigger's cache): `GET /edocs/{id}` (any receipt kind: its state, type and
 * authorization), then, when its type has one, the read of the whole receipt, which a run outputs instead. Each
 * is sent once, never re-sent: whoever can send notifications (they are not signed) makes the service read at
 * most twice per notification, and a failing service is not asked again and again. A whole read that
 * fails leaves the run with what `GET /edocs/{id}` said.
 */
export async function checkWithService(
	ctx: IWebhookFunctions,
	notification: IDataObject,
	timeoutMs: number,
	credentials: ICredentialDataDecryptedObject,
): Promise<ServiceCheck> {
	const id = receiptIdOf(notification);
	if (!id)
		return {
			unknown:
				'the notification names no receipt id that can be read from the service (letters, digits, "_" and "-" only)',
		};
	const api = checkClient(ctx, credentials);
	const deadline = clock.now() + timeoutMs;
	const address = path`/edocs/${id}`;
	let answer: IDataObject;
	try {
		answer = await api.read(address, undefined, { deadline });
	} catch (error) {
		if (factsOf(error).status === 404)
			return {
				unknown: `the receipts service does not know receipt ${id} (GET ${address.text} answered 404)`,
			};
		return {
			unavailable: `reading receipt ${id} from the receipts service failed (GET ${address.text}): ${(error as Error).message}`,
		};
	}
	const problem = answerProblem(id, answer);
	if (problem)
		return { unavailable: `GET ${address.text} did not answer with receipt ${id}: ${problem}` };
	const kindPath = WHOLE_RECEIPT_READS[String(answer.tipo ?? '')];
	if (!kindPath) return { receipt: answer };
	try {
		const whole = await api.read(path`${fixedPath(kindPath)}/${id}`, undefined, { deadline });
		if (!answerProblem(id, whole)) return { receipt: whole };
	} catch {
		// Not this kind's record after all (a plain retention is 07 too), or the read failed: the state is known.
	}
	return { receipt: answer };
}

/**
 * The Receipts client of one delivery: the credential fields given (no second credential read), and every
 * request sent once (at most two reads per notification).
 */
function checkClient(
	ctx: IWebhookFunctions,
	credentials: ICredentialDataDecryptedObject,
): ServiceClient {
	const withCredentials = Object.create(ctx, {
		getCredentials: { value: async () => credentials },
	}) as IWebhookFunctions;
	return new ServiceClient(
		withCredentials,
		receiptsService,
		{},
		{ ...DEFAULT_RETRY, maxAttempts: 1 },
	);
}
