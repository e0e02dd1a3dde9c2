import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
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
import { BEFORE_ITEMS, Findings } from '../../../shared/findings';
import { parameterReader } from '../../../shared/parameters';
import type { AggregateModule, OperationResult } from '../../../shared/router';
import type { PublicServiceContext } from '../../../shared/soap';
import { checkRfc } from '../../../shared/tax/rfc';
import { buildDiot, type DiotInput } from '../../domain/diot/build';
import { chooser } from '../../domain/diot/choices';
import { CFDI_MAX_BYTES, diotInputFromFile, diotInputFromJson } from '../../domain/diot/input';
import {
	diotFile,
	FIRST_PERIOD,
	FOREIGN_RFC,
	GLOBAL_RFC,
	OPERATION_TYPES,
} from '../../domain/diot/layout';

/**
 * DIOT → Build DIOT File: every input item of the run is one CFDI of the month (its XML file, or Read CFDI XML's
 * output), and the run's one output item is the file the SAT's DIOT takes (carga desde archivo), with a row per
 * supplier. A declaration (shared/declaration.ts); its rules live in domain/diot/.
 */

/** Many items in, one out: the router pairs the output with every input item (shared/router.ts). */
export const kind: AggregateModule<PublicServiceContext>['kind'] = 'aggregate';

export const narrow =
	'A DIOT holds the whole month and cannot be split: give the node only the CFDIs of the month (a Filter node before it), as files rather than Read CFDI XML rows';

/** The DIOT as the declarations' seam reads its items: one CFDI each (domain/diot/input.ts). */
const DIOT: Filing<DiotInput> = {
	words: { name: 'DIOT', filing: 'DIOT', document: 'CFDI', byHand: "in the SAT's DIOT form" },
	what: 'DIOT → Build DIOT File',
	narrow,
	maxBytes: CFDI_MAX_BYTES,
	fromFile: diotInputFromFile,
	fromJson: diotInputFromJson,
	notDocuments: () => ({
		title: 'items that are not CFDIs',
		fix: "Each input item must be one CFDI: its XML file (as Read/Write Files, Document Extraction or Read CFDI XML pass it on) or Read CFDI XML's output. Leave out what is not a CFDI before this node (e.g. with an If node), or fix the node that failed and run again.",
	}),
};

const option = (value: string, description?: string) => ({
	name: `${value} — ${OPERATION_TYPES[value]}`,
	value,
	...(description ? { description } : {}),
});

export const description: INodeProperties[] = updateDisplayOptions(
	{ show: { resource: ['diot'], operation: ['build'] } },
	[
		{
			displayName:
				"Takes every input item (one CFDI each: its XML file, or Read CFDI XML's output) and outputs one item: the DIOT file to upload in the SAT's DIOT (carga desde archivo) and a row per supplier. Nothing is sent anywhere.",
			name: 'diotNotice',
			type: 'notice',
			default: '',
		},
		{
			displayName: 'Taxpayer RFC',
			name: 'taxpayerRfc',
			type: 'string',
			default: '',
			required: true,
			placeholder: 'e.g. EKU9003173C9',
			description:
				'The RFC of the company or person filing the DIOT (RFC del contribuyente): the receiver (Receptor) of the CFDIs. CFDIs it issued itself, or issued to another RFC, are left out and named in the warnings.',
		},
		{
			displayName: 'Month (Periodo)',
			name: 'period',
			type: 'string',
			default: '',
			placeholder: 'e.g. 2025-10',
			description:
				'The month reported, as YYYY-MM. Empty: the month before the current one (Mexico City time). The 54-field file is for months from January 2025.',
		},
		inputBinaryField('CFDI'),
		{
			displayName: 'Type of Operation (Mexican Suppliers)',
			name: 'operationType',
			type: 'options',
			options: [
				option('02'),
				option('03'),
				option('06'),
				option('08'),
				option('85'),
				option('87', "Report the item's amounts on the global line (proveedor global)"),
			],
			default: '85',
			description:
				"Tipo de operación of a Mexican supplier's line. Use an expression to choose per supplier, e.g. 03 for the RFCs that bill professional fees; a supplier with two types of operation gets two lines.",
		},
		{
			displayName: 'Type of Operation (Foreign Suppliers)',
			name: 'foreignOperationType',
			type: 'options',
			options: [option('02'), option('03'), option('07')],
			default: '07',
			description:
				'Tipo de operación of a foreign supplier (RFC XEXX010101000). Use an expression to choose per supplier.',
		},
		{
			displayName: '8 % IVA Region',
			name: 'borderRegion',
			type: 'options',
			options: [
				{ name: 'Northern Border (Fields 8, 9, 18)', value: 'north' },
				{ name: 'Southern Border (Fields 10, 11, 20)', value: 'south' },
			],
			default: 'north',
			description:
				"Where IVA at 8 % goes: the CFDI does not say which border region the supplier's is. Use an expression to choose per supplier.",
		},
		{
			displayName: 'Fiscal Effect Given to the CFDIs (Field 54)',
			name: 'fiscalEffect',
			type: 'options',
			options: [
				{ name: 'Yes (01)', value: '01' },
				{ name: 'No (02)', value: '02' },
			],
			default: '01',
			description:
				'Manifiesto de que se dio efectos fiscales a los comprobantes, on every supplier line. The global line always has 02, as the SAT writes it.',
		},
		{
			displayName: 'Foreign Supplier',
			name: 'foreignSupplier',
			type: 'collection',
			placeholder: 'Add Field',
			default: {},
			description:
				'For items whose supplier is foreign (RFC XEXX010101000): use expressions to give each its own values',
			options: [
				{
					displayName: 'Country (País, ISO 3166 Alpha-3)',
					name: 'country',
					type: 'string',
					default: '',
					placeholder: 'e.g. USA',
					description:
						'The country of tax residence as its 3-letter code (USA, DEU, CHN…), or ZZZ for one not in the catalog. Required for a foreign supplier.',
				},
				{
					displayName: 'Imports at 16 %',
					name: 'imports',
					type: 'options',
					options: [
						{
							name: 'Intangible Goods and Services (Fields 16, 17, 26)',
							value: 'services',
						},
						{ name: 'Tangible Goods Through Customs (Fields 14, 15, 24)', value: 'goods' },
					],
					default: 'services',
				},
				{
					displayName: 'Jurisdiction (If Country Is ZZZ)',
					name: 'jurisdiction',
					type: 'string',
					default: '',
					placeholder: 'e.g. Isle of Man',
					description: 'The place of tax residence, when the country is ZZZ',
				},
				{
					displayName: 'Tax ID',
					name: 'taxId',
					type: 'string',
					default: '',
					placeholder: 'e.g. 98-7654321',
					description:
						"The supplier's tax identification number in its country (at most 40 characters)",
				},
			],
		},
		{
			displayName: 'Options',
			name: 'options',
			type: 'collection',
			placeholder: 'Add Option',
			default: {},
			options: [
				{
					displayName: 'File Name',
					name: 'fileName',
					type: 'string',
					default: '',
					placeholder: 'e.g. DIOT-EKU9003173C9-2025-10.txt',
					description: 'Empty: DIOT-RFC-YYYY-MM.txt, with the RFC and month given above',
				},
				outputFieldOption,
			],
		},
	],
);

/** The taxpayer's RFC, checked; a stop naming the field when it cannot be the filer's. */
function taxpayerOf(this: IExecuteFunctions, findings: Findings): string {
	const text = textParameter.call(this, 'taxpayerRfc');
	const rfc = checkRfc(text);
	const stop = (line: string) =>
		findings.stop(FORM_FIELDS, "Fix the node's parameters and run again.", `Taxpayer RFC: ${line}`);
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
function periodOf(this: IExecuteFunctions, findings: Findings): string {
	const text = textParameter.call(this, 'period');
	const last = lastCompletePeriod(clock.now(), 'America/Mexico_City');
	const period = text || `${last.year}-${String(last.month).padStart(2, '0')}`;
	const stop = (line: string) =>
		findings.stop(
			FORM_FIELDS,
			"Fix the node's parameters and run again.",
			`Month (Periodo): ${line}`,
		);
	if (!/^\d{4}-(0[1-9]|1[0-2])$/.test(period))
		stop(`must be YYYY-MM (e.g. 2025-10), got ${JSON.stringify(text)}`);
	else if (period < FIRST_PERIOD)
		stop(
			`${period} is before ${FIRST_PERIOD}: this 54-field file is for months from January 2025; earlier months are filed in the SAT's earlier layout, which this node does not write`,
		);
	return period;
}

/**
 * The DIOT of a month from every input item: one output item with the file (binary) and, in JSON, a row per
 * supplier (its fields named in words, the CFDIs it came from), totals, warnings (what was left out, and why) and
 * problems (what may make the file wrong). Bad input — the taxpayer's RFC, the month, an item that is not a CFDI,
 * a value chosen for an item that does not fit it — stops the node with every problem named, and no file.
 */
export async function execute(
	this: IExecuteFunctions,
	ctx: PublicServiceContext,
): Promise<OperationResult> {
	const findings = new Findings();
	const rfc = taxpayerOf.call(this, findings);
	const period = periodOf.call(this, findings);
	throwIfStopped.call(this, DIOT.words, findings);

	const { documents } = await documentsOf(this, DIOT, findings, ctx.kept);
	const diot = buildDiot(
		documents,
		{
			taxpayer: rfc,
			period,
			fiscalEffect: textParameter.call(this, 'fiscalEffect', '01') === '02' ? '02' : '01',
			choose: chooser({
				operationType: parameterReader.call(this, 'operationType', '85'),
				foreignOperationType: parameterReader.call(this, 'foreignOperationType', '07'),
				borderRegion: parameterReader.call(this, 'borderRegion', 'north'),
				country: parameterReader.call(this, 'foreignSupplier.country', ''),
				jurisdiction: parameterReader.call(this, 'foreignSupplier.jurisdiction', ''),
				taxId: parameterReader.call(this, 'foreignSupplier.taxId', ''),
				imports: parameterReader.call(this, 'foreignSupplier.imports', 'services'),
			}),
		},
		findings,
	);
	throwIfStopped.call(this, DIOT.words, findings);

	const fileName = textParameter.call(this, 'options.fileName') || `DIOT-${rfc}-${period}.txt`;
	if (!diot.lines.length)
		findings.problem(
			BEFORE_ITEMS,
			`No line: nothing paid to a supplier in ${period} is among the input items, so no file was made. A month without operations is declared in the SAT's DIOT itself (sin operaciones), without a file.`,
		);
	const json = {
		rfc,
		period,
		file_name: diot.lines.length ? fileName : null,
		rows: diot.rows,
		totals: diot.totals,
	};
	return [
		await filingItem.call(
			this,
			findings,
			json,
			diot.lines.length
				? { bytes: diotFile(diot.lines), name: fileName, mimeType: 'text/plain' }
				: undefined,
		),
	];
}
