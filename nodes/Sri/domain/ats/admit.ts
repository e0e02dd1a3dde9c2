import { itemLabel } from '../../../shared/errors';
import type { Findings } from '../../../shared/findings';
import type { ReceiptFacts } from '../receiptFacts';
import { LeftOut, named } from './matching';

/**
 * The annex's first step: which receipts of the input it takes. Left out, each named in `warnings` with why: an
 * answer of the SRI without a receipt (no entry, in process), a receipt the SRI did not authorize, one of the SRI's
 * test environment, the second copy of a receipt. A receipt read from a file without asking the SRI is taken, and
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
	/** An answer of the SRI without a receipt (no entry, in process): the access key asked about. */
	key?: string;
}

interface Admitted {
	documents: ReceiptFacts[];
	/** The items of receipts taken without the SRI's word on them. */
	unchecked: number[];
	leftOut: LeftOut;
}

export function admit(items: readonly AnnexItem[], findings: Findings): Admitted {
	const documents: ReceiptFacts[] = [];
	const unchecked: number[] = [];
	const leftOut = new LeftOut();
	const seen = new Map<string, number>();
	const drop = (doc: ReceiptFacts, why: string) => {
		findings.warn(doc.item, `${named(doc)}: left out, ${why}.`);
		leftOut.record(doc, why);
	};
	for (const entry of items) {
		const doc = entry.document;
		if (!doc) {
			findings.warn(
				entry.item,
				`${itemLabel(entry.item)} access key ${entry.key ?? '(none)'}: left out, the SRI gave no receipt for it (${entry.estado ?? 'no entry'}).`,
			);
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
	return { documents, unchecked, leftOut };
}
