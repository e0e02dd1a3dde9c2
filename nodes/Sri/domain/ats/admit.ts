import { itemLabel } from '../../../shared/errors';
import type { Findings } from '../../../shared/findings';
import type { ReceiptFacts } from '../receiptFacts';
import { LeftOut, named } from './matching';

/**
 * The annex's first step: which receipts of the input it takes. Left out, each named in `warnings` with why: an
 * answer of the SRI without a receipt (no entry, in process; a problem instead when the input is held against the
 * SRI's list), a receipt the SRI did not authorize, one the bookkeeper says was voided, one of the SRI's test
 * environment, the second copy of a receipt. A receipt read from a file without asking the SRI is taken, and
 * remembered (`unchecked`): the annex says so in `problems` when it is in the file.
 */

/** One input item, as the operation read it. */
export interface AnnexItem {
	/** The n8n input item (0-based). */
	item: number;
	/** Its receipt, when it carries one. */
	document?: ReceiptFacts;
	/**
	 * What the SRI said of it, when something did (Check Authorization, an authorization file): `authorized`,
	 * `rejected` (another state, or no entry), or `unchecked` (a bare receipt: only the SRI can say).
	 */
	authorization: 'authorized' | 'rejected' | 'unchecked';
	/** The SRI's state in its words (`NO AUTORIZADO`, `EN PROCESO`), or why it counts as rejected. */
	estado?: string;
	/**
	 * The SRI gave no receipt for it: it holds none for the key (no entry; Check Authorization's `NO ENCONTRADO`), or
	 * has not processed it yet (`EN PROCESO`) — whether or not a file on the item says what it is.
	 */
	noReceipt?: boolean;
	/** An answer of the SRI without a receipt (no entry, in process): the access key asked about. */
	key?: string;
}

interface Admitted {
	documents: ReceiptFacts[];
	/** The items of receipts taken without the SRI's word on them. */
	unchecked: number[];
	leftOut: LeftOut;
	/** The access key of every item, taken or left out (to hold the items against the SRI's list). */
	keys: Set<string>;
}

/** What the form says of the receipts: the voided ones (their keys), and whether the SRI's list is given. */
interface Admission {
	voided: ReadonlySet<string>;
	/** Why a voided receipt is left out, in words that follow "left out, ". */
	voidedWhy: string;
	/** The input is held against the SRI's list: a receipt the SRI gave none for is a problem, not a warning. */
	heldAgainstList: boolean;
}

export function admit(
	items: readonly AnnexItem[],
	findings: Findings,
	admission: Admission,
): Admitted {
	const documents: ReceiptFacts[] = [];
	const unchecked: number[] = [];
	const leftOut = new LeftOut();
	const keys = new Set<string>();
	const seen = new Map<string, number>();
	const drop = (doc: ReceiptFacts, why: string) => {
		findings.warn(doc.item, `${named(doc)}: left out, ${why}.`);
		leftOut.record(doc, why);
	};
	/** The SRI gave no receipt: the bookkeeper should know; with the SRI's list given, it must be settled. */
	const noReceipt = (item: number, text: string) =>
		admission.heldAgainstList
			? findings.problem(
					item,
					`${text} The SRI lists what was issued to you, so a receipt it has not processed or cannot give is missing from the annex: ask Check Authorization again later (the SRI may take up to 24 hours after the issuer sends it), or ask the issuer.`,
				)
			: findings.warn(item, text);
	for (const entry of items) {
		const doc = entry.document;
		const key = doc?.key ?? entry.key;
		if (key) keys.add(key);
		if (!doc) {
			const why = entry.noReceipt
				? `the SRI gave no receipt for it (${entry.estado ?? 'no entry'})`
				: `not authorized by the SRI (${entry.estado ?? 'no entry'})`;
			const text = `${itemLabel(entry.item)} access key ${entry.key ?? '(none)'}: left out, ${why}.`;
			if (entry.noReceipt) noReceipt(entry.item, text);
			else findings.warn(entry.item, text);
			continue;
		}
		if (entry.noReceipt) {
			const why = `the SRI gave no receipt for it (${entry.estado ?? 'no entry'}): the file on the item is not the SRI's word`;
			noReceipt(doc.item, `${named(doc)}: left out, ${why}.`);
			leftOut.record(doc, why);
			continue;
		}
		if (doc.key && admission.voided.has(doc.key)) {
			drop(doc, admission.voidedWhy);
			continue;
		}
		if (entry.authorization === 'rejected') {
			drop(doc, `not authorized by the SRI (${entry.estado ?? 'no entry'})`);
			continue;
		}
		if (doc.ambiente === 'pruebas') {
			drop(doc, "issued in the SRI's test environment (no tax validity)");
			continue;
		}
		const identity = doc.key ?? `${doc.issuer.id}|${doc.codDoc}|${doc.number}`;
		const first = seen.get(identity);
		if (first !== undefined) {
			findings.warn(
				doc.item,
				`${named(doc)}: left out, the same receipt as ${itemLabel(first)} (kept once).`,
			);
			continue;
		}
		seen.set(identity, doc.item);
		if (entry.authorization === 'unchecked') unchecked.push(doc.item);
		documents.push(doc);
	}
	return { documents, unchecked, leftOut, keys };
}
