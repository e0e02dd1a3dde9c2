import { idTypeOf, rucProblem } from '../../../shared/sri/ruc';
import type { Json } from '../receipt';
import {
	FINAL_CONSUMER,
	FOREIGN_PARTY_TYPES,
	IVA_WITHHELD_FIELDS,
	NO_AUTHORIZATION,
	PAYMENT_FORM_THRESHOLD_CENTS,
	PURCHASE_ID_TYPES,
	SALE_DOCUMENT_TYPES,
	SALE_ID_TYPES,
	TAX_SUPPORTS,
	TAX_SUPPORTS_BY_DOCUMENT,
	type IvaBase,
	type IvaWithheldField,
} from './catalog';
import type { AtsDocument, RetainedDocument } from './document';
import { atsDate, atsName, money, percentage, signedMoney } from './format';
import type { Period } from './period';
import type { XmlRecord } from './xml';

/**
 * The annex (ATS) of one period, built from the period's receipts: who is who from the documents alone (a receipt
 * the informant issued is a sale, its own purchase settlement or its retention to a supplier; one addressed to it
 * is a purchase, or a retention a client made), the informant's retentions matched to their purchases and the
 * clients' to their sales through each retention's documents (docSustento), sales grouped by client, document
 * type and emission, every amount in cents. Pure: the node's operation reads the items and the form, and writes the
 * file (xml.ts). Nothing is left out silently: every document is in the annex or named in `warnings`.
 */

/** One input item, as the operation read it. */
export interface AnnexItem {
	/** The n8n input item (0-based). */
	item: number;
	/** Its receipt, when it carries one. */
	document?: AtsDocument;
	/**
	 * What the SRI said of it, when something did (Check Authorization, an authorization file): `authorized`,
	 * `rejected` (another state, or no entry), or `unchecked` (a bare receipt: only the SRI can say).
	 */
	authorization: 'authorized' | 'rejected' | 'unchecked';
	/** The SRI's state in its words (`NO AUTORIZADO`, `EN PROCESO`), or why it counts as rejected. */
	estado?: string;
	/** An error item of the node before (Continue On Fail): its message. */
	upstreamError?: string;
	/** An answer of the SRI without a receipt (no entry, in process): the access key asked about. */
	key?: string;
}

/** What the bookkeeper chose on the form. */
interface AnnexSettings {
	informant: { ruc: string; name: string };
	period: Period;
	/** Tax Support (codSustento) for every purchase; '' when none was chosen. */
	taxSupport: string;
	/** What to do with the informant's own electronic sales (see docs/sri.md, "Own electronic sales"). */
	electronicSales: 'include' | 'leaveOut';
	/** Open establishments (numEstabRuc); 0: the establishments of the informant's own documents. */
	establishments: number;
}

/** What an item's own expressions say (read only for the purchases and sales that need them). */
export interface ItemChoices {
	/** Tax Support per Item: a code of Tabla 5, or '' for the form's. */
	taxSupport?: string;
	relatedParty?: boolean;
	/** Registration Date per Item, ISO; a purchase's fechaRegistro and the period it belongs to. */
	registered?: string;
}

/** Items that stop the annex, with what to do about them. */
export interface AnnexError {
	/** What is wrong, in one line that names how many. */
	title: string;
	/** One line per item. */
	lines: string[];
	/** How to fix it. */
	fix: string;
}

interface Annex {
	/** The `iva` element, as records in the schema's order (xml.ts). */
	iva: XmlRecord;
	/** What the bookkeeper reads: header, counts, totals, rows, warnings, problems. */
	json: Json;
}

/** The kinds of receipt in the words of the SRI's documents. */
const DOCUMENT_WORDS: Readonly<Record<string, string>> = {
	'01': 'factura',
	'03': 'liquidación de compra',
	'04': 'nota de crédito',
	'05': 'nota de débito',
	'06': 'guía de remisión',
	'07': 'comprobante de retención',
};

const itemLabel = (item: number) => `[item ${item}]`;

/** `[item 3] factura 001-001-000000123 of Papelería Central (1768152560001), access key 2110…`. */
function named(doc: AtsDocument): string {
	const issuer = doc.issuer.name ? `${doc.issuer.name} (${doc.issuer.id})` : doc.issuer.id;
	return `${itemLabel(doc.item)} ${DOCUMENT_WORDS[doc.codDoc] ?? doc.tipo} ${doc.number} of ${issuer}${doc.key ? `, access key ${doc.key}` : ''}`;
}

const euros = (cents: number) => Math.round(cents) / 100;

/** First and last day (ISO) of the period: a month, or a semester ending in month 6 or 12. */
function periodRange(period: Period): { from: string; to: string } {
	const mm = (m: number) => String(m).padStart(2, '0');
	const first = period.semestral ? period.month - 5 : period.month;
	const lastDay = new Date(Date.UTC(period.year, period.month, 0)).getUTCDate();
	return {
		from: `${period.year}-${mm(first)}-01`,
		to: `${period.year}-${mm(period.month)}-${lastDay}`,
	};
}

/** A purchase on its way to the annex. */
interface Purchase {
	doc: AtsDocument;
	supplier: { id: string; name: string; idType?: string };
	registered: string;
	choices: ItemChoices;
	retentions: Array<{ retention: AtsDocument; retained: RetainedDocument }>;
	inAnnex: boolean;
	leftOutWhy?: string;
}

/** A sale on its way to the annex. */
interface Sale {
	doc: AtsDocument;
	inAnnex: boolean;
	leftOutWhy?: string;
	group?: SaleGroup;
}

interface SaleGroup {
	key: string;
	tpIdCliente: string;
	idCliente: string;
	name: string;
	idType?: string;
	tipoComprobante: string;
	items: number[];
	retentionItems: number[];
	related: boolean;
	bases: Record<IvaBase, number>;
	iva: number;
	ice: number;
	retIva: number;
	retRenta: number;
	payments: string[];
}

const zeroBases = (): Record<IvaBase, number> => ({
	baseNoGraIva: 0,
	baseImponible: 0,
	baseImpGrav: 0,
	baseImpExe: 0,
});

/** An identification as the schema takes it (`[0-9a-zA-Z]{3,13}`), or undefined. */
function schemaId(id: string): string | undefined {
	const cleaned = id.replace(/[^0-9a-zA-Z]/g, '');
	return /^[0-9a-zA-Z]{3,13}$/.test(cleaned) ? cleaned : undefined;
}

/** A retained document's key for matching: type, number (15 digits) and the party's identification. */
const matchKey = (codDoc: string, number: string, partyId: string) =>
	`${codDoc}|${number.replace(/\D/g, '')}|${partyId}`;

/**
 * Builds the annex of `settings.period` from the items (see the module's header). `choicesOf(item, role)` gives
 * an item's own choices; it is asked only for purchases and for the sales of the period. Returns the annex, or the
 * errors that stop it (every one found, in one run).
 */
export function buildAnnex(
	items: AnnexItem[],
	settings: AnnexSettings,
	choicesOf: (item: number, role: 'purchase' | 'sale') => ItemChoices,
): Annex | { errors: AnnexError[] } {
	const informant = settings.informant.ruc;
	const { from, to } = periodRange(settings.period);
	const inPeriod = (iso: string | undefined) => iso !== undefined && iso >= from && iso <= to;
	/** Warnings by the item they name, reported in item order. */
	const warned: Array<{ item: number; text: string }> = [];
	const warn = (item: number, text: string) => warned.push({ item, text });
	const problems: string[] = [];
	const errors: AnnexError[] = [];
	const errorLines = new Map<string, AnnexError>();
	const fail = (title: string, fix: string, line: string) => {
		const group = errorLines.get(title) ?? { title, lines: [], fix };
		if (!errorLines.has(title)) {
			errorLines.set(title, group);
			errors.push(group);
		}
		group.lines.push(line);
	};

	// Some real RUCs fail the published check (shared/sri/ruc.ts): said, never refused.
	const rucIssue = rucProblem(informant);
	if (rucIssue)
		problems.push(
			`Informant RUC ${informant} fails its check: ${rucIssue}. Some real RUCs do; if yours is not one of them, the DIMM will refuse the file.`,
		);
	const razonSocial = atsName(settings.informant.name);
	if (razonSocial.length < 5)
		fail(
			'Informant Legal Name: too short once reduced to the letters, digits and spaces the ATS takes',
			'Type the legal name as the RUC register has it (at least 5 letters or digits).',
			`"${settings.informant.name}" becomes "${razonSocial}"`,
		);

	// 1. What stays out before anything else: errors of the node before, answers without a receipt, receipts the
	// SRI did not authorize or issued in its test environment, and the second copy of a receipt.
	const uncheckedItems: number[] = [];
	const seen = new Map<string, number>();
	const documents: AtsDocument[] = [];
	/** Receipts left out here, by access key and by type, number and either party: a retention on one says so. */
	const dropped = new Map<string, string>();
	const drop = (doc: AtsDocument, why: string) => {
		warn(doc.item, `${named(doc)}: left out, ${why}.`);
		const reason = `${itemLabel(doc.item)}, ${why}`;
		if (doc.key) dropped.set(doc.key, reason);
		const number = `${doc.estab}${doc.ptoEmi}${doc.secuencial}`;
		dropped.set(matchKey(doc.codDoc, number, doc.issuer.id), reason);
		if (doc.party) dropped.set(matchKey(doc.codDoc, number, doc.party.id), reason);
	};
	for (const entry of items) {
		if (entry.upstreamError !== undefined) {
			problems.push(
				`${itemLabel(entry.item)} came from the node before as an error: "${entry.upstreamError}". Whatever receipt it stood for is not in the annex: fix it there and run again, or add it in the DIMM.`,
			);
			continue;
		}
		const doc = entry.document;
		if (!doc) {
			warn(
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
			warn(
				doc.item,
				`${named(doc)}: left out, the same receipt as ${itemLabel(first)} (kept once).`,
			);
			continue;
		}
		seen.set(identity, doc.item);
		if (entry.authorization === 'unchecked') uncheckedItems.push(doc.item);
		documents.push(doc);
	}

	// 2. Who is who, from the documents alone.
	const purchases: Purchase[] = [];
	const sales: Sale[] = [];
	const ownRetentions: AtsDocument[] = [];
	const clientRetentions: AtsDocument[] = [];
	const ownEstablishments = new Set<string>();
	const cedula = /^\d{10}001$/.test(informant) ? informant.slice(0, 10) : undefined;
	for (const doc of documents) {
		const issued = doc.issuer.id === informant;
		const addressed = doc.party?.id === informant;
		if (issued && doc.codDoc === '06') {
			warn(doc.item, `${named(doc)}: left out, a waybill is not part of the ATS.`);
		} else if (issued && doc.codDoc === '07') {
			ownRetentions.push(doc);
		} else if (issued && doc.codDoc === '03') {
			purchases.push(purchaseOf(doc, doc.party ?? { id: '', name: '' }));
		} else if (issued) {
			sales.push({ doc, inAnnex: false });
		} else if (addressed && doc.codDoc === '07') {
			clientRetentions.push(doc);
		} else if (addressed && doc.codDoc === '03') {
			warn(
				doc.item,
				`${named(doc)}: left out, a purchase settlement issued to you is the issuer's purchase: it belongs in their ATS, not yours.`,
			);
		} else if (addressed) {
			purchases.push(purchaseOf(doc, doc.issuer));
		} else if (cedula && doc.party?.id === cedula) {
			warn(
				doc.item,
				`${named(doc)}: left out, addressed to the cédula ${cedula}, not to the RUC ${informant}: the SRI counts a purchase only on the RUC.`,
			);
		} else {
			fail(
				`receipts neither issued by nor addressed to the informant (RUC ${informant})`,
				`Check Informant RUC; a receipt of another company does not belong in this annex: leave it out before this node (e.g. a Filter node on emisor.ruc and comprador.identificacion).`,
				`${named(doc)} to ${doc.party ? `${doc.party.name} (${doc.party.id})` : 'nobody named'}`,
			);
		}
	}

	function purchaseOf(doc: AtsDocument, supplier: Purchase['supplier']): Purchase {
		return {
			doc,
			supplier,
			registered: doc.date ?? '',
			choices: {},
			retentions: [],
			inAnnex: false,
		};
	}

	// 3. The informant's retentions, to their purchases (by access key, else by type, number and supplier).
	const purchaseByKey = new Map<string, Purchase>();
	const purchaseByNumber = new Map<string, Purchase>();
	for (const p of purchases) {
		if (p.doc.key) purchaseByKey.set(p.doc.key, p);
		purchaseByNumber.set(
			matchKey(p.doc.codDoc, `${p.doc.estab}${p.doc.ptoEmi}${p.doc.secuencial}`, p.supplier.id),
			p,
		);
	}
	const unmatchedRetentions: Array<{ retention: AtsDocument; retained: RetainedDocument }> = [];
	for (const retention of ownRetentions) {
		for (const retained of retention.retained ?? []) {
			const purchase =
				(retained.authorization && purchaseByKey.get(retained.authorization)) ||
				purchaseByNumber.get(matchKey(retained.codDoc, retained.number, retention.party?.id ?? ''));
			if (purchase) purchase.retentions.push({ retention, retained });
			else unmatchedRetentions.push({ retention, retained });
		}
	}
	for (const { retention, retained } of unmatchedRetentions) {
		const why =
			(retained.authorization && dropped.get(retained.authorization)) ||
			dropped.get(matchKey(retained.codDoc, retained.number, retention.party?.id ?? ''));
		warn(
			retention.item,
			why
				? `${named(retention)}: left out with the purchase it withholds on (${why}).`
				: `${named(retention)}: left out, it withholds on ${DOCUMENT_WORDS[retained.codDoc] ?? `document ${retained.codDoc}`} ${retained.number} of ${retention.party?.id ?? 'an unnamed supplier'}, which is not among the items: add that purchase to the items, or its withholding to the DIMM.`,
		);
	}

	// 4. The period: a purchase by its registration date (its own, its retention's, else its emission date), a sale
	// by its emission date.
	for (const p of purchases) {
		p.choices = choicesOf(p.doc.item, 'purchase');
		const declared = p.retentions.find((r) => r.retained.registered)?.retained.registered;
		p.registered = p.choices.registered ?? declared ?? p.doc.date ?? '';
		if (inPeriod(p.registered)) p.inAnnex = true;
		else {
			p.leftOutWhy = `registered ${p.registered}, outside the period ${from} – ${to}`;
			warn(p.doc.item, `${named(p.doc)}: left out, ${p.leftOutWhy}.`);
			for (const r of p.retentions)
				warn(
					r.retention.item,
					`${named(r.retention)}: left out with the purchase it withholds on (${itemLabel(p.doc.item)}, ${p.leftOutWhy}).`,
				);
		}
	}
	for (const s of sales) {
		if (!inPeriod(s.doc.date)) {
			s.leftOutWhy = `issued ${s.doc.date}, outside the period ${from} – ${to}`;
			warn(s.doc.item, `${named(s.doc)}: left out, ${s.leftOutWhy}.`);
		} else if (settings.electronicSales === 'leaveOut') {
			s.leftOutWhy = 'own electronic sales are left out (Own Electronic Sales)';
			warn(s.doc.item, `${named(s.doc)}: left out, ${s.leftOutWhy}.`);
		} else s.inAnnex = true;
		if (inPeriod(s.doc.date)) ownEstablishments.add(s.doc.estab);
	}
	for (const p of purchases)
		if (p.doc.issuer.id === informant && p.inAnnex) ownEstablishments.add(p.doc.estab);
	for (const r of ownRetentions) if (inPeriod(r.date)) ownEstablishments.add(r.estab);

	// 5. Purchases.
	const detalleCompras: XmlRecord[] = [];
	const comprasRows: Json[] = [];
	const comprasTotals: Record<string, number> = Object.fromEntries(
		[
			'baseNoGraIva',
			'baseImponible',
			'baseImpGrav',
			'baseImpExe',
			'montoIce',
			'montoIva',
			...IVA_WITHHELD_FIELDS.map(([, field]) => field),
			'valRetAir',
		].map((field) => [field, 0]),
	);
	const addTotal = (totals: Record<string, number>, field: string, cents: number, sign: number) =>
		(totals[field] = (totals[field] ?? 0) + sign * cents);
	const taxSupportNames = new Set(TAX_SUPPORTS.map((t) => t.code));
	const inAnnexPurchases = purchases
		.filter((p) => p.inAnnex)
		.sort(
			(a, b) =>
				a.registered.localeCompare(b.registered) ||
				a.supplier.id.localeCompare(b.supplier.id) ||
				a.doc.codDoc.localeCompare(b.doc.codDoc) ||
				a.doc.number.localeCompare(b.doc.number),
		);
	/** A note's modified document among the purchases (any period), by type, number and supplier. */
	const originalOf = (p: Purchase): Purchase | undefined => {
		const m = p.doc.modified;
		const original = m
			? purchaseByNumber.get(
					matchKey(m.codDoc, `${m.estab}${m.ptoEmi}${m.secuencial}`, p.supplier.id),
				)
			: undefined;
		return original === p ? undefined : original;
	};
	/**
	 * A purchase's tax support: its item's own, else the one its retention declared, else (a note) the one of the
	 * document it modifies, else the form's.
	 */
	const supports = new Map<Purchase, string>();
	const supportOf = (p: Purchase): string => {
		const known = supports.get(p);
		if (known !== undefined) return known;
		supports.set(p, ''); // a note that modifies itself, through a loop of notes, ends here
		const own =
			(p.choices.taxSupport ?? '').trim() ||
			p.retentions.find((r) => r.retained.codSustento)?.retained.codSustento;
		const original = own ? undefined : originalOf(p);
		const value = own || (original && supportOf(original)) || settings.taxSupport;
		supports.set(p, value);
		return value;
	};
	for (const p of inAnnexPurchases) {
		const { doc } = p;
		const fromItem = (p.choices.taxSupport ?? '').trim();
		const fromRetention = p.retentions.find((r) => r.retained.codSustento)?.retained.codSustento;
		const codSustento = supportOf(p);
		if (fromItem && fromRetention && fromItem !== fromRetention)
			problems.push(
				`${named(doc)}: Tax Support per Item says ${fromItem}, your retention ${named(p.retentions[0].retention)} declared ${fromRetention}; the annex uses ${fromItem}. The SRI compares them: make them agree.`,
			);
		if (!codSustento)
			fail(
				'purchases without a tax support (codSustento)',
				'Choose Tax Support (codSustento) for every purchase, or give each purchase its own in Tax Support per Item (e.g. an expression reading a column of your purchases sheet).',
				named(doc),
			);
		else if (!taxSupportNames.has(codSustento))
			fail(
				'tax supports (codSustento) that are not codes of the SRI (Tabla 5)',
				`Give a two-digit code of Tabla 5: ${[...taxSupportNames].join(', ')}.`,
				`${named(doc)}: "${codSustento}"`,
			);
		else if (!(TAX_SUPPORTS_BY_DOCUMENT[doc.codDoc] ?? []).includes(codSustento))
			fail(
				'tax supports (codSustento) the SRI does not accept for the document type (Tabla 4)',
				'Give the purchase a tax support its document type accepts (Tax Support per Item).',
				`${named(doc)}: ${codSustento}; a ${DOCUMENT_WORDS[doc.codDoc]} accepts ${(TAX_SUPPORTS_BY_DOCUMENT[doc.codDoc] ?? []).join(', ')}`,
			);

		const tpIdProv = doc.codDoc === '03' ? PURCHASE_ID_TYPES[p.supplier.idType ?? ''] : '01';
		const idProv = schemaId(p.supplier.id);
		if (!tpIdProv || !idProv)
			fail(
				'purchases whose supplier identification the ATS cannot take',
				'The supplier must be identified by RUC, cédula, passport or a foreign tax id of 3 to 13 letters or digits: correct the receipt with its issuer.',
				`${named(doc)}: supplier "${p.supplier.id}"${p.supplier.idType ? `, identification type ${p.supplier.idType}` : ''}`,
			);
		const foreign = tpIdProv === '03';
		const related =
			p.choices.relatedParty === true ||
			p.retentions.some((r) => r.retention.relatedParty === true);

		// Withholdings: IVA by percentage into its field, income tax as detalleAir.
		const withheld: Record<IvaWithheldField, number> = {
			valRetBien10: 0,
			valRetServ20: 0,
			valorRetBienes: 0,
			valRetServ50: 0,
			valorRetServicios: 0,
			valRetServ100: 0,
		};
		const air: XmlRecord[] = [];
		let rentaWithheld = 0;
		for (const { retention, retained } of p.retentions) {
			for (const line of retained.lines) {
				if (line.codigo === '2') {
					const field = IVA_WITHHELD_FIELDS.find(([pct]) => pct === line.porcentaje)?.[1];
					if (field) withheld[field] += line.valor;
					else
						fail(
							'IVA withheld at a percentage the ATS has no field for',
							'The ATS takes IVA withheld at 10, 20, 30, 50, 70 or 100 %: correct the retention with a replacement receipt.',
							`${named(retention)}: ${line.porcentaje} % (retention code ${line.codigoRetencion})`,
						);
				} else if (line.codigo === '1') {
					const porcentajeAir = percentage(line.porcentaje);
					if (!/^[A-Za-z0-9]{3,5}$/.test(line.codigoRetencion) || porcentajeAir === undefined)
						fail(
							'income-tax withholdings the ATS cannot take',
							'The ATS takes a withholding code of 3 to 5 letters or digits (e.g. 312, 3440) and a percentage from 0 to 100 with at most two decimals.',
							`${named(retention)}: code "${line.codigoRetencion}", ${line.porcentaje} %`,
						);
					else {
						air.push({
							codRetAir: line.codigoRetencion,
							baseImpAir: money(line.base),
							porcentajeAir,
							valRetAir: money(line.valor),
						});
						rentaWithheld += line.valor;
					}
				} else
					warn(
						retention.item,
						`${named(retention)}: its withholding of tax ${line.codigo} (${line.codigo === '6' ? 'ISD' : 'not renta or IVA'}), ${euros(line.valor).toFixed(2)}, is not part of the ATS's purchases: left out.`,
					);
			}
		}
		const firstRetention = p.retentions[0]?.retention;
		if (p.retentions.length > 1)
			problems.push(
				`${named(doc)} has ${p.retentions.length} retentions (${p.retentions.map((r) => itemLabel(r.retention.item)).join(', ')}): their amounts are added; the ATS names only the first's number (estabRetencion1 … fechaEmiRet1).`,
			);

		const note = doc.codDoc === '04' || doc.codDoc === '05';
		let modified: XmlRecord = {};
		if (note) {
			const m = doc.modified;
			if (!m)
				problems.push(
					`${named(doc)} does not name the document it modifies (codDocModificado, numDocModificado): the DIMM asks for it.`,
				);
			else {
				const original = originalOf(p);
				if (!original?.doc.authorization)
					problems.push(
						`${named(doc)} modifies ${DOCUMENT_WORDS[m.codDoc] ?? m.codDoc} ${m.estab}-${m.ptoEmi}-${m.secuencial}, which is not among the items: its authorization is written as ${NO_AUTHORIZATION}; replace it with that document's access key in the DIMM if it asks.`,
					);
				modified = {
					docModificado: m.codDoc,
					estabModificado: m.estab,
					ptoEmiModificado: m.ptoEmi,
					secModificado: m.secuencial,
					autModificado: original?.doc.authorization ?? NO_AUTHORIZATION,
				};
			}
		}
		const payments = doc.codDoc === '04' ? [] : doc.payments;
		if (!payments.length && doc.codDoc !== '04' && (doc.total ?? 0) >= PAYMENT_FORM_THRESHOLD_CENTS)
			problems.push(
				`${named(doc)}: a purchase of ${euros(doc.total ?? 0).toFixed(2)} whose receipt names no payment form (pagos): add its formaPago in the DIMM (payments of USD ${euros(PAYMENT_FORM_THRESHOLD_CENTS)} or more go through the financial system).`,
			);
		if (!doc.authorization)
			fail(
				'purchases without an access key or authorization number',
				'A receipt of the SRI carries its 49-digit access key (claveAcceso): give the node the authorized receipt.',
				named(doc),
			);

		const record: XmlRecord = {
			codSustento,
			tpIdProv: tpIdProv ?? '',
			idProv: idProv ?? p.supplier.id,
			tipoComprobante: doc.codDoc,
			tipoProv: foreign ? FOREIGN_PARTY_TYPES[p.supplier.idType ?? ''] : undefined,
			denoProv: foreign ? atsName(p.supplier.name) || undefined : undefined,
			parteRel: related ? 'SI' : 'NO',
			fechaRegistro: atsDate(p.registered),
			establecimiento: doc.estab,
			puntoEmision: doc.ptoEmi,
			secuencial: doc.secuencial,
			fechaEmision: atsDate(doc.date ?? ''),
			autorizacion: doc.authorization ?? '',
			baseNoGraIva: money(doc.bases.baseNoGraIva),
			baseImponible: money(doc.bases.baseImponible),
			baseImpGrav: money(doc.bases.baseImpGrav),
			baseImpExe: money(doc.bases.baseImpExe),
			montoIce: money(doc.ice),
			montoIva: money(doc.iva),
			...Object.fromEntries(
				Object.entries(withheld).map(([field, cents]) => [field, money(cents)]),
			),
			valorRetencionNc: money(0),
			totbasesImpReemb: money(0),
			pagoExterior: {
				pagoLocExt: '01',
				paisEfecPago: 'NA',
				aplicConvDobTrib: 'NA',
				pagExtSujRetNorLeg: 'NA',
			},
			formasDePago: payments.length ? { formaPago: payments } : undefined,
			air: air.length ? { detalleAir: air } : undefined,
			...(firstRetention
				? {
						estabRetencion1: firstRetention.estab,
						ptoEmiRetencion1: firstRetention.ptoEmi,
						secRetencion1: firstRetention.secuencial,
						autRetencion1: firstRetention.authorization ?? '',
						fechaEmiRet1: atsDate(firstRetention.date ?? ''),
					}
				: {}),
			...modified,
		};
		detalleCompras.push(record);

		const sign = doc.codDoc === '04' ? -1 : 1;
		for (const base of Object.keys(doc.bases) as IvaBase[])
			addTotal(comprasTotals, base, doc.bases[base], sign);
		addTotal(comprasTotals, 'montoIce', doc.ice, sign);
		addTotal(comprasTotals, 'montoIva', doc.iva, sign);
		for (const [field, cents] of Object.entries(withheld)) addTotal(comprasTotals, field, cents, 1);
		addTotal(comprasTotals, 'valRetAir', rentaWithheld, 1);
		comprasRows.push({
			item: doc.item,
			retencion_items: p.retentions.map((r) => r.retention.item),
			clave_acceso: doc.key,
			numero: doc.number,
			proveedor: p.supplier.name,
			...jsonOf(record),
		});
	}

	// 6. Sales, grouped by client, document type and emission (all electronic: E).
	const groups = new Map<string, SaleGroup>();
	for (const s of sales) {
		if (!s.inAnnex) continue;
		const { doc } = s;
		const buyer = doc.party ?? { id: FINAL_CONSUMER.id, name: 'CONSUMIDOR FINAL' };
		const inferred = idTypeOf(buyer.id)?.code;
		const tpIdCliente =
			buyer.id === FINAL_CONSUMER.id
				? FINAL_CONSUMER.type
				: (SALE_ID_TYPES[buyer.idType ?? ''] ?? (inferred ? SALE_ID_TYPES[inferred] : undefined));
		const idCliente = schemaId(buyer.id);
		const tipoComprobante = SALE_DOCUMENT_TYPES[doc.codDoc];
		if (!tpIdCliente || !idCliente) {
			fail(
				'sales whose client identification the ATS cannot take',
				'A client is identified by RUC, cédula, passport, a foreign tax id (3 to 13 letters or digits) or as consumidor final (9999999999999): correct the receipt with a credit note and a new one.',
				`${named(doc)}: client "${buyer.id}"${buyer.idType ? `, identification type ${buyer.idType}` : ''}`,
			);
			continue;
		}
		const key = `${tpIdCliente}|${idCliente}|${tipoComprobante}|E`;
		const group: SaleGroup = groups.get(key) ?? {
			key,
			tpIdCliente,
			idCliente,
			name: buyer.name,
			idType: buyer.idType,
			tipoComprobante,
			items: [],
			retentionItems: [],
			related: false,
			bases: zeroBases(),
			iva: 0,
			ice: 0,
			retIva: 0,
			retRenta: 0,
			payments: [],
		};
		groups.set(key, group);
		s.group = group;
		group.items.push(doc.item);
		for (const base of Object.keys(doc.bases) as IvaBase[]) group.bases[base] += doc.bases[base];
		group.iva += doc.iva;
		group.ice += doc.ice;
		for (const form of doc.payments) if (!group.payments.includes(form)) group.payments.push(form);
		if (tpIdCliente !== FINAL_CONSUMER.type && choicesOf(doc.item, 'sale').relatedParty === true)
			group.related = true;
	}

	// 7. Retentions clients made, to the sales they withhold on.
	const saleByKey = new Map<string, Sale>();
	const saleByNumber = new Map<string, Sale>();
	for (const s of sales) {
		if (s.doc.key) saleByKey.set(s.doc.key, s);
		saleByNumber.set(
			matchKey(
				s.doc.codDoc,
				`${s.doc.estab}${s.doc.ptoEmi}${s.doc.secuencial}`,
				s.doc.party?.id ?? '',
			),
			s,
		);
	}
	let clientRetentionsApplied = 0;
	for (const retention of clientRetentions) {
		let applied = false;
		for (const retained of retention.retained ?? []) {
			const sale =
				(retained.authorization && saleByKey.get(retained.authorization)) ||
				saleByNumber.get(matchKey(retained.codDoc, retained.number, retention.issuer.id));
			const what = `${DOCUMENT_WORDS[retained.codDoc] ?? `document ${retained.codDoc}`} ${retained.number}`;
			if (!sale) {
				const why =
					(retained.authorization && dropped.get(retained.authorization)) ||
					dropped.get(matchKey(retained.codDoc, retained.number, retention.issuer.id));
				warn(
					retention.item,
					why
						? `${named(retention)}: left out with the sale it withholds on (${why}).`
						: `${named(retention)}: left out, it withholds on your ${what}, which is not among the items: add that sale to the items, or the withholding to the DIMM.`,
				);
				continue;
			}
			if (!sale.group) {
				warn(
					retention.item,
					`${named(retention)}: left out with the sale it withholds on (${itemLabel(sale.doc.item)}: ${sale.leftOutWhy ?? 'not in the annex'}).`,
				);
				continue;
			}
			for (const line of retained.lines) {
				if (line.codigo === '2') sale.group.retIva += line.valor;
				else if (line.codigo === '1') sale.group.retRenta += line.valor;
				else
					warn(
						retention.item,
						`${named(retention)}: its withholding of tax ${line.codigo}, ${euros(line.valor).toFixed(2)}, is not part of the ATS's sales: left out.`,
					);
			}
			if (!sale.group.retentionItems.includes(retention.item))
				sale.group.retentionItems.push(retention.item);
			applied = true;
		}
		if (applied) clientRetentionsApplied++;
	}

	const detalleVentas: XmlRecord[] = [];
	const ventasRows: Json[] = [];
	const ventasTotals: Record<string, number> = Object.fromEntries(
		[
			'numeroComprobantes',
			'baseNoGraIva',
			'baseImponible',
			'baseImpGrav',
			'montoIva',
			'montoIce',
			'valorRetIva',
			'valorRetRenta',
		].map((field) => [field, 0]),
	);
	const sortedGroups = [...groups.values()].sort(
		(a, b) =>
			a.idCliente.localeCompare(b.idCliente) || a.tipoComprobante.localeCompare(b.tipoComprobante),
	);
	for (const g of sortedGroups) {
		const foreign = g.tpIdCliente === '06';
		const record: XmlRecord = {
			tpIdCliente: g.tpIdCliente,
			idCliente: g.idCliente,
			parteRelVtas: g.tpIdCliente === FINAL_CONSUMER.type ? undefined : g.related ? 'SI' : 'NO',
			tipoCliente: foreign ? (FOREIGN_PARTY_TYPES[g.idType ?? ''] ?? '01') : undefined,
			denoCli: foreign ? atsName(g.name) || undefined : undefined,
			tipoComprobante: g.tipoComprobante,
			tipoEmision: 'E',
			numeroComprobantes: String(g.items.length),
			baseNoGraIva: money(g.bases.baseNoGraIva + g.bases.baseImpExe),
			baseImponible: money(g.bases.baseImponible),
			baseImpGrav: money(g.bases.baseImpGrav),
			montoIva: money(g.iva),
			montoIce: money(g.ice),
			valorRetIva: money(g.retIva),
			valorRetRenta: money(g.retRenta),
			formasDePago:
				g.tipoComprobante !== '04' && g.payments.length ? { formaPago: g.payments } : undefined,
		};
		detalleVentas.push(record);
		const sign = g.tipoComprobante === '04' ? -1 : 1;
		addTotal(ventasTotals, 'numeroComprobantes', g.items.length, 1);
		addTotal(ventasTotals, 'baseNoGraIva', g.bases.baseNoGraIva + g.bases.baseImpExe, sign);
		addTotal(ventasTotals, 'baseImponible', g.bases.baseImponible, sign);
		addTotal(ventasTotals, 'baseImpGrav', g.bases.baseImpGrav, sign);
		addTotal(ventasTotals, 'montoIva', g.iva, sign);
		addTotal(ventasTotals, 'montoIce', g.ice, sign);
		addTotal(ventasTotals, 'valorRetIva', g.retIva, 1);
		addTotal(ventasTotals, 'valorRetRenta', g.retRenta, 1);
		ventasRows.push({
			items: g.items,
			retencion_items: g.retentionItems,
			cliente: g.name,
			...jsonOf(record),
		});
	}

	// 8. Establishments: electronic sales count in neither totalVentas nor ventasEstab (Odoo Enterprise and
	// Trescloud: only pre-printed documents add up there), so every establishment reports 0.00.
	const establishments = [...ownEstablishments]
		.filter((e) => /^\d{3}$/.test(e) && e !== '000')
		.sort();
	const numEstabRuc =
		settings.establishments > 0 ? settings.establishments : Math.max(1, establishments.length);
	const ventaEst = establishments.map((codEstab) => ({ codEstab, ventasEstab: signedMoney(0) }));

	if (errors.length) return { errors };

	const mes = String(settings.period.month).padStart(2, '0');
	const anio = String(settings.period.year);
	const iva: XmlRecord = {
		TipoIDInformante: 'R',
		IdInformante: informant,
		razonSocial,
		Anio: anio,
		Mes: mes,
		regimenMicroempresa: settings.period.semestral ? 'SI' : undefined,
		numEstabRuc: String(numEstabRuc).padStart(3, '0'),
		totalVentas: signedMoney(0),
		codigoOperativo: 'IVA',
		compras: detalleCompras.length ? { detalleCompras } : undefined,
		ventas: detalleVentas.length ? { detalleVentas } : undefined,
		ventasEstablecimiento: ventaEst.length ? { ventaEst } : undefined,
	};
	const inAnnexItems = new Set<number>([
		...comprasRows.flatMap((r) => [r.item as number, ...(r.retencion_items as number[])]),
		...ventasRows.flatMap((r) => [...(r.items as number[]), ...(r.retencion_items as number[])]),
	]);
	const unchecked = uncheckedItems.filter((item) => inAnnexItems.has(item));
	if (unchecked.length)
		problems.push(
			`${unchecked.length === 1 ? 'One receipt' : `${unchecked.length} receipts`} in the annex ${unchecked.length === 1 ? 'was' : 'were'} read from a file without asking the SRI whether it is authorized (${unchecked.map(itemLabel).join(', ')}): put Check Authorization before this node, or check them in the SRI's portal before filing.`,
		);
	const warnings = warned.sort((a, b) => a.item - b.item).map((w) => w.text);
	const toEuros = (totals: Record<string, number>) =>
		Object.fromEntries(
			Object.entries(totals).map(([k, v]) => [k, k === 'numeroComprobantes' ? v : euros(v)]),
		);
	return {
		iva,
		json: {
			informante: { ruc: informant, razon_social: razonSocial },
			anio,
			mes,
			semestral: settings.period.semestral,
			periodo: { desde: from, hasta: to },
			counts: {
				items: items.length,
				in_annex: inAnnexItems.size,
				left_out: items.length - inAnnexItems.size,
				compras: detalleCompras.length,
				ventas_comprobantes: ventasRows.reduce((n, r) => n + (r.items as number[]).length, 0),
				ventas_grupos: detalleVentas.length,
				retenciones_emitidas: ownRetentions.filter((r) =>
					comprasRows.some((row) => (row.retencion_items as number[]).includes(r.item)),
				).length,
				retenciones_recibidas: clientRetentionsApplied,
				warnings: warnings.length,
				problems: problems.length,
			},
			totals: {
				compras: toEuros(comprasTotals),
				ventas: toEuros(ventasTotals),
				totalVentas: 0,
			},
			numEstabRuc,
			compras: comprasRows,
			ventas: ventasRows,
			ventasEstablecimiento: ventaEst,
			warnings,
			problems,
		},
	};
}

/** A record as the bookkeeper reads it in the JSON: payment forms and withholdings as lists. */
function jsonOf(record: XmlRecord): Json {
	const out: Json = {};
	for (const [name, value] of Object.entries(record)) {
		if (value === undefined) continue;
		if (name === 'formasDePago') out[name] = (value as XmlRecord).formaPago as string[];
		else if (name === 'air') out[name] = (value as XmlRecord).detalleAir as Json[];
		else out[name] = value as Json[keyof Json];
	}
	return out;
}
