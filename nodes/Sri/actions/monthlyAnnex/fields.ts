import type { IExecuteFunctions, INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import { clock } from '../../../shared/clock';
import {
	FORM_FIELDS,
	lastCompletePeriod,
	outputFieldOption,
	stopAtField,
	textParameter,
} from '../../../shared/declaration';
import type { Findings } from '../../../shared/findings';
import { notChosen, numberOption } from '../../../shared/options';
import { parameterReader } from '../../../shared/parameters';
import type { AnnexSettings } from '../../domain/ats/annex';
import { TAX_SUPPORTS } from '../../domain/ats/catalog';
import { itemChoices, keysOf } from '../../domain/ats/choices';
import { parsePeriod } from '../../domain/ats/period';

/**
 * The ATS's form past who files (build.operation.ts): the period, what the receipts cannot say (the tax support,
 * a related party, the company's own electronic sales), the options — and how each is read, once or per item.
 */

/** Filing, Period, Year and Month. */
export const periodFields: INodeProperties[] = [
	{
		displayName: 'Filing',
		name: 'filing',
		type: 'options',
		noDataExpression: true,
		options: [
			{ name: 'Monthly', value: 'monthly', description: 'One ATS per month' },
			{
				name: 'Semestral (RIMPE Micro-Enterprise)',
				value: 'semestral',
				description: 'One ATS per semester, declared as month 06 or 12 with regimenMicroempresa SI',
			},
		],
		default: 'monthly',
	},
	{
		displayName: 'Period',
		name: 'period',
		type: 'options',
		noDataExpression: true,
		options: [
			{
				name: 'The Last Complete One',
				value: 'previous',
				description:
					'The previous month (semestral: the last semester that has ended), on Ecuador’s clock',
			},
			{ name: 'Choose', value: 'chosen', description: 'A year and month you type' },
		],
		default: 'previous',
	},
	{
		displayName: 'Year and Month',
		name: 'yearMonth',
		type: 'string',
		default: '',
		required: true,
		placeholder: 'e.g. 2026-10',
		displayOptions: { show: { period: ['chosen'] } },
		description:
			'The month declared, as yyyy-mm. A semester is declared as its last month: yyyy-06 (January to June) or yyyy-12 (July to December).',
	},
];

/** Tax Support: nothing chosen by default (the receipts cannot say it), then Tabla 5. */
const taxSupportOptions: INodePropertyOptions[] = [
	{
		...notChosen('the tax support of the purchases'),
		description:
			'Choose the tax support (Tabla 5) of purchases that have no other: a purchase without one stops the annex, and every such purchase is named',
	},
	...TAX_SUPPORTS.map((t) => ({ name: t.name, value: t.code, description: t.description })),
];

/** What the receipts cannot say: Tax Support (and per item), Related Party per Item, Own Electronic Sales. */
export const choiceFields: INodeProperties[] = [
	{
		displayName: 'Tax Support (Sustento Tributario)',
		name: 'taxSupport',
		type: 'options',
		options: taxSupportOptions,
		default: '',
		description:
			'The tax support (codSustento) of every purchase, unless the item gives its own (Tax Support per Item) or your own retention to the supplier declared one. The receipts do not say it: only you know what a purchase is for.',
	},
	{
		displayName: 'Tax Support per Item',
		name: 'taxSupportPerItem',
		type: 'string',
		default: '',
		placeholder: 'e.g. {{ $json.sustento }}',
		description:
			'The tax support of this item’s purchase (a code of Tabla 5, e.g. 06 for inventory), usually an expression that reads a column of your purchases sheet. Empty: Tax Support.',
	},
	{
		displayName: 'Related Party per Item',
		name: 'relatedParty',
		type: 'boolean',
		default: false,
		description:
			'Whether this item’s supplier or client is a related party (parte relacionada), usually an expression. A purchase is also marked SI when your own retention to the supplier says parteRel SI.',
	},
	{
		displayName: 'Own Electronic Sales',
		name: 'electronicSales',
		type: 'options',
		options: [
			{
				name: 'Include (Emission E)',
				value: 'include',
				description:
					'Report them in ventas, grouped by client, with tipoEmision E; they add nothing to totalVentas or ventasEstab',
			},
			{
				name: 'Leave Out',
				value: 'leaveOut',
				description:
					'Do not report them: the SRI already holds every electronic receipt it authorized (each is named in warnings)',
			},
		],
		default: 'include',
		description:
			'What to do with the sales receipts you issued (facturas, credit and debit notes). See the node’s documentation for why Include is the default.',
	},
];

/** Options → Open Establishments (numEstabRuc). */
const establishmentsOption: INodeProperties = {
	displayName: 'Open Establishments (numEstabRuc)',
	name: 'establishments',
	type: 'number',
	typeOptions: { minValue: 0, maxValue: 999, numberPrecision: 0 },
	default: 0,
	description:
		'How many open establishments your RUC has, as the RUC register lists them. 0: the establishments that issued your own receipts of the period (at least 1).',
};

/** Options → Receipts the SRI Lists for You: the SRI's list of what was issued to the informant, held against the input. */
const listedOption: INodeProperties = {
	displayName: 'Receipts the SRI Lists for You (Access Keys)',
	name: 'sriListedKeys',
	type: 'string',
	default: '',
	placeholder: "e.g. {{ $('Read the list').all().map(i => i.json.clave_acceso) }}",
	description:
		'The access keys of the SRI’s list of the receipts issued to you (Received Receipts List → Read), usually an expression over that node. Each receipt it lists for the period that is not among the items is named in problems, and a receipt the SRI gave none for is a problem, not a warning. A list, or text with one key per line or comma.',
};

/** Options → Voided Receipts: the informant's own receipts voided in the period (anulados). */
const voidedOption: INodeProperties = {
	displayName: 'Voided Receipts (Access Keys)',
	name: 'voidedReceipts',
	type: 'string',
	typeOptions: { rows: 3 },
	default: '',
	placeholder: 'e.g. 1510202601179214673900120010010000001041234567819',
	description:
		'The access keys of your own receipts voided (anulados) in the period: a list an expression gives, or text with one key per line or comma. Each is reported in anulados; a receipt among the items with one of them is left out of ventas and compras.',
};

/** Options. */
export const optionsField: INodeProperties = {
	displayName: 'Options',
	name: 'options',
	type: 'collection',
	placeholder: 'Add Option',
	default: {},
	options: [
		establishmentsOption,
		outputFieldOption,
		listedOption,
		{
			displayName: 'Registration Date per Item',
			name: 'registrationDate',
			type: 'string',
			default: '',
			placeholder: 'e.g. {{ $json.fecha_registro }}',
			description:
				'The date a purchase was booked (fechaRegistro, yyyy-mm-dd or dd/mm/yyyy), usually an expression; it decides the period a purchase belongs to. Empty: the date your own retention declares, else the emission date.',
		},
		voidedOption,
	],
};

/** The form read once, as buildAnnex takes it (all but the items' count); a field that cannot be used stops. */
export function settingsOf(
	this: IExecuteFunctions,
	findings: Findings,
): Omit<AnnexSettings, 'itemCount'> {
	const ruc = textParameter.call(this, 'informantRuc');
	if (!/^[0-9]{10}001$/.test(ruc))
		stopAtField(
			findings,
			'Informant RUC',
			`must be your RUC, 13 digits ending in 001, got ${ruc ? `"${ruc}"` : 'nothing'}`,
			'The ATS is filed under the RUC of the main establishment (001), as the SRI’s schema requires.',
		);
	const fields = {
		voided: `Options → ${voidedOption.displayName}`,
		listed: `Options → ${listedOption.displayName}`,
		form: FORM_FIELDS,
	};
	const chosen = this.getNodeParameter('period', 0, 'previous') === 'chosen';
	return {
		informant: { ruc, name: textParameter.call(this, 'informantName') },
		period: periodOf.call(this, findings, chosen),
		periodField: chosen ? 'Year and Month' : 'Period (The Last Complete One)',
		taxSupport: textParameter.call(this, 'taxSupport'),
		electronicSales:
			this.getNodeParameter('electronicSales', 0, 'include') === 'leaveOut'
				? 'leaveOut'
				: 'include',
		establishments: numberOption.call(this, establishmentsOption, 0, {
			inOptions: true,
			once: true,
		}),
		voided: keysIn.call(this, findings, voidedOption, fields.voided) ?? [],
		listed: keysIn.call(this, findings, listedOption, fields.listed),
		fields,
	};
}

/** The period the form asks for; a stop naming the field when it is not one. */
function periodOf(this: IExecuteFunctions, findings: Findings, chosen: boolean) {
	const semestral = this.getNodeParameter('filing', 0, 'monthly') === 'semestral';
	if (!chosen)
		return {
			...lastCompletePeriod(clock.now(), 'America/Guayaquil', semestral ? 6 : 1),
			semestral,
		};
	const parsed = parsePeriod(this.getNodeParameter('yearMonth', 0, ''), semestral);
	if (!('problem' in parsed)) return parsed;
	stopAtField(
		findings,
		'Year and Month',
		parsed.problem,
		'Type the period declared as yyyy-mm, or choose Period → The Last Complete One.',
	);
	return { year: 2000, month: 1, semestral };
}

/** An option of access keys, read once (its expression may read another node); undefined when it is empty. */
function keysIn(
	this: IExecuteFunctions,
	findings: Findings,
	option: INodeProperties,
	field: string,
): string[] | undefined {
	const path = `options.${option.name}`;
	if (String(this.getNodeParameter(path, 0, '', { rawExpressions: true })).trim() === '')
		return undefined;
	let value: unknown;
	try {
		value = this.getNodeParameter(path, 0, '');
	} catch (error) {
		stopAtField(
			findings,
			field,
			`the expression failed: ${(error as Error).message}`,
			'Fix the expression so that it gives the access keys (a list, or text with one key per line).',
		);
		return [];
	}
	return keysOf(value, field, findings, FORM_FIELDS);
}

/** What each item may choose for itself, read per item (domain/ats/choices.ts). */
export function choicesOf(this: IExecuteFunctions, findings: Findings) {
	return itemChoices(
		{
			relatedParty: parameterReader.call(this, 'relatedParty', false),
			taxSupport: parameterReader.call(this, 'taxSupportPerItem', ''),
			registered: parameterReader.call(this, 'options.registrationDate', ''),
		},
		findings,
	);
}
