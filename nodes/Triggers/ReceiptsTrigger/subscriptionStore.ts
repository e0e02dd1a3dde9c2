import type { ICredentialDataDecryptedObject, IDataObject, IHookFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';
import { randomToken, sha256Hex } from '../signature';
import { isReceiptEvent, subscribeWebhook, type ReceiptEvent } from '../../Receipts/webhooks';
import { receiptsClient } from '../../Receipts/transport';
import { clock } from '../../shared/clock';
import type { ServiceClient } from '../../shared/transport';
import { keptMessage, mayHaveBeenProcessed } from '../../shared/errors';
import { trimEnd } from '../../shared/text';

/**
 * Subscriptions of the Receipts Trigger. The service offers `POST /webhooks {event_name, webhook_url}` and
 * nothing else: no delivery signature, no list, no removal (receipts service, POST /webhooks). So:
 * - each subscription gets its own random token, put in the subscribed URL (`?event=<name>&token=<token>`);
 *   only the token's SHA-256 is kept, in the node's static data (n8n saves what `create` writes there);
 * - the hash is written before the request is sent. An answer that says no (4xx, or a request that never
 *   left) means no subscription: its hash is dropped. An answer that never came (timeout, broken connection,
 *   5xx) may hide a subscription the service made: its hash is kept as unconfirmed, so that subscription's
 *   deliveries are accepted, never refused forever. The next activation asks again (a notification that then
 *   comes twice has one eventId and runs once), until MAX_UNCONFIRMED requests of one event went unanswered:
 *   then activation stops asking and listens to those (each request could have added a subscription that
 *   nothing can remove; failing every activation instead would leave the workflow inactive, deaf to them);
 * - subscriptions are made once per production URL, account and event, and kept: deactivation cannot remove
 *   them at the service, so it keeps their tokens too, and the next activation with the same URL and account
 *   reuses them instead of piling up new ones (each would deliver every event once more);
 * - listening for a test event subscribes nothing: a test session would leave a subscription behind that
 *   nothing can remove (see the node's notice).
 *
 * n8n saves the static data of an activation only when it succeeds. When `create` fails, n8n (2.41.1,
 * ActiveWorkflowManager.addWebhooks) runs `delete` on the workflow as saved, and saves what `delete` writes.
 * So a failing `create` leaves its state in this process (`unsaved`), and the next hook of the same node and
 * URL — that `delete`, or the next activation — writes it where n8n saves it.
 */

export const CREDENTIAL = 'receiptsApi';
const STATE_KEY = 'receiptsSubscriptions';

/** Subscription requests of one event left without an answer before activation stops asking again. */
const MAX_UNCONFIRMED = 3;

/** Whether `event` needs no new request: the service confirmed one, or MAX_UNCONFIRMED went unanswered. */
function settled(state: SubscriptionState, event: ReceiptEvent): boolean {
	return (
		state.events[event] !== undefined ||
		(state.unconfirmed?.[event]?.length ?? 0) >= MAX_UNCONFIRMED
	);
}

interface SubscriptionRecord {
	tokenHash: string;
	createdAt: string;
	remoteId?: string;
}

interface SubscriptionState {
	/** The n8n production webhook URL the subscriptions point at (without the query). */
	webhookUrl: string;
	/** SHA-256 of base URL + API key: a different account or service needs its own subscriptions. */
	account: string;
	/** The subscription the service confirmed, per event. */
	events: Partial<Record<ReceiptEvent, SubscriptionRecord>>;
	/** Requests whose answer never came, per event: each may be a subscription, so its token is accepted. */
	unconfirmed?: Partial<Record<ReceiptEvent, SubscriptionRecord[]>>;
}

/** State a failed activation wrote and n8n did not save, by workflow, node and URL (see above). */
const unsaved = new Map<string, SubscriptionState>();

function unsavedKey(ctx: IHookFunctions): string {
	const node = ctx.getNode();
	return [
		ctx.getWorkflow().id ?? '',
		node.id ?? node.name,
		ctx.getNodeWebhookUrl('default') ?? '',
	].join('\u0000');
}

function keepUnsaved(ctx: IHookFunctions, state: SubscriptionState): void {
	unsaved.delete(unsavedKey(ctx));
	unsaved.set(unsavedKey(ctx), JSON.parse(JSON.stringify(state)) as SubscriptionState); // a copy (static data is a proxy)
	// Bounded: one entry per node whose activation failed since its last hook.
	while (unsaved.size > 1000) unsaved.delete(unsaved.keys().next().value as string);
}

/** Writes what a failed activation of this node left unsaved into the static data n8n saves after this hook. */
function restoreUnsaved(ctx: IHookFunctions): void {
	const key = unsavedKey(ctx);
	const state = unsaved.get(key);
	if (!state) return;
	unsaved.delete(key);
	ctx.getWorkflowStaticData('node')[STATE_KEY] = state as unknown as IDataObject;
}

function baseUrlOf(credentials: ICredentialDataDecryptedObject): string {
	return trimEnd(String(credentials.baseUrl ?? ''), '/');
}

function accountOf(credentials: ICredentialDataDecryptedObject): string {
	return sha256Hex(`${baseUrlOf(credentials)}\n${String(credentials.apiKey ?? '')}`);
}

function readState(staticData: IDataObject): SubscriptionState | undefined {
	const state = staticData[STATE_KEY] as unknown as SubscriptionState | undefined;
	return state &&
		typeof state === 'object' &&
		typeof state.webhookUrl === 'string' &&
		state.events &&
		typeof state.events === 'object'
		? state
		: undefined;
}

function selectedEvents(ctx: IHookFunctions): ReceiptEvent[] {
	const events = ctx.getNodeParameter('events', []) as unknown[];
	return [...new Set(events.filter(isReceiptEvent))].sort();
}

function subscribedUrl(webhookUrl: string, event: ReceiptEvent, token: string): string {
	const url = new URL(webhookUrl);
	url.searchParams.set('event', event);
	url.searchParams.set('token', token);
	return url.toString();
}

function webhookUrlOf(ctx: IHookFunctions): string {
	const url = ctx.getNodeWebhookUrl('default');
	if (!url) throw new NodeOperationError(ctx.getNode(), 'n8n gave no webhook URL for this node');
	return url;
}

/** Listening for a test event ('manual'), as opposed to an active workflow. */
function isTestListening(ctx: IHookFunctions): boolean {
	return ctx.getMode() === 'manual';
}

/** The saved state, when it was made for this URL and account (so its subscriptions still deliver here). */
async function reusableState(ctx: IHookFunctions): Promise<SubscriptionState | undefined> {
	const state = readState(ctx.getWorkflowStaticData('node'));
	if (!state) return undefined;
	const credentials = await ctx.getCredentials(CREDENTIAL);
	return state.webhookUrl === webhookUrlOf(ctx) && state.account === accountOf(credentials)
		? state
		: undefined;
}

/**
 * True when every selected event needs no new subscription request to this URL and account (or when test
 * listening): it has a confirmed one, or MAX_UNCONFIRMED unanswered ones (said in n8n's log at warn level).
 */
export async function subscriptionsExist(this: IHookFunctions): Promise<boolean> {
	if (isTestListening(this)) return true;
	restoreUnsaved(this);
	const state = await reusableState(this);
	if (!state) return false;
	const events = selectedEvents(this);
	for (const event of events) {
		if (state.events[event] === undefined && settled(state, event)) {
			this.logger.warn(
				`Receipts Trigger: the receipts service never answered ${MAX_UNCONFIRMED} requests to subscribe to "${event}"; not asking again. Their notifications are accepted if those subscriptions exist; if none arrive, delete this trigger node and add a new one (a new URL subscribes afresh).`,
			);
		}
	}
	return events.every((event) => settled(state, event));
}

/**
 * Subscribes each selected event that has no confirmed subscription to this URL and account yet, each with a
 * fresh token whose hash is stored before the request is sent (see the top of this file for what is kept
 * when the answer says no and when it never comes). Subscriptions already made for this URL and account are
 * kept (also for events no longer selected: their deliveries are then acknowledged without a run instead of
 * refused).
 */
export async function subscribe(this: IHookFunctions): Promise<boolean> {
	if (isTestListening(this)) return true;
	restoreUnsaved(this);
	const events = selectedEvents(this);
	if (events.length === 0) {
		throw new NodeOperationError(this.getNode(), 'Select at least one event to subscribe to');
	}
	const credentials = await this.getCredentials(CREDENTIAL);
	const base = baseUrlOf(credentials);
	if (!base)
		throw new NodeOperationError(this.getNode(), 'The Receipts credential has no Base URL');
	const webhookUrl = webhookUrlOf(this);
	const staticData = this.getWorkflowStaticData('node');
	const state: SubscriptionState = (await reusableState(this)) ?? {
		webhookUrl,
		account: accountOf(credentials),
		events: {},
	};
	const store = () => {
		staticData[STATE_KEY] = state as unknown as IDataObject;
	};
	const api = receiptsClient(this);

	for (const event of events) {
		if (settled(state, event)) continue;
		const waiting = state.unconfirmed?.[event] ?? [];
		const token = randomToken();
		// The token is a secret like the key: a refusal that quotes the subscribed URL must not show it.
		api.keepSecret(token);
		const record: SubscriptionRecord = {
			tokenHash: sha256Hex(token),
			createdAt: new Date(clock.now()).toISOString(),
		};
		state.unconfirmed = { ...state.unconfirmed, [event]: [...waiting, record] };
		store(); // before the request: an answer that never comes must not lose the token of a subscription the service made
		let answer: IDataObject;
		try {
			answer = await subscribeWebhook(api, {
				event_name: event,
				webhook_url: subscribedUrl(webhookUrl, event, token),
			});
		} catch (error) {
			const mayExist = mayHaveBeenProcessed(error);
			if (!mayExist) forgetUnconfirmed(state, event, record); // a definite no: there is no subscription
			store();
			keepUnsaved(this, state); // n8n does not save the static data of a failed activation (see above)
			const cause = error as Error & { description?: string };
			if (mayExist) {
				throw subscriptionError(
					api,
					cause,
					`The receipts service did not confirm the subscription to "${event}": ${cause.message}`,
					`The request may have made the subscription before its answer was lost. If it did, its notifications are accepted (its token is kept). Activate the workflow again to send one more request: if both subscriptions exist, each notification comes twice, with one eventId, and runs once. After ${MAX_UNCONFIRMED} requests without an answer, activation stops asking and listens to those.`,
				);
			}
			throw subscriptionError(
				api,
				cause,
				`Could not subscribe to "${event}" in the receipts service: ${cause.message}`,
				`${cause.description ?? 'Check the Receipts credential (Base URL, API key) and that the service is up.'} No subscription was made for "${event}"; subscriptions made before it are kept.`,
			);
		}
		forgetUnconfirmed(state, event, record);
		state.events[event] = {
			...record,
			// Only an id from the answer (its shape is not documented; it may echo the URL with the token).
			...(remoteIdOf(answer) ? { remoteId: remoteIdOf(answer) } : {}),
		};
		store();
	}
	store();
	return true;
}

/**
 * The activation's error, with our message kept (errors.ts, keptMessage),
 * through the client's scrubber: no key, certificate password or subscription token in any spelling.
 */
function subscriptionError(
	api: ServiceClient,
	cause: Error,
	message: string,
	description: string,
): NodeOperationError {
	return api.scrub(
		keptMessage(new NodeOperationError(api.node, cause, { message, description }), message),
	);
}

function forgetUnconfirmed(
	state: SubscriptionState,
	event: ReceiptEvent,
	record: SubscriptionRecord,
): void {
	const left = (state.unconfirmed?.[event] ?? []).filter((r) => r.tokenHash !== record.tokenHash);
	const unconfirmed = { ...state.unconfirmed };
	if (left.length) unconfirmed[event] = left;
	else delete unconfirmed[event];
	if (Object.keys(unconfirmed).length) state.unconfirmed = unconfirmed;
	else delete state.unconfirmed;
}

function remoteIdOf(answer: unknown): string | undefined {
	if (!answer || typeof answer !== 'object' || Array.isArray(answer)) return undefined;
	const id = (answer as IDataObject).id;
	return typeof id === 'string' || typeof id === 'number' ? String(id) : undefined;
}

/**
 * The service has no removal operation, so nothing is removed and the saved subscriptions are kept for the
 * next activation (n8n does not route deliveries to an inactive workflow meanwhile). It saves what a failed
 * activation of this node left unsaved (n8n runs this after such a failure). Returns true: there is nothing
 * else that could be done.
 */
export async function unsubscribe(this: IHookFunctions): Promise<boolean> {
	restoreUnsaved(this);
	return true;
}

/** The token hashes a delivery of `event` may match: its confirmed subscription and the unconfirmed requests. */
export function tokenHashesFor(staticData: IDataObject, event: ReceiptEvent): string[] {
	const state = readState(staticData);
	if (!state) return [];
	const confirmed = state.events[event]?.tokenHash;
	const unconfirmed = (state.unconfirmed?.[event] ?? []).map((r) => r.tokenHash);
	return [...(confirmed ? [confirmed] : []), ...unconfirmed].filter(
		(h) => typeof h === 'string' && h !== '',
	);
}
