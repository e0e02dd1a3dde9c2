import { itemLabel } from '../../../shared/errors';
import type { Findings } from '../../../shared/findings';
import type { Json } from '../receipt';
import type { IvaBase, ReceiptFacts } from '../receiptFacts';
import { paymentOf } from './abroad';
import {
	FOREIGN_PARTY_TYPES,
	IVA_WITHHELD_FIELDS,
	NO_AUTHORIZATION,
	PAYMENT_FORM_THRESHOLD_CENTS,
	PURCHASE_ID_TYPES,
	REIMBURSEMENT_DOCUMENT,
	TAX_SUPPORTS,
	TAX_SUPPORTS_BY_DOCUMENT,
	ZERO_IVA_WITHHOLDING_CODES,
	type IvaWithheldField,
} from './catalog';
import { atsDate, atsName, dollars, money, percentage, schemaId } from './format';
import { documentWord, named, numberOf, ReceiptIndex, type LeftOut } from './matching';
import type { PeriodRange } from './period';
import type { ItemChoices, Purchase } from './roles';
import { reimbursementsOf } from './reimbursements';
import { jsonOf, type Totals, type XmlRecord } from './xml';

/**
 * The annex's purchases (`compras/detalleCompras`): the informant's retentions matched to the purchases they
 * withhold on; each purchase in the period of its registration date (its item's own, its retention's, else its
 * emission date); then one record per purchase, in the schema's terms — its tax support, supplier, bases, IVA
 * withheld by percentage, income tax withheld (`air`), its retention's number, where it was paid (`pagoExterior`,
 * from its retention), the expenses it reimburses (`reembolsos`), the document a note modifies.
 */

/** The informant's retentions, each document they withhold on matched to its purchase (any period). */
export function matchOwnRetentions(
	purchases: readonly Purchase[],
	ownRetentions: readonly ReceiptFacts[],
	leftOut: LeftOut,
	range: PeriodRange,
	findings: Findings,
): ReceiptIndex<Purchase> {
	const index = new ReceiptIndex<Purchase>();
	for (const p of purchases) index.add(p, p.doc, [p.supplier.id]);
	for (const retention of ownRetentions)
		for (const retained of retention.retained ?? []) {
			const supplier = retention.party?.id ?? '';
			const purchase = index.retained(retained, supplier);
			if (purchase) {
				purchase.retentions.push({ retention, retained });
				continue;
			}
			const why = leftOut.retained(retained, supplier);
			const what = `${documentWord(retained.codDoc)} ${retained.number} of ${retention.party?.id ?? 'an unnamed supplier'}`;
			const since = retained.registered ?? retained.issued;
			if (why)
				findings.warn(
					retention.item,
					`${named(retention)}: left out with the purchase it withholds on (${why}).`,
				);
			// A purchase of an earlier month is declared in that month's annex, with this withholding.
			else if (since !== undefined && since < range.from)
				findings.warn(
					retention.item,
					`${named(retention)}: left out, it withholds on ${what} of ${since}, a purchase of an earlier period, which is not among the items: that purchase and this withholding belong to the annex of ${since.slice(0, 7)} (a substitute one if it was filed without them).`,
				);
			// Otherwise the purchase and what was withheld on it are missing from compras: the annex is not complete.
			else
				findings.problem(
					retention.item,
					`${named(retention)}: left out, it withholds on ${what}, which is not among the items, so neither that purchase nor its withholding is in compras: add that purchase to the items, or add both to the annex in the DIMM.`,
				);
		}
	return index;
}

/** Each purchase in or out of the period, by its registration date; those out named, with their retentions. */
export function placePurchases(
	purchases: readonly Purchase[],
	range: PeriodRange,
	choicesOf: (item: number) => ItemChoices,
	findings: Findings,
): void {
	for (const p of purchases) {
		p.choices = choicesOf(p.doc.item);
		const declared = p.retentions.find((r) => r.retained.registered)?.retained.registered;
		p.registered = p.choices.registered ?? declared ?? p.doc.date ?? '';
		if (p.doc.date && p.registered < p.doc.date)
			findings.problem(
				p.doc.item,
				`${named(p.doc)}: registered ${p.registered} (${p.choices.registered ? 'Registration Date per Item' : "your retention's fechaRegistroContable"}), before it was issued on ${p.doc.date}: a purchase is booked on or after its emission date, and the SRI refuses a fechaRegistro before fechaEmision. Correct the date (the period follows it).`,
			);
		if (range.holds(p.registered)) p.inAnnex = true;
		else {
			p.leftOutWhy = `registered ${p.registered}, outside the period ${range.from} – ${range.to}`;
			findings.warn(p.doc.item, `${named(p.doc)}: left out, ${p.leftOutWhy}.`);
			for (const r of p.retentions)
				findings.warn(
					r.retention.item,
					`${named(r.retention)}: left out with the purchase it withholds on (${itemLabel(p.doc.item)}, ${p.leftOutWhy}).`,
				);
		}
	}
}

/** The purchase records of the annex, with what the bookkeeper reads of them. */
interface PurchaseRecords {
	detalleCompras: XmlRecord[];
	rows: Json[];
	/** In cents; credit notes subtracted. */
	totals: Totals;
}

const TAX_SUPPORT_CODES = new Set(TAX_SUPPORTS.map((t) => t.code));

/** Where a purchase's own tax support can come from: its item (Tax Support per Item), and the retention that declared one. */
function ownSupports(p: Purchase): { fromItem: string; declared?: Purchase['retentions'][number] } {
	return {
		fromItem: p.choices.taxSupport ?? '',
		declared: p.retentions.find((r) => r.retained.codSustento),
	};
}

/**
 * A purchase's tax support: its item's own, else the one its retention declared, else (a note) the one of the
 * document it modifies, else the form's (`fallback`).
 */
function taxSupports(originalOf: (p: Purchase) => Purchase | undefined, fallback: string) {
	const supports = new Map<Purchase, string>();
	const supportOf = (p: Purchase): string => {
		const known = supports.get(p);
		if (known !== undefined) return known;
		supports.set(p, ''); // a note that modifies itself, through a loop of notes, ends here
		const { fromItem, declared } = ownSupports(p);
		const own = fromItem || declared?.retained.codSustento;
		const original = own ? undefined : originalOf(p);
		const value = own || (original && supportOf(original)) || fallback;
		supports.set(p, value);
		return value;
	};
	return supportOf;
}

/**
 * The purchase's tax support, checked against Tabla 5 and its document type as the annex files it (`tipoComprobante`);
 * a stop when it has none that fits.
 */
function checkedSupport(
	p: Purchase,
	codSustento: string,
	tipoComprobante: string,
	findings: Findings,
): void {
	const { doc } = p;
	const { fromItem, declared } = ownSupports(p);
	const fromRetention = declared?.retained.codSustento;
	if (fromItem && declared && fromItem !== fromRetention)
		findings.problem(
			doc.item,
			`${named(doc)}: Tax Support per Item says ${fromItem}, your retention ${named(declared.retention)} declared ${fromRetention}; the annex uses ${fromItem}. The SRI compares them: make them agree.`,
		);
	if (!codSustento)
		findings.stop(
			'purchases without a tax support (codSustento)',
			'Choose Tax Support (codSustento) for every purchase, or give each purchase its own in Tax Support per Item (e.g. an expression reading a column of your purchases sheet).',
			named(doc),
		);
	else if (!TAX_SUPPORT_CODES.has(codSustento))
		findings.stop(
			'tax supports (codSustento) that are not codes of the SRI (Tabla 5)',
			`Give a two-digit code of Tabla 5: ${[...TAX_SUPPORT_CODES].join(', ')}.`,
			`${named(doc)}: "${codSustento}"`,
		);
	else if (!(TAX_SUPPORTS_BY_DOCUMENT[tipoComprobante] ?? []).includes(codSustento))
		findings.stop(
			'tax supports (codSustento) the SRI does not accept for the document type (Tabla 4)',
			'Give the purchase a tax support its document type accepts (Tax Support per Item).',
			`${named(doc)}: ${codSustento}; a ${tipoComprobante === REIMBURSEMENT_DOCUMENT ? `${documentWord(doc.codDoc)} issued for a reimbursement (${REIMBURSEMENT_DOCUMENT})` : documentWord(doc.codDoc)} accepts ${(TAX_SUPPORTS_BY_DOCUMENT[tipoComprobante] ?? []).join(', ')}`,
		);
}

/** What the informant's retentions withheld on a purchase: IVA by percentage into its field, income tax as `air`. */
function withholdings(p: Purchase, findings: Findings) {
	const withheld: Record<IvaWithheldField, number> = {
		valRetBien10: 0,
		valRetServ20: 0,
		valorRetBienes: 0,
		valRetServ50: 0,
		valorRetServicios: 0,
		valRetServ100: 0,
	};
	const air: XmlRecord[] = [];
	let renta = 0;
	for (const { retention, retained } of p.retentions)
		for (const line of retained.lines) {
			if (line.codigo === '2') {
				// At 0 % (codes 7, retención en cero, and 8, no procede retención), nothing was withheld.
				if (line.porcentaje === 0 || ZERO_IVA_WITHHOLDING_CODES.includes(line.codigoRetencion)) {
					if (line.valor !== 0)
						findings.problem(
							retention.item,
							`${named(retention)}: its IVA withholding of code ${line.codigoRetencion} at ${line.porcentaje} % says ${dollars(line.valor).toFixed(2)} withheld; a withholding at 0 % withholds nothing, so nothing of it is in the annex. Correct the retention with a replacement receipt, or the amount in the DIMM.`,
						);
					continue;
				}
				const field = IVA_WITHHELD_FIELDS.find(([pct]) => pct === line.porcentaje)?.[1];
				if (field) withheld[field] += line.valor;
				else
					findings.stop(
						'IVA withheld at a percentage the ATS has no field for',
						'The ATS takes IVA withheld at 0 (nothing withheld), 10, 20, 30, 50, 70 or 100 %: correct the retention with a replacement receipt.',
						`${named(retention)}: ${line.porcentaje} % (retention code ${line.codigoRetencion})`,
					);
			} else if (line.codigo === '1') {
				const porcentajeAir = percentage(line.porcentaje);
				if (!/^[A-Za-z0-9]{3,5}$/.test(line.codigoRetencion) || porcentajeAir === undefined)
					findings.stop(
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
					renta += line.valor;
				}
			} else
				findings.warn(
					retention.item,
					`${named(retention)}: its withholding of tax ${line.codigo} (${line.codigo === '6' ? 'ISD' : 'not renta or IVA'}), ${dollars(line.valor).toFixed(2)}, is not part of the ATS's purchases: left out.`,
				);
		}
	return { withheld, air, renta };
}

/** The document a note modifies, as the record names it; a problem when the annex cannot name it whole. */
function modifiedDocument(
	p: Purchase,
	originalOf: (p: Purchase) => Purchase | undefined,
	findings: Findings,
): XmlRecord {
	const { doc } = p;
	if (doc.codDoc !== '04' && doc.codDoc !== '05') return {};
	const m = doc.modified;
	if (!m) {
		findings.problem(
			doc.item,
			`${named(doc)} does not name the document it modifies (codDocModificado, numDocModificado): the DIMM asks for it.`,
		);
		return {};
	}
	const original = originalOf(p);
	if (original?.doc.reimbursement?.codDoc === REIMBURSEMENT_DOCUMENT)
		findings.problem(
			doc.item,
			`${named(doc)} modifies ${named(original.doc)}, issued for a reimbursement: the SRI's catalog has ${doc.codDoc === '04' ? '47' : '48'} for a note on a reimbursement, with its own reimbursed documents, which an electronic ${documentWord(doc.codDoc)} does not carry. It is written as ${doc.codDoc}: check it in the DIMM.`,
		);
	if (!original?.doc.authorization)
		findings.problem(
			doc.item,
			`${named(doc)} modifies ${documentWord(m.codDoc)} ${m.estab}-${m.ptoEmi}-${m.secuencial}, which is not among the items: its authorization is written as ${NO_AUTHORIZATION}; replace it with that document's access key in the DIMM if it asks.`,
		);
	return {
		docModificado: m.codDoc,
		estabModificado: m.estab,
		ptoEmiModificado: m.ptoEmi,
		secModificado: m.secuencial,
		autModificado: original?.doc.authorization ?? NO_AUTHORIZATION,
	};
}

/** The fields added up in the purchases' totals, in the order the JSON lists them. */
const PURCHASE_TOTALS = [
	'baseNoGraIva',
	'baseImponible',
	'baseImpGrav',
	'baseImpExe',
	'montoIce',
	'montoIva',
	...IVA_WITHHELD_FIELDS.map(([, field]) => field),
	'totbasesImpReemb',
	'valRetAir',
];

/** One record per purchase in the period, by registration date, supplier, type and number. */
export function purchaseRecords(
	purchases: readonly Purchase[],
	index: ReceiptIndex<Purchase>,
	taxSupport: string,
	findings: Findings,
): PurchaseRecords {
	const out: PurchaseRecords = {
		detalleCompras: [],
		rows: [],
		totals: Object.fromEntries(PURCHASE_TOTALS.map((field) => [field, 0])),
	};
	const add = (field: string, cents: number, sign = 1) =>
		(out.totals[field] = (out.totals[field] ?? 0) + sign * cents);
	/** A note's modified document among the purchases (any period), by type, number and supplier. */
	const originalOf = (p: Purchase): Purchase | undefined => {
		const m = p.doc.modified;
		const original = m ? index.numbered(m.codDoc, numberOf(m), p.supplier.id) : undefined;
		return original === p ? undefined : original;
	};
	const supportOf = taxSupports(originalOf, taxSupport);
	const inAnnex = purchases
		.filter((p) => p.inAnnex)
		.sort(
			(a, b) =>
				a.registered.localeCompare(b.registered) ||
				a.supplier.id.localeCompare(b.supplier.id) ||
				a.doc.codDoc.localeCompare(b.doc.codDoc) ||
				a.doc.number.localeCompare(b.doc.number),
		);
	for (const p of inAnnex) {
		const { doc } = p;
		const codSustento = supportOf(p);
		const reimbursed = reimbursementsOf(doc, findings);
		checkedSupport(p, codSustento, reimbursed.tipoComprobante, findings);
		const tpIdProv = doc.codDoc === '03' ? PURCHASE_ID_TYPES[p.supplier.idType ?? ''] : '01';
		const idProv = schemaId(p.supplier.id);
		if (!tpIdProv || !idProv)
			findings.stop(
				'purchases whose supplier identification the ATS cannot take',
				'The supplier must be identified by RUC, cédula, passport or a foreign tax id of 3 to 13 letters or digits: correct the receipt with its issuer.',
				`${named(doc)}: supplier "${p.supplier.id}"${p.supplier.idType ? `, identification type ${p.supplier.idType}` : ''}`,
			);
		const foreign = tpIdProv === '03';
		const related =
			p.choices.relatedParty === true ||
			p.retentions.some((r) => r.retention.relatedParty === true);
		const { withheld, air, renta } = withholdings(p, findings);
		const firstRetention = p.retentions[0]?.retention;
		if (p.retentions.length > 1)
			findings.problem(
				doc.item,
				`${named(doc)} has ${p.retentions.length} retentions (${p.retentions.map((r) => itemLabel(r.retention.item)).join(', ')}): their amounts are added; the ATS names only the first's number (estabRetencion1 … fechaEmiRet1).`,
			);
		const modified = modifiedDocument(p, originalOf, findings);
		const payments = doc.codDoc === '04' ? [] : doc.payments;
		if (!payments.length && doc.codDoc !== '04' && (doc.total ?? 0) >= PAYMENT_FORM_THRESHOLD_CENTS)
			findings.problem(
				doc.item,
				`${named(doc)}: a purchase of ${dollars(doc.total ?? 0).toFixed(2)} whose receipt names no payment form (pagos): add its formaPago in the DIMM (payments of USD ${dollars(PAYMENT_FORM_THRESHOLD_CENTS)} or more go through the financial system).`,
			);
		if (!doc.authorization)
			findings.stop(
				'purchases without an access key or authorization number',
				'A receipt of the SRI carries its 49-digit access key (claveAcceso): give the node the authorized receipt.',
				named(doc),
			);

		const record: XmlRecord = {
			codSustento,
			tpIdProv: tpIdProv ?? '',
			idProv: idProv ?? p.supplier.id,
			tipoComprobante: reimbursed.tipoComprobante,
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
			totbasesImpReemb: money(reimbursed.totalBases),
			pagoExterior: paymentOf(p, foreign, findings),
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
			reembolsos: reimbursed.reembolsos,
		};
		out.detalleCompras.push(record);

		const sign = doc.codDoc === '04' ? -1 : 1;
		for (const base of Object.keys(doc.bases) as IvaBase[]) add(base, doc.bases[base], sign);
		add('montoIce', doc.ice, sign);
		add('montoIva', doc.iva, sign);
		add('totbasesImpReemb', reimbursed.totalBases, sign);
		for (const [field, cents] of Object.entries(withheld)) add(field, cents);
		add('valRetAir', renta);
		out.rows.push({
			item: doc.item,
			retencion_items: p.retentions.map((r) => r.retention.item),
			clave_acceso: doc.key,
			numero: doc.number,
			proveedor: p.supplier.name,
			...jsonOf(record),
		});
	}
	return out;
}
