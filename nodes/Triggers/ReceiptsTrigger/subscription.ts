import type { ICredentialDataDecryptedObject, IDataObject, IHookFunctions, JsonObject } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';
import { randomToken, sha256Hex } from '../../shared/signature';
import { isReceiptEvent, type ReceiptEvent } from './receipt';

/**
 * Subscriptions of the Receipts Trigger. The service offers `POST /webhooks {event_name, webhook_url}` and
 * nothing else: no delivery signature, no list, no removal. So each subscription gets its own random token,
 * put in the subscribed URL (`?event=<name>&token=<token>`); only the token's SHA-256 is kept, in the node's
 * static data (n8n saves what `create`/`delete` write there). A delivery must present a known token for its
 * event, and the account's API key in its `api-key` field. Deactivating forgets the tokens, so deliveries of
 * subscriptions that cannot be removed fail closed (401) from then on.
 */

export const CREDENTIAL = 'receiptsApi';
const STATE_KEY = 'receiptsSubscriptions';

export interface SubscriptionState {
	/** The n8n webhook URL the subscriptions point at (without the query). */
	webhookUrl: string;
	/** SHA-256 of base URL + API key: a different account or service needs new subscriptions. */
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

/** True when the saved subscriptions match this activation (same URL, account and events): nothing to do. */
export async function subscriptionsExist(this: IHookFunctions): Promise<boolean> {
	const state = readState(this.getWorkflowStaticData('node'));
	if (!state) return false;
	const credentials = await this.getCredentials(CREDENTIAL);
	const events = selectedEvents(this);
	const saved = Object.keys(state.events).sort();
	return (
		state.webhookUrl === webhookUrlOf(this) &&
		state.account === accountOf(credentials) &&
		saved.length === events.length &&
		saved.every((e, i) => e === events[i])
	);
}

/** Subscribes once per selected event, each with a fresh token; replaces (and so revokes) earlier tokens. */
export async function subscribe(this: IHookFunctions): Promise<boolean> {
	const events = selectedEvents(this);
	if (events.length === 0) {
		throw new NodeOperationError(this.getNode(), 'Select at least one event to subscribe to');
	}
	const credentials = await this.getCredentials(CREDENTIAL);
	const base = baseUrlOf(credentials);
	if (!base) throw new NodeOperationError(this.getNode(), 'The Receipts credential has no Base URL');
	const webhookUrl = webhookUrlOf(this);
	const staticData = this.getWorkflowStaticData('node');
	const state: SubscriptionState = { webhookUrl, account: accountOf(credentials), events: {} };
	// Forget earlier tokens first: whatever happens below, old subscriptions no longer deliver.
	delete staticData[STATE_KEY];

	const headers: IDataObject = { Accept: 'application/json' };
	if (typeof credentials.certificatePassword === 'string' && credentials.certificatePassword !== '') {
		headers['X-Password'] = credentials.certificatePassword;
	}
	for (const event of events) {
		const token = randomToken();
		let answer: unknown;
		try {
			answer = await this.helpers.httpRequestWithAuthentication.call(this, CREDENTIAL, {
				method: 'POST',
				url: `${base}/webhooks`,
				headers,
				body: { event_name: event, webhook_url: subscribedUrl(webhookUrl, event, token) },
				json: true,
			});
		} catch (error) {
			// Keep the subscriptions already made usable, then report.
			if (Object.keys(state.events).length > 0) staticData[STATE_KEY] = state as unknown as IDataObject;
			throw new NodeApiError(this.getNode(), error as JsonObject, {
				message: `Could not subscribe to "${event}" in the receipts service`,
				description: `POST ${base}/webhooks failed. Check the Receipts credential (Base URL, API key) and that the service is up.`,
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
 * The service has no removal operation: forget the tokens, so the remote subscriptions' deliveries are
 * refused (401) from now on. Returns true: there is nothing else that could be done.
 */
export async function unsubscribe(this: IHookFunctions): Promise<boolean> {
	const staticData = this.getWorkflowStaticData('node');
	delete staticData[STATE_KEY];
	return true;
}

/** The saved token hash for a delivery's event, if that event is subscribed. */
export function tokenHashFor(staticData: IDataObject, event: ReceiptEvent): string | undefined {
	return readState(staticData)?.events[event]?.tokenHash;
}
