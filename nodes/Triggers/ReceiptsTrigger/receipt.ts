import type { IDataObject } from 'n8n-workflow';

/** Pure helpers for the receipts service's notifications (the complete receipt with its authorization, as JSON). */

export const RECEIPT_EVENTS = ['receipt-issued', 'issue-error'] as const;
export type ReceiptEvent = (typeof RECEIPT_EVENTS)[number];

export function isReceiptEvent(value: unknown): value is ReceiptEvent {
	return typeof value === 'string' && (RECEIPT_EVENTS as readonly string[]).includes(value);
}

/** Field names that carry secrets in a notification (the payload repeats the account key as `api-key`). */
const SECRET_FIELD = /^(api[-_]?key|x[-_]?key|certificate[-_]?password|certificatepassword|x[-_]?password|password)$/i;

/**
 * A copy without secrets: drops secret-named fields at any depth, and replaces any string equal to one of
 * the given secret values (e.g. the API key echoed in free-text information) by `[redacted]`.
 */
export function withoutSecrets(value: unknown, secretValues: string[]): unknown {
	const secrets = secretValues.filter((s) => typeof s === 'string' && s.length >= 4);
	const walk = (v: unknown): unknown => {
		if (typeof v === 'string') return secrets.some((s) => v.includes(s)) ? '[redacted]' : v;
		if (Array.isArray(v)) return v.map(walk);
		if (v && typeof v === 'object') {
			const out: IDataObject = {};
			for (const [k, inner] of Object.entries(v as IDataObject)) {
				if (SECRET_FIELD.test(k)) continue;
				out[k] = walk(inner) as IDataObject[string];
			}
			return out;
		}
		return v;
	};
	return walk(value);
}

function text(value: unknown): string {
	return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' ? String(value) : '';
}

function obj(value: unknown): IDataObject {
	return value && typeof value === 'object' && !Array.isArray(value) ? (value as IDataObject) : {};
}

/**
 * What makes a notification distinct: the receipt (id, access key) and the outcome it reports (state, the
 * authorization's state, number and date, the submission's state and date, a signing failure). A redelivery
 * of the same notification has the same key; a later outcome of the same receipt (e.g. after a reissue) has
 * another.
 */
export function receiptKey(event: string, receipt: IDataObject): string {
	const auth = obj(receipt.autorizacion);
	const sent = obj(receipt.envio_sri);
	const firma = obj(receipt.firma);
	return [
		event,
		text(receipt.id),
		text(receipt.clave_acceso),
		text(receipt.estado),
		text(auth.estado),
		text(auth.numero),
		text(auth.fecha),
		text(sent.estado),
		text(sent.fecha),
		text(firma.status),
		text(firma.result),
		text(firma.error),
	].join('|');
}
