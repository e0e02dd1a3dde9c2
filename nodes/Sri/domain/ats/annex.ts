import { itemLabel } from '../../../shared/errors';
import { AFTER_ITEMS, BEFORE_ITEMS, checkPeriod, type Findings } from '../../../shared/findings';
import { rucProblem } from '../../../shared/sri/ruc';
import type { Json } from '../receipt';
import { admit, type AnnexItem } from './admit';
import { atsName, dollars, signedMoney } from './format';
import { checkListed } from './listed';
import { periodRange, type Period } from './period';
import { matchOwnRetentions, placePurchases, purchaseRecords } from './purchases';
import { rolesOf, type ItemChoices } from './roles';
import { placeSales, saleRecords } from './sales';
import { voidedReceipts, voidedWhy } from './voided';
import type { Totals, XmlRecord } from './xml';

/**
 * The annex (ATS) of one period, built from the period's receipts, step by step, each step a module:
 * 1. voided.ts — the receipts the bookkeeper says were voided (`anulados`);
 * 2. admit.ts — which receipts it takes (the SRI's word, voided, the test environment, duplicates);
 * 3. roles.ts — who is who, from the receipts alone (sales, purchases, retentions made and received);
 * 4. purchases.ts — the informant's retentions to their purchases, the period by registration date, the records
 *    (with reimbursements.ts and abroad.ts);
 * 5. sales.ts — the period by emission date, exports apart, sales grouped by client, the clients' retentions;
 * 6. listed.ts — the input held against the SRI's list of what was issued to the informant, when given;
 * 7. here — the establishments, the header, and the JSON the bookkeeper reads.
 * Every amount in cents. Pure: the operation reads the items and the form and writes the file (xml.ts); what is
 * found on the way goes to the run's one collector (shared/findings.ts). Nothing is left out silently: every
 * receipt is in the annex or named in `warnings`.
 */

/** What the bookkeeper chose on the form. */
export interface AnnexSettings {
	informant: { ruc: string; name: string };
	period: Period;
	/** Tax Support (codSustento) for every purchase; '' when none was chosen. */
	taxSupport: string;
	/** What to do with the informant's own electronic sales (see docs/sri.md, "Own electronic sales"). */
	electronicSales: 'include' | 'leaveOut';
	/** Open establishments (numEstabRuc); 0: the establishments of the informant's own documents. */
	establishments: number;
	/** How many input items the run had (the ones that are not receipts included). */
	itemCount: number;
	/** The form's field that chose the period, as messages name it. */
	periodField: string;
	/** Options → Voided Receipts: the access keys of the informant's receipts voided (choices.ts keysOf). */
	voided: readonly string[];
	/** Options → Receipts the SRI Lists for You: the keys of the SRI's list; undefined when not given. */
	listed?: readonly string[];
	/** The options as messages name them, and the stop group of the form's fields. */
	fields: { voided: string; listed: string; form: string };
}

interface Annex {
	/** The `iva` element, as records in the schema's order (xml.ts). */
	iva: XmlRecord;
	/** What the bookkeeper reads: header, counts, totals, rows (the warnings and problems are the run's findings). */
	json: Json;
}

/**
 * Builds the annex of `settings.period` from the items (see the module's header). `choicesOf(item, role)` gives an
 * item's own choices; it is asked only for purchases and for the sales of the period. Returns the annex, or
 * undefined when `findings` hold what stops it (every one found, in one run).
 */
export function buildAnnex(
	items: readonly AnnexItem[],
	settings: AnnexSettings,
	choicesOf: (item: number, role: 'purchase' | 'sale') => ItemChoices,
	findings: Findings,
): Annex | undefined {
	const informant = settings.informant.ruc;
	const range = periodRange(settings.period);
	// Some real RUCs fail the published check (shared/sri/ruc.ts): said, never refused.
	const rucIssue = rucProblem(informant);
	if (rucIssue)
		findings.problem(
			BEFORE_ITEMS,
			`Informant RUC ${informant} fails its check: ${rucIssue}. Some real RUCs do; if yours is not one of them, the DIMM will refuse the file.`,
		);
	const razonSocial = atsName(settings.informant.name);
	if (razonSocial.length < 5)
		findings.stop(
			'Informant Legal Name: too short once reduced to the letters, digits and spaces the ATS takes',
			'Type the legal name as the RUC register has it (at least 5 letters or digits).',
			`"${settings.informant.name}" becomes "${razonSocial}"`,
		);

	const voided = voidedReceipts(settings.voided, informant, range, findings, {
		field: settings.fields.voided,
		title: settings.fields.form,
	});
	const { documents, unchecked, leftOut, keys } = admit(items, findings, {
		voided: voided.keys,
		voidedWhy: voidedWhy(settings.fields.voided),
		heldAgainstList: settings.listed !== undefined,
	});
	const { purchases, sales, ownRetentions, clientRetentions } = rolesOf(
		documents,
		informant,
		findings,
	);
	const purchaseIndex = matchOwnRetentions(purchases, ownRetentions, leftOut, range, findings);
	placePurchases(purchases, range, (item) => choicesOf(item, 'purchase'), findings);
	const exportaciones = placeSales(sales, range, settings.electronicSales, findings);
	checkPeriod(
		findings,
		{ documents: 'purchases and sales', period: range.label, field: settings.periodField },
		[...purchases.map((p) => p.registered), ...sales.map((s) => s.doc.date ?? '')].filter(Boolean),
		range.holds,
	);
	const compras = purchaseRecords(purchases, purchaseIndex, settings.taxSupport, findings);
	const ventas = saleRecords(
		sales,
		clientRetentions,
		leftOut,
		(item) => choicesOf(item, 'sale'),
		findings,
	);

	if (settings.listed)
		checkListed(settings.listed, keys, informant, range, findings, settings.fields.listed);

	// The establishments of the informant's own documents of the period: its sales, its purchase settlements in
	// the annex, its retentions. Electronic sales add up to nothing in ventasEstab, so each reports 0.00.
	const own = new Set<string>();
	for (const s of sales) if (range.holds(s.doc.date)) own.add(s.doc.estab);
	for (const p of purchases) if (p.doc.issuer.id === informant && p.inAnnex) own.add(p.doc.estab);
	for (const r of ownRetentions) if (range.holds(r.date)) own.add(r.estab);
	const establishments = [...own].filter((e) => /^\d{3}$/.test(e) && e !== '000').sort();
	const numEstabRuc =
		settings.establishments > 0 ? settings.establishments : Math.max(1, establishments.length);
	const ventaEst = establishments.map((codEstab) => ({ codEstab, ventasEstab: signedMoney(0) }));

	if (findings.stopped) return undefined;

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
		compras: compras.detalleCompras.length ? { detalleCompras: compras.detalleCompras } : undefined,
		ventas: ventas.detalleVentas.length ? { detalleVentas: ventas.detalleVentas } : undefined,
		ventasEstablecimiento: ventaEst.length ? { ventaEst } : undefined,
		anulados: voided.detalleAnulados.length
			? { detalleAnulados: voided.detalleAnulados }
			: undefined,
	};
	const inAnnexItems = new Set<number>([
		...compras.rows.flatMap((r) => [r.item as number, ...(r.retencion_items as number[])]),
		...ventas.rows.flatMap((r) => [...(r.items as number[]), ...(r.retencion_items as number[])]),
	]);
	const withheldOnPurchases = new Set(compras.rows.flatMap((r) => r.retencion_items as number[]));
	const uncheckedInAnnex = unchecked.filter((item) => inAnnexItems.has(item));
	if (uncheckedInAnnex.length)
		findings.problem(
			AFTER_ITEMS,
			`${uncheckedInAnnex.length === 1 ? 'One receipt' : `${uncheckedInAnnex.length} receipts`} in the annex ${uncheckedInAnnex.length === 1 ? 'was' : 'were'} read from a file without asking the SRI whether it is authorized (${uncheckedInAnnex.map(itemLabel).join(', ')}): put Check Authorization before this node, or check them in the SRI's portal before filing.`,
		);
	const { warnings, problems } = findings;
	const inDollars = (totals: Totals) =>
		Object.fromEntries(
			Object.entries(totals).map(([k, v]) => [k, k === 'numeroComprobantes' ? v : dollars(v)]),
		);
	return {
		iva,
		json: {
			informante: { ruc: informant, razon_social: razonSocial },
			anio,
			mes,
			semestral: settings.period.semestral,
			periodo: { desde: range.from, hasta: range.to },
			counts: {
				items: settings.itemCount,
				in_annex: inAnnexItems.size,
				left_out: settings.itemCount - inAnnexItems.size,
				compras: compras.detalleCompras.length,
				ventas_comprobantes: ventas.rows.reduce((n, r) => n + (r.items as number[]).length, 0),
				ventas_grupos: ventas.detalleVentas.length,
				retenciones_emitidas: ownRetentions.filter((r) => withheldOnPurchases.has(r.item)).length,
				retenciones_recibidas: ventas.retentionsApplied,
				anulados: voided.rows.length,
				exportaciones_por_completar: exportaciones.length,
				warnings: warnings.length,
				problems: problems.length,
			},
			totals: {
				compras: inDollars(compras.totals),
				ventas: inDollars(ventas.totals),
				totalVentas: 0,
			},
			numEstabRuc,
			compras: compras.rows,
			ventas: ventas.rows,
			ventasEstablecimiento: ventaEst,
			anulados: voided.rows,
			exportaciones_por_completar: exportaciones,
		},
	};
}
