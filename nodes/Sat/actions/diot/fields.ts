import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { clock } from '../../../shared/clock';
import {
	FORM_FIELDS,
	lastCompletePeriod,
	stopAtField,
	textParameter,
} from '../../../shared/declaration';
import { BEFORE_ITEMS, type Findings } from '../../../shared/findings';
import { parameterReader } from '../../../shared/parameters';
import { checkRfc } from '../../../shared/tax/rfc';
import { chooser, type SupplierRow } from '../../domain/diot/choices';
import {
	FOREIGN_RFC,
	GLOBAL_RFC,
	layoutOf,
	OPERATION_TYPES,
	PREVIOUS_FIRST_PERIOD,
} from '../../domain/diot/layout';

/**
 * The DIOT's form past the filer and the month (build.operation.ts): the choices no CFDI makes — the type of
 * operation, the 8 % region, the IVA treatment, field 54, a foreign supplier's data — in the Suppliers table (a
 * row per supplier) and in the fields for every other supplier; and how the form is read.
 */

const option = (value: string, description?: string) => ({
	name: `${value} — ${OPERATION_TYPES[value]}`,
	value,
	...(description ? { description } : {}),
});

/** A row's choice left to the fields for the other suppliers. */
const AS_OTHERS = { name: 'As for Other Suppliers', value: '' };

const byName = (a: { name: string }, b: { name: string }) => a.name.localeCompare(b.name);

const OPERATION_OPTIONS = [
	option('02'),
	option('03'),
	option('06'),
	option('08'),
	option('85'),
	option('87', "Report the item's amounts on the global line (proveedor global)"),
];

/** Where 8 % IVA goes. */
const REGION = {
	displayName: '8 % IVA Region',
	name: 'borderRegion',
	type: 'options' as const,
	options: [
		{
			name: "From the CFDI's Place of Issue",
			value: 'auto',
			description:
				'The state of the LugarExpedicion postal code: Baja California, Sonora, Chihuahua, Coahuila, Nuevo León, Tamaulipas are north; Campeche, Chiapas, Quintana Roo, Tabasco south; another state: north, with a warning',
		},
		{ name: 'Northern Border (Fields 8, 9, 18…)', value: 'north' },
		{ name: 'Southern Border (Fields 10, 11, 20…)', value: 'south' },
	],
	default: 'auto',
	description: 'Where IVA at 8 % goes: the CFDI says only where it was issued',
};

/** How the supplier's IVA is treated: fields 18–47. */
const TREATMENT = {
	displayName: 'IVA Treatment',
	name: 'ivaTreatment',
	type: 'options' as const,
	options: [
		{
			name: 'Creditable by Proportion',
			value: 'proportional',
			description:
				'Creditable in the proportion the company applies (Creditable Proportion): that part in 19, 21, 23…, the rest in 28, 32, 36…',
		},
		{
			name: 'Creditable, Taxed Activities Only',
			value: 'taxed',
			description: 'Exclusively from taxed activities: fields 18, 20, 22, 24, 26',
		},
		{
			name: 'Not Creditable: Exempt Activities',
			value: 'exempt',
			description: 'For exempt activities: fields 30, 34, 38, 42, 46',
		},
		{
			name: 'Not Creditable: Lacking Requirements',
			value: 'requirements',
			description:
				'The requirements are not met (e.g. paid in cash above MXN 2,000, not deductible): fields 29, 33, 37, 41, 45',
		},
		{
			name: 'Not Creditable: Non-Taxable Activities',
			value: 'not_subject',
			description: 'For activities not subject to IVA: fields 31, 35, 39, 43, 47',
		},
	],
	default: 'taxed',
	description: "Whether the supplier's IVA is creditable, and why not",
};

/** The creditable part, for Creditable by Proportion. */
const PROPORTION: INodeProperties = {
	displayName: 'Creditable Proportion',
	name: 'ivaProportion',
	type: 'string',
	default: '',
	placeholder: 'e.g. 0.8523',
	description:
		'For Creditable by Proportion only: the part of the IVA that is creditable, from 0 to 1 (the proportion of taxed acts the company applies)',
};

/** Field 54. */
const FISCAL_EFFECT = {
	displayName: 'Fiscal Effect (Field 54)',
	name: 'fiscalEffect',
	type: 'options' as const,
	options: [
		{ name: 'Yes (01)', value: '01' },
		{ name: 'No (02)', value: '02' },
	],
	default: '01',
	description:
		'Manifiesto de que se dio efectos fiscales a los comprobantes. The global line always has 02, as the SAT writes it.',
};

/** What no CFDI says of a foreign supplier. */
const FOREIGN_FIELDS: INodeProperties[] = [
	{
		displayName: 'Country',
		name: 'country',
		type: 'string',
		default: '',
		placeholder: 'e.g. USA',
		description:
			"Foreign supplier: its country of tax residence as its 3-letter code (ISO 3166 alpha-3: USA, DEU, CHN…), or ZZZ for one not in the catalog; before 2025 the previous catalog's 2 letters (US…). Required.",
	},
	{
		displayName: 'Imports at 16 %',
		name: 'imports',
		type: 'options',
		options: [
			{ name: 'Intangible Goods and Services (Fields 16, 17, 26…)', value: 'services' },
			{ name: 'Tangible Goods Through Customs (Fields 14, 15, 24…)', value: 'goods' },
		],
		default: 'services',
		description: 'Foreign supplier: where its 16 % IVA goes',
	},
	{
		displayName: 'Jurisdiction (ZZZ)',
		name: 'jurisdiction',
		type: 'string',
		default: '',
		placeholder: 'e.g. Isle of Man',
		description: 'Foreign supplier: its place of tax residence, when the country is ZZZ',
	},
	{
		displayName: 'Nationality (Before 2025)',
		name: 'nationality',
		type: 'string',
		default: '',
		placeholder: 'e.g. Estadounidense',
		description:
			'Foreign supplier, months before 2025 only: its nationality (field 7 of that layout)',
	},
	{
		displayName: 'Tax ID',
		name: 'taxId',
		type: 'string',
		default: '',
		placeholder: 'e.g. 98-7654321',
		description:
			'Foreign supplier: its tax identification number in its country (at most 40 characters). Required from 2025 (field 4): without it the supplier is left out, named in the problems.',
	},
];

/** The Suppliers table, then the same choices for every other supplier (each may be an expression, per item). */
export const supplierFields: INodeProperties[] = [
	{
		displayName: 'Suppliers',
		name: 'suppliers',
		type: 'fixedCollection',
		typeOptions: { multipleValues: true },
		placeholder: 'Add Supplier',
		default: {},
		description:
			"One row per supplier whose choices differ from the other suppliers': its RFC (a foreign supplier: its name, as its invoice's Emisor Nombre) and what it sets; a choice left at As for Other Suppliers takes the field below",
		options: [
			{
				displayName: 'Supplier',
				name: 'supplier',
				values: [
					{
						displayName: 'RFC or Foreign Name',
						name: 'rfc',
						type: 'string',
						default: '',
						required: true,
						placeholder: 'e.g. CACX7605101P8',
						description:
							"The supplier's RFC (the CFDI's Emisor Rfc); for a foreign supplier (RFC XEXX010101000) its name, as its invoice writes it (Emisor Nombre), case and spaces aside",
					},
					{
						displayName: 'Type of Operation',
						name: 'operationType',
						type: 'options',
						options: [AS_OTHERS, ...OPERATION_OPTIONS, option('07')].sort(byName),
						default: '',
						description:
							'Tipo de operación: 02, 03, 06, 08, 85 or 87 (the global line) for a Mexican supplier; 02, 03 or 07 for a foreign one',
					},
					{ ...REGION, options: [AS_OTHERS, ...REGION.options], default: '' },
					{ ...TREATMENT, options: [AS_OTHERS, ...TREATMENT.options], default: '' },
					PROPORTION,
					{ ...FISCAL_EFFECT, options: [AS_OTHERS, ...FISCAL_EFFECT.options], default: '' },
					...FOREIGN_FIELDS.map((field) =>
						field.type === 'options'
							? { ...field, options: [AS_OTHERS, ...(field.options ?? [])], default: '' }
							: field,
					),
				],
			},
		],
	},
	{
		displayName:
			'Other suppliers: the fields below choose for every supplier without a row in Suppliers (and what a row leaves As for Other Suppliers). Each may be an expression, read for each input item.',
		name: 'otherSuppliersNotice',
		type: 'notice',
		default: '',
	},
	{
		displayName: 'Type of Operation',
		name: 'operationType',
		type: 'options',
		options: OPERATION_OPTIONS,
		default: '85',
		description:
			"Tipo de operación of a Mexican supplier's line; 87 reports the item's amounts on the global line. A supplier with two types of operation gets two lines.",
	},
	{
		displayName: 'Foreign Type of Operation',
		name: 'foreignOperationType',
		type: 'options',
		options: [option('02'), option('03'), option('07')],
		default: '07',
		description: 'Tipo de operación of a foreign supplier (RFC XEXX010101000)',
	},
	REGION,
	TREATMENT,
	PROPORTION,
	FISCAL_EFFECT,
	{
		displayName: 'Foreign Supplier',
		name: 'foreignSupplier',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		description:
			'For items whose supplier is foreign (RFC XEXX010101000) and has no row in Suppliers; expressions give each its own values',
		options: FOREIGN_FIELDS,
	},
];

/** The taxpayer's RFC, checked; a stop naming the field when it cannot be the filer's. */
export function taxpayerOf(this: IExecuteFunctions, findings: Findings): string {
	const text = textParameter.call(this, 'taxpayerRfc');
	const rfc = checkRfc(text, 'the DIOT is built with it as typed');
	const stop = (line: string) => stopAtField(findings, 'Taxpayer RFC', line);
	if (!text) stop('is required');
	else if (rfc.error) stop(`${JSON.stringify(text)} ${rfc.error}`);
	else if (rfc.normalized === GLOBAL_RFC || rfc.normalized === FOREIGN_RFC)
		stop(
			`${rfc.normalized} is a generic RFC, not a taxpayer's: give the RFC of the company or person filing`,
		);
	if (rfc.warning) findings.warn(BEFORE_ITEMS, `Taxpayer RFC: ${rfc.warning}`);
	return rfc.normalized;
}

/** The month reported: the form's, else the last complete one in Mexico City; a stop naming the field. */
export function periodOf(this: IExecuteFunctions, findings: Findings): string {
	const text = textParameter.call(this, 'period');
	const last = lastCompletePeriod(clock.now(), 'America/Mexico_City');
	const period = text || `${last.year}-${String(last.month).padStart(2, '0')}`;
	const stop = (line: string) => stopAtField(findings, 'Month (Periodo)', line);
	if (!/^\d{4}-(0[1-9]|1[0-2])$/.test(period))
		stop(`must be YYYY-MM (e.g. 2025-10), got ${JSON.stringify(text)}`);
	else if (period < PREVIOUS_FIRST_PERIOD)
		stop(
			`${period} is before ${PREVIOUS_FIRST_PERIOD}: months from 2025 are filed in the 54-field layout, 2019 to 2024 in the previous 24-field one; the layouts of earlier months (without the northern border region's fields) are not written`,
		);
	return period;
}

/** The choices of the form, for every supplier and per item (domain/diot/choices.ts); a row that cannot be used stops. */
export function choicesOf(this: IExecuteFunctions, findings: Findings, period: string) {
	const table = this.getNodeParameter('suppliers.supplier', 0, []);
	const choices = chooser(
		{
			operationType: parameterReader.call(this, 'operationType', '85'),
			foreignOperationType: parameterReader.call(this, 'foreignOperationType', '07'),
			borderRegion: parameterReader.call(this, 'borderRegion', 'auto'),
			ivaTreatment: parameterReader.call(this, 'ivaTreatment', 'taxed'),
			ivaProportion: parameterReader.call(this, 'ivaProportion', ''),
			fiscalEffect: parameterReader.call(this, 'fiscalEffect', '01'),
			country: parameterReader.call(this, 'foreignSupplier.country', ''),
			jurisdiction: parameterReader.call(this, 'foreignSupplier.jurisdiction', ''),
			taxId: parameterReader.call(this, 'foreignSupplier.taxId', ''),
			imports: parameterReader.call(this, 'foreignSupplier.imports', 'services'),
			nationality: parameterReader.call(this, 'foreignSupplier.nationality', ''),
		},
		Array.isArray(table) ? (table as SupplierRow[]) : [],
		layoutOf(period),
	);
	for (const line of choices.problems)
		findings.stop(FORM_FIELDS, "Fix the node's parameters and run again.", line);
	return choices;
}
