import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';
import { binaryUpTo } from '../../../shared/files';
import type { OperationResult } from '../../../shared/router';
import { SRI_RECEIPT_MAX_BYTES, XmlError } from '../../../shared/xml';
import { readDocument, type ReadDocument } from '../../domain/answer';
import { presentAnswer, presentReceipt, type Presented } from '../../domain/result';
import { MAX_ANSWER_BYTES } from '../../domain/service';
import type { SriContext } from '../../transport';
import {
	attachXmlOption,
	binaryFieldOption,
	itemError,
	ONLY_READS,
	withXmlFile,
} from './common.descriptions';

export const kind = 'read';

export const description: INodeProperties[] = updateDisplayOptions(
	{ show: { resource: ['receipt'], operation: ['readXml'] } },
	[
		{
			displayName: 'XML Source',
			name: 'xmlSource',
			type: 'options',
			noDataExpression: true,
			options: [
				{
					name: 'Binary File',
					value: 'binary',
					description:
						'A binary field of the input item (an e-mail attachment, a file read from disk or downloaded)',
				},
				{ name: 'Text', value: 'text', description: 'The XML as text (e.g. from an expression)' },
			],
			default: 'binary',
		},
		{
			displayName: 'Input Binary Field',
			name: 'binaryPropertyName',
			type: 'string',
			default: 'data',
			required: true,
			displayOptions: { show: { xmlSource: ['binary'] } },
			hint: 'The name of the input binary field containing the XML file',
		},
		{
			displayName: 'XML',
			name: 'xml',
			type: 'string',
			typeOptions: { rows: 6 },
			default: '',
			required: true,
			displayOptions: { show: { xmlSource: ['text'] } },
			placeholder: 'e.g. <autorizacion><estado>AUTORIZADO</estado>…</autorizacion>',
			description: 'The receipt XML, or its authorization file',
		},
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
	_ctx: SriContext,
	i: number,
): Promise<OperationResult> {
	const source = this.getNodeParameter('xmlSource', i, 'binary');
	const fail = (field: string, problem: string) =>
		itemError(this.getNode(), i, `${field}: ${problem}`, ONLY_READS);
	let input: string | Buffer;
	let field: string;
	if (source === 'text') {
		field = 'XML';
		const raw = this.getNodeParameter('xml', i, '');
		if (typeof raw !== 'string' || !raw.trim()) throw fail(field, 'is required: give the XML text');
		input = raw;
	} else {
		const property = String(this.getNodeParameter('binaryPropertyName', i, 'data') ?? '').trim();
		field = `Input Binary Field "${property}"`;
		const binary = this.getInputData()[i]?.binary ?? {};
		if (!property || !Object.hasOwn(binary, property)) {
			const present = Object.keys(binary);
			throw fail(
				field,
				`the input item has no such binary field` +
					(present.length
						? `; it has ${present.map((p) => `"${p}"`).join(', ')}`
						: ': it carries no file at all, so the previous node did not output one'),
			);
		}
		const bytes = await binaryUpTo.call(this, i, property, MAX_ANSWER_BYTES);
		if (bytes === 'too-large')
			throw fail(
				field,
				`is larger than ${MAX_ANSWER_BYTES / (1024 * 1024)} MB: no receipt or authorization file of the SRI is (a receipt is at most 320 KB)`,
			);
		input = bytes;
	}

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
	return await withXmlFile.call(this, i, presented);
}
