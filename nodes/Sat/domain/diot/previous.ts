import { AFTER_ITEMS, type Findings } from '../../../shared/findings';
import { moneyText, wholePesos } from '../amounts';
import { fieldText, GLOBAL_RFC, SUPPLIER_TYPES, type LedgerKey } from './layout';
import { hintOperation, who, Written, type RoundedLine } from './lines';
import type { Amounts } from './placement';

/**
 * The DIOT file of months before 2025: the SAT's previous layout (the batch file of its DIOT application before the
 * 2025 platform, form A-29), which the SAT's instructions of January 2025 keep for "2024 y anteriores" and whose
 * application the SAT opened again in 2025. Its 24 fields, in order, are those of Odoo 17/18's exporter
 * (l10n_mx_reports/models/account_diot.py, 25 places joined by `|`: a line ends with `|`) and of the public field
 * transcriptions of that layout (headers of a public Odoo DIOT module; an earlier 22-field transcription with each
 * field's type and size: amounts up to 12 digits, names up to 43 characters, the country by the previous catalog's
 * 2 letters). It reports values and non-creditable IVA only — the platform derives the creditable IVA —, one field of
 * the IVA of returns, and no field for the southern border region or for acts not subject to IVA.
 */

/** A field of the previous layout: its key in the output's JSON (none: always empty) and its name. */
interface PreviousField {
	field?: string;
	name: string;
}

/** The 24 fields, in file order (see docs/sat.md, "The previous layout (before 2025)"). */
const PREVIOUS_FIELDS: readonly PreviousField[] = [
	{ field: 'supplier_type', name: 'Tipo de tercero' },
	{ field: 'operation_type', name: 'Tipo de operación' },
	{ field: 'rfc', name: 'RFC' },
	{ field: 'foreign_tax_id', name: 'Número de ID fiscal' },
	{ field: 'foreign_name', name: 'Nombre del extranjero' },
	{ field: 'country', name: 'País de residencia' },
	{ field: 'nationality', name: 'Nacionalidad' },
	{
		field: 'paid_16',
		name: 'Valor de los actos o actividades pagados a la tasa del 15 % o 16 % de IVA',
	},
	{ name: 'Valor de los actos o actividades pagados a la tasa del 15 % de IVA (enero de 2010)' },
	{
		field: 'non_creditable_iva_16',
		name: 'Monto del IVA pagado no acreditable a la tasa del 15 % o 16 %',
	},
	{
		name: 'Valor de los actos o actividades pagados a la tasa del 10 % u 11 % de IVA (hasta enero de 2014)',
	},
	{ name: 'Valor de los actos o actividades pagados a la tasa del 10 % de IVA (enero de 2010)' },
	{
		field: 'paid_8_north',
		name: 'Valor de los actos o actividades pagados sujeto al estímulo de la región fronteriza norte (IVA 8 %)',
	},
	{ name: 'Monto del IVA pagado no acreditable a la tasa del 10 % u 11 % (hasta enero de 2014)' },
	{
		field: 'non_creditable_iva_8_north',
		name: 'Monto del IVA pagado no acreditable sujeto al estímulo de la región fronteriza norte (IVA 8 %)',
	},
	{
		field: 'paid_imports_16',
		name: 'Valor de los actos o actividades pagados en la importación de bienes y servicios a la tasa del 15 % o 16 % de IVA',
	},
	{
		field: 'non_creditable_iva_imports_16',
		name: 'Monto del IVA pagado no acreditable por la importación a la tasa del 15 % o 16 %',
	},
	{
		name: 'Valor de los actos o actividades pagados en la importación a la tasa del 10 % u 11 % de IVA',
	},
	{ name: 'Monto del IVA pagado no acreditable por la importación a la tasa del 10 % u 11 %' },
	{
		field: 'exempt_imports',
		name: 'Valor de los actos o actividades pagados en la importación de bienes y servicios por los que no se pagará el IVA (exentos)',
	},
	{
		field: 'paid_0',
		name: 'Valor de los demás actos o actividades pagados a la tasa del 0 % de IVA',
	},
	{
		field: 'exempt',
		name: 'Valor de los actos o actividades pagados por los que no se pagará el IVA (exentos)',
	},
	{ field: 'iva_withheld', name: 'IVA retenido por el contribuyente' },
	{
		field: 'returned_iva',
		name: 'IVA correspondiente a las devoluciones, descuentos y bonificaciones sobre compras',
	},
];

/** The previous layout's amounts, each from the ledger keys it adds up. */
const FROM_LEDGER: ReadonlyArray<[key: string, from: readonly LedgerKey[]]> = [
	['paid_16', ['paid_16']],
	[
		'non_creditable_iva_16',
		[
			'non_creditable_iva_16_proportional',
			'non_creditable_iva_16_requirements',
			'non_creditable_iva_16_exempt',
			'non_creditable_iva_16_not_subject',
		],
	],
	['paid_8_north', ['paid_8_north']],
	[
		'non_creditable_iva_8_north',
		[
			'non_creditable_iva_8_north_proportional',
			'non_creditable_iva_8_north_requirements',
			'non_creditable_iva_8_north_exempt',
			'non_creditable_iva_8_north_not_subject',
		],
	],
	['paid_imports_16', ['paid_imports_goods_16', 'paid_imports_services_16']],
	[
		'non_creditable_iva_imports_16',
		(['goods', 'services'] as const).flatMap(
			(c) =>
				[
					`non_creditable_iva_imports_${c}_16_proportional`,
					`non_creditable_iva_imports_${c}_16_requirements`,
					`non_creditable_iva_imports_${c}_16_exempt`,
					`non_creditable_iva_imports_${c}_16_not_subject`,
				] as const,
		),
	],
	['exempt_imports', ['exempt_imports']],
	['paid_0', ['paid_0']],
	['exempt', ['exempt']],
	['iva_withheld', ['iva_withheld']],
	[
		'returned_iva',
		[
			'returned_iva_8_north',
			'returned_iva_8_south',
			'returned_iva_16',
			'returned_iva_imports_goods_16',
			'returned_iva_imports_services_16',
		],
	],
];

/**
 * The previous layout's fields a CFDI's own amounts went to, by their number in its file: `fields 8, 24 of the
 * layout before 2025` (a value it has no field for, as the value of returns, is not among them).
 */
export function previousFieldsOf(amounts: Amounts): string {
	const numbers = FROM_LEDGER.filter(([, from]) =>
		from.some((key) => (amounts.get(key) ?? 0n) !== 0n),
	)
		.map(([key]) => PREVIOUS_FIELDS.findIndex((f) => f.field === key) + 1)
		.sort((a, b) => a - b);
	if (!numbers.length) return 'no field of the layout before 2025';
	return `field${numbers.length > 1 ? 's' : ''} ${numbers.join(', ')} of the layout before 2025`;
}

/** What the previous layout has no field for: the southern border region and acts not subject to IVA. */
const NO_FIELD: ReadonlyArray<[what: string, keys: readonly LedgerKey[], problem: boolean]> = [
	[
		'IVA at 8 % in the southern border region',
		['paid_8_south', 'returns_8_south', 'returned_iva_8_south'],
		true,
	],
	['acts not subject to IVA', ['not_subject', 'not_subject_abroad'], false],
];

/** The previous catalog of types of operation: 03, 06, 85 (a foreign supplier: 03, 85). */
const PREVIOUS_OPERATIONS = ['03', '06', '85'];

/** The largest amount a field of the previous layout holds: 12 digits. */
const MAX_AMOUNT = 999_999_999_999n;

/** A name as the previous layout takes it: letters without accents (Ñ kept), digits and spaces, at most `max`. */
function plainText(value: string, max: number): string {
	const plain = [...value]
		.map((c) => (c === 'Ñ' || c === 'ñ' ? c : c.normalize('NFD').replace(/[\u0300-\u036f]/g, '')))
		.join('')
		.replace(/[^A-Za-z\d Ññ]+/g, ' ');
	return fieldText(plain, max);
}

/**
 * The 24-field lines and rows of the JSON, from the lines of the month: each amount the sum of the ledger keys it
 * stands for, rounded once; what the layout has no field for is named.
 */
export function writePrevious(lines: readonly RoundedLine[], findings: Findings): Written {
	const out = new Written();
	for (const rounded of lines) {
		const { line, cfdis } = rounded;
		const micros = (keys: readonly LedgerKey[]) =>
			keys.reduce((sum, key) => sum + (line.amounts.get(key) ?? 0n), 0n);
		for (const [what, keys, problem] of NO_FIELD) {
			const amount = micros(keys);
			if (!amount) continue;
			const text = `${who(line)}: ${moneyText(amount)} of ${what} is not in the file: the layout before 2025 has no field for it`;
			if (problem)
				findings.problem(AFTER_ITEMS, `${text}; report it as the SAT's application asks`);
			else findings.warn(AFTER_ITEMS, text);
		}
		const amounts = new Map<string, bigint>();
		for (const [key, from] of FROM_LEDGER) {
			const sum = micros(from);
			let pesos = wholePesos(sum);
			if (pesos < 0n) {
				findings.problem(
					AFTER_ITEMS,
					`${who(line)}: ${key} adds up to ${moneyText(sum)} (credit notes of the month larger than what was paid): written as 0, since the SAT takes no negative amounts`,
				);
				pesos = 0n;
			}
			if (pesos > MAX_AMOUNT)
				findings.problem(
					AFTER_ITEMS,
					`${who(line)}: ${key} is ${pesos}, more than the 12 digits the field holds`,
				);
			if (pesos > 0n) amounts.set(key, pesos);
		}
		if (!amounts.size) {
			findings.warn(
				AFTER_ITEMS,
				`${who(line)}: no line written, every amount of the layout before 2025 rounds to 0 (CFDIs ${cfdis.join(', ')})`,
			);
			continue;
		}
		let operation = line.kind === 'global' ? '85' : line.operation;
		if (
			!PREVIOUS_OPERATIONS.includes(operation) ||
			(line.kind === 'foreign' && operation === '06')
		) {
			findings.warn(
				AFTER_ITEMS,
				`${who(line)}: type of operation ${operation} is of the 2025 catalog; the layout before 2025 has 03, 06 and 85 (a foreign supplier 03 and 85): written as 85 (otros)`,
			);
			operation = '85';
		}
		hintOperation(line, findings);
		const identity: Record<string, string | undefined> = {
			supplier_type: SUPPLIER_TYPES[line.kind],
			operation_type: operation,
			rfc: line.kind === 'global' ? GLOBAL_RFC : line.rfc,
			foreign_tax_id: line.foreign ? fieldText(line.foreign.taxId, 40) : undefined,
			foreign_name: line.foreign ? plainText(line.name ?? '', 43) : undefined,
			country: line.foreign?.country,
			nationality: line.foreign ? plainText(line.foreign.nationality, 40) : undefined,
		};
		const fields = PREVIOUS_FIELDS.map(({ field }) => {
			if (field === undefined) return '';
			return identity[field] ?? amounts.get(field)?.toString() ?? '';
		});
		// 24 fields and a `|` after the last, as the previous application's files end.
		const text = `${fields.join('|')}|`;
		out.add(rounded, text, identity, amounts);
	}
	return out;
}
