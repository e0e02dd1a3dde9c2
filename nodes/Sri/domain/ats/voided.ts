import { BEFORE_ITEMS, type Findings } from '../../../shared/findings';
import { splitAccessKey } from '../../../shared/sri/accessKey';
import type { Json } from '../receipt';
import { keyDate } from '../key';
import { documentWord } from './matching';
import type { PeriodRange } from './period';
import { jsonOf, type XmlRecord } from './xml';

/**
 * The company's own receipts voided in the period (`anulados/detalleAnulados`, the schema's detalleAnuladosType: a
 * range of sequentials under one authorization). No receipt says it was voided, and the SRI's authorization service
 * still answers AUTORIZADO for it: the bookkeeper gives their access keys (Options → Voided Receipts). Each is one
 * row, its start and end the same sequential, as Odoo Enterprise and Trescloud write them, its type the receipt's own
 * (01, 03, 04, 05, 06, 07); such a receipt among the items is left out of ventas and compras (admit.ts).
 */

interface Voided {
	/** Every key given, to leave its receipt out wherever it is among the items. */
	keys: Set<string>;
	detalleAnulados: XmlRecord[];
	/** The rows as the bookkeeper reads them, with each key. */
	rows: Json[];
}

/** `keys` (checked by choices.ts `keysOf`) issued by `informant`, as the annex of `range` reports them. */
export function voidedReceipts(
	keys: readonly string[],
	informant: string,
	range: PeriodRange,
	findings: Findings,
	words: { field: string; title: string },
): Voided {
	const out: Voided = { keys: new Set(keys), detalleAnulados: [], rows: [] };
	const rows: Array<{ record: XmlRecord; key: string }> = [];
	for (const key of out.keys) {
		const k = splitAccessKey(key);
		const number = `${k.series.slice(0, 3)}-${k.series.slice(3)}-${k.sequential}`;
		const what = `${documentWord(k.receiptType)} ${number}, access key ${key}`;
		if (k.ruc !== informant) {
			findings.stop(
				words.title,
				`Give in ${words.field} only the access keys of receipts you issued (your RUC is digits 11–23 of the key): the ATS reports your own voided receipts.`,
				`${words.field}: ${what} was issued by ${k.ruc}, not by you (${informant})`,
			);
			continue;
		}
		const date = keyDate(key);
		if (k.environment !== '2' || !range.holds(date)) {
			findings.warn(
				BEFORE_ITEMS,
				`${words.field}: ${what}: left out of anulados, ${k.environment !== '2' ? "it is of the SRI's test environment (no tax validity)" : `issued ${date ?? k.date}, outside the period ${range.from} – ${range.to}`}.`,
			);
			continue;
		}
		rows.push({
			key,
			record: {
				tipoComprobante: k.receiptType,
				establecimiento: k.series.slice(0, 3),
				puntoEmision: k.series.slice(3),
				secuencialInicio: k.sequential,
				secuencialFin: k.sequential,
				autorizacion: key,
			},
		});
	}
	const order = (r: XmlRecord) =>
		`${r.tipoComprobante as string}|${r.establecimiento as string}|${r.puntoEmision as string}|${r.secuencialInicio as string}`;
	rows.sort((a, b) => order(a.record).localeCompare(order(b.record)));
	for (const { record, key } of rows) {
		out.detalleAnulados.push(record);
		out.rows.push({ clave_acceso: key, ...jsonOf(record) });
	}
	return out;
}

/** `[item 3] factura …: left out, voided (…)`: the reason a voided receipt among the items is left out. */
export const voidedWhy = (field: string) =>
	`voided (${field}): it is reported in anulados, not as a sale or a purchase`;
