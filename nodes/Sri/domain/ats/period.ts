/**
 * The period an ATS declares: a month (`Mes` 01–12), or for RIMPE micro-enterprises a semester declared as its
 * last month, 06 or 12 with `regimenMicroempresa SI` (the schema's annotation: "solo aplica para el periodo 06 o 12
 * desde el 2020"; the SRI's catalog, Tabla 1).
 */

export interface Period {
	year: number;
	/** 1–12; 6 or 12 for a semester. */
	month: number;
	semestral: boolean;
}

/**
 * A period typed as `yyyy-mm` (`2026-10`; a semester as its last month, `2026-06` or `2026-12`), or what is wrong
 * with it in words that follow the field's label.
 */
export function parsePeriod(text: unknown, semestral: boolean): Period | { problem: string } {
	const value =
		typeof text === 'string' ? text.trim() : typeof text === 'number' ? String(text) : '';
	const m = /^(\d{4})-(\d{1,2})$/.exec(value);
	if (!m)
		return {
			problem: `must be a year and month as yyyy-mm, e.g. ${semestral ? '2026-12' : '2026-10'}, got ${value ? `"${value}"` : 'nothing'}`,
		};
	const year = Number(m[1]);
	const month = Number(m[2]);
	if (year < 2000 || month < 1 || month > 12)
		return {
			problem: `"${value}" is not a month the ATS takes (year 2000 or later, month 01 to 12)`,
		};
	if (semestral && month !== 6 && month !== 12)
		return {
			problem: `a semester is declared as its last month: ${year}-06 (January to June) or ${year}-12 (July to December), got "${value}"`,
		};
	return { year, month, semestral };
}

/**
 * A date an expression gave (a registration date): `yyyy-mm-dd` (a longer ISO date-time is cut to its date),
 * `dd/mm/yyyy`, or a Date or Luxon DateTime (`$now`, `DateTime.fromISO(…)`): its ISO date, or undefined.
 */
export function isoDateOf(value: unknown): string | undefined {
	if (value && typeof value === 'object' && 'toISO' in value && typeof value.toISO === 'function')
		value = String(value.toISO());
	if (value instanceof Date && !Number.isNaN(value.getTime()))
		return value.toISOString().slice(0, 10);
	if (typeof value !== 'string') return undefined;
	const text = value.trim();
	const iso = /^(\d{4})-(\d{2})-(\d{2})(?:[T ].*)?$/.exec(text);
	const sri = /^(\d{2})\/(\d{2})\/(\d{4})$/.exec(text);
	const [y, mo, d] = iso ? [iso[1], iso[2], iso[3]] : sri ? [sri[3], sri[2], sri[1]] : [];
	if (!y) return undefined;
	const date = new Date(Date.UTC(Number(y), Number(mo) - 1, Number(d)));
	return date.getUTCFullYear() === Number(y) &&
		date.getUTCMonth() === Number(mo) - 1 &&
		date.getUTCDate() === Number(d)
		? `${y}-${mo}-${d}`
		: undefined;
}

/** The days a period covers, as ISO dates, and whether a date falls in them. */
export interface PeriodRange {
	from: string;
	to: string;
	/** As messages name it: `2026-10`; a semester `2026-07 to 2026-12`. */
	label: string;
	holds(iso: string | undefined): boolean;
}

/** First and last day (ISO) of the period: a month, or a semester ending in month 6 or 12. */
export function periodRange(period: Period): PeriodRange {
	const mm = (m: number) => String(m).padStart(2, '0');
	const first = period.semestral ? period.month - 5 : period.month;
	const lastDay = new Date(Date.UTC(period.year, period.month, 0)).getUTCDate();
	const from = `${period.year}-${mm(first)}-01`;
	const to = `${period.year}-${mm(period.month)}-${lastDay}`;
	const label = period.semestral ? `${from.slice(0, 7)} to ${to.slice(0, 7)}` : to.slice(0, 7);
	return { from, to, label, holds: (iso) => iso !== undefined && iso >= from && iso <= to };
}
