import type { IDataObject } from 'n8n-workflow';
import type { ReceiptEvent } from '../../Receipts/webhooks';
import { sha256Hex } from '../signature';

/**
 * Pure helpers for the receipts service's notifications (the complete receipt with its authorization and the
 * account key, as JSON) and for what the service answers about the receipt a notification names.
 */

/** Where the notification carries the account key (receipts service, Events). */
const ACCOUNT_KEY_FIELD = 'api-key';

/**
 * A receipt id that goes into `GET /edocs/{id}` as one path segment, as it is: letters, digits, `_` and `-`.
 * No `.` or `..`, `/`, `?`, `#`, `%`, whitespace or anything else a URL would read as more than a name.
 */
const RECEIPT_ID = /^[A-Za-z0-9_-]{1,128}$/;

/** The receipt id a notification names, when it is one that can be read from the service; else undefined. */
export function receiptIdOf(notification: IDataObject): string | undefined {
	const id = notification.id;
	return typeof id === 'string' && RECEIPT_ID.test(id) ? id : undefined;
}

/** JSON with every object's keys sorted: one text for one content, however it was serialized. */
function canonical(value: unknown): string {
	if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
	if (value !== null && typeof value === 'object') {
		const record = value as Record<string, unknown>;
		return `{${Object.keys(record)
			.sort()
			.map((key) => `${JSON.stringify(key)}:${canonical(record[key])}`)
			.join(',')}}`;
	}
	return JSON.stringify(value) ?? 'null';
}

/**
 * The id of one notification: `<receipt id>:<SHA-256>` (just the SHA-256 when the notification names no
 * readable receipt id), the hash taken over the event name and the notification's content in canonical JSON
 * (keys sorted), without the account key.
 *
 * Any difference in what was delivered — another state, another date, another message, a reissue's new
 * authorization — gives another id, so a second notification about one receipt is never dropped as a
 * redelivery of the first. A redelivery of the same notification keeps its id, byte for byte and also when
 * the sender serializes it again in another key order or spacing (the service's retry policy is not
 * documented). The account key stays out: a secret is not folded into a value the workflow shows.
 */
export function notificationEventId(event: string, notification: IDataObject): string {
	const content: IDataObject = { ...notification };
	delete content[ACCOUNT_KEY_FIELD];
	const digest = sha256Hex(`${event}\n${canonical(content)}`);
	const id = receiptIdOf(notification);
	return id ? `${id}:${digest}` : digest;
}

/**
 * Why the service's answer to `GET /edocs/{id}` cannot stand for receipt `id` (undefined when it can): it
 * must state the receipt's `estado` (receipts service, GET /edocs/<id-doc>) and, if it names a receipt, name
 * this one.
 */
export function answerProblem(id: string, answer: IDataObject): string | undefined {
	if (typeof answer.estado !== 'string' || answer.estado.trim() === '')
		return 'the answer has no estado';
	if (answer.id !== undefined && answer.id !== null && String(answer.id) !== id)
		return 'the answer is about another receipt';
	return undefined;
}

/**
 * The event a receipt's state stands for, as the service emits them (receipts service, Events): `receipt-issued`
 * when the issue process ended (AUTORIZADO or NO AUTORIZADO), `issue-error` when a step failed (CREADO: it could
 * not be signed; DEVUELTO). Any other state (ENVIADO, RECIBIDO, PRE-AUTORIZADO: not decided yet; ERROR, which
 * the events do not name) stands for none: a notification about such a receipt starts nothing.
 */
export function eventOfState(estado: unknown): ReceiptEvent | undefined {
	const state = typeof estado === 'string' ? estado.trim().toUpperCase() : '';
	if (state === 'AUTORIZADO' || state === 'NO AUTORIZADO') return 'receipt-issued';
	if (state === 'CREADO' || state === 'DEVUELTO') return 'issue-error';
	return undefined;
}

/**
 * Where the service returns a whole receipt (its number, parties, items and totals) by the document type code
 * that `GET /edocs/{id}` answers in `tipo` (SRI codes: 01 invoice, 04 credit note, 05 debit note, 06 waybill,
 * 07 retention): the reads of the receipts service spec (waybills, ATS retentions) and of its public
 * documentation (invoices, credit and debit notes). A 07 is an ATS retention or a plain retention, which has no
 * such read: the ATS read answers 404 for it, and the run keeps what `GET /edocs/{id}` said.
 */
export const WHOLE_RECEIPT_READS: Readonly<Record<string, string>> = {
	'01': '/invoices',
	'04': '/credit-notes',
	'05': '/debit-notes',
	'06': '/waybills',
	'07': '/ats-retentions',
};
