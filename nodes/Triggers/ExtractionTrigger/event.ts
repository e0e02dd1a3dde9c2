import type { IDataObject } from 'n8n-workflow';
import { normalizeRecord } from '../../Extraction/domain/names';
import { trimEnd } from '../../shared/text';
import type { IncomingHttpHeaders } from '../webhookIo';

/**
 * The extraction service's webhook envelope: `{ event: { type, timestamp, version }, data }`, signed with
 * headers `X-<Service>-Signature: sha256=<hex>` and `X-<Service>-Timestamp: <unix seconds>`. Pure helpers.
 */

interface ExtractionEnvelope {
	event: { type: string; timestamp?: string; version?: string };
	data: IDataObject;
}

type HeaderPair = { signature: string; timestamp: string } | { error: string };

/**
 * Finds the signature and timestamp header names. The spec writes them `X-Svc-Signature`/`X-Svc-Timestamp`
 * where `Svc` stands for the service's name, which the spec does not give: with no prefix configured, the one
 * `X-<name>-Signature` header that has a matching `X-<name>-Timestamp` is used. The HMAC is what
 * authenticates; the names only locate it.
 */
export function findSignatureHeaders(headers: IncomingHttpHeaders, prefix: string): HeaderPair {
	const configured = trimEnd(prefix.trim(), '-').toLowerCase();
	if (configured !== '')
		return { signature: `${configured}-signature`, timestamp: `${configured}-timestamp` };
	const pairs: Array<{ signature: string; timestamp: string }> = [];
	for (const name of Object.keys(headers)) {
		const match = /^(x-[a-z0-9-]+)-signature$/.exec(name.toLowerCase());
		if (match && headers[`${match[1]}-timestamp`] !== undefined) {
			pairs.push({ signature: name.toLowerCase(), timestamp: `${match[1]}-timestamp` });
		}
	}
	if (pairs.length === 1) return pairs[0];
	if (pairs.length === 0) return { error: 'missing signature header' };
	return { error: 'several signature headers: set Header Prefix' };
}

export function asEnvelope(body: IDataObject | undefined): ExtractionEnvelope | undefined {
	if (!body) return undefined;
	const event = body.event as IDataObject | undefined;
	const data = body.data as IDataObject | undefined;
	if (
		!event ||
		typeof event !== 'object' ||
		Array.isArray(event) ||
		typeof event.type !== 'string' ||
		event.type === ''
	)
		return undefined;
	if (!data || typeof data !== 'object' || Array.isArray(data)) return undefined;
	return {
		event: {
			type: event.type,
			timestamp: typeof event.timestamp === 'string' ? event.timestamp : undefined,
			version: typeof event.version === 'string' ? event.version : undefined,
		},
		data,
	};
}

function text(value: unknown): string {
	return typeof value === 'string' || typeof value === 'number' ? String(value) : '';
}

/**
 * The stable id of an event, from the spec's idempotency key `event.timestamp` (extraction service, Events):
 * `<type>:<timestamp>:<extraction id>`, plus `:<document id>` for `document.ready` (several documents of one
 * extraction may share a timestamp). Without a timestamp, the body's hash stands in (given by the caller).
 * The same delivery, or a redelivery of the same event, always has the same id.
 */
export function extractionEventId(envelope: ExtractionEnvelope, bodyHash: string): string {
	if (!envelope.event.timestamp) return `body:${bodyHash}`;
	const data = envelope.data;
	const doc = (data.document as IDataObject | undefined) ?? {};
	const docId = text(doc.id ?? doc.uuid);
	return [
		envelope.event.type,
		envelope.event.timestamp,
		text(data.extractionId ?? data.publicId),
		...(docId ? [docId] : []),
	].join(':');
}

/**
 * One output item: the event's type, timestamp and version next to its data, with the names of the current
 * API (the Extraction node's normalizer): `publicId` beside the payload's `extractionId` (same value), and
 * direction `INBOUND`/`OUTBOUND` for the beta's `RECEIVED`/`ISSUED`, at any depth.
 */
export function normalizeEvent(envelope: ExtractionEnvelope): IDataObject {
	const data = normalizeRecord(envelope.data);
	// The payload's own name stays beside the current one: workflows built on the deliveries read it.
	if (data.publicId !== undefined) data.extractionId = data.publicId;
	return {
		...data,
		event: envelope.event.type,
		eventTimestamp: envelope.event.timestamp ?? null,
		eventVersion: envelope.event.version ?? null,
	};
}
