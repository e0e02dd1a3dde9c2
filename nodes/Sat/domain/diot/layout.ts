/**
 * The DIOT file of 2025 onward: the SAT's "Instructivo para el armado del archivo de carga masiva — DIOT" (January
 * 2025, §3, for periods from 2025), whose field table is known from a field-by-field public transcription
 * (soyisracastro/sat-dm, docs/diot-2025.md) that agrees index by index with Odoo 19's exporter
 * (l10n_mx_reports/models/account_diot.py, `data[0..53]`). One line per third party, 54 fields separated by `|`
 * (53 pipes, none at the end), no header, UTF-8; amounts in whole pesos, no sign, no decimals, no thousands
 * separator, at most 14 digits. See docs/sat.md, "DIOT", for what the node decided where sources disagree.
 */

/** The first period of this layout: earlier periods are filed in the SAT's previous layout (previous.ts). */
const FIRST_PERIOD = '2025-01';

/** The first period the previous layout (previous.ts) is written for: with the northern border region's fields. */
export const PREVIOUS_FIRST_PERIOD = '2019-01';

/** The layout a month is filed in: the 54 fields from 2025, the previous 24 fields before. */
/** The layout a month is filed in: the 2025 one (54 fields), or the one before (24 fields). */
export type Layout = 'current' | 'previous';

export const layoutOf = (period: string): Layout =>
	period < FIRST_PERIOD ? 'previous' : 'current';

/** An amount field's 5 categories of IVA acts (fields 8–17, 18–27, 28–47 repeat them in this order). */
const CATEGORIES = [
	['8_north', 'en la región fronteriza norte (IVA 8 %)'],
	['8_south', 'en la región fronteriza sur (IVA 8 %)'],
	['16', 'a la tasa del 16 % de IVA'],
	['imports_goods_16', 'en la importación por aduana de bienes tangibles a la tasa del 16 %'],
	['imports_services_16', 'en la importación de bienes intangibles y servicios a la tasa del 16 %'],
] as const;

/** A category of IVA acts: `16`, `8_north`… */
export type Category = (typeof CATEGORIES)[number][0];

/** Why IVA is not creditable (fields 28–47, per category, in this order). */
const NOT_CREDITABLE = [
	['proportional', 'por proporción'],
	['requirements', 'por no cumplir requisitos'],
	['exempt', 'de actividades exentas'],
	['not_subject', 'de actividades no objeto'],
] as const;

export type NotCreditableReason = (typeof NOT_CREDITABLE)[number][0];

/**
 * The key of an amount field (8–53), typed: an amount placed under a key no field has is a compile error, never an
 * amount dropped silently.
 */
type AmountKey =
	| `paid_${Category}`
	| `returns_${Category}`
	| `creditable_iva_${Category}`
	| `creditable_iva_${Category}_proportional`
	| `non_creditable_iva_${Category}_${NotCreditableReason}`
	| 'iva_withheld'
	| 'exempt_imports'
	| 'exempt'
	| 'paid_0'
	| 'not_subject'
	| 'not_subject_abroad';

/** The key of a field that says who the third party is (1–7), or the manifest (54). */
export type IdentityKey =
	| 'supplier_type'
	| 'operation_type'
	| 'rfc'
	| 'foreign_tax_id'
	| 'foreign_name'
	| 'country'
	| 'jurisdiction'
	| 'fiscal_effect';

export type FieldKey = IdentityKey | AmountKey;

/**
 * What a line adds up: the amount fields, and the IVA of the returns of each category (`returned_iva_<category>`),
 * which the 54 fields net into the IVA fields and the previous layout reports in a field of its own.
 */
export type LedgerKey = AmountKey | `returned_iva_${Category}`;

/** A field of the line: its key in the output's JSON (English words) and its name in the SAT's instructions. */
interface DiotField {
	key: FieldKey;
	name: string;
}

/** The 54 fields, in file order (field N is `DIOT_FIELDS[N - 1]`). */
const DIOT_FIELDS: readonly DiotField[] = [
	{ key: 'supplier_type', name: 'Tipo de tercero' },
	{ key: 'operation_type', name: 'Tipo de operación' },
	{ key: 'rfc', name: 'Registro Federal de Contribuyentes' },
	{ key: 'foreign_tax_id', name: 'Número de identificación fiscal' },
	{ key: 'foreign_name', name: 'Nombre del extranjero' },
	{ key: 'country', name: 'País o jurisdicción de residencia fiscal' },
	{ key: 'jurisdiction', name: 'Especificar lugar de jurisdicción fiscal' },
	// 8–17: value of the acts paid, and its returns, discounts and rebates, per category.
	...CATEGORIES.flatMap(([c, words]) => [
		{ key: `paid_${c}` as const, name: `Valor de los actos o actividades pagados ${words}` },
		{
			key: `returns_${c}` as const,
			name: `Devoluciones, descuentos y bonificaciones sobre los actos pagados ${words}`,
		},
	]),
	// 18–27: IVA creditable, exclusively from taxed acts / associated with acts for which a proportion applied.
	...CATEGORIES.flatMap(([c, words]) => [
		{
			key: `creditable_iva_${c}` as const,
			name: `IVA acreditable de los actos pagados ${words}, exclusivamente de actividades gravadas`,
		},
		{
			key: `creditable_iva_${c}_proportional` as const,
			name: `IVA acreditable de los actos pagados ${words}, asociado a actividades por las que se aplicó una proporción`,
		},
	]),
	// 28–47: IVA not creditable: by proportion, requirements not met, exempt acts, acts not subject.
	...CATEGORIES.flatMap(([c, words]) =>
		NOT_CREDITABLE.map(([reason, why]) => ({
			key: `non_creditable_iva_${c}_${reason}` as const,
			name: `IVA no acreditable de los actos pagados ${words}, ${why}`,
		})),
	),
	{ key: 'iva_withheld', name: 'IVA retenido por el contribuyente' },
	{
		key: 'exempt_imports',
		name: 'Actos pagados en la importación de bienes y servicios por los que no se pagará el IVA (exentos)',
	},
	{ key: 'exempt', name: 'Actos pagados por los que no se pagará el IVA (exentos)' },
	{ key: 'paid_0', name: 'Demás actos pagados a la tasa del 0 % de IVA' },
	{ key: 'not_subject', name: 'Actos no objeto del IVA realizados en territorio nacional' },
	{
		key: 'not_subject_abroad',
		name: 'Actos no objeto del IVA por no contar con establecimiento en territorio nacional',
	},
	{
		key: 'fiscal_effect',
		name: 'Manifiesto de que se dio efectos fiscales a los comprobantes',
	},
];

/** The number (1–54) of the field named `key`. */
export function fieldNumber(key: FieldKey): number {
	const n = DIOT_FIELDS.findIndex((f) => f.key === key);
	if (n < 0) throw new Error(`No DIOT field is named ${key}`);
	return n + 1;
}

/** Fields 8–53: amounts. */
export const AMOUNT_KEYS = DIOT_FIELDS.slice(7, 53).map((f) => f.key) as readonly AmountKey[];

/** Each category: its value field, its returns field, the rate of its IVA (in millionths) and its IVA fields. */
export const CATEGORY_FIELDS: ReadonlyArray<{
	category: Category;
	paid: AmountKey;
	returns: AmountKey;
	rate: bigint;
	/** Its 6 IVA fields: creditable (exclusively, by proportion), then not creditable (4 reasons). */
	iva: readonly AmountKey[];
}> = CATEGORIES.map(([c]) => ({
	category: c,
	paid: `paid_${c}`,
	returns: `returns_${c}`,
	rate: c.startsWith('8_') ? 80_000n : 160_000n,
	iva: [
		`creditable_iva_${c}`,
		`creditable_iva_${c}_proportional`,
		...NOT_CREDITABLE.map(([reason]) => `non_creditable_iva_${c}_${reason}` as const),
	],
}));

/** Tipo de tercero (2025 catalog). */
export const SUPPLIER_TYPES = { national: '04', foreign: '05', global: '15' } as const;

export type SupplierKind = keyof typeof SUPPLIER_TYPES;

/** Tipo de operación (2025 catalog), in the SAT's words. */
export const OPERATION_TYPES: Readonly<Record<string, string>> = {
	'02': 'Enajenación de bienes',
	'03': 'Prestación de servicios profesionales',
	'06': 'Uso o goce temporal de bienes',
	'07': 'Importación de bienes o servicios',
	'08': 'Importación por transferencia virtual',
	'85': 'Otros',
	'87': 'Operaciones globales',
};

/** The types of operation each type of third party may have (2025 catalog). */
export const OPERATIONS_OF: Readonly<Record<SupplierKind, readonly string[]>> = {
	national: ['02', '03', '06', '08', '85'],
	foreign: ['02', '03', '07'],
	global: ['87'],
};

/** The RFC of the global line and of the public in general (público en general). */
export const GLOBAL_RFC = 'XAXX010101000';

/** The RFC that stands for a foreign party without a Mexican RFC. */
export const FOREIGN_RFC = 'XEXX010101000';

/** A text field as the file may hold it: no `|`, no line breaks or tabs, single spaces, at most `max` characters. */
export function fieldText(value: string, max: number): string {
	return value
		.replace(/[|\p{Cc}]+/gu, ' ')
		.replace(/ {2,}/g, ' ')
		.trim()
		.slice(0, max);
}

/**
 * One line of the file: the 54 fields in order, joined by `|`. An amount of 0 is written empty (both are accepted;
 * Odoo 19 writes empty); the manifest (field 54) is always written.
 */
export function diotLine(values: Readonly<Partial<Record<FieldKey, string | bigint>>>): string {
	return DIOT_FIELDS.map(({ key }) => {
		const value = values[key];
		if (value === undefined) return '';
		if (typeof value === 'bigint') return value === 0n ? '' : value.toString();
		return value;
	}).join('|');
}

/**
 * The file: UTF-8 without a byte-order mark, lines separated by LF, no line break after the last — exactly what
 * Odoo 19 uploads (the SAT's instructions say only UTF-8; see docs/sat.md for the other format in use).
 */
export function diotFile(lines: readonly string[]): Buffer {
	return Buffer.from(lines.join('\n'), 'utf8');
}
