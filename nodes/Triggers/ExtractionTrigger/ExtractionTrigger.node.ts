import type {
	ICredentialTestFunctions,
	ICredentialsDecrypted,
	IDataObject,
	IHookFunctions,
	INodeCredentialTestResult,
	INodeType,
	INodeTypeDescription,
	IWebhookFunctions,
	IWebhookResponseData,
} from 'n8n-workflow';
import { NodeConnectionTypes, NodeOperationError } from 'n8n-workflow';
import { sha256Hex, verifySignature } from '../signature';
import {
	acknowledge,
	answerWithoutExecution,
	handleDelivery,
	headerValue,
	memoryOf,
	parseJsonObject,
	receivedRequest,
	refuse as refuseDelivery,
} from '../webhookIo';
import { SecretCache } from '../secretCache';
import { redact } from '../../shared/redact';
import { EXTRACTION_DESCRIPTION } from '../../Extraction/description';
import { asEnvelope, extractionEventId, findSignatureHeaders, normalizeEvent } from './event';

/** Names this node in n8n's log. */
const TRIGGER = 'Extraction Trigger';

/** The webhook secrets of this process's Extraction Triggers, each kept at most a second. */
const SECRETS = new SecretCache(1000);

/** How long a seen event is remembered: the service retries up to 5 times with exponential backoff. */
const EVENT_MEMORY = { maxEntries: 20000, ttlMs: 24 * 60 * 60 * 1000 };

/**
 * Receives the document-extraction service's webhooks. The endpoint is registered by hand in the service's
 * dashboard (no API exists for it), so activation registers nothing remotely; it checks the secret is set.
 * Each delivery: verify HMAC + timestamp window over the raw bytes (else 401, the same body whatever the
 * reason) → parse → filter by type → skip events already seen (in-process memory; acknowledged with 200 so
 * the service stops retrying) → normalize, with a stable `eventId` → one execution.
 */
export class ExtractionTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Document Extraction (Mexico, Ecuador) Trigger',
		name: 'extractionTrigger',
		icon: { light: 'file:extractionTrigger.svg', dark: 'file:extractionTrigger.dark.svg' },
		group: ['trigger'],
		version: 1,
		subtitle: '={{$parameter["events"].join(", ")}}',
		// n8n's node panel shows this description for the Document Extraction entry (see Extraction/description.ts).
		description: `${EXTRACTION_DESCRIPTION}; this trigger starts a workflow when the service reports a finished or failed extraction or a ready document`,
		defaults: { name: 'Document Extraction (Mexico, Ecuador) Trigger' },
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [
			{ name: 'extractionWebhookApi', required: true, testedBy: 'extractionWebhookSecret' },
		],
		webhooks: [
			{
				name: 'default',
				httpMethod: 'POST',
				responseMode: 'onReceived',
				path: 'extraction',
			},
		],
		properties: [
			{
				displayName:
					"In the extraction dashboard, add a webhook endpoint with this node's Production URL (above), select the same event types and set the same secret as in the credential.",
				name: 'setupNotice',
				type: 'notice',
				default: '',
			},
			{
				displayName: 'Events',
				name: 'events',
				type: 'multiOptions',
				options: [
					{
						name: 'Document Ready',
						value: 'document.ready',
						description: 'One document was processed (may be numerous)',
					},
					{
						name: 'Extraction Completed',
						value: 'extraction.completed',
						description: 'An extraction finished successfully',
					},
					{
						name: 'Extraction Failed',
						value: 'extraction.failed',
						description: 'An extraction failed with an unrecoverable error',
					},
				],
				default: ['extraction.completed', 'extraction.failed', 'document.ready'],
				description:
					'Which event types start the workflow. Other verified deliveries are acknowledged and ignored. None selected means all, including types not listed here.',
			},
			{
				displayName: 'Options',
				name: 'options',
				type: 'collection',
				placeholder: 'Add Option',
				default: {},
				options: [
					{
						displayName: 'Header Prefix',
						name: 'headerPrefix',
						type: 'string',
						default: '',
						placeholder: 'X-Svc',
						description:
							'Prefix of the signature headers (prefix + -Signature, prefix + -Timestamp). Empty: the one X-…-Signature header with a matching X-…-Timestamp header is used.',
					},
				],
			},
		],
	};

	methods = {
		credentialTest: {
			/** Offline check: there is no endpoint that confirms a webhook secret; a signed delivery does. */
			async extractionWebhookSecret(
				this: ICredentialTestFunctions,
				credential: ICredentialsDecrypted,
			): Promise<INodeCredentialTestResult> {
				const secret = credential.data?.secret;
				if (typeof secret !== 'string' || secret === '')
					return { status: 'Error', message: 'The webhook secret is empty' };
				if (secret.trim() !== secret) {
					return {
						status: 'Error',
						message: 'The webhook secret starts or ends with spaces: paste it again without them',
					};
				}
				return {
					status: 'OK',
					message:
						'Secret set. Only a delivery signed by the service can prove it matches: send a test delivery from the dashboard.',
				};
			},
		},
	};

	webhookMethods = {
		default: {
			/** Nothing is registered remotely (the dashboard holds the URL); `create` runs on every activation to check the secret. */
			async checkExists(this: IHookFunctions): Promise<boolean> {
				return false;
			},
			async create(this: IHookFunctions): Promise<boolean> {
				const credentials = await this.getCredentials('extractionWebhookApi');
				if (typeof credentials.secret !== 'string' || credentials.secret === '') {
					throw new NodeOperationError(
						this.getNode(),
						'The Document Extraction (Mexico, Ecuador) Webhook credential has no secret',
						{
							description:
								'Set the same secret as in the extraction dashboard: unsigned deliveries are always refused.',
						},
					);
				}
				return true;
			},
			/** Nothing to remove remotely: delete the endpoint in the dashboard to stop deliveries. */
			async delete(this: IHookFunctions): Promise<boolean> {
				return true;
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
	const options = this.getNodeParameter('options', {}) as IDataObject;
	const names = findSignatureHeaders(
		req.headers,
		typeof options.headerPrefix === 'string' ? options.headerPrefix : '',
	);
	if ('error' in names) return refuse(this, names.error);

	// The secret from the credential, read at most once a second (secretCache.ts); a delivery that fails with a
	// cached secret is verified again with a fresh read, so a rotated secret works at once.
	const node = this.getNode();
	const cacheKey = [
		this.getWorkflow().id ?? '',
		node.id ?? node.name,
		node.credentials?.extractionWebhookApi?.id ?? '',
	].join('\u0000');
	const readSecret = async () =>
		(await this.getCredentials('extractionWebhookApi')).secret as string | undefined;
	const check = (secret: string | undefined) =>
		verifySignature({
			secret,
			rawBody: req.rawBody,
			signature: headerValue(req.headers, names.signature),
			timestamp: headerValue(req.headers, names.timestamp),
		});
	const cached = await SECRETS.get(cacheKey, readSecret);
	let secret = cached.value;
	let verified = check(secret);
	if (!verified.ok && cached.cached && verified.reason === 'signature mismatch') {
		secret = await SECRETS.refresh(cacheKey, readSecret);
		verified = check(secret);
	}
	if (!verified.ok) return refuse(this, verified.reason);

	const envelope = asEnvelope(parseJsonObject(req.rawBody, undefined));
	if (!envelope) {
		this.logger.warn(
			`${TRIGGER}: a correctly signed delivery is not an event envelope ({ event: { type }, data })`,
		);
		return answerWithoutExecution(this, 400, { error: 'bad request' });
	}

	// From here on the delivery is genuine. A redelivery (the service retries, and a captured delivery may be
	// replayed inside the 300 s window) is acknowledged and starts nothing; so is an event type not selected.
	const selected = this.getNodeParameter('events', []) as string[];
	if (selected.length > 0 && !selected.includes(envelope.event.type))
		return acknowledge(this, TRIGGER, `event type ${envelope.event.type} not selected`);

	const eventId = extractionEventId(envelope, sha256Hex(req.rawBody?.toString('base64') ?? ''));
	if (!memoryOf(this, 'events', EVENT_MEMORY).claim(eventId))
		return acknowledge(this, TRIGGER, `event ${eventId} already received`);

	// What the service delivered goes out through the package's scrubber, as every node's output does: fields
	// named as secrets masked, the webhook secret cut out in any spelling.
	const output = redact({ ...normalizeEvent(envelope), eventId }, secret ? [secret] : []);
	return { workflowData: [this.helpers.returnJsonArray(output)] };
}
