import { convert, equalsMicros, moneyText } from '../amounts';
import type { Decimal } from '../../../shared/decimal';
import type { TaxLine } from '../cfdiFacts';
import type { Category, LedgerKey, NotCreditableReason, SupplierKind } from './layout';

/**
 * Where each amount goes, in one place: a tax line of a CFDI (in pesos) to the DIOT's fields. The SAT's
 * instructions name the fields, not the CFDI's attributes; the derivation follows the fields' own words and what
 * Odoo 19's exporter fills (see docs/sat.md, "Where each amount goes"):
 *
 * | CFDI (paid in the month)                        | national / global supplier | foreign supplier            |
 * |-------------------------------------------------|----------------------------|-----------------------------|
 * | IVA (002) transferred, Tasa 0.16: Base, Importe | 12, IVA (22…)              | 16, IVA (26…) (services) / 14, IVA (24…) (goods through customs) |
 * | IVA transferred, Tasa 0.08                      | 8, IVA (18…) (north) / 10, IVA (20…) (south) | a problem: not placed |
 * | IVA transferred, Tasa 0: Base                   | 51                         | 51                          |
 * | IVA transferred, Exento: Base                   | 50                         | 49                          |
 * | concepto not subject to tax (ObjetoImp 01)      | 52                         | 53                          |
 * | IVA (002) withheld: Importe                     | 48                         | 48                          |
 *
 * The IVA of a category goes to the field of the supplier's IVA treatment (`IvaTreatment`): creditable exclusively
 * from taxed activities (18, 20, 22, 24, 26), creditable by the proportion the company applies (19, 21…: the factor's
 * part; the rest in 28, 32, 36, 40, 44), or not creditable for lacking requirements (29, 33…), for exempt activities
 * (30, 34…) or for activities not subject to IVA (31, 35…).
 *
 * How an amount flows (`Flow`): `paid` adds; `returned` (a credit note for what was paid) puts its bases in the
 * returns field of the same category (9, 11, 13, 15, 17) and takes its IVA off the IVA fields; `netted` (an advance
 * applied, TipoRelacion 07) takes its bases off the value field itself. Bases at 0 %, exempt and not subject, and
 * IVA withheld, have no returns field: both take them off their field. ISR and IEPS are not reported (IEPS is
 * inside IVA's base).
 */

/** Amounts by ledger key (layout.ts), in millionths of a peso. */
export type Amounts = Map<LedgerKey, bigint>;

/** How the supplier's IVA is treated (the bookkeeper's choice). */
export type IvaTreatment =
	| { kind: 'taxed' }
	/** Creditable by the proportion the company applies: `factor` (0 to 1) of it. */
	| { kind: 'proportional'; factor: Decimal }
	| { kind: Exclude<NotCreditableReason, 'proportional'> };

/** How the supplier's amounts are placed. */
export interface Placement {
	kind: SupplierKind;
	/** Where 8 % IVA goes: the northern or southern border region. */
	region: 'north' | 'south';
	/** Where a foreign supplier's 16 % IVA goes: intangibles and services (16/26) or goods through customs (14/24). */
	imports: 'services' | 'goods';
	treatment: IvaTreatment;
}

/** `paid`: an invoice, a payment; `returned`: a credit note's return; `netted`: an advance applied to the invoice. */
export type Flow = 'paid' | 'returned' | 'netted';

const IVA = '002';

function add(into: Amounts, key: LedgerKey, micros: bigint): void {
	if (micros !== 0n) into.set(key, (into.get(key) ?? 0n) + micros);
}

/** Adds every amount of `from` into `into` (`sign` −1: takes them off). */
export function addAll(into: Amounts, from: Amounts, sign: 1n | -1n = 1n): void {
	for (const [key, micros] of from) add(into, key, sign * micros);
}

/** The category (layout.ts) of an IVA rate for a supplier, or undefined when it has none. */
function category(rate: TaxLine['rate'], p: Placement): Category | undefined {
	if (equalsMicros(rate, 160_000n)) return p.kind === 'foreign' ? `imports_${p.imports}_16` : '16';
	if (equalsMicros(rate, 80_000n) && p.kind !== 'foreign') return `8_${p.region}`;
	return undefined;
}

/** IVA of category `c` (signed millionths) to the fields of the supplier's treatment. */
function placeIva(into: Amounts, c: Category, micros: bigint, t: IvaTreatment): void {
	if (t.kind === 'taxed') add(into, `creditable_iva_${c}`, micros);
	else if (t.kind === 'proportional') {
		const creditable = convert(micros, t.factor);
		add(into, `creditable_iva_${c}_proportional`, creditable);
		add(into, `non_creditable_iva_${c}_proportional`, micros - creditable);
	} else add(into, `non_creditable_iva_${c}_${t.kind}`, micros);
}

/** Places a transferred tax line (converted to pesos); returns why it has no place, or undefined. */
export function placeTransfer(
	into: Amounts,
	line: TaxLine,
	p: Placement,
	flow: Flow,
): string | undefined {
	if (line.tax !== IVA) return undefined; // ISR, IEPS: not in the DIOT
	const base = line.base;
	const sign = flow === 'paid' ? 1n : -1n;
	if (base === undefined) return `IVA (${line.factor ?? 'no TipoFactor'}) without a Base`;
	if (line.factor === 'Exento') {
		add(into, p.kind === 'foreign' ? 'exempt_imports' : 'exempt', sign * base);
		return undefined;
	}
	if (line.factor !== 'Tasa')
		return `IVA with TipoFactor ${JSON.stringify(line.factor ?? null)} (base ${moneyText(base)}): only Tasa and Exento have a place in the DIOT`;
	if (equalsMicros(line.rate, 0n)) {
		add(into, 'paid_0', sign * base);
		return undefined;
	}
	const c = category(line.rate, p);
	if (!c)
		return `IVA at ${line.rate ? rateText(line.rate) : 'no rate'} (base ${moneyText(base)})${p.kind === 'foreign' && equalsMicros(line.rate, 80_000n) ? ' from a foreign supplier: the border regions are Mexican' : ': the DIOT has fields for 16 %, 8 % and 0 % only'}`;
	add(
		into,
		flow === 'returned' ? `returns_${c}` : `paid_${c}`,
		flow === 'returned' ? base : sign * base,
	);
	placeIva(into, c, sign * (line.amount ?? 0n), p.treatment);
	if (flow === 'returned') add(into, `returned_iva_${c}`, line.amount ?? 0n);
	return undefined;
}

/** Places a withheld tax line (in pesos): only IVA is reported (field 48). */
export function placeWithholding(into: Amounts, line: TaxLine, flow: Flow): void {
	if (line.tax === IVA)
		add(into, 'iva_withheld', (flow === 'paid' ? 1n : -1n) * (line.amount ?? 0n));
}

/** Places an amount not subject to IVA (ObjetoImp 01), in pesos. */
export function placeNotSubject(into: Amounts, micros: bigint, p: Placement, flow: Flow): void {
	add(
		into,
		p.kind === 'foreign' ? 'not_subject_abroad' : 'not_subject',
		(flow === 'paid' ? 1n : -1n) * micros,
	);
}

/** A rate as a percentage (`0.106667` → `10.6667 %`). */
function rateText(rate: NonNullable<TaxLine['rate']>): string {
	const negative = rate.n < 0n;
	const digits = (negative ? -rate.n : rate.n).toString().padStart(rate.scale + 1, '0');
	const whole = digits.slice(0, digits.length - rate.scale) || '0';
	const fraction = digits.slice(digits.length - rate.scale);
	const percent = Number(`${whole}.${fraction || '0'}`) * 100;
	return `${negative ? '-' : ''}${Number(percent.toFixed(4))} %`;
}
