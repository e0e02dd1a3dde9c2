import { createHmac, randomUUID } from 'node:crypto';
/** @import { ICredentialType, IDataObject, INodeType } from 'n8n-workflow' */
import { built } from '../harness/engine';
import { TriggerHarness } from '../harness/webhook';
/** @import { RouteTable, ServiceSimulator, SimRequest } from '../simulator/server' */

/** Shared pieces of the trigger tests: harnesses for both triggers, a signer, a receipts stand-in. */

export const SECRET = 'whsec_test_0123456789abcdef0123456789abcdef';
export const API_KEY = 'rk_live_abcdefghijklmnopqrstuvwxyz012345';
export const CERT_PASSWORD = 'cert-pass-#123';

export const nowSeconds = () => Math.floor(Date.now() / 1000);

/**
 * Signs like the extraction service, independently of the package's code: HMAC-SHA256 over `${ts}.${raw}`.
 * @returns {string}
 */
export function sign(secret, timestamp, raw) {
	return `sha256=${createHmac('sha256', secret).update(`${timestamp}.`).update(raw).digest('hex')}`;
}

let eventCounter = 0;

/**
 * A distinct event envelope (distinct `event.timestamp`) unless a timestamp is given.
 * @returns {IDataObject}
 */
export function envelope(type, data, eventTimestamp) {
	eventCounter++;
	return {
		event: { type, timestamp: eventTimestamp ?? new Date(Date.UTC(2026, 10, 22, 9, 0, 0, eventCounter)).toISOString(), version: '1.0' },
		data,
	};
}

/** @returns {IDataObject} */
export const completedData = (id = 'ext_123') => ({
	extractionId: id,
	status: 'COMPLETED',
	completedAt: '2026-11-22T09:00:00Z',
	summary: { totalDocuments: 3, successfulDownloads: 3, failedDownloads: 0, totalSizeBytes: 12345 },
	subject: { identification: 'EKU9003173C9', fullName: 'Empresa Ejemplo', personType: 'MORAL' },
	options: { informationType: 'INVOICE', period: { from: '2026-10-01', to: '2026-10-31' }, direction: 'RECEIVED' },
});

/** @returns {IDataObject} */
export const failedData = (id = 'ext_456') => ({
	extractionId: id,
	status: 'FAILED',
	failedAt: '2026-11-22T09:00:00Z',
	error: { code: 'INVALID_CREDENTIALS', message: 'SAT rejected the credentials', details: { satResponse: 'RFC o contraseña incorrectos' } },
	subject: { identification: 'EKU9003173C9' },
	options: { informationType: 'INVOICE', period: { from: '2026-10-01', to: '2026-10-31' } },
});

/** @returns {IDataObject} */
export const documentData = (id = 'ext_123', docId = 'doc_1') => ({
	extractionId: id,
	document: {
		id: docId,
		uuid: `uuid-${docId}`,
		type: 'INVOICE',
		issueDate: '2026-10-15T12:00:00Z',
		amount: 1160,
		currency: 'MXN',
		emitter: { rfc: 'AAA010101AAA', name: 'Emisor' },
		receiver: { rfc: 'EKU9003173C9', name: 'Receptor' },
		availableFormats: ['XML', 'PDF'],
	},
});

export async function extractionHarness(opts = {}) {
	const harness = new TriggerHarness({
		node: built('nodes/Triggers/ExtractionTrigger/ExtractionTrigger.node', 'ExtractionTrigger'),
		credentialTypes: [built('credentials/ExtractionWebhookApi.credentials', 'ExtractionWebhookApi')],
		credentials: { extractionWebhookApi: { secret: opts.secret ?? SECRET } },
		parameters: opts.parameters ?? {},
		mode: opts.mode,
		// a fresh workflow id per harness: the in-process delivery memory is per workflow and node
		workflowId: `wf-${randomUUID()}`,
	});
	await harness.start();
	try {
		await harness.activate();
	} catch (error) {
		await harness.stop(); // an activation that fails must not leave the harness's server listening
		throw error;
	}
	return harness;
}

/** Sends a delivery signed now (or at `timestamp`) with X-Svc-* headers, unless told otherwise. */
export async function deliver(
	harness,
	body,
	opts = {},
) {
	const raw = typeof body === 'string' ? body : JSON.stringify(body);
	const timestamp = opts.timestamp ?? nowSeconds();
	const prefix = opts.prefix ?? 'X-Svc';
	/** @type {Record<string, string>} */
	const headers = {};
	if (!opts.omit?.includes('signature')) headers[`${prefix}-Signature`] = sign(opts.secret ?? SECRET, timestamp, raw);
	if (!opts.omit?.includes('timestamp')) headers[`${prefix}-Timestamp`] = String(timestamp);
	return { raw, headers, answer: await harness.send({ body: raw, headers: { ...headers, ...(opts.headers ?? {}) } }) };
}

/**
 * The receipts service's subscription endpoint as the spec gives it: `POST /webhooks {event_name,
 * webhook_url}` with `X-Key`. It records subscriptions and can notify them like the service does (the full
 * receipt with its authorization and the account key as `api-key`).
 */
export class ReceiptsStandIn {
	prefix = 'receipts';
	/** @type {Array<{ event_name: string; webhook_url: string; headers: SimRequest['headers'] }>} */
	subscriptions = [];

	/** @type {string} */
	apiKey;

	constructor(apiKey = API_KEY) {
		this.apiKey = apiKey;
	}

	register(router) {
		router.add('POST', '/webhooks', (req) => {
			if (req.headers['x-key'] !== this.apiKey) return { status: 401, body: { error: 'invalid key' } };
			const body = /** @type {{ event_name?: string; webhook_url?: string }} */ ((req.body ?? {}));
			if (!['receipt-issued', 'issue-error'].includes(String(body.event_name)) || !body.webhook_url) {
				return { status: 400, body: { error: 'event_name and webhook_url are required' } };
			}
			this.subscriptions.push({ event_name: /** @type {NonNullable<typeof body.event_name>} */ (body.event_name), webhook_url: body.webhook_url, headers: req.headers });
			return { status: 201, body: { id: `sub_${this.subscriptions.length}`, event_name: body.event_name, webhook_url: body.webhook_url } };
		});
	}

	/** @returns {string} */
	urlFor(event) {
		const sub = [...this.subscriptions].reverse().find((s) => s.event_name === event);
		if (!sub) throw new Error(`no subscription for ${event}`);
		return sub.webhook_url;
	}

	/** POSTs a notification to the newest subscription of `event` (or to `url`). */
	async notify(event, receipt, opts = {}) {
		/** @type {IDataObject} */
		const body = { ...receipt };
		if (opts.apiKey !== null) body['api-key'] = opts.apiKey ?? this.apiKey;
		const response = await fetch(opts.url ?? this.urlFor(event), {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify(body),
		});
		const text = await response.text();
		/** @type {unknown} */
		let parsed = text;
		try {
			parsed = JSON.parse(text);
		} catch {
			// keep text
		}
		return { status: response.status, body: parsed };
	}
}

/** @returns {IDataObject} */
export const authorizedReceipt = (id = 'rcpt_1') => ({
	id,
	tipo: 'retencion',
	secuencial: '000000123',
	fecha_emision: '2026-11-20',
	clave_acceso: '2011202607179000000000120010010000001231234567811',
	ambiente: 1,
	tipo_emision: 1,
	version: '2.0.0',
	emisor: { ruc: '1790000000001', razon_social: 'Emisor S.A.' },
	estado: 'AUTORIZADO',
	autorizacion: { numero: '2011202607179000000000120010010000001231234567811', fecha: '2026-11-20T10:00:00-05:00', estado: 'AUTORIZADO', mensajes: [] },
});

/** @returns {IDataObject} */
export const signingFailure = (id = 'rcpt_2') => ({
	id,
	tipo: 'retencion',
	clave_acceso: '2011202607179000000000120010010000001241234567811',
	estado: 'CREADO',
	firma: { result: 'error', error: 'Contraseña de firma incorrecta', status: 400 },
	'certificate-password': null,
});
