import { itemLabel } from '../../../shared/errors';
import type { ReceiptFacts, RetainedDocument } from '../receiptFacts';
import { REIMBURSEMENT_DOCUMENT } from './catalog';

/**
 * How the annex names a receipt, and how it finds one: a retention names the documents it withholds on
 * (docSustento) by their access key, else by type, number and the other party; a note names the document it
 * modifies by type and number. One index for every such lookup: the company's retentions to its purchases, its
 * clients' retentions to its sales, notes to what they modify, and a retention to the receipt that was left out.
 */

/** The kinds of receipt in the words of the SRI's documents. */
const DOCUMENT_WORDS: Readonly<Record<string, string>> = {
	'01': 'factura',
	'03': 'liquidación de compra',
	'04': 'nota de crédito',
	'05': 'nota de débito',
	'06': 'guía de remisión',
	'07': 'comprobante de retención',
};

/** A receipt type in words: `factura`; `document 41` for a type without a name here. */
export const documentWord = (codDoc: string): string =>
	DOCUMENT_WORDS[codDoc] ?? `document ${codDoc}`;

/** `[item 3] factura 001-001-000000123 of Papelería Central (1768152560001), access key 2110…`. */
export function named(doc: ReceiptFacts): string {
	const issuer = doc.issuer.name ? `${doc.issuer.name} (${doc.issuer.id})` : doc.issuer.id;
	return `${itemLabel(doc.item)} ${DOCUMENT_WORDS[doc.codDoc] ?? doc.tipo} ${doc.number} of ${issuer}${doc.key ? `, access key ${doc.key}` : ''}`;
}

/** A receipt's number as retentions write it: establishment, emission point and sequential (15 digits). */
export const numberOf = (doc: { estab: string; ptoEmi: string; secuencial: string }): string =>
	`${doc.estab}${doc.ptoEmi}${doc.secuencial}`;

/** The key of a document by type, number (its digits) and one party's identification. */
const numberKey = (codDoc: string, number: string, partyId: string) =>
	`${codDoc}|${number.replace(/\D/g, '')}|${partyId}`;

/** Values found by a receipt's access key, or by its type, number and a party; a later value for a key wins. */
export class ReceiptIndex<T> {
	private readonly byKey = new Map<string, T>();
	private readonly byNumber = new Map<string, T>();

	/** `value` found through `doc`'s access key, and through its type and number with each of `parties`. */
	add(value: T, doc: ReceiptFacts, parties: ReadonlyArray<string | undefined>): void {
		if (doc.key) this.byKey.set(doc.key, value);
		for (const party of parties)
			if (party !== undefined)
				this.byNumber.set(numberKey(doc.codDoc, numberOf(doc), party), value);
	}

	/**
	 * What a retention withholds on, the other party being `party`: by its access key, else by type and number (a
	 * document the retention calls 41, issued for a reimbursement, is the invoice or purchase settlement it is).
	 */
	retained(retained: RetainedDocument, party: string): T | undefined {
		if (retained.authorization && this.byKey.has(retained.authorization))
			return this.byKey.get(retained.authorization);
		const types = retained.codDoc === REIMBURSEMENT_DOCUMENT ? ['01', '03'] : [retained.codDoc];
		for (const codDoc of types) {
			const found = this.byNumber.get(numberKey(codDoc, retained.number, party));
			if (found !== undefined) return found;
		}
		return undefined;
	}

	/** The document of type `codDoc` and `number` whose other party is `party`. */
	numbered(codDoc: string, number: string, party: string): T | undefined {
		return this.byNumber.get(numberKey(codDoc, number, party));
	}
}

/**
 * The receipts left out before the annex was built, with why (`[item 4], not authorized by the SRI …`): a retention
 * on one of them is left out with it, saying so.
 */
export class LeftOut extends ReceiptIndex<string> {
	/** `doc` was left out for `why`: found through its access key, and its number with either party. */
	record(doc: ReceiptFacts, why: string): void {
		this.add(`${itemLabel(doc.item)}, ${why}`, doc, [doc.issuer.id, doc.party?.id]);
	}
}
