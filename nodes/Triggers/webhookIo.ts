import type { IDataObject, IWebhookFunctions, IWebhookResponseData } from 'n8n-workflow';
import { deliveryMemory, type DedupOptions, type DedupStore } from './dedup';

/** Request headers as Node gives them: lower-case names. */
export type IncomingHttpHeaders = Record<string, string | string[] | undefined>;

/**
 * What the two trigger nodes share about n8n's webhook plumbing: reading the request as received, answering
 * without starting an execution, and finding this node's in-process delivery memory.
 */

/** The parts of n8n's (express) request a trigger reads. */
interface ReceivedRequest {
	/** Exact bytes received; n8n sets it before calling `webhook()`. */
	rawBody?: Buffer;
	headers: IncomingHttpHeaders;
	query: Record<string, unknown>;
	/** n8n's parse of the body (JSON content types only). */
	body?: unknown;
}

interface ExpressLikeResponse {
	status(code: number): { json(body: unknown): unknown };
}

export function receivedRequest(ctx: IWebhookFunctions): ReceivedRequest {
	const req = ctx.getRequestObject() as unknown as Partial<ReceivedRequest>;
	return {
		rawBody: Buffer.isBuffer(req.rawBody) ? req.rawBody : undefined,
		headers: req.headers ?? {},
		query: (req.query as Record<string, unknown> | undefined) ?? {},
		body: req.body,
	};
}

/**
 * Answers the HTTP request now and tells n8n not to answer again and not to start an execution.
 * (Verified in real n8n: `{ noWebhookResponse: true }` without `workflowData` starts nothing.)
 */
export function answerWithoutExecution(
	ctx: IWebhookFunctions,
	status: number,
	body: IDataObject,
): IWebhookResponseData {
	const res = ctx.getResponseObject() as unknown as ExpressLikeResponse;
	res.status(status).json(body);
	return { noWebhookResponse: true };
}

/** The one answer every refused delivery gets, whatever the reason: a forger learns nothing from it. */
const REFUSAL = Object.freeze({ error: 'unauthorized' });

/** What a genuine delivery that starts nothing gets: a redelivery, or an event the node does not listen to. */
const ACKNOWLEDGED = Object.freeze({ received: true });

/** Refuses a delivery: 401 with the same short body every time, no execution; the reason goes to n8n's log only. */
export function refuse(
	ctx: IWebhookFunctions,
	trigger: string,
	reason: string,
): IWebhookResponseData {
	ctx.logger.warn(`${trigger} refused a delivery: ${reason}`);
	return answerWithoutExecution(ctx, 401, { ...REFUSAL });
}

/**
 * Acknowledges a genuine delivery without starting an execution (200, so the service stops retrying). The
 * answer is the same whether it was already seen, is of an event type not selected or is about a receipt the
 * service does not know, and again on every redelivery. `level` is the log's: `warn` when someone should look
 * (a notification no run came of), `debug` for the routine cases.
 */
export function acknowledge(
	ctx: IWebhookFunctions,
	trigger: string,
	why: string,
	level: 'debug' | 'warn' = 'debug',
): IWebhookResponseData {
	ctx.logger[level](`${trigger} acknowledged a delivery without starting the workflow: ${why}`);
	return answerWithoutExecution(ctx, 200, { ...ACKNOWLEDGED });
}

/** What a delivery that could not be checked now gets: the same short body every time. */
const UNAVAILABLE = Object.freeze({ error: 'unavailable' });

/**
 * Answers 503 without an execution: the delivery could not be checked now (the service it is checked with did
 * not answer usably in time) and may be genuine, so the sender should send it again. The reason goes to
 * n8n's log only (warn level).
 */
export function postpone(
	ctx: IWebhookFunctions,
	trigger: string,
	reason: string,
): IWebhookResponseData {
	ctx.logger.warn(
		`${trigger} answered 503 and started no run (a genuine sender sends it again): ${reason}`,
	);
	return answerWithoutExecution(ctx, 503, { ...UNAVAILABLE });
}

/**
 * Runs a trigger's delivery handler so that it never throws: n8n starts an (error) execution for a
 * throwing trigger, so an unexpected failure is answered 500 and starts nothing.
 */
export async function handleDelivery(
	ctx: IWebhookFunctions,
	trigger: string,
	receive: (this: IWebhookFunctions) => Promise<IWebhookResponseData>,
): Promise<IWebhookResponseData> {
	try {
		return await receive.call(ctx);
	} catch (error) {
		ctx.logger.error(`${trigger} could not handle a delivery: ${(error as Error).message}`);
		return answerWithoutExecution(ctx, 500, {
			error: 'internal',
			message: 'The delivery could not be handled',
		});
	}
}

/**
 * In-process memory of one trigger node in one workflow, separately for production ('webhook') and test
 * ('manual') deliveries. Not `getWorkflowStaticData`: n8n does not save what `webhook()` writes there.
 */
export function memoryOf(
	ctx: IWebhookFunctions,
	purpose: string,
	options?: DedupOptions,
): DedupStore {
	const node = ctx.getNode();
	const namespace = [ctx.getWorkflow().id ?? '', node.id ?? node.name, ctx.getMode(), purpose].join(
		'\u0000',
	);
	return deliveryMemory.get(namespace, options);
}

/** Parses the raw bytes as a JSON object; undefined when they are not one. */
export function parseJsonObject(
	raw: Buffer | undefined,
	fallback: unknown,
): IDataObject | undefined {
	let value: unknown = fallback;
	if (raw !== undefined) {
		try {
			const text = raw.toString('utf8');
			value = JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
		} catch {
			return undefined;
		}
	}
	return value !== null && typeof value === 'object' && !Array.isArray(value)
		? (value as IDataObject)
		: undefined;
}

/** The header value as one string, or undefined when absent. */
export function headerValue(
	headers: IncomingHttpHeaders,
	name: string,
): string | string[] | undefined {
	return headers[name.toLowerCase()];
}
