import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';
import { itemError } from '../../../shared/errors';
import type { OperationResult } from '../../../shared/router';
import type { PublicServiceContext } from '../../../shared/soap';
import { Checker } from '../../../shared/validate';
import { SRI_RECEIPT_MAX_BYTES, XmlError } from '../../../shared/xml';
import { xmlSourceFields, readXmlSource } from '../../../shared/xmlSource';
import { MAX_ANSWER_BYTES, readDocument, type ReadDocument } from '../../domain/answer';
import { presentAnswer, presentReceipt, type Presented } from '../../domain/result';
import { attachXmlOption, binaryFieldOption, ONLY_READS, withXmlFile } from './common.descriptions';

export const kind = 'read';

export const description: INodeProperties[] = updateDisplayOptions(
	{ show: { resource: ['receipt'], operation: ['readXml'] } },
	[
		...xmlSourceFields({
			what: 'The receipt XML, or its authorization file,',
			placeholder: 'e.g. <autorizacion><estado>AUTORIZADO</estado>…</autorizacion>',
		}),
		{
			displayName: 'Options',
			name: 'options',
			type: 'collection',
			placeholder: 'Add Option',
			default: {},
			options: [attachXmlOption, binaryFieldOption],
		},
	],
);

/**
 * Reads a receipt XML, or its authorization file, from a binary field or a text parameter, with the package's
 * XML reader (shared/xml.ts: no DOCTYPE, no entity expansion, limits), and outputs the same fields as Check
 * Authorization (domain/result.ts). Nothing is sent anywhere.
 */
export async function execute(
	this: IExecuteFunctions,
	_ctx: PublicServiceContext,
	i: number,
): Promise<OperationResult> {
	const fail = (field: string, problem: string) =>
		itemError(this.getNode(), i, `${field}: ${problem}`, ONLY_READS);
	const check = new Checker();
	const { data, field } = await readXmlSource.call(
		this,
		i,
		{
			maxBytes: MAX_ANSWER_BYTES,
			why: ': no receipt or authorization file of the SRI is (a receipt is at most 320 KB)',
		},
		check,
	);
	check.throwIfFailed(this.getNode(), i, ONLY_READS);
	const input = data as string | Buffer;

	let document: ReadDocument;
	try {
		document = readDocument(input);
	} catch (error) {
		const reason = error instanceof Error ? error.message : String(error);
		throw fail(
			field,
			error instanceof XmlError ? `is not XML the package can read: ${reason}` : reason,
		);
	}
	let presented: Presented | { unreadable: string };
	if (document.kind === 'receipt') {
		const size = typeof input === 'string' ? Buffer.byteLength(input) : input.length;
		if (size > SRI_RECEIPT_MAX_BYTES)
			throw fail(
				field,
				`is a receipt of ${Math.ceil(size / 1024)} KB, larger than the SRI's limit for one receipt (320 KB): the SRI would not have authorized it`,
			);
		presented = presentReceipt(document.receipt);
	} else {
		presented = presentAnswer(document.answer, 'authorization_file');
	}
	if ('unreadable' in presented)
		throw fail(field, `holds a <comprobante> that cannot be read: ${presented.unreadable}`);
	presented.xml = input;
	return await withXmlFile.call(
		this,
		i,
		presented,
		this.getNodeParameter('options', i, {}) as IDataObject,
	);
}
