import { createHmac, randomUUID } from 'node:crypto';
/** @import { IDataObject } from 'n8n-workflow' */
import { built } from '../harness/engine';
import { TriggerHarness } from '../harness/webhook';

/** Shared pieces of the Extraction Trigger tests: a harness, a signer, event envelopes. */

export const SECRET = 'whsec_test_0123456789abcdef0123456789abcdef';

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
		event: {
			type,
			timestamp:
				eventTimestamp ?? new Date(Date.UTC(2026, 10, 22, 9, 0, 0, eventCounter)).toISOString(),
			version: '1.0',
		},
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
	options: {
		informationType: 'INVOICE',
		period: { from: '2026-10-01', to: '2026-10-31' },
		direction: 'RECEIVED',
	},
});

/** @returns {IDataObject} */
export const failedData = (id = 'ext_456') => ({
	extractionId: id,
	status: 'FAILED',
	failedAt: '2026-11-22T09:00:00Z',
	error: {
		code: 'INVALID_CREDENTIALS',
		message: 'SAT rejected the credentials',
		details: { satResponse: 'RFC o contraseña incorrectos' },
	},
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
		credentialTypes: [
			built('credentials/ExtractionWebhookApi.credentials', 'ExtractionWebhookApi'),
		],
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
export async function deliver(harness, body, opts = {}) {
	const raw = typeof body === 'string' ? body : JSON.stringify(body);
	const timestamp = opts.timestamp ?? nowSeconds();
	const prefix = opts.prefix ?? 'X-Svc';
	/** @type {Record<string, string>} */
	const headers = {};
	if (!opts.omit?.includes('signature'))
		headers[`${prefix}-Signature`] = sign(opts.secret ?? SECRET, timestamp, raw);
	if (!opts.omit?.includes('timestamp')) headers[`${prefix}-Timestamp`] = String(timestamp);
	return {
		raw,
		headers,
		answer: await harness.send({ body: raw, headers: { ...headers, ...(opts.headers ?? {}) } }),
	};
}
