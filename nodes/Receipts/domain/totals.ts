import type { IDataObject } from 'n8n-workflow';
import { decimalOf as exactDecimal, rescale, times, type Decimal } from '../../shared/decimal';
import { isMissing, numberValue, type Checker } from '../../shared/validate';
import {
	ICE,
	IVA,
	SALES_TAX_RATE_CATALOG,
	SALES_TAX_SHORT_NAMES,
	WITHHOLDING_RATE_CATALOG,
	type CatalogEntry,
} from './catalogs';
import { nameOf } from './labels';
import type { ReceiptKind } from './kinds';

/**
 * The arithmetic of receipts: the amounts the node computes from what was sold when the user leaves them out, and
 * the checks of the amounts the user gives. The tax authority recomputes a receipt's amounts and refuses one whose
 * amounts do not add up (SRI message 52, "ERROR EN DIFERENCIAS"), so a difference of more than one cent is an
 * error (nothing is sent); a difference of exactly one cent is what rounding every line to two decimals can
 * produce, so it is a warning and the receipt is sent.
 *
 * What adds up (receipts service's public documentation, Facturas / Notas de crédito / Notas de débito and their
 * common objects "Item", "Impuesto Item" and "Total Impuesto"; SRI, Ficha técnica de comprobantes electrónicos):
 * - an item's `precio_total_sin_impuestos` = `cantidad` × `precio_unitario` − `descuento`;
 * - an IVA line's `base_imponible` = its item's `precio_total_sin_impuestos`, plus the item's ICE (the IVA base
 *   includes the ICE: Ley de Régimen Tributario Interno, Art. 58); its `tarifa` is the rate of its percentage
 *   code, and its `valor` = `base_imponible` × `tarifa` / 100;
 * - `totales.total_sin_impuestos` = the sum of the items' `precio_total_sin_impuestos` (debit notes: of their `valor`);
 * - a `totales.impuestos` line (one per tax and percentage code) has the sum of the items' bases for that code
 *   and the sum of their values, except that an additional discount (`descuento_adicional`) comes off the base
 *   before the tax: "valor: Resultado de aplicar el impuesto a la (base_imponible − descuento_adicional)";
 * - `totales.importe_total` = `total_sin_impuestos` − `descuento_adicional` + the tax values + `propina`;
 * - invoice payments (`pagos[].total`, plus `credito.monto`, `valor_retenido_iva` and `valor_retenido_renta`,
 *   as the documented example adds them), and settlement payments, = `importe_total`. Not checked with
 *   `compensaciones` or `retenciones`, whose effect on the amount paid is not documented.
 * - a retained value = its base × its percentage / 100 (receipts service, Retained tax item: "base times percentage").
 *
 * Rounding: amounts have two decimals, quantities and unit prices up to six (SRI, Ficha técnica, formats of
 * version 1.1.0). Every line is computed exactly from the decimals written and rounded once to the cent, half
 * away from zero (1.005 → 1.01); totals are sums of the rounded lines.
 *
 * Only IVA's value is computed (a percentage of the item's subtotal): ICE (ad valorem or specific, on its own
 * base) and IRBPNR (dollars per bottle) are given by the user, and their lines are not compared with the items.
 * Amounts that are missing or not numbers are left to the field checks; their sums are then not compared.
 */

function isObject(value: unknown): value is IDataObject {
	return !!value && typeof value === 'object' && !Array.isArray(value);
}

/** The amount a value stands for, read by the same rule as the field checks (shared/validate.ts). */
const num = numberValue;

/**
 * A number, or numeric text as the field checks accept it (shared/validate.ts numberValue), as the decimal it is
 * written as (`0.335` is 335 × 10^-3, not its binary double): the package's exact decimals (shared/decimal.ts).
 */
function decimalOf(value: unknown): Decimal | undefined {
	if (typeof value === 'string' && numberValue(value) === undefined) return undefined;
	return exactDecimal(value);
}

/** An amount in whole cents (rounded half away from zero), or undefined when it is not a number. */
export function cents(value: unknown): number | undefined {
	const d = decimalOf(value);
	return d === undefined ? undefined : Number(rescale(d, 2));
}

/** `cantidad` × `precio_unitario`, in cents (rounded once). */
function productCents(a: unknown, b: unknown): number | undefined {
	const x = decimalOf(a);
	const y = decimalOf(b);
	return x === undefined || y === undefined ? undefined : Number(rescale(times(x, y), 2));
}

/** `rate` % of `base` cents, in cents. */
function percentOf(base: number, rate: number): number {
	const r = decimalOf(rate) ?? { n: 0n, scale: 0 };
	return Number(rescale({ n: BigInt(base) * r.n, scale: 2 + r.scale + 2 }, 2));
}

const money = (c: number) => (c / 100).toFixed(2);
/** Cents as the number a body carries (`1800` → 18). */
const amount = (c: number) => c / 100;
const rateText = (rate: number) => String(Number(rate.toFixed(4)));

function sumOf(values: Array<number | undefined>): number | undefined {
	return values.some((v) => v === undefined)
		? undefined
		: (values as number[]).reduce((a, b) => a + b, 0);
}

const listOf = (value: unknown): IDataObject[] =>
	Array.isArray(value) ? value.filter(isObject) : [];
const code = (value: unknown) =>
	value === undefined || value === null ? '' : String(value).trim();
const taxKey = (tax: IDataObject) => `${code(tax.codigo)}/${code(tax.codigo_porcentaje)}`;
const isIva = (tax: IDataObject) => code(tax.codigo) === IVA;
const isIce = (tax: IDataObject) => code(tax.codigo) === ICE;

/** Where the rates of percentage codes come from: the service's catalogs, the built-in tables as fallback. */
export interface RateBook {
	/** The percentage of a sales tax's percentage code (`codigo`, `codigo_porcentaje`), when known. */
	sales(codigo: string, codigoPorcentaje: string): number | undefined;
	/** The percentage of a withholding code, when known; `fixed` when the code itself fixes it (built-in table). */
	withholding(
		codigo: string,
		codigoPorcentaje: string,
	): { rate: number; fixed: boolean } | undefined;
}

/** Rates read from the service's catalogs: tax type → percentage code → rate. */
export type CatalogRates = Map<string, Map<string, number>>;

const builtIn = (table: Record<string, CatalogEntry[]>, codigo: string, pct: string) =>
	table[codigo]?.find((e) => e.code === pct)?.rate;

/** A RateBook over the rates read from the catalogs (`sales`, `withholding`), falling back to the built-in tables. */
export function rateBook(
	catalog: { sales?: CatalogRates; withholding?: CatalogRates } = {},
): RateBook {
	return {
		sales: (codigo, pct) =>
			catalog.sales?.get(codigo)?.get(pct) ?? builtIn(SALES_TAX_RATE_CATALOG, codigo, pct),
		withholding: (codigo, pct) => {
			const fixed = builtIn(WITHHOLDING_RATE_CATALOG, codigo, pct);
			const rate = catalog.withholding?.get(codigo)?.get(pct) ?? fixed;
			return rate === undefined ? undefined : { rate, fixed: fixed !== undefined };
		},
	};
}

/** The built-in tables alone. */
export const BUILT_IN_RATES: RateBook = rateBook();

/** Which catalogs a body needs: the IVA rates when it has IVA lines, the withholding tax types it retains. */
export function ratesNeeded(
	kind: ReceiptKind,
	body: IDataObject,
): { sales: string[]; withholding: string[] } {
	const lines: IDataObject[] = [];
	const withholding = new Set<string>();
	if (kind === 'retention')
		for (const item of listOf(body.items)) withholding.add(code(item.codigo));
	for (const item of listOf(body.items)) lines.push(...listOf(item.impuestos));
	if (isObject(body.totales)) lines.push(...listOf(body.totales.impuestos));
	for (const doc of listOf(body.documentos_soporte)) {
		lines.push(...listOf(doc.impuestos));
		for (const r of listOf(doc.retenciones)) withholding.add(code(r.codigo));
	}
	if (isObject(body.reembolso))
		for (const doc of listOf(body.reembolso.documentos)) lines.push(...listOf(doc.impuestos));
	withholding.delete('');
	return { sales: lines.some(isIva) ? [IVA] : [], withholding: [...withholding] };
}

/** How a message names a tax: `IVA 15 %`, `IVA 0 % (code 6)`, `ICE (percentage code 3011)`. */
function taxName(codigo: string, pct: string, rates: RateBook): string {
	const short = SALES_TAX_SHORT_NAMES[codigo] ?? `tax ${codigo}`;
	const rate = codigo === IVA ? rates.sales(IVA, pct) : undefined;
	if (rate === undefined) return `${short} (percentage code ${pct})`;
	return rate === 0 && pct !== '0' ? `${short} 0 % (code ${pct})` : `${short} ${rateText(rate)} %`;
}

/** `given` against `expected` (cents): nothing when equal, a warning for one cent, an error beyond. */
export function agree(
	check: Checker,
	field: string,
	given: number | undefined,
	expected: number | undefined,
	expectedWhat: string,
	givenWhat = 'is',
): void {
	if (given === undefined || expected === undefined) return;
	const diff = Math.abs(given - expected);
	if (diff === 0) return;
	if (diff <= 1) {
		check.warn(
			field,
			`${givenWhat} ${money(given)}, but ${expectedWhat} is ${money(expected)}: a rounding difference of one cent; sent anyway, verify it`,
		);
	} else {
		check.fail(
			field,
			`${givenWhat} ${money(given)}, but ${expectedWhat} is ${money(expected)} (off by ${money(diff)}): the tax authority rejects a receipt whose amounts do not add up`,
		);
	}
}

// ---------------------------------------------------------------------------------------------------------------
// Computing what the user left out
// ---------------------------------------------------------------------------------------------------------------

/** An item's `cantidad` × `precio_unitario` − `descuento` in cents, when all three are numbers. */
function itemSubtotal(item: IDataObject): number | undefined {
	const gross = productCents(item.cantidad, item.precio_unitario);
	const discount = cents(item.descuento ?? 0);
	return gross === undefined || discount === undefined ? undefined : gross - discount;
}

/** An IVA line's missing rate (from its code), base (`expectedBase`) and value. */
function completeIvaLine(
	tax: IDataObject,
	rates: RateBook,
	expectedBase: number | undefined,
	discount = 0,
): void {
	const known = rates.sales(IVA, code(tax.codigo_porcentaje));
	if (isMissing(tax.tarifa) && known !== undefined) tax.tarifa = known;
	if (isMissing(tax.base_imponible) && expectedBase !== undefined)
		tax.base_imponible = amount(expectedBase);
	const rate = known ?? num(tax.tarifa);
	const base = cents(tax.base_imponible);
	if (isMissing(tax.valor) && rate !== undefined && base !== undefined)
		tax.valor = amount(percentOf(base - discount, rate));
}

/** What a message says of an amount the node does not compute: only IVA is computed. */
const GIVE_OTHER_TAXES =
	'is required: the node computes IVA only; give the base, the rate and the value of this tax';

/**
 * An IVA line whose value could not be computed because its percentage code has no known rate (neither the
 * service's catalog nor the built-in table). A line whose base is unknown is not named: what makes its base
 * unknown (the item's quantity or price) is.
 */
function requireIvaValue(check: Checker, at: string, tax: IDataObject, rates: RateBook): void {
	if (
		!isMissing(tax.valor) ||
		isMissing(tax.codigo_porcentaje) ||
		cents(tax.base_imponible) === undefined
	)
		return;
	if (
		rates.sales(IVA, code(tax.codigo_porcentaje)) === undefined &&
		num(tax.tarifa) === undefined
	) {
		check.fail(
			`${at}.valor`,
			`is required: the rate of IVA percentage code ${code(tax.codigo_porcentaje)} is not known here; give the rate or the value`,
		);
	}
}

/** The amounts of a non-IVA line (ICE, IRBPNR) that the user must give. */
function requireGiven(check: Checker, at: string, tax: IDataObject, keys: string[]): void {
	if (isMissing(tax.codigo)) return; // the missing code is what is named
	for (const key of keys) if (isMissing(tax[key])) check.fail(`${at}.${key}`, GIVE_OTHER_TAXES);
}

/** The items' tax lines grouped by tax and percentage code, in the order they first appear. */
function taxGroups(items: IDataObject[]): Map<
	string,
	{
		codigo: string;
		pct: string;
		base: Array<number | undefined>;
		valor: Array<number | undefined>;
		at: string;
	}
> {
	const groups = new Map<
		string,
		{
			codigo: string;
			pct: string;
			base: Array<number | undefined>;
			valor: Array<number | undefined>;
			at: string;
		}
	>();
	items.forEach((item, n) =>
		listOf(item.impuestos).forEach((tax) => {
			const key = taxKey(tax);
			const group = groups.get(key) ?? {
				codigo: code(tax.codigo),
				pct: code(tax.codigo_porcentaje),
				base: [],
				valor: [],
				at: `items[${n}]`,
			};
			group.base.push(cents(tax.base_imponible));
			group.valor.push(cents(tax.valor));
			if (!groups.has(key)) groups.set(key, group);
		}),
	);
	return groups;
}

/**
 * The additional discount of the totals, shared between the IVA lines in proportion to their bases (the
 * documentation takes it off "the" base; with several rates it does not say how it is shared). The last line
 * takes what rounding leaves, so the shares add up to the discount.
 */
function shareDiscount(discount: number, bases: Array<[string, number]>): Map<string, number> {
	const shares = new Map<string, number>();
	const total = bases.reduce((a, [, b]) => a + b, 0);
	if (!discount || total <= 0) return shares;
	let left = discount;
	bases.forEach(([key, base], n) => {
		const share = n === bases.length - 1 ? left : Math.round((discount * base) / total);
		shares.set(key, share);
		left -= share;
	});
	return shares;
}

/** `totales.impuestos` from the items when absent; the missing bases and values of the lines given. */
function completeTotalTaxes(
	check: Checker,
	totales: IDataObject,
	items: IDataObject[],
	rates: RateBook,
): void {
	const groups = taxGroups(items);
	const discount = cents(totales.descuento_adicional) ?? 0;
	const ivaBases: Array<[string, number]> = [];
	for (const [key, g] of groups) {
		const base = sumOf(g.base);
		if (g.codigo === IVA && base !== undefined) ivaBases.push([key, base]);
	}
	const shares = shareDiscount(discount, ivaBases);
	let shared = false;
	const valueOf = (
		key: string,
		g: { codigo: string; pct: string; valor: Array<number | undefined> },
		base: number | undefined,
	): number | undefined => {
		if (!discount) return sumOf(g.valor);
		if (g.codigo !== IVA) return sumOf(g.valor);
		const rate = rates.sales(IVA, g.pct);
		if (rate === undefined || base === undefined) return undefined;
		shared = shared || shares.size > 1;
		return percentOf(base - (shares.get(key) ?? 0), rate);
	};
	const sayShared = () => {
		if (!shared) return;
		const parts = [...shares].map(
			([key, share]) =>
				`${money(share)} to ${taxName(...(key.split('/') as [string, string]), rates)}`,
		);
		check.warn(
			'totales.descuento_adicional',
			`was shared between the tax lines in proportion to their bases (${parts.join(', ')}); give each Total Taxes line's value yourself to share it otherwise`,
		);
	};
	if (totales.impuestos === undefined || totales.impuestos === null) {
		// A line without its codes is named on the item; it makes no totals line.
		const complete = [...groups].filter(([, g]) => g.codigo !== '' && g.pct !== '');
		if (!complete.length) return;
		totales.impuestos = complete.map(([key, g]) => {
			const base = sumOf(g.base);
			const valor = valueOf(key, g, base);
			const line: IDataObject = { codigo: g.codigo, codigo_porcentaje: g.pct };
			if (base !== undefined) line.base_imponible = amount(base);
			if (valor !== undefined) line.valor = amount(valor);
			return line;
		});
		return sayShared();
	}
	listOf(totales.impuestos).forEach((line, k) => {
		const at = `totales.impuestos[${k}]`;
		const key = taxKey(line);
		const g = groups.get(key);
		if (isMissing(line.base_imponible) && g) {
			const base = sumOf(g.base);
			if (base !== undefined) line.base_imponible = amount(base);
		}
		if (isMissing(line.base_imponible) && !g && !isMissing(line.codigo)) {
			check.fail(
				`${at}.base_imponible`,
				`is required: no item carries ${taxName(code(line.codigo), code(line.codigo_porcentaje), rates)}, so its base cannot be computed`,
			);
		}
		if (isMissing(line.valor)) {
			const base = cents(line.base_imponible);
			const rate = isIva(line) ? rates.sales(IVA, code(line.codigo_porcentaje)) : undefined;
			const valor = g
				? valueOf(key, g, base)
				: rate !== undefined && base !== undefined
					? percentOf(base, rate)
					: undefined;
			if (valor !== undefined) line.valor = amount(valor);
			else if (!g && base !== undefined) requireGiven(check, at, line, ['valor']);
		}
	});
	sayShared();
}

/**
 * The one payment that carries no total takes what is left of `importe_total` (after the credit and the retained
 * values of an invoice, and the other payments). Several payments without a total cannot be shared: each is named.
 */
function completePayments(check: Checker, body: IDataObject, invoice: boolean): void {
	const totales = isObject(body.totales) ? body.totales : {};
	const payments = listOf(body.pagos);
	const open = payments.map((p, k) => [p, k] as const).filter(([p]) => isMissing(p.total));
	if (open.length > 1) {
		for (const [, k] of open)
			check.fail(
				`pagos[${k}].total`,
				'is required when several payments are given: only one payment may leave its total empty, and it takes the rest of the Total Amount',
			);
		return;
	}
	if (open.length !== 1) return;
	const credit = invoice && isObject(body.credito) ? cents(body.credito.monto) : 0;
	const retained = invoice
		? [cents(body.valor_retenido_iva) ?? 0, cents(body.valor_retenido_renta) ?? 0]
		: [];
	const others = payments.filter((p) => !isMissing(p.total)).map((p) => cents(p.total));
	const paidElsewhere = sumOf([credit, ...retained, ...others]);
	const total = cents(totales.importe_total);
	if (total === undefined || paidElsewhere === undefined || total - paidElsewhere < 0) return;
	open[0][0].total = amount(total - paidElsewhere);
}

/** Invoices, credit notes and purchase settlements. */
function completeSales(
	check: Checker,
	body: IDataObject,
	kind: ReceiptKind,
	rates: RateBook,
): void {
	const items = listOf(body.items);
	const subtotals: Array<number | undefined> = [];
	items.forEach((item, n) => {
		if (isMissing(item.descuento)) item.descuento = 0;
		const computed = itemSubtotal(item);
		if (isMissing(item.precio_total_sin_impuestos) && computed !== undefined)
			item.precio_total_sin_impuestos = amount(computed);
		const subtotal = cents(item.precio_total_sin_impuestos);
		subtotals.push(subtotal);
		const taxes = listOf(item.impuestos);
		const ice = sumOf(taxes.filter(isIce).map((t) => cents(t.valor)));
		const ivaBase = subtotal === undefined || ice === undefined ? undefined : subtotal + ice;
		taxes.forEach((tax, k) => {
			const at = `items[${n}].impuestos[${k}]`;
			if (!isIva(tax)) return requireGiven(check, at, tax, ['base_imponible', 'valor']);
			completeIvaLine(tax, rates, ivaBase);
			requireIvaValue(check, at, tax, rates);
		});
	});
	if (body.totales === undefined || body.totales === null) body.totales = {};
	if (!isObject(body.totales)) return;
	const totales = body.totales;
	if (isMissing(totales.total_sin_impuestos) && items.length) {
		const sum = sumOf(subtotals);
		if (sum !== undefined) totales.total_sin_impuestos = amount(sum);
	}
	const discount = cents(totales.descuento_adicional) ?? 0;
	if (kind !== 'creditNote' && isMissing(totales.descuento)) {
		const itemDiscounts = sumOf(items.map((item) => cents(item.descuento)));
		if (itemDiscounts !== undefined) totales.descuento = amount(itemDiscounts + discount);
	}
	if (kind === 'invoice' && isMissing(totales.propina)) totales.propina = 0;
	completeTotalTaxes(check, totales, items, rates);
	if (isMissing(totales.importe_total)) {
		const subtotal = cents(totales.total_sin_impuestos);
		const taxes = Array.isArray(totales.impuestos)
			? sumOf(listOf(totales.impuestos).map((line) => cents(line.valor)))
			: undefined;
		const tip = kind === 'invoice' ? cents(totales.propina) : 0;
		if (subtotal !== undefined && taxes !== undefined && tip !== undefined)
			totales.importe_total = amount(subtotal - discount + taxes + tip);
	}
	if (kind !== 'creditNote') completePayments(check, body, kind === 'invoice');
	if (isObject(body.reembolso)) completeReimbursement(body.reembolso, rates);
}

/** A reimbursement's documents' IVA lines, and its subtotal, total taxes and total. */
function completeReimbursement(reembolso: IDataObject, rates: RateBook): void {
	const lines = listOf(reembolso.documentos).flatMap((doc) => listOf(doc.impuestos));
	for (const tax of lines) if (isIva(tax)) completeIvaLine(tax, rates, undefined);
	if (!lines.length) return;
	if (isMissing(reembolso.subtotal)) {
		const sum = sumOf(lines.map((t) => cents(t.base_imponible)));
		if (sum !== undefined) reembolso.subtotal = amount(sum);
	}
	if (isMissing(reembolso.total_impuestos)) {
		const sum = sumOf(lines.map((t) => cents(t.valor)));
		if (sum !== undefined) reembolso.total_impuestos = amount(sum);
	}
	const subtotal = cents(reembolso.subtotal);
	const taxes = cents(reembolso.total_impuestos);
	if (isMissing(reembolso.total) && subtotal !== undefined && taxes !== undefined)
		reembolso.total = amount(subtotal + taxes);
}

/**
 * Debit notes: the charges' sum, each tax line's rate, base (when there is one line) and value, the total. Every
 * line carries its rate (receipts service's public documentation, Notas de débito).
 */
function completeDebitNote(check: Checker, body: IDataObject, rates: RateBook): void {
	if (body.totales === undefined || body.totales === null) body.totales = {};
	if (!isObject(body.totales)) return;
	const totales = body.totales;
	const items = listOf(body.items);
	if (isMissing(totales.total_sin_impuestos) && items.length) {
		const sum = sumOf(items.map((item) => cents(item.valor)));
		if (sum !== undefined) totales.total_sin_impuestos = amount(sum);
	}
	const lines = listOf(totales.impuestos);
	const subtotal = cents(totales.total_sin_impuestos);
	lines.forEach((line, k) => {
		const at = `totales.impuestos[${k}]`;
		if (!isIva(line)) return requireGiven(check, at, line, ['tarifa', 'base_imponible', 'valor']);
		completeIvaLine(line, rates, lines.length === 1 ? subtotal : undefined);
		if (isMissing(line.tarifa) && !isMissing(line.codigo_porcentaje)) {
			check.fail(
				`${at}.tarifa`,
				`is required: the rate of IVA percentage code ${code(line.codigo_porcentaje)} is not known here; give the rate`,
			);
		}
		if (isMissing(line.base_imponible) && lines.length > 1)
			check.fail(
				`${at}.base_imponible`,
				'is required: with several tax lines, the base of each cannot be told from the charges',
			);
	});
	if (isMissing(totales.importe_total)) {
		const taxes = Array.isArray(totales.impuestos)
			? sumOf(lines.map((line) => cents(line.valor)))
			: undefined;
		if (subtotal !== undefined && taxes !== undefined)
			totales.importe_total = amount(subtotal + taxes);
	}
}

/**
 * Retentions: a retained value from its base and percentage — the `porcentaje` given, or the rate of its code
 * (the service's catalog, the built-in table); the percentage used is written in `porcentaje`. A value that
 * cannot be computed is required, and the message says what would let the node compute it.
 */
function completeRetention(check: Checker, body: IDataObject, rates: RateBook): void {
	listOf(body.items).forEach((item, n) => {
		if (!isMissing(item.valor_retenido)) return;
		const rate =
			num(item.porcentaje) ??
			rates.withholding(code(item.codigo), code(item.codigo_porcentaje))?.rate;
		const base = cents(item.base_imponible);
		if (rate === undefined) {
			check.fail(
				`items[${n}].valor_retenido`,
				`is required: the percentage of tax code ${code(item.codigo) || '?'}, percentage code ${code(item.codigo_porcentaje) || '?'} is not known here; give the Percentage or the Retained Value`,
			);
			return;
		}
		if (base === undefined) return;
		if (isMissing(item.porcentaje)) item.porcentaje = rate;
		item.valor_retenido = amount(percentOf(base, rate));
	});
}

/** ATS retentions: each supporting document's IVA lines, and each retention's value from its rate. */
function completeAtsRetention(body: IDataObject, rates: RateBook): void {
	for (const doc of listOf(body.documentos_soporte)) {
		for (const tax of listOf(doc.impuestos)) if (isIva(tax)) completeIvaLine(tax, rates, undefined);
		for (const r of listOf(doc.retenciones)) {
			const rate =
				num(r.tarifa) ?? rates.withholding(code(r.codigo), code(r.codigo_porcentaje))?.rate;
			if (isMissing(r.tarifa) && rate !== undefined) r.tarifa = rate;
			const base = cents(r.base_imponible);
			if (isMissing(r.valor_retenido) && rate !== undefined && base !== undefined)
				r.valor_retenido = amount(percentOf(base, rate));
		}
	}
}

/**
 * Fills the amounts a receipt of `kind` leaves out, computed from what was sold (see the top of this file). What
 * the user gave is kept, and checked afterwards like any amount.
 */
export function completeAmounts(
	check: Checker,
	kind: ReceiptKind,
	body: IDataObject,
	rates: RateBook,
): void {
	switch (kind) {
		case 'invoice':
		case 'creditNote':
		case 'purchaseSettlement':
		case 'purchaseSettlementReimbursement':
			return completeSales(check, body, kind, rates);
		case 'debitNote':
			return completeDebitNote(check, body, rates);
		case 'retention':
			return completeRetention(check, body, rates);
		case 'atsRetention':
			return completeAtsRetention(body, rates);
		case 'waybill':
			return;
	}
}

// ---------------------------------------------------------------------------------------------------------------
// Checking what the user gave
// ---------------------------------------------------------------------------------------------------------------

/**
 * An IVA line: its rate against its percentage code (IVA code 4 is 15 %), and its value against the rate of its
 * base — or of `expectedBase` when the base given is itself wrong, so the message says what the value should be.
 */
function checkIvaLine(
	check: Checker,
	at: string,
	tax: IDataObject,
	rates: RateBook,
	expectedBase?: number,
): void {
	const pct = code(tax.codigo_porcentaje);
	const known = rates.sales(IVA, pct);
	const given = num(tax.tarifa);
	if (given !== undefined && known !== undefined && Math.abs(given - known) > 1e-9) {
		check.fail(
			`${at}.tarifa`,
			`is ${rateText(given)} %, but IVA percentage code ${pct} is ${rateText(known)} %`,
		);
	}
	const rate = known ?? given;
	const base = cents(tax.base_imponible);
	const onBase =
		expectedBase !== undefined && (base === undefined || Math.abs(base - expectedBase) > 1)
			? expectedBase
			: base;
	if (rate === undefined || onBase === undefined) return;
	agree(
		check,
		`${at}.valor`,
		cents(tax.valor),
		percentOf(onBase, rate),
		`IVA ${rateText(rate)} % of ${money(onBase)}`,
	);
}

/** A non-IVA line that gives its `tarifa` (ICE ad valorem): `valor` = `base_imponible` × `tarifa` / 100. IRBPNR's is per bottle. */
function checkGivenRate(check: Checker, at: string, tax: IDataObject, discount = 0): void {
	const base = cents(tax.base_imponible);
	const tarifa = num(tax.tarifa);
	if (base === undefined || tarifa === undefined || code(tax.codigo) === '5') return;
	agree(
		check,
		`${at}.valor`,
		cents(tax.valor),
		percentOf(base - discount, tarifa),
		`${rateText(tarifa)} % of ${money(base - discount)}`,
	);
}

/** Invoices, credit notes and purchase settlements. `payments`: what the payments are compared with. */
export function checkSalesTotals(
	check: Checker,
	body: IDataObject,
	opts: { propina: boolean; payments: 'invoice' | 'settlement' | false },
	rates: RateBook = BUILT_IN_RATES,
): void {
	const totales = isObject(body.totales) ? body.totales : undefined;
	const items = listOf(body.items);

	// Items: their subtotals and tax lines.
	const subtotals: Array<number | undefined> = [];
	items.forEach((item, n) => {
		const at = `items[${n}]`;
		const qty = decimalOf(item.cantidad);
		const price = decimalOf(item.precio_unitario);
		const computed = itemSubtotal(item);
		const given = cents(item.precio_total_sin_impuestos);
		if (qty && price)
			agree(
				check,
				`${at}.precio_total_sin_impuestos`,
				given,
				computed,
				`${num(item.cantidad)} × ${num(item.precio_unitario)} − ${money(cents(item.descuento ?? 0) ?? 0)}`,
			);
		const subtotal = isMissing(item.precio_total_sin_impuestos) ? computed : given;
		subtotals.push(subtotal);
		const taxes = listOf(item.impuestos);
		const ice = sumOf(taxes.filter(isIce).map((t) => cents(t.valor)));
		taxes.forEach((tax, k) => {
			const tat = `${at}.impuestos[${k}]`;
			if (!isIva(tax)) return checkGivenRate(check, tat, tax);
			const expectedBase = subtotal === undefined || ice === undefined ? undefined : subtotal + ice;
			agree(
				check,
				`${tat}.base_imponible`,
				cents(tax.base_imponible),
				expectedBase,
				ice
					? `the item's subtotal plus its ICE (${money(subtotal ?? 0)} + ${money(ice)})`
					: "the item's subtotal",
			);
			checkIvaLine(check, tat, tax, rates, expectedBase);
		});
	});
	if (!totales) return;
	if (items.length)
		agree(
			check,
			'totales.total_sin_impuestos',
			cents(totales.total_sin_impuestos),
			sumOf(subtotals),
			"the sum of the items' subtotals",
		);

	// Tax totals: one line per tax and percentage code, with the items' bases and values.
	const groups = taxGroups(items);
	const lines = listOf(totales.impuestos);
	const lineDiscounts = lines.map((line) => cents(line.descuento_adicional) ?? 0);
	const discount = cents(totales.descuento_adicional) ?? lineDiscounts.reduce((a, b) => a + b, 0);
	const seen = new Set<string>();
	lines.forEach((line, k) => {
		const at = `totales.impuestos[${k}]`;
		const key = taxKey(line);
		seen.add(key);
		const fromItems = groups.get(key);
		const what = taxName(code(line.codigo), code(line.codigo_porcentaje), rates);
		if (items.length)
			agree(
				check,
				`${at}.base_imponible`,
				cents(line.base_imponible),
				fromItems ? sumOf(fromItems.base) : 0,
				`the sum of the items' ${what} bases`,
			);
		if (items.length && discount === 0)
			agree(
				check,
				`${at}.valor`,
				cents(line.valor),
				fromItems ? sumOf(fromItems.valor) : 0,
				`the sum of the items' ${what} values`,
			);
		const lineDiscount = lineDiscounts[k] || (lines.length === 1 ? discount : 0);
		if (isIva(line)) {
			const known = rates.sales(IVA, code(line.codigo_porcentaje));
			const given = num(line.tarifa);
			if (given !== undefined && known !== undefined && Math.abs(given - known) > 1e-9)
				check.fail(
					`${at}.tarifa`,
					`is ${rateText(given)} %, but IVA percentage code ${code(line.codigo_porcentaje)} is ${rateText(known)} %`,
				);
			const base = cents(line.base_imponible);
			if (lineDiscount && known !== undefined && base !== undefined)
				agree(
					check,
					`${at}.valor`,
					cents(line.valor),
					percentOf(base - lineDiscount, known),
					`IVA ${rateText(known)} % of ${money(base - lineDiscount)} (the base less the additional discount)`,
				);
		} else {
			checkGivenRate(check, at, line, lineDiscount);
		}
	});
	if (Array.isArray(totales.impuestos)) {
		for (const [key, group] of groups) {
			const base = sumOf(group.base);
			if (!seen.has(key) && base !== 0) {
				check.fail(
					'totales.impuestos',
					`has no line for ${taxName(group.codigo, group.pct, rates)} (tax ${group.codigo}, percentage code ${group.pct}), which ${nameOf(check, group.at)} carries: every tax of the items needs its line in the totals`,
				);
			}
		}
	}

	// The amount to pay.
	const taxes = sumOf(lines.map((line) => cents(line.valor)));
	const tip = opts.propina ? (cents(totales.propina) ?? 0) : 0;
	const subtotal = cents(totales.total_sin_impuestos);
	const total = cents(totales.importe_total);
	if (subtotal !== undefined && taxes !== undefined) {
		const how = `${money(subtotal)}${discount ? ` − ${money(discount)} additional discount` : ''} + ${money(taxes)} taxes${opts.propina ? ` + ${money(tip)} tip` : ''}`;
		agree(check, 'totales.importe_total', total, subtotal - discount + taxes + tip, how);
	}

	if (
		!opts.payments ||
		!Array.isArray(body.pagos) ||
		body.compensaciones !== undefined ||
		body.retenciones !== undefined
	)
		return;
	const invoice = opts.payments === 'invoice';
	const credito = invoice && isObject(body.credito) ? cents(body.credito.monto) : 0;
	const retained = invoice
		? [cents(body.valor_retenido_iva) ?? 0, cents(body.valor_retenido_renta) ?? 0]
		: [];
	const paid = sumOf([...listOf(body.pagos).map((p) => cents(p.total)), credito, ...retained]);
	const extra =
		invoice && (credito || retained.some((r) => r))
			? ', with the credit and the retained values,'
			: '';
	agree(check, 'pagos', paid, total, 'the Total Amount', `add up to${extra}`);
}

/** Debit notes: items are `{motivo, valor}`, taxes are given on the totals with their `tarifa`. */
export function checkDebitNoteTotals(
	check: Checker,
	body: IDataObject,
	rates: RateBook = BUILT_IN_RATES,
): void {
	const totales = isObject(body.totales) ? body.totales : undefined;
	if (!totales) return;
	const items = listOf(body.items);
	if (items.length)
		agree(
			check,
			'totales.total_sin_impuestos',
			cents(totales.total_sin_impuestos),
			sumOf(items.map((item) => cents(item.valor))),
			"the sum of the charges' values",
		);
	const lines = listOf(totales.impuestos);
	const subtotal = cents(totales.total_sin_impuestos);
	lines.forEach((line, k) => {
		const at = `totales.impuestos[${k}]`;
		if (!isIva(line)) return checkGivenRate(check, at, line);
		if (lines.length === 1)
			agree(
				check,
				`${at}.base_imponible`,
				cents(line.base_imponible),
				subtotal,
				'the Total Without Taxes',
			);
		checkIvaLine(check, at, line, rates, lines.length === 1 ? subtotal : undefined);
	});
	const taxes = sumOf(lines.map((line) => cents(line.valor)));
	if (subtotal !== undefined && taxes !== undefined)
		agree(
			check,
			'totales.importe_total',
			cents(totales.importe_total),
			subtotal + taxes,
			`${money(subtotal)} + ${money(taxes)} taxes`,
		);
}

/** A reimbursement's documents: each IVA line's rate against its code and its value against its base. */
export function checkReimbursementAmounts(
	check: Checker,
	path: string,
	reembolso: IDataObject,
	rates: RateBook = BUILT_IN_RATES,
): void {
	listOf(reembolso.documentos).forEach((doc, n) =>
		listOf(doc.impuestos).forEach((tax, k) => {
			if (isIva(tax)) checkIvaLine(check, `${path}.documentos[${n}].impuestos[${k}]`, tax, rates);
		}),
	);
}

/**
 * Retentions: a retained value against its base × percentage. A `porcentaje` that contradicts a code whose
 * rate is fixed (VAT and ISD withholding) is an error; against the rate of the service's catalog alone (income
 * tax, whose table the SRI changes yearly) a difference only warns.
 */
export function checkRetentionAmounts(
	check: Checker,
	body: IDataObject,
	rates: RateBook = BUILT_IN_RATES,
): void {
	listOf(body.items).forEach((item, n) => {
		const at = `items[${n}]`;
		const known = rates.withholding(code(item.codigo), code(item.codigo_porcentaje));
		const given = num(item.porcentaje);
		if (given !== undefined && known?.fixed && Math.abs(given - known.rate) > 1e-9) {
			check.fail(
				`${at}.porcentaje`,
				`is ${rateText(given)} %, but withholding code ${code(item.codigo_porcentaje)} of tax ${code(item.codigo)} is ${rateText(known.rate)} %`,
			);
		}
		const base = cents(item.base_imponible);
		const value = cents(item.valor_retenido);
		const rate = known?.fixed ? known.rate : (given ?? known?.rate);
		if (base === undefined || value === undefined || rate === undefined) return;
		const expected = percentOf(base, rate);
		if (known?.fixed || given !== undefined) {
			agree(
				check,
				`${at}.valor_retenido`,
				value,
				expected,
				`${rateText(rate)} % of ${money(base)}`,
			);
		} else if (Math.abs(value - expected) > 1) {
			check.warn(
				`${at}.valor_retenido`,
				`is ${money(value)}, but ${rateText(rate)} % of ${money(base)} (the service's rate for code ${code(item.codigo_porcentaje)}) is ${money(expected)}; sent anyway, verify the percentage`,
			);
		}
	});
}
