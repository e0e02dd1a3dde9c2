import type { IDataObject } from 'n8n-workflow';
import { TAX_CODES } from './kinds';
import {
	asList,
	asNumber,
	asObject,
	asText,
	round2,
	totalTaxLines,
	type ReadReceipt,
} from './receipt';

/**
 * A receipt as the row a purchases ledger (libro de compras) keeps: flat columns a spreadsheet takes as they are,
 * the same columns in the same order for every receipt (a column that does not apply to a kind is null, an empty
 * cell), and no `comprobante` (the whole receipt stays in the XML file that goes along with the item).
 *
 * The IVA bases are split by the receipt's own percentage codes (codigoPorcentaje of tax 2 in its totals; SRI,
 * Ficha técnica de comprobantes electrónicos, table "Tarifa del IVA"): 4 is 15 %, 5 is 5 %, 0 is 0 %, 6 is not
 * subject to IVA (no objeto), 7 is exempt (exento); the other rates (2: 12 %, 3: 14 %, 8: 8 %, 10: 13 %; older
 * receipts and special periods) share one column. A retention's columns are the amounts it withholds; a waybill
 * has no amounts.
 */

/** The column of a base, by IVA percentage code (codes not listed: `base_iva_otra_tarifa`). */
const BASE_COLUMNS: Readonly<Record<string, string>> = {
	'4': 'base_iva_15',
	'5': 'base_iva_5',
	'0': 'base_iva_0',
	'6': 'base_no_objeto_iva',
	'7': 'base_exento_iva',
};
const OTHER_RATE = 'base_iva_otra_tarifa';
const BASES = [
	'base_iva_15',
	'base_iva_5',
	OTHER_RATE,
	'base_iva_0',
	'base_no_objeto_iva',
	'base_exento_iva',
];

/** Amounts added to a column, in cents, so that sums of two-decimal amounts stay exact. */
function add(row: IDataObject, column: string, amount: number | undefined): void {
	if (amount === undefined) return;
	row[column] = round2(((row[column] as number | null) ?? 0) + amount);
}

/** The bases by rate, the IVA and the ICE of an invoice, a purchase settlement, a credit or a debit note. */
function taxColumns(read: ReadReceipt): IDataObject {
	const info = asObject(read.comprobante[read.kind.info]);
	const row: IDataObject = Object.fromEntries(BASES.map((c) => [c, null]));
	row.iva = null;
	row.ice = null;
	for (const line of totalTaxLines(read.kind, info)) {
		const tax = asText(line.codigo);
		if (tax === TAX_CODES.iva) {
			const code = asText(line.codigoPorcentaje) ?? '';
			add(
				row,
				Object.hasOwn(BASE_COLUMNS, code) ? BASE_COLUMNS[code] : OTHER_RATE,
				asNumber(line.baseImponible),
			);
			add(row, 'iva', asNumber(line.valor));
		} else if (tax === TAX_CODES.ice) add(row, 'ice', asNumber(line.valor));
	}
	// A receipt with IVA lines but no ICE has none: 0, not an empty cell.
	if (row.iva !== null && row.ice === null) row.ice = 0;
	return row;
}

/** A party's field of the summary, as text, or null. */
const party = (value: unknown, field: string) => asText(asObject(value)[field]) ?? null;

/** The SRI's messages as one text: `60 ESTE PROCESO FUE REALIZADO… (información adicional)`, ` | ` between them. */
function messagesText(messages: unknown): string {
	return asList(messages)
		.map((m) =>
			[
				asText(m.identificador),
				asText(m.mensaje),
				m.informacion_adicional ? `(${asText(m.informacion_adicional)})` : undefined,
			]
				.filter(Boolean)
				.join(' '),
		)
		.join(' | ');
}

/**
 * The ledger row of an output item: `json` is the whole output (the SRI's answer or the file's, and the receipt's
 * summary), `read` the receipt, when there is one; `matches` the comparison with the file (Check Authorization
 * only: null when nothing was compared). Columns: `authorized`, `estado`, [`matches_file`], `fecha_emision`, `tipo`,
 * `numero`, `clave_acceso`, `emisor_ruc`, `emisor_razon_social`, `comprador_identificacion`, the six bases, `iva`,
 * `ice`, `importe_total`, `retenido_renta`, `retenido_iva`, `retenido_isd`, `fecha_autorizacion`, `file_name`,
 * `sri_messages` and `warnings` (each one text, ` | ` between entries).
 */
export function ledgerRow(
	json: IDataObject,
	read: ReadReceipt | undefined,
	extra: { matches?: boolean | null; fileName?: string | null } = {},
): IDataObject {
	const kind = read?.kind.root;
	const amounts: IDataObject =
		read && kind !== 'comprobanteRetencion' && kind !== 'guiaRemision'
			? taxColumns(read)
			: { ...Object.fromEntries(BASES.map((c) => [c, null])), iva: null, ice: null };
	const retenido = asObject(json.retenido);
	const withheld = (tax: string) =>
		kind === 'comprobanteRetencion' ? (asNumber(retenido[tax]) ?? 0) : null;
	return {
		authorized: json.authorized ?? false,
		estado: json.estado ?? null,
		...('matches' in extra ? { matches_file: extra.matches ?? null } : {}),
		fecha_emision: json.fecha_emision ?? null,
		tipo: json.tipo ?? null,
		numero: json.numero ?? null,
		clave_acceso: json.clave_acceso ?? null,
		emisor_ruc: party(json.emisor, 'ruc'),
		emisor_razon_social: party(json.emisor, 'razon_social'),
		comprador_identificacion: party(json.comprador, 'identificacion'),
		...amounts,
		importe_total:
			kind === 'comprobanteRetencion' || kind === 'guiaRemision'
				? null
				: (json.importe_total ?? null),
		retenido_renta: withheld('renta'),
		retenido_iva: withheld('iva'),
		retenido_isd: withheld('isd'),
		fecha_autorizacion: json.fecha_autorizacion ?? null,
		file_name: extra.fileName ?? null,
		sri_messages: messagesText(json.sri_messages),
		warnings: (Array.isArray(json.warnings) ? json.warnings : []).join(' | '),
	};
}
