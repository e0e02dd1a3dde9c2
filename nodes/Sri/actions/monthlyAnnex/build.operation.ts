import type { IExecuteFunctions, INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';
import { clock } from '../../../shared/clock';
import {
	filingItem,
	FORM_FIELDS,
	inputBinaryField,
	lastCompletePeriod,
	outputFieldOption,
	documentsOf,
	textParameter,
	throwIfStopped,
	type Filing,
} from '../../../shared/declaration';
import { Findings } from '../../../shared/findings';
import { notChosen, numberOption } from '../../../shared/options';
import { parameterReader } from '../../../shared/parameters';
import type { AggregateModule, OperationResult } from '../../../shared/router';
import type { PublicServiceContext } from '../../../shared/soap';
import { MAX_ANSWER_BYTES } from '../../domain/answer';
import type { AnnexItem } from '../../domain/ats/admit';
import { buildAnnex } from '../../domain/ats/annex';
import { TAX_SUPPORTS } from '../../domain/ats/catalog';
import { annexItemFromFile, annexItemFromJson } from '../../domain/ats/input';
import { itemChoices, keysOf } from '../../domain/ats/choices';
import { parsePeriod, type Period } from '../../domain/ats/period';
import { atsXml } from '../../domain/ats/xml';

/**
 * Monthly Annex (ATS) → Build: every input item of the run is one receipt of the period (the output of Read XML or
 * Check Authorization, or the receipt's XML file itself), and the run's one output item is the ATS the SRI's DIMM
 * loads, as an XML file, with JSON the bookkeeper reads and checks. A declaration (shared/declaration.ts); its rules
 * live in domain/ats/.
 */

/** Every input item in, one out (shared/router.ts, AggregateModule). */
export const kind: AggregateModule<PublicServiceContext>['kind'] = 'aggregate';

export const narrow =
	'An ATS holds the whole period and cannot be split: give the node only the receipts of the period (a Filter node before it)';

/** The ATS as the declarations' seam reads its items: one receipt each (domain/ats/input.ts). */
const ATS: Filing<AnnexItem> = {
	words: { name: 'ATS', filing: 'annex', document: 'receipt', byHand: 'in the DIMM' },
	what: 'Monthly Annex (ATS) → Build',
	narrow,
	maxBytes: MAX_ANSWER_BYTES,
	fromFile: (bytes, item, index) => annexItemFromFile(bytes, item.json, index),
	fromJson: (item, index, field) =>
		annexItemFromJson(item.json, index, field, Object.keys(item.binary ?? {})),
	notDocuments: (field) => ({
		title: 'items that are not receipts the annex can read',
		fix: `Each item must be one receipt: the output of Read XML or Check Authorization, or a receipt XML file in the binary field "${field}" (Input Binary Field). Leave other items out before this node.`,
	}),
};

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

/** Tax Support: nothing chosen by default (the receipts cannot say it), then Tabla 5. */
const taxSupportOptions: INodePropertyOptions[] = [
	{
		...notChosen('the tax support of the purchases'),
		description:
			'Choose the tax support (Tabla 5) of purchases that have no other: a purchase without one stops the annex, and every such purchase is named',
	},
	...TAX_SUPPORTS.map((t) => ({ name: t.name, value: t.code, description: t.description })),
];

export const description: INodeProperties[] = updateDisplayOptions(
	{ show: { resource: ['monthlyAnnex'], operation: ['build'] } },
	[
		{
			displayName:
				'Builds one ATS from all the input items: each item one receipt of the period, as Read XML or Check Authorization outputs it, or the receipt’s XML file. Who is who comes from the receipts; what they cannot say, you choose here.',
			name: 'atsNotice',
			type: 'notice',
			default: '',
		},
		{
			displayName: 'Informant RUC',
			name: 'informantRuc',
			type: 'string',
			default: '',
			required: true,
			placeholder: 'e.g. 1792146739001',
			description:
				'Your RUC (13 digits, ending in 001): receipts you issued are your sales and retentions, receipts addressed to it your purchases',
		},
		{
			displayName: 'Informant Legal Name',
			name: 'informantName',
			type: 'string',
			default: '',
			required: true,
			placeholder: 'e.g. Distribuidora Andina S.A.',
			description:
				'Your legal name (razón social) as the RUC register has it. The ATS takes letters, digits and spaces only: accents, ñ and signs are reduced (S.A. becomes SA).',
		},
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
					description:
						'One ATS per semester, declared as month 06 or 12 with regimenMicroempresa SI',
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
		inputBinaryField('receipt'),
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
		{
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
		},
	],
);

/** The period the form asks for; a stop naming the field when it is not one. */
function periodOf(this: IExecuteFunctions, findings: Findings): Period {
	const semestral = this.getNodeParameter('filing', 0, 'monthly') === 'semestral';
	if (this.getNodeParameter('period', 0, 'previous') !== 'chosen')
		return {
			...lastCompletePeriod(clock.now(), 'America/Guayaquil', semestral ? 6 : 1),
			semestral,
		};
	const parsed = parsePeriod(this.getNodeParameter('yearMonth', 0, ''), semestral);
	if ('problem' in parsed) {
		findings.stop(
			FORM_FIELDS,
			'Type the period declared as yyyy-mm, or choose Period → The Last Complete One.',
			`Year and Month: ${parsed.problem}`,
		);
		return { year: 2000, month: 1, semestral };
	}
	return parsed;
}

/**
 * Builds the ATS of the period from every input item (see the header). Bad input — the form, an item that is no
 * receipt, a receipt of another company, a purchase without a tax support — stops the run with one error that
 * names every item concerned, and no file is built.
 */
export async function execute(
	this: IExecuteFunctions,
	ctx: PublicServiceContext,
): Promise<OperationResult> {
	const findings = new Findings();
	const ruc = textParameter.call(this, 'informantRuc');
	if (!/^[0-9]{10}001$/.test(ruc))
		findings.stop(
			FORM_FIELDS,
			'The ATS is filed under the RUC of the main establishment (001), as the SRI’s schema requires.',
			`Informant RUC: must be your RUC, 13 digits ending in 001, got ${ruc ? `"${ruc}"` : 'nothing'}`,
		);
	const period = periodOf.call(this, findings);
	const fields = {
		voided: `Options → ${voidedOption.displayName}`,
		listed: `Options → ${listedOption.displayName}`,
		form: FORM_FIELDS,
	};
	/** An option read once (its expression may read another node), or undefined when it is empty. */
	const keysIn = (option: INodeProperties, field: string): string[] | undefined => {
		const path = `options.${option.name}`;
		if (String(this.getNodeParameter(path, 0, '', { rawExpressions: true })).trim() === '')
			return undefined;
		let value: unknown;
		try {
			value = this.getNodeParameter(path, 0, '');
		} catch (error) {
			findings.stop(
				FORM_FIELDS,
				'Fix the expression so that it gives the access keys (a list, or text with one key per line).',
				`${field}: the expression failed: ${(error as Error).message}`,
			);
			return [];
		}
		return keysOf(value, field, findings, FORM_FIELDS);
	};
	const voided = keysIn(voidedOption, fields.voided) ?? [];
	const listed = keysIn(listedOption, fields.listed);
	throwIfStopped.call(this, ATS.words, findings);

	const { documents, itemCount } = await documentsOf(this, ATS, findings, ctx.kept);
	const annex = buildAnnex(
		documents,
		{
			informant: { ruc, name: textParameter.call(this, 'informantName') },
			period,
			taxSupport: textParameter.call(this, 'taxSupport'),
			electronicSales:
				this.getNodeParameter('electronicSales', 0, 'include') === 'leaveOut'
					? 'leaveOut'
					: 'include',
			establishments: numberOption.call(this, establishmentsOption, 0, {
				inOptions: true,
				once: true,
			}),
			itemCount,
			periodField:
				this.getNodeParameter('period', 0, 'previous') === 'chosen'
					? 'Year and Month'
					: 'Period (The Last Complete One)',
			voided,
			listed,
			fields,
		},
		itemChoices(
			{
				relatedParty: parameterReader.call(this, 'relatedParty', false),
				taxSupport: parameterReader.call(this, 'taxSupportPerItem', ''),
				registered: parameterReader.call(this, 'options.registrationDate', ''),
			},
			findings,
		),
		findings,
	);
	throwIfStopped.call(this, ATS.words, findings);
	if (!annex) return undefined;
	const fileName = `ATS_${ruc}_${annex.json.anio as string}_${annex.json.mes as string}.xml`;
	return [
		await filingItem.call(
			this,
			findings,
			{ file_name: fileName, ...annex.json },
			{
				bytes: Buffer.from(atsXml(annex.iva), 'utf8'),
				name: fileName,
				mimeType: 'application/xml',
			},
		),
	];
}
