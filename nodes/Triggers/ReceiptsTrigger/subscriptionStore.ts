import type { ICredentialDataDecryptedObject, IDataObject, IHookFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';
import { randomToken, sha256Hex } from '../signature';
import { isReceiptEvent, subscribeWebhook, type ReceiptEvent } from '../../Receipts/webhooks';
import { receiptsClient } from '../../Receipts/transport';

/**
 * Subscriptions of the Receipts Trigger. The service offers `POST /webhooks {event_name, webhook_url}` and
 * nothing else: no delivery signature, no list, no removal (receipts service, POST /webhooks). So:
 * - each subscription gets its own random token, put in the subscribed URL (`?event=<name>&token=<token>`);
 *   only the token's SHA-256 is kept, in the node's static data (n8n saves what `create` writes there);
 * - subscriptions are made once per production URL, account and event, and kept: deactivation cannot remove
 *   them at the service, so it keeps their tokens too, and the next activation with the same URL and account
 *   reuses them instead of piling up new ones (each would deliver every event once more);
 * - listening for a test event subscribes nothing: a test session would leave a subscription behind that
 *   nothing can remove (see the node's notice).
 */

export const CREDENTIAL = 'receiptsApi';
const STATE_KEY = 'receiptsSubscriptions';

export interface SubscriptionState {
	/** The n8n production webhook URL the subscriptions point at (without the query). */
	webhookUrl: string;
	/** SHA-256 of base URL + API key: a different account or service needs its own subscriptions. */
	account: string;
	events: Partial<Record<ReceiptEvent, { tokenHash: string; createdAt: string; remoteId?: string }>>;
}

export function baseUrlOf(credentials: ICredentialDataDecryptedObject): string {
	return String(credentials.baseUrl ?? '').replace(/\/+$/, '');
}

export function accountOf(credentials: ICredentialDataDecryptedObject): string {
	return sha256Hex(`${baseUrlOf(credentials)}\n${String(credentials.apiKey ?? '')}`);
}

export function readState(staticData: IDataObject): SubscriptionState | undefined {
	const state = staticData[STATE_KEY] as unknown as SubscriptionState | undefined;
	return state && typeof state === 'object' && typeof state.webhookUrl === 'string' ? state : undefined;
}

export function selectedEvents(ctx: IHookFunctions): ReceiptEvent[] {
	const events = ctx.getNodeParameter('events', []) as unknown[];
	return [...new Set(events.filter(isReceiptEvent))].sort();
}

export function subscribedUrl(webhookUrl: string, event: ReceiptEvent, token: string): string {
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
export function isTestListening(ctx: IHookFunctions): boolean {
	return ctx.getMode() === 'manual';
}

/** The saved state, when it was made for this URL and account (so its subscriptions still deliver here). */
async function reusableState(ctx: IHookFunctions): Promise<SubscriptionState | undefined> {
	const state = readState(ctx.getWorkflowStaticData('node'));
	if (!state) return undefined;
	const credentials = await ctx.getCredentials(CREDENTIAL);
	return state.webhookUrl === webhookUrlOf(ctx) && state.account === accountOf(credentials) ? state : undefined;
}

/** True when every selected event already has a subscription to this URL and account (or when test listening). */
export async function subscriptionsExist(this: IHookFunctions): Promise<boolean> {
	if (isTestListening(this)) return true;
	const state = await reusableState(this);
	return !!state && selectedEvents(this).every((event) => state.events[event] !== undefined);
}

/**
 * Subscribes each selected event that has no subscription to this URL and account yet, each with a fresh
 * token. Subscriptions already made for this URL and account are kept (also for events no longer selected:
 * their deliveries are then acknowledged without a run instead of refused).
 */
export async function subscribe(this: IHookFunctions): Promise<boolean> {
	if (isTestListening(this)) return true;
	const events = selectedEvents(this);
	if (events.length === 0) {
		throw new NodeOperationError(this.getNode(), 'Select at least one event to subscribe to');
	}
	const credentials = await this.getCredentials(CREDENTIAL);
	const base = baseUrlOf(credentials);
	if (!base) throw new NodeOperationError(this.getNode(), 'The Receipts credential has no Base URL');
	const webhookUrl = webhookUrlOf(this);
	const staticData = this.getWorkflowStaticData('node');
	const state: SubscriptionState = (await reusableState(this)) ?? { webhookUrl, account: accountOf(credentials), events: {} };
	const api = receiptsClient(this);

	for (const event of events) {
		if (state.events[event]) continue;
		const token = randomToken();
		let answer: IDataObject;
		try {
			answer = await subscribeWebhook(api, { event_name: event, webhook_url: subscribedUrl(webhookUrl, event, token) });
		} catch (error) {
			// Keep what was subscribed so far (it delivers), then report.
			staticData[STATE_KEY] = state as unknown as IDataObject;
			const cause = error as Error & { description?: string };
			throw new NodeOperationError(this.getNode(), cause, {
				message: `Could not subscribe to "${event}" in the receipts service: ${cause.message}`,
				description: cause.description ?? 'Check the Receipts credential (Base URL, API key) and that the service is up.',
			});
		}
		state.events[event] = {
			tokenHash: sha256Hex(token),
			createdAt: new Date().toISOString(),
			// Only an id from the answer (its shape is not documented; it may echo the URL with the token).
			...(remoteIdOf(answer) ? { remoteId: remoteIdOf(answer) } : {}),
		};
	}
	staticData[STATE_KEY] = state as unknown as IDataObject;
	return true;
}

function remoteIdOf(answer: unknown): string | undefined {
	if (!answer || typeof answer !== 'object' || Array.isArray(answer)) return undefined;
	const id = (answer as IDataObject).id;
	return typeof id === 'string' || typeof id === 'number' ? String(id) : undefined;
}

/**
 * The service has no removal operation, so nothing is removed and the saved subscriptions are kept for the
 * next activation (n8n does not route deliveries to an inactive workflow meanwhile). Returns true: there is
 * nothing else that could be done.
 */
export async function unsubscribe(this: IHookFunctions): Promise<boolean> {
	return true;
}

/** The saved token hash for a delivery's event, if that event is subscribed. */
export function tokenHashFor(staticData: IDataObject, event: ReceiptEvent): string | undefined {
	return readState(staticData)?.events[event]?.tokenHash;
}
