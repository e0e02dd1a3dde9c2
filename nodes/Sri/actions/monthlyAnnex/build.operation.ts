import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';
import {
	documentsOf,
	filingItem,
	inputBinaryField,
	throwIfStopped,
	type Filing,
} from '../../../shared/declaration';
import { Findings } from '../../../shared/findings';
import type { AggregateModule, OperationResult } from '../../../shared/router';
import type { PublicServiceContext } from '../../../shared/soap';
import { MAX_ANSWER_BYTES } from '../../domain/answer';
import type { AnnexItem } from '../../domain/ats/admit';
import { buildAnnex } from '../../domain/ats/annex';
import { annexItemFromFile, annexItemFromJson } from '../../domain/ats/input';
import { atsXml } from '../../domain/ats/xml';
import { choiceFields, choicesOf, optionsField, periodFields, settingsOf } from './fields';

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
		...periodFields,
		inputBinaryField('receipt'),
		...choiceFields,
		optionsField,
	],
);

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
	const settings = settingsOf.call(this, findings);
	throwIfStopped.call(this, ATS.words, findings);

	const { documents, itemCount } = await documentsOf(this, ATS, findings, ctx.kept);
	const annex = buildAnnex(
		documents,
		{ ...settings, itemCount },
		choicesOf.call(this, findings),
		findings,
	);
	throwIfStopped.call(this, ATS.words, findings);
	if (!annex) return undefined;
	const { ruc } = settings.informant;
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
