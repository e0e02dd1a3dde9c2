import type { IDataObject } from 'n8n-workflow';
import { numberValue, type Checker } from '../../shared/validate';

/**
 * The arithmetic of invoices, credit notes and debit notes, checked before sending. The tax authority
 * recomputes a receipt's amounts and refuses one whose amounts do not add up, so a difference of more than
 * one cent is an error (nothing is sent); a difference of exactly one cent is what rounding every line to
 * two decimals can produce, so it is a warning and the receipt is sent.
 *
 * What adds up (receipts service's public documentation, Facturas / Notas de crédito / Notas de débito and
 * their common objects "Item", "Impuesto Item" and "Total Impuesto"):
 * - an item's `precio_total_sin_impuestos` = `cantidad` × `precio_unitario` − `descuento`;
 * - `totales.total_sin_impuestos` = the sum of the items' `precio_total_sin_impuestos` (debit notes: of their `valor`);
 * - a tax line's `valor` = `base_imponible` × `tarifa` / 100, when the line gives its `tarifa`;
 * - a `totales.impuestos` line (one per tax and percentage code) has the sum of the items' bases for that
 *   code, and — unless an additional discount applies, which the documentation takes off the base before the
 *   tax without saying how it is shared between lines — the sum of their values;
 * - `totales.importe_total` = `total_sin_impuestos` − `descuento_adicional` + the tax values + `propina`;
 * - invoice payments (`pagos[].total`, plus `credito.monto`, `valor_retenido_iva` and `valor_retenido_renta`,
 *   as the documented example adds them) = `importe_total`. Not checked with `compensaciones` or `retenciones`,
 *   whose effect on the amount paid is not documented.
 * Amounts that are missing or not numbers are left to the field checks; their sums are then not compared.
 */

function isObject(value: unknown): value is IDataObject {
	return !!value && typeof value === 'object' && !Array.isArray(value);
}

/** The amount a value stands for, read by the same rule as the field checks (shared/validate.ts). */
const num = numberValue;

/** Rounds half up to a whole number, after cutting the float noise of a product (4359.540154 × 100). */
function round(value: number): number {
	return Math.round(Number(value.toFixed(6)));
}

/** An amount in whole cents, or undefined when it is not a number. */
export function cents(value: unknown): number | undefined {
	const n = num(value);
	return n === undefined ? undefined : round(n * 100);
}

const money = (c: number) => (c / 100).toFixed(2);

function sumOf(values: Array<number | undefined>): number | undefined {
	return values.some((v) => v === undefined) ? undefined : (values as number[]).reduce((a, b) => a + b, 0);
}

/** `given` against `expected` (cents): nothing when equal, a warning for one cent, an error beyond. */
export function agree(check: Checker, field: string, given: number | undefined, expected: number | undefined, expectedWhat: string, givenWhat = 'is'): void {
	if (given === undefined || expected === undefined) return;
	const diff = Math.abs(given - expected);
	if (diff === 0) return;
	if (diff <= 1) {
		check.warn(field, `${givenWhat} ${money(given)} but ${expectedWhat} is ${money(expected)}: a rounding difference of one cent; sent anyway, verify it`);
	} else {
		check.fail(field, `${givenWhat} ${money(given)} but ${expectedWhat} is ${money(expected)} (off by ${money(diff)}): the tax authority rejects a receipt whose amounts do not add up`);
	}
}

const listOf = (value: unknown): IDataObject[] => (Array.isArray(value) ? value.filter(isObject) : []);
const taxKey = (tax: IDataObject) => `${String(tax.codigo ?? '')}/${String(tax.codigo_porcentaje ?? '')}`;

/** A tax line's `valor` against its base (less `discount`) × `tarifa` / 100, when the line gives a `tarifa`. */
function taxValue(check: Checker, at: string, tax: IDataObject, discount = 0): void {
	const base = cents(tax.base_imponible);
	const tarifa = num(tax.tarifa);
	if (base === undefined || tarifa === undefined) return;
	agree(check, `${at}.valor`, cents(tax.valor), round(((base - discount) * tarifa) / 100), `base_imponible${discount ? ' − descuento_adicional' : ''} × tarifa / 100`);
}

/** Invoices and credit notes. */
export function checkSalesTotals(check: Checker, body: IDataObject, opts: { propina: boolean; payments: boolean }): void {
	const totales = isObject(body.totales) ? body.totales : undefined;
	const items = listOf(body.items);
	if (!totales) return;

	// Items: their subtotals and tax lines, and the tax bases and values per tax and percentage code.
	const subtotals: Array<number | undefined> = [];
	const byTax = new Map<string, { base: Array<number | undefined>; valor: Array<number | undefined>; at: string }>();
	items.forEach((item, n) => {
		const at = `items[${n}]`;
		const qty = num(item.cantidad);
		const price = num(item.precio_unitario);
		const computed = qty !== undefined && price !== undefined ? round(qty * price * 100) - (cents(item.descuento) ?? 0) : undefined;
		const given = cents(item.precio_total_sin_impuestos);
		agree(check, `${at}.precio_total_sin_impuestos`, given, computed, 'cantidad × precio_unitario − descuento');
		subtotals.push(item.precio_total_sin_impuestos === undefined || item.precio_total_sin_impuestos === null ? computed : given);
		listOf(item.impuestos).forEach((tax, k) => {
			taxValue(check, `${at}.impuestos[${k}]`, tax);
			const entry = byTax.get(taxKey(tax)) ?? { base: [], valor: [], at: `${at}.impuestos[${k}]` };
			entry.base.push(cents(tax.base_imponible));
			entry.valor.push(cents(tax.valor));
			byTax.set(taxKey(tax), entry);
		});
	});
	if (items.length) agree(check, 'totales.total_sin_impuestos', cents(totales.total_sin_impuestos), sumOf(subtotals), "the sum of the items' precio_total_sin_impuestos");

	// Tax totals.
	const lines = listOf(totales.impuestos);
	const lineDiscounts = lines.map((line) => cents(line.descuento_adicional) ?? 0);
	const discount = cents(totales.descuento_adicional) ?? lineDiscounts.reduce((a, b) => a + b, 0);
	const seen = new Set<string>();
	lines.forEach((line, k) => {
		const at = `totales.impuestos[${k}]`;
		const key = taxKey(line);
		seen.add(key);
		const fromItems = byTax.get(key);
		const what = `tax ${String(line.codigo ?? '')}, percentage code ${String(line.codigo_porcentaje ?? '')}`;
		if (items.length) agree(check, `${at}.base_imponible`, cents(line.base_imponible), fromItems ? sumOf(fromItems.base) : 0, `the sum of the items' base_imponible for ${what}`);
		if (items.length && discount === 0) agree(check, `${at}.valor`, cents(line.valor), fromItems ? sumOf(fromItems.valor) : 0, `the sum of the items' valor for ${what}`);
		taxValue(check, at, line, lineDiscounts[k] || (lines.length === 1 ? discount : 0));
	});
	if (isObject(totales) && Array.isArray(totales.impuestos)) {
		for (const [key, entry] of byTax) {
			const base = sumOf(entry.base);
			if (!seen.has(key) && base !== 0) {
				const [codigo, porcentaje] = key.split('/');
				check.fail('totales.impuestos', `has no line for tax ${codigo}, percentage code ${porcentaje}, which ${entry.at} carries: every tax of the items must be totalled`);
			}
		}
	}

	// The amount to pay.
	const taxes = sumOf(lines.map((line) => cents(line.valor)));
	const tip = opts.propina ? (cents(totales.propina) ?? 0) : 0;
	const subtotal = cents(totales.total_sin_impuestos);
	const total = cents(totales.importe_total);
	if (subtotal !== undefined && taxes !== undefined) {
		const how = `total_sin_impuestos${discount ? ' − descuento_adicional' : ''} + taxes${opts.propina ? ' + propina' : ''}`;
		agree(check, 'totales.importe_total', total, subtotal - discount + taxes + tip, how);
	}

	if (!opts.payments || !Array.isArray(body.pagos) || body.compensaciones !== undefined || body.retenciones !== undefined) return;
	const credito = isObject(body.credito) ? cents(body.credito.monto) : 0;
	const paid = sumOf([...listOf(body.pagos).map((p) => cents(p.total)), credito, cents(body.valor_retenido_iva) ?? 0, cents(body.valor_retenido_renta) ?? 0]);
	agree(check, 'pagos', paid, total, 'totales.importe_total', 'the payments (with credito and the retained VAT and income tax) add up to');
}

/** Debit notes: items are `{motivo, valor}`, taxes are given on the totals with their `tarifa`. */
export function checkDebitNoteTotals(check: Checker, body: IDataObject): void {
	const totales = isObject(body.totales) ? body.totales : undefined;
	if (!totales) return;
	const items = listOf(body.items);
	if (items.length) agree(check, 'totales.total_sin_impuestos', cents(totales.total_sin_impuestos), sumOf(items.map((item) => cents(item.valor))), "the sum of the items' valor");
	const lines = listOf(totales.impuestos);
	lines.forEach((line, k) => taxValue(check, `totales.impuestos[${k}]`, line));
	const subtotal = cents(totales.total_sin_impuestos);
	const taxes = sumOf(lines.map((line) => cents(line.valor)));
	if (subtotal !== undefined && taxes !== undefined) agree(check, 'totales.importe_total', cents(totales.importe_total), subtotal + taxes, 'total_sin_impuestos + taxes');
}
