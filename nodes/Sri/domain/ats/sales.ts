import { itemLabel } from '../../../shared/errors';
import type { Findings } from '../../../shared/findings';
import { idTypeOf } from '../../../shared/sri/ruc';
import type { Json } from '../receipt';
import { noBases, type IvaBase, type ReceiptFacts } from '../receiptFacts';
import { FINAL_CONSUMER, FOREIGN_PARTY_TYPES, SALE_DOCUMENT_TYPES, SALE_ID_TYPES } from './catalog';
import { atsName, dollars, money, schemaId } from './format';
import { documentWord, named, ReceiptIndex, type LeftOut } from './matching';
import type { PeriodRange } from './period';
import type { ItemChoices, Sale } from './roles';
import { jsonOf, type Totals, type XmlRecord } from './xml';

/**
 * The annex's sales (`ventas/detalleVentas`): the informant's own receipts of the period, grouped by client,
 * document type and emission (all electronic: `E`), with the retentions its clients made on them; each group one
 * record. Electronic sales add nothing to `totalVentas` or `ventasEstab` (Odoo Enterprise and Trescloud: only
 * pre-printed documents add up there). An export invoice (`comercioExterior EXPORTADOR`) is not a sale of `ventas`:
 * the ATS reports exports in `exportaciones`, with the customs declaration's data no invoice carries, so it is left
 * out and named in `problems` (Trescloud's exporter leaves exports out of ventas the same way; Odoo Enterprise keeps
 * them there as 18).
 */

interface SaleGroup {
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

/**
 * Each sale in or out of the annex: by its emission date, whether it is an export, and the form's Own Electronic
 * Sales. Returns the exports of the period, as the bookkeeper reads them (to add to `exportaciones` in the DIMM).
 */
export function placeSales(
	sales: readonly Sale[],
	range: PeriodRange,
	electronicSales: 'include' | 'leaveOut',
	findings: Findings,
): Json[] {
	const exports: Json[] = [];
	for (const s of sales) {
		const { doc } = s;
		if (!range.holds(doc.date)) {
			s.leftOutWhy = `issued ${doc.date}, outside the period ${range.from} – ${range.to}`;
			findings.warn(doc.item, `${named(doc)}: left out, ${s.leftOutWhy}.`);
		} else if (doc.exportation) {
			s.leftOutWhy = 'an export, left out of ventas (see problems)';
			const total =
				doc.bases.baseNoGraIva +
				doc.bases.baseImponible +
				doc.bases.baseImpGrav +
				doc.bases.baseImpExe;
			findings.problem(
				doc.item,
				`${named(doc)} is an export (comercioExterior EXPORTADOR${doc.exportation.paisDestino ? `, destination country ${doc.exportation.paisDestino}` : ''}), of ${dollars(total).toFixed(2)} before taxes. The ATS reports exports in their own section, exportaciones, with the customs declaration's data (the DAE's district, year, regime and number, the transport document, the shipping date, the FOB value), which no invoice carries: it is left out of ventas, so that it is not counted twice. Add it to exportaciones in the DIMM before filing.`,
			);
			exports.push({
				item: doc.item,
				clave_acceso: doc.key,
				numero: doc.number,
				fecha_emision: doc.date,
				cliente: doc.party?.name ?? '',
				identificacion_cliente: doc.party?.id ?? '',
				pais_destino: doc.exportation.paisDestino ?? null,
				incoterm: doc.exportation.incoTerm ?? null,
				valor: dollars(total),
			});
		} else if (electronicSales === 'leaveOut') {
			s.leftOutWhy = 'own electronic sales are left out (Own Electronic Sales)';
			findings.warn(doc.item, `${named(doc)}: left out, ${s.leftOutWhy}.`);
		} else {
			s.inAnnex = true;
			if (doc.reimbursement)
				findings.problem(
					doc.item,
					`${named(doc)} is issued for a reimbursement of expenses (codDocReembolso ${doc.reimbursement.codDoc}): it is in ventas as an invoice (18) with its whole bases, as Odoo Enterprise files such a sale; the SRI's catalog (Tabla 4) also has 41 for it, which Trescloud's exporter uses. Check in the DIMM which one your annex needs.`,
				);
		}
	}
	return exports;
}

/** The sales of the annex grouped; the clients' retentions applied to the groups of the sales they withhold on. */
interface SaleRecords {
	detalleVentas: XmlRecord[];
	rows: Json[];
	totals: Totals;
	/** Clients' retentions applied to a sale of the annex. */
	retentionsApplied: number;
}

const SALE_TOTALS = [
	'numeroComprobantes',
	'baseNoGraIva',
	'baseImponible',
	'baseImpGrav',
	'montoIva',
	'montoIce',
	'valorRetIva',
	'valorRetRenta',
];

export function saleRecords(
	sales: readonly Sale[],
	clientRetentions: readonly ReceiptFacts[],
	leftOut: LeftOut,
	choicesOf: (item: number) => ItemChoices,
	findings: Findings,
): SaleRecords {
	const groups = new Map<string, SaleGroup>();
	const groupOf = new Map<Sale, SaleGroup>();
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
			findings.stop(
				'sales whose client identification the ATS cannot take',
				'A client is identified by RUC, cédula, passport, a foreign tax id (3 to 13 letters or digits) or as consumidor final (9999999999999): correct the receipt with a credit note and a new one.',
				`${named(doc)}: client "${buyer.id}"${buyer.idType ? `, identification type ${buyer.idType}` : ''}`,
			);
			continue;
		}
		const key = `${tpIdCliente}|${idCliente}|${tipoComprobante}|E`;
		const group: SaleGroup = groups.get(key) ?? {
			tpIdCliente,
			idCliente,
			name: buyer.name,
			idType: buyer.idType,
			tipoComprobante,
			items: [],
			retentionItems: [],
			related: false,
			bases: noBases(),
			iva: 0,
			ice: 0,
			retIva: 0,
			retRenta: 0,
			payments: [],
		};
		groups.set(key, group);
		groupOf.set(s, group);
		group.items.push(doc.item);
		for (const base of Object.keys(doc.bases) as IvaBase[]) group.bases[base] += doc.bases[base];
		group.iva += doc.iva;
		group.ice += doc.ice;
		for (const form of doc.payments) if (!group.payments.includes(form)) group.payments.push(form);
		if (tpIdCliente !== FINAL_CONSUMER.type && choicesOf(doc.item).relatedParty === true)
			group.related = true;
	}
	const retentionsApplied = applyClientRetentions(
		sales,
		groupOf,
		clientRetentions,
		leftOut,
		findings,
	);

	const out: SaleRecords = {
		detalleVentas: [],
		rows: [],
		totals: Object.fromEntries(SALE_TOTALS.map((field) => [field, 0])),
		retentionsApplied,
	};
	const add = (field: string, cents: number, sign = 1) =>
		(out.totals[field] = (out.totals[field] ?? 0) + sign * cents);
	const sorted = [...groups.values()].sort(
		(a, b) =>
			a.idCliente.localeCompare(b.idCliente) || a.tipoComprobante.localeCompare(b.tipoComprobante),
	);
	for (const g of sorted) {
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
		out.detalleVentas.push(record);
		const sign = g.tipoComprobante === '04' ? -1 : 1;
		add('numeroComprobantes', g.items.length);
		add('baseNoGraIva', g.bases.baseNoGraIva + g.bases.baseImpExe, sign);
		add('baseImponible', g.bases.baseImponible, sign);
		add('baseImpGrav', g.bases.baseImpGrav, sign);
		add('montoIva', g.iva, sign);
		add('montoIce', g.ice, sign);
		add('valorRetIva', g.retIva);
		add('valorRetRenta', g.retRenta);
		out.rows.push({
			items: g.items,
			retencion_items: g.retentionItems,
			cliente: g.name,
			...jsonOf(record),
		});
	}
	return out;
}

/**
 * The retentions clients made, each line added to the group of the sale it withholds on (the sale found through
 * the one index, matching.ts); a retention on a sale that is not in the annex is left out, named with why. Returns
 * how many retentions were applied.
 */
function applyClientRetentions(
	sales: readonly Sale[],
	groupOf: ReadonlyMap<Sale, SaleGroup>,
	clientRetentions: readonly ReceiptFacts[],
	leftOut: LeftOut,
	findings: Findings,
): number {
	const index = new ReceiptIndex<Sale>();
	for (const s of sales) index.add(s, s.doc, [s.doc.party?.id ?? '']);
	let applied = 0;
	for (const retention of clientRetentions) {
		let used = false;
		for (const retained of retention.retained ?? []) {
			const sale = index.retained(retained, retention.issuer.id);
			if (!sale) {
				const why = leftOut.retained(retained, retention.issuer.id);
				findings.warn(
					retention.item,
					why
						? `${named(retention)}: left out with the sale it withholds on (${why}).`
						: `${named(retention)}: left out, it withholds on your ${documentWord(retained.codDoc)} ${retained.number}, which is not among the items: add that sale to the items, or the withholding to the DIMM.`,
				);
				continue;
			}
			const group = groupOf.get(sale);
			if (!group) {
				findings.warn(
					retention.item,
					`${named(retention)}: left out with the sale it withholds on (${itemLabel(sale.doc.item)}: ${sale.leftOutWhy ?? 'not in the annex'}).`,
				);
				continue;
			}
			for (const line of retained.lines) {
				if (line.codigo === '2') group.retIva += line.valor;
				else if (line.codigo === '1') group.retRenta += line.valor;
				else
					findings.warn(
						retention.item,
						`${named(retention)}: its withholding of tax ${line.codigo}, ${dollars(line.valor).toFixed(2)}, is not part of the ATS's sales: left out.`,
					);
			}
			if (!group.retentionItems.includes(retention.item)) group.retentionItems.push(retention.item);
			used = true;
		}
		if (used) applied++;
	}
	return applied;
}
