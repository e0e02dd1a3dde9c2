import type { Findings } from '../../../shared/findings';
import type { ReceiptFacts, RetainedDocument } from '../receiptFacts';
import { named } from './matching';

/**
 * Who is who, from the receipts alone: a receipt the informant issued is a sale, its own purchase settlement (a
 * purchase from the supplier it names) or its retention to a supplier; one addressed to it is a purchase, or a
 * retention a client made. A waybill, a purchase settlement issued to the informant, and a receipt addressed to the
 * informant's cédula are left out, named; one of another company stops the annex.
 */

/** What an item's own expressions say (read only for the purchases and sales that need them). */
export interface ItemChoices {
	/** Tax Support per Item: a code of Tabla 5, or '' for the form's. */
	taxSupport?: string;
	relatedParty?: boolean;
	/** Registration Date per Item, ISO; a purchase's fechaRegistro and the period it belongs to. */
	registered?: string;
}

/** A retention of the informant's, matched to a document it withholds on. */
interface Withholding {
	retention: ReceiptFacts;
	retained: RetainedDocument;
}

/** A purchase on its way to the annex. */
export interface Purchase {
	doc: ReceiptFacts;
	supplier: { id: string; name: string; idType?: string };
	registered: string;
	choices: ItemChoices;
	retentions: Withholding[];
	inAnnex: boolean;
	leftOutWhy?: string;
}

/** A sale on its way to the annex. */
export interface Sale {
	doc: ReceiptFacts;
	inAnnex: boolean;
	leftOutWhy?: string;
}

interface Roles {
	purchases: Purchase[];
	sales: Sale[];
	/** Retentions the informant issued to its suppliers. */
	ownRetentions: ReceiptFacts[];
	/** Retentions the informant's clients issued to it. */
	clientRetentions: ReceiptFacts[];
}

export function rolesOf(
	documents: readonly ReceiptFacts[],
	informant: string,
	findings: Findings,
): Roles {
	const roles: Roles = { purchases: [], sales: [], ownRetentions: [], clientRetentions: [] };
	const purchase = (doc: ReceiptFacts, supplier: Purchase['supplier']) =>
		roles.purchases.push({
			doc,
			supplier,
			registered: doc.date ?? '',
			choices: {},
			retentions: [],
			inAnnex: false,
		});
	const cedula = /^\d{10}001$/.test(informant) ? informant.slice(0, 10) : undefined;
	for (const doc of documents) {
		const issued = doc.issuer.id === informant;
		const addressed = doc.party?.id === informant;
		if (issued && doc.codDoc === '06') {
			findings.warn(doc.item, `${named(doc)}: left out, a waybill is not part of the ATS.`);
		} else if (issued && doc.codDoc === '07') {
			roles.ownRetentions.push(doc);
		} else if (issued && doc.codDoc === '03') {
			purchase(doc, doc.party ?? { id: '', name: '' });
		} else if (issued) {
			roles.sales.push({ doc, inAnnex: false });
		} else if (addressed && doc.codDoc === '07') {
			roles.clientRetentions.push(doc);
		} else if (addressed && doc.codDoc === '03') {
			findings.warn(
				doc.item,
				`${named(doc)}: left out, a purchase settlement issued to you is the issuer's purchase: it belongs in their ATS, not yours.`,
			);
		} else if (addressed) {
			purchase(doc, doc.issuer);
		} else if (cedula && doc.party?.id === cedula) {
			findings.warn(
				doc.item,
				`${named(doc)}: left out, addressed to the cédula ${cedula}, not to the RUC ${informant}: the SRI counts a purchase only on the RUC.`,
			);
		} else {
			findings.stop(
				`receipts neither issued by nor addressed to the informant (RUC ${informant})`,
				`Check Informant RUC; a receipt of another company does not belong in this annex: leave it out before this node (e.g. a Filter node on emisor.ruc and comprador.identificacion).`,
				`${named(doc)} to ${doc.party ? `${doc.party.name} (${doc.party.id})` : 'nobody named'}`,
			);
		}
	}
	return roles;
}
