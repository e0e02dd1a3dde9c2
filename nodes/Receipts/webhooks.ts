import type { IDataObject } from 'n8n-workflow';
import { path } from '../shared/path';
import type { ServiceClient } from '../shared/transport';

/**
 * The receipts service's notifications and the one client of `POST /webhooks`, used by the Receipts node
 * (Webhook → Subscribe) and by the Receipts Trigger (on activation).
 *
 * No `X-Password`: the spec sends the certificate password "on issuing operations", and subscribing issues
 * nothing (receipts service, Authentication). The account key (`X-Key`, added by the credential) is enough.
 * Not re-sent after a lost answer: the service cannot list or remove subscriptions, and a second one would
 * deliver every event twice (receipts service, POST /webhooks).
 */

export const RECEIPT_EVENTS = ['receipt-issued', 'issue-error'] as const;
export type ReceiptEvent = (typeof RECEIPT_EVENTS)[number];

export function isReceiptEvent(value: unknown): value is ReceiptEvent {
	return typeof value === 'string' && (RECEIPT_EVENTS as readonly string[]).includes(value);
}

interface Subscription {
	event_name: ReceiptEvent;
	webhook_url: string;
}

/** Subscribes `webhookUrl` to one event. Returns the service's answer (its shape is not documented). */
export async function subscribeWebhook(
	api: ServiceClient,
	subscription: Subscription,
	itemIndex?: number,
): Promise<IDataObject> {
	return await api.write(path`/webhooks`, itemIndex, { body: { ...subscription } });
}
