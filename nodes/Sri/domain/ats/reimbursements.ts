import type { Findings } from '../../../shared/findings';
import type { IvaBase, ReceiptFacts, ReimbursedDocument } from '../receiptFacts';
import { NO_AUTHORIZATION, PURCHASE_ID_TYPES, REIMBURSEMENT_DOCUMENT } from './catalog';
import { atsDate, money, schemaId } from './format';
import { documentWord, named } from './matching';
import type { XmlRecord } from './xml';

/**
 * A purchase that reimburses expenses (an invoice or a purchase settlement whose `codDocReembolso` is 41, the SRI's
 * catalog, Tabla 4: "comprobante de venta emitido por reembolso"): `tipoComprobante` 41, `totbasesImpReemb` the
 * reimbursed documents' bases, and one `reembolsos/reembolso` per reimbursed document, in the schema's terms
 * (`reembolsoType`: its bases in the order 0 %, taxed, no objeto, exento — not the parent's order). Odoo Enterprise's
 * and Trescloud's exporters file a reimbursement so; the receipt's `reembolsoDetalle` gives every field.
 */

/** What a purchase's record takes from the expenses it reimburses. */
interface Reimbursements {
	tipoComprobante: string;
	/** `totbasesImpReemb`, in cents. */
	totalBases: number;
	reembolsos?: XmlRecord;
}

/** The four bases of a reimbursed document, added. */
const basesOf = (bases: Record<IvaBase, number>) =>
	bases.baseImponible + bases.baseImpGrav + bases.baseNoGraIva + bases.baseImpExe;

/** A reimbursed document listed twice (once per tax, by some issuers) is one document: its amounts added. */
function onePerDocument(documents: readonly ReimbursedDocument[]): ReimbursedDocument[] {
	const byDocument = new Map<string, ReimbursedDocument>();
	for (const d of documents) {
		const key = [d.supplier.id, d.codDoc, d.estab, d.ptoEmi, d.secuencial].join('|');
		const seen = byDocument.get(key);
		if (!seen) {
			byDocument.set(key, { ...d, bases: { ...d.bases } });
			continue;
		}
		for (const base of Object.keys(d.bases) as IvaBase[]) seen.bases[base] += d.bases[base];
		seen.iva += d.iva;
		seen.ice += d.ice;
	}
	return [...byDocument.values()];
}

/** `00012` as the schema's 3-digit establishment or emission point, or undefined. */
const threeDigits = (value: string) =>
	/^\d{1,3}$/.test(value) ? value.padStart(3, '0') : undefined;

/** The purchase's type, `totbasesImpReemb` and `reembolsos` (see the module's header). */
export function reimbursementsOf(doc: ReceiptFacts, findings: Findings): Reimbursements {
	const r = doc.reimbursement;
	if (!r) return { tipoComprobante: doc.codDoc, totalBases: 0 };
	if (r.codDoc !== REIMBURSEMENT_DOCUMENT) {
		findings.problem(
			doc.item,
			`${named(doc)} says codDocReembolso ${r.codDoc || '(none)'} with ${r.documents.length} reimbursed document(s): the annex files a reimbursement as ${REIMBURSEMENT_DOCUMENT} only, so it is written as a ${documentWord(doc.codDoc)} (${doc.codDoc}) without them. Add them in the DIMM.`,
		);
		return { tipoComprobante: doc.codDoc, totalBases: 0 };
	}
	const documents = onePerDocument(r.documents);
	if (!documents.length) {
		findings.problem(
			doc.item,
			`${named(doc)} is issued for a reimbursement (codDocReembolso ${REIMBURSEMENT_DOCUMENT}) but lists no reimbursed document (reembolsos): it is written as ${REIMBURSEMENT_DOCUMENT} with totbasesImpReemb 0.00. Add the reimbursed documents in the DIMM, or ask the issuer for the complete receipt.`,
		);
		return { tipoComprobante: REIMBURSEMENT_DOCUMENT, totalBases: 0 };
	}
	const reembolso = documents.map((d) => {
		const number = `${d.estab}-${d.ptoEmi}-${d.secuencial}`;
		const where = `${named(doc)}: its reimbursed ${documentWord(d.codDoc)} ${number} of ${d.supplier.id || 'an unnamed supplier'}`;
		const tpIdProvReemb = PURCHASE_ID_TYPES[d.supplier.idType];
		const idProvReemb = schemaId(d.supplier.id);
		if (!tpIdProvReemb || !idProvReemb)
			findings.stop(
				'purchases whose supplier identification the ATS cannot take',
				'The supplier must be identified by RUC, cédula, passport or a foreign tax id of 3 to 13 letters or digits: correct the receipt with its issuer.',
				`${where}: identification "${d.supplier.id}", type ${d.supplier.idType || '(none)'}`,
			);
		const estab = threeDigits(d.estab);
		const ptoEmi = threeDigits(d.ptoEmi);
		const secuencial = /^\d{1,9}$/.test(d.secuencial) && Number(d.secuencial) > 0;
		if (!estab || !ptoEmi || !secuencial || !/^\d{2,3}$/.test(d.codDoc) || !d.date)
			findings.stop(
				'reimbursed documents the ATS cannot take',
				'A reimbursed document is named by its type (2 or 3 digits), establishment and emission point (3 digits each), sequential (up to 9 digits) and emission date (dd/mm/yyyy): ask the issuer for a corrected receipt.',
				`${where}: type "${d.codDoc}", number "${number}", date "${d.dateText}"`,
			);
		let autorizacionReemb = d.authorization;
		if (!/^\d{3,49}$/.test(autorizacionReemb)) {
			findings.problem(
				doc.item,
				`${where} has no authorization number the ATS takes ("${d.authorization}"): written as ${NO_AUTHORIZATION}; replace it with the document's access key in the DIMM if it asks.`,
			);
			autorizacionReemb = NO_AUTHORIZATION;
		}
		return {
			tipoComprobanteReemb: d.codDoc,
			tpIdProvReemb: tpIdProvReemb ?? '',
			idProvReemb: idProvReemb ?? d.supplier.id,
			establecimientoReemb: estab ?? d.estab,
			puntoEmisionReemb: ptoEmi ?? d.ptoEmi,
			secuencialReemb: d.secuencial,
			fechaEmisionReemb: d.date ? atsDate(d.date) : d.dateText,
			autorizacionReemb,
			baseImponibleReemb: money(d.bases.baseImponible),
			baseImpGravReemb: money(d.bases.baseImpGrav),
			baseNoGraIvaReemb: money(d.bases.baseNoGraIva),
			baseImpExeReemb: money(d.bases.baseImpExe),
			montoIceRemb: money(d.ice),
			montoIvaRemb: money(d.iva),
		};
	});
	const totalBases = documents.reduce((n, d) => n + basesOf(d.bases), 0);
	if (r.declaredBases !== undefined && r.declaredBases !== totalBases)
		findings.problem(
			doc.item,
			`${named(doc)}: its reimbursed documents' bases add up to ${money(totalBases)}, but its totalBaseImponibleReembolso says ${money(r.declaredBases)}: totbasesImpReemb is written as the documents' sum. Ask the issuer which is right.`,
		);
	return { tipoComprobante: REIMBURSEMENT_DOCUMENT, totalBases, reembolsos: { reembolso } };
}
