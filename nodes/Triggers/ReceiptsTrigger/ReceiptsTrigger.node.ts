import type {
	IDataObject,
	IHookFunctions,
	INodeType,
	INodeTypeDescription,
	IWebhookFunctions,
	IWebhookResponseData,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';
import { safeEqual, sha256Hex } from '../signature';
import { redact } from '../../shared/redact';
import { RECEIPTS_DESCRIPTION } from '../../Receipts/description';
import { credentialTest } from '../../Receipts/methods/credentialTest';
import { isReceiptEvent } from '../../Receipts/webhooks';
import {
	acknowledge,
	handleDelivery,
	memoryOf,
	parseJsonObject,
	postpone,
	receivedRequest,
	refuse as refuseDelivery,
} from '../webhookIo';
import { checkOptions, checkTimeoutField, checkWithService, trustPayloadField } from './check';
import { checkedReceipt, notificationEventId } from './receipt';
import {
	CREDENTIAL,
	subscribe,
	subscriptionsExist,
	tokenHashesFor,
	unsubscribe,
} from './subscriptionStore';

/** Names this node in n8n's log. */
const TRIGGER = 'Receipts Trigger';

/** A notification is remembered for a day; the service's retry policy is not documented. */
const RECEIPT_MEMORY = { maxEntries: 20000, ttlMs: 24 * 60 * 60 * 1000 };

/**
 * Receives the Ecuadorian electronic-receipts service's notifications (`receipt-issued`, `issue-error`).
 * Activation subscribes this node's URL once per selected event, each with its own secret token in the URL;
 * a delivery must carry a known token for its event and the account's API key (`api-key` field). The key is
 * masked in the output. Before a run, the receipt is read from the service and the run carries the service's
 * state and messages, not the notification's (see check.ts). A notification already accepted is acknowledged
 * and ignored.
 */
export class ReceiptsTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Receipts (Ecuador) Trigger',
		name: 'receiptsTrigger',
		icon: { light: 'file:receiptsTrigger.svg', dark: 'file:receiptsTrigger.dark.svg' },
		group: ['trigger'],
		version: 1,
		subtitle: '={{$parameter["events"].join(", ")}}',
		// n8n's node panel shows this description for the Receipts entry (see Receipts/description.ts).
		description: `${RECEIPTS_DESCRIPTION}; this trigger starts a workflow when a receipt is authorized, rejected or fails to issue`,
		defaults: { name: 'Receipts (Ecuador) Trigger' },
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'receiptsApi', required: true, testedBy: 'receiptsApiTest' }],
		webhooks: [
			{
				name: 'default',
				httpMethod: 'POST',
				responseMode: 'onReceived',
				path: 'receipts',
			},
		],
		properties: [
			{
				displayName:
					'Activating the workflow subscribes this node in the receipts service once per event; later activations reuse those subscriptions (the service cannot remove them). Listening for a test event subscribes nothing, so it only receives what you send to the Test URL yourself: activate the workflow to see real notifications.',
				name: 'setupNotice',
				type: 'notice',
				default: '',
			},
			{
				displayName: 'Events',
				name: 'events',
				type: 'multiOptions',
				required: true,
				options: [
					{
						name: 'Issue Error',
						value: 'issue-error',
						description:
							'A step of the issue process failed (receipt CREADO: not signed, or DEVUELTO)',
					},
					{
						name: 'Receipt Issued',
						value: 'receipt-issued',
						description: 'The issue process ended: AUTORIZADO or NO AUTORIZADO',
					},
				],
				default: ['receipt-issued', 'issue-error'],
				description: 'Which notifications to subscribe to',
			},
			{
				displayName: 'Options',
				name: 'options',
				type: 'collection',
				placeholder: 'Add option',
				default: {},
				options: [checkTimeoutField, trustPayloadField],
			},
		],
	};

	methods = { credentialTest };

	webhookMethods = {
		default: {
			async checkExists(this: IHookFunctions): Promise<boolean> {
				checkOptions(this); // a wrong option stops the activation, where the user sees it
				return await subscriptionsExist.call(this);
			},
			async create(this: IHookFunctions): Promise<boolean> {
				return await subscribe.call(this);
			},
			async delete(this: IHookFunctions): Promise<boolean> {
				return await unsubscribe.call(this);
			},
		},
	};

	async webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
		return await handleDelivery(this, TRIGGER, receive);
	}
}

const refuse = (ctx: IWebhookFunctions, reason: string) => refuseDelivery(ctx, TRIGGER, reason);

/**
 * One delivery, in this order: the URL's event and token, the body, the account key (each failure the same
 * 401); the event selected; not already received; then the service's word on the receipt (unless the node
 * trusts the notification), and only then is the delivery recorded as received and a run started. A
 * delivery the service could not be asked about now is not recorded, so its redelivery is checked again.
 */
async function receive(this: IWebhookFunctions): Promise<IWebhookResponseData> {
	const req = receivedRequest(this);
	const event = req.query.event;
	const token = req.query.token;
	const testListening = this.getMode() === 'manual';
	if (!isReceiptEvent(event)) return refuse(this, 'unknown or missing event in the URL');
	if (!testListening) {
		// Production: the token of a subscription this node made (test listening subscribes nothing, see subscriptionStore.ts).
		if (typeof token !== 'string' || token === '') return refuse(this, 'missing token');
		const hashed = sha256Hex(token);
		if (
			!tokenHashesFor(this.getWorkflowStaticData('node'), event).some((expected) =>
				safeEqual(hashed, expected),
			)
		)
			return refuse(this, 'unknown token');
	}

	const receipt = parseJsonObject(req.rawBody, req.body);
	if (!receipt) return refuse(this, 'body is not a JSON object');

	const credentials = await this.getCredentials(CREDENTIAL);
	if (receipt['api-key'] === undefined) return refuse(this, 'missing api-key');
	if (!safeEqual(receipt['api-key'], credentials.apiKey))
		return refuse(this, 'api-key does not match the credential');

	const selected = this.getNodeParameter('events', []) as string[];
	if (!selected.includes(event)) return acknowledge(this, TRIGGER, `event ${event} not selected`);

	const options = checkOptions(this);
	const eventId = notificationEventId(event, receipt);
	const memory = memoryOf(this, 'receipts', RECEIPT_MEMORY);
	if (memory.has(eventId)) return acknowledge(this, TRIGGER, `event ${eventId} already received`);

	let output: IDataObject;
	if (options.trustPayload) {
		output = { ...receipt, stateFrom: 'notification' };
	} else {
		const checked = await checkWithService(this, receipt, options.timeoutMs);
		if ('unknown' in checked)
			return acknowledge(
				this,
				TRIGGER,
				`${event} notification not run: ${checked.unknown}`,
				'warn',
			);
		if ('unavailable' in checked)
			return postpone(this, TRIGGER, `${event} notification not checked: ${checked.unavailable}`);
		output = { ...checkedReceipt(receipt, checked.receipt), stateFrom: 'service' };
	}
	// Claimed only now: two copies checked at once start one run.
	if (!memory.claim(eventId))
		return acknowledge(this, TRIGGER, `event ${eventId} already received`);

	const secrets = [credentials.apiKey, credentials.certificatePassword].filter(
		(s): s is string => typeof s === 'string',
	);
	return {
		workflowData: [this.helpers.returnJsonArray({ ...redact(output, secrets), event, eventId })],
	};
}
