import { randomUUID } from 'node:crypto';
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';
import type { Checker } from '../../../shared/validate';

/**
 * The invoice's idempotency key. The receipts service documents an `Idempotency-key` header on
 * `POST /invoices/issue` and `POST /invoices/issue/xml` (16–48 characters, e.g. a UUID v4): it keeps the key
 * and answers every later request with the same key with the first request's answer (the service's public
 * documentation, Idempotencia). So an invoice issue carries a key, and a request whose answer was lost is sent
 * again with the same key (the client treats a keyed request as safe to repeat: shared/transport.ts). No other
 * receipt kind documents a key: they are never sent twice (common/recovery.ts).
 *
 * Which key: the option's, when the user gives one (a re-run of the workflow for the same row then gets the
 * first answer instead of a second invoice, for as long as the service keeps keys — not documented); else a
 * new random UUID v4 per item and run, which makes the node's own retries safe and nothing else. What the
 * service does with a known key and a different body is not documented either, hence the advice to change the
 * key when the invoice is corrected.
 */

const MIN = 16;
const MAX = 48;
/** Printable ASCII without spaces: what any HTTP header carries unchanged. */
const KEY = /^[\x21-\x7e]+$/;

/** Options → Idempotency Key (invoices only). */
export const idempotencyKeyOption: INodeProperties = {
	displayName: 'Idempotency Key',
	name: 'idempotencyKey',
	type: 'string',
	default: '',
	placeholder: 'e.g. order-2026-00042-invoice',
	description:
		'16 to 48 characters that identify this invoice (no spaces). The receipts service answers a request whose key it has seen with its first answer instead of issuing a second invoice. Empty: a new random key for each item and run, so the node can safely re-send a request whose answer was lost. Set one from your data (e.g. an order ID) to make running the workflow again for the same row safe too; change it when you correct the invoice.',
};

/**
 * The key item `i` is sent with: the option's, checked into `check` (the item's other problems are reported
 * with it), or a new UUID v4.
 */
export function readIdempotencyKey(this: IExecuteFunctions, i: number, check: Checker): string {
	const options = this.getNodeParameter('options', i, {}) as { idempotencyKey?: unknown };
	const given = options.idempotencyKey;
	if (given === undefined || given === null || given === '') return randomUUID();
	const key = String(given);
	if (key.length < MIN || key.length > MAX)
		check.fail(
			'Options › Idempotency Key',
			`must be ${MIN} to ${MAX} characters, not ${key.length} (the receipts service refuses other lengths); leave it empty for a random key`,
		);
	else if (!KEY.test(key))
		check.fail(
			'Options › Idempotency Key',
			'may hold letters, digits and punctuation only (no spaces or accented letters): it travels in an HTTP header',
		);
	return key;
}

/**
 * Refuses the answer to a key of the user's (Options → Idempotency Key) that names another invoice than the one
 * sent (another `secuencial`): the service kept that key with an earlier invoice and answered with it, so nothing
 * was issued for this item. A random key cannot meet another invoice's.
 */
export function refuseOtherInvoice(
	this: IExecuteFunctions,
	i: number,
	key: string | undefined,
	sent: string | number | undefined,
	answer: IDataObject,
): void {
	// Most receipts carry no key: nothing to read then (a parameter read costs n8n a resolution of the Options).
	if (key === undefined || sent === undefined) return;
	const options = this.getNodeParameter('options', i, {}) as { idempotencyKey?: unknown };
	const chosen = options.idempotencyKey !== undefined && options.idempotencyKey !== '';
	if (!chosen) return;
	const answered = answer.secuencial ?? answer.secuencia;
	if (typeof answered !== 'string' && typeof answered !== 'number') return;
	const same = (a: string | number) => String(a).replace(/^0+(?=\d)/, '');
	if (same(answered) === same(sent)) return;
	const id = typeof answer.id === 'string' ? `, ID ${answer.id}` : '';
	throw new NodeOperationError(
		this.getNode(),
		`Options › Idempotency Key "${key}" was used before for another invoice: the receipts service answered with that one (secuencial ${String(answered)}${id}) instead of issuing this one (secuencial ${String(sent)})`,
		{
			itemIndex: i,
			description:
				'The service keeps a key with the first invoice sent with it and answers that invoice to every later request with the key. Nothing was issued for this item. Give each invoice its own key (for example built from the order ID), then run this item again.',
		},
	);
}
