import type {
	IDataObject,
	IHookFunctions,
	INodeType,
	INodeTypeDescription,
	IWebhookFunctions,
	IWebhookResponseData,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';
import { safeEqual, sha256Hex } from '../../shared/signature';
import { answerWithoutExecution, handleDelivery, memoryOf, parseJsonObject, receivedRequest, refuse as refuseDelivery } from '../webhookIo';
import { isReceiptEvent, receiptKey, withoutSecrets } from './receipt';
import { CREDENTIAL, subscribe, subscriptionsExist, tokenHashFor, unsubscribe } from './subscription';

/** Names this node in n8n's log. */
const TRIGGER = 'Receipts Trigger';

/** A notification is remembered for a day; the service's retry policy is not documented. */
const RECEIPT_MEMORY = { maxEntries: 20000, ttlMs: 24 * 60 * 60 * 1000 };

/**
 * Receives the Ecuadorian electronic-receipts service's notifications (`receipt-issued`, `issue-error`).
 * Activation subscribes this node's URL once per selected event, each with its own secret token in the URL;
 * a delivery must carry a known token for its event and the account's API key (`api-key` field). The key is
 * removed from the output. A notification already accepted is acknowledged and ignored.
 */
export class ReceiptsTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Electronic Receipts (Ecuador) Trigger',
		name: 'receiptsTrigger',
		icon: { light: 'file:receiptsTrigger.svg', dark: 'file:receiptsTrigger.dark.svg' },
		group: ['trigger'],
		version: 1,
		subtitle: '={{$parameter["events"].join(", ")}}',
		description: 'Starts a workflow when an Ecuadorian electronic receipt is authorized, rejected or fails to issue',
		defaults: { name: 'Electronic Receipts Trigger' },
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'receiptsApi', required: true }],
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
					'Activating the workflow subscribes this node in the receipts service. The service cannot remove subscriptions: after deactivation its deliveries are refused.',
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
						description: 'A step of the issue process failed (receipt CREADO: not signed, or DEVUELTO)',
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
		],
	};

	webhookMethods = {
		default: {
			async checkExists(this: IHookFunctions): Promise<boolean> {
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

async function receive(this: IWebhookFunctions): Promise<IWebhookResponseData> {
	const req = receivedRequest(this);
	const event = req.query.event;
	const token = req.query.token;
	if (!isReceiptEvent(event)) return refuse(this, 'unknown subscription');
	if (typeof token !== 'string' || token === '') return refuse(this, 'missing token');
	const expected = tokenHashFor(this.getWorkflowStaticData('node'), event);
	if (!expected || !safeEqual(sha256Hex(token), expected)) return refuse(this, 'invalid token');

	const receipt = parseJsonObject(req.rawBody, req.body);
	if (!receipt) return answerWithoutExecution(this, 400, { error: 'bad request', reason: 'body is not a JSON object' });

	const credentials = await this.getCredentials(CREDENTIAL);
	if (receipt['api-key'] === undefined) return refuse(this, 'missing api-key');
	if (!safeEqual(receipt['api-key'], credentials.apiKey)) return refuse(this, 'invalid api-key');

	const selected = this.getNodeParameter('events', []) as string[];
	if (!selected.includes(event)) return answerWithoutExecution(this, 200, { received: true, ignored: 'event not selected' });

	if (!memoryOf(this, 'receipts', RECEIPT_MEMORY).claim(receiptKey(event, receipt))) {
		return answerWithoutExecution(this, 200, { received: true, duplicate: true });
	}

	const secrets = [credentials.apiKey, credentials.certificatePassword].filter((s): s is string => typeof s === 'string');
	const output = withoutSecrets(receipt, secrets) as IDataObject;
	return { workflowData: [this.helpers.returnJsonArray({ ...output, event })] };
}
