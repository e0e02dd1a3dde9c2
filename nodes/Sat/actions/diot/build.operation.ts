import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';
import {
	documentsOf,
	filingItem,
	inputBinaryField,
	outputFieldOption,
	textParameter,
	throwIfStopped,
	type Filing,
} from '../../../shared/declaration';
import { BEFORE_ITEMS, Findings } from '../../../shared/findings';
import type { AggregateModule, OperationResult } from '../../../shared/router';
import type { PublicServiceContext } from '../../../shared/soap';
import { buildDiot, type DiotInput } from '../../domain/diot/build';
import { CFDI_MAX_BYTES, diotInputFromFile, diotInputFromJson } from '../../domain/diot/input';
import { diotFile, layoutOf } from '../../domain/diot/layout';
import { choicesOf, periodOf, supplierFields, taxpayerOf } from './fields';

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
				"The month reported, as YYYY-MM. Empty: the month before the current one (Mexico City time). From 2025 the file has the 54 fields of the SAT's current layout; 2019 to 2024, the previous layout's 24 (for a late or corrected DIOT).",
		},
		inputBinaryField('CFDI'),
		...supplierFields,
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

	const choices = choicesOf.call(this, findings, period);
	throwIfStopped.call(this, DIOT.words, findings);

	const { documents } = await documentsOf(this, DIOT, findings, ctx.kept);
	const diot = buildDiot(documents, { taxpayer: rfc, period, choose: choices.choose }, findings);
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
		layout: layoutOf(period) === 'current' ? '54 fields (2025 on)' : '24 fields (before 2025)',
		file_name: diot.lines.length ? fileName : null,
		rows: diot.rows,
		to_settle: diot.toSettle,
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
