import type {
	ICredentialDataDecryptedObject,
	IDataObject,
	IHookFunctions,
	INodeType,
	INodeTypeDescription,
	IWebhookFunctions,
	IWebhookResponseData,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';
import { SecretCache } from '../secretCache';
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
import { eventOfState, notificationEventId, receiptIdOf } from './receipt';
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
 * a delivery must carry a known token for its event and the account's API key (`api-key` field). Before a run,
 * the receipt is read from the service (see check.ts): a run starts only when the state the service holds
 * stands for the notification's event, and it outputs the receipt as the service returns it, with the event —
 * nothing of the notification's body, which anyone who saw one delivery can forge. A notification already
 * accepted is acknowledged and ignored.
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

/** The account key and address of this process's Receipts Triggers, each kept at most a second (secretCache.ts). */
const CREDENTIALS = new SecretCache<ICredentialDataDecryptedObject>(1000);

/** The fields of the credential a delivery needs: the account key it is checked against, and what the read needs. */
async function deliveryCredentials(
	ctx: IWebhookFunctions,
): Promise<ICredentialDataDecryptedObject> {
	const { baseUrl, apiKey, certificatePassword } = await ctx.getCredentials(CREDENTIAL);
	return { baseUrl, apiKey, certificatePassword };
}

/**
 * One delivery, in this order: the URL's event and token, the body, the account key (each failure the same
 * 401); the event selected; not already received; then the service's word on the receipt (unless the node
 * trusts the notification): its state must stand for the notification's event, and the run outputs the receipt
 * as the service holds it, with the event. Only then is the delivery recorded as received and a run started.
 * A delivery the service could not be asked about now is not recorded, so its redelivery is checked again.
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
	if (receipt['api-key'] === undefined) return refuse(this, 'missing api-key');

	// The credential from the cache (read at most once a second: these deliveries are not signed, so each one,
	// forged or not, would cost a credential read); a key that does not match the cached one is checked again
	// with a fresh read, so a rotated key works at once.
	const node = this.getNode();
	const cacheKey = [
		this.getWorkflow().id ?? '',
		node.id ?? node.name,
		node.credentials?.[CREDENTIAL]?.id ?? '',
	].join('\u0000');
	const read = async () => await deliveryCredentials(this);
	const cached = await CREDENTIALS.get(cacheKey, read);
	let credentials = cached.value;
	if (!safeEqual(receipt['api-key'], credentials.apiKey) && cached.cached)
		credentials = await CREDENTIALS.refresh(cacheKey, read);
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
		const checked = await checkWithService(this, receipt, options.timeoutMs, credentials);
		if ('unknown' in checked)
			return acknowledge(
				this,
				TRIGGER,
				`${event} notification not run: ${checked.unknown}`,
				'warn',
			);
		if ('unavailable' in checked)
			return postpone(this, TRIGGER, `${event} notification not checked: ${checked.unavailable}`);
		const held = eventOfState(checked.receipt.estado);
		if (held !== event)
			return acknowledge(
				this,
				TRIGGER,
				`${event} notification not run: the receipts service holds receipt ${String(checked.receipt.id ?? receiptIdOf(receipt))} as ${String(checked.receipt.estado)}, ${held ? `an outcome of ${held}` : 'which no event stands for (not decided yet)'}`,
				'warn',
			);
		output = { ...checked.receipt, stateFrom: 'service' };
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
