import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';
import { maxFileSizeOption, readMaxFileBytes } from '../../../shared/files';
import { segmentProblem } from '../../../shared/path';
import { concurrencyOption, type OperationResult } from '../../../shared/router';
import { Checker } from '../../../shared/validate';
import { DOCUMENT_FORMATS, fileNameFor, formatOf } from '../../domain/documents';
import { downloadDocument, type ExtractionContext } from '../../transport';
import { extractionIdField } from '../common.descriptions';
import { resolveJobId } from './completion';

export const kind = 'read';

/** How to ask Download Document for less memory (shared/budget.ts). */
export const narrow =
	"Send fewer documents per run (n8n's Loop Over Items node splits them into batches), or let n8n keep files outside memory (its binary data mode 'filesystem', N8N_DEFAULT_BINARY_DATA_MODE, the default of n8n 2.x)";

export const description: INodeProperties[] = updateDisplayOptions(
	{ show: { resource: ['extraction'], operation: ['downloadDocument'] } },
	[
		extractionIdField,
		{
			displayName: 'Document ID',
			name: 'documentId',
			type: 'string',
			default: '',
			required: true,
			placeholder: 'e.g. doc_8d1f2c',
			description: 'The ID of the document (document ID in the document.ready webhook)',
		},
		{
			displayName: 'Format',
			name: 'format',
			type: 'options',
			default: 'XML',
			options: [
				{ name: 'PDF', value: 'PDF' },
				{ name: 'XML', value: 'XML' },
			],
		},
		{
			displayName: 'Put Output File in Field',
			name: 'binaryPropertyName',
			type: 'string',
			default: 'data',
			hint: 'The name of the output binary field to put the file in',
		},
		{
			displayName: 'Options',
			name: 'options',
			type: 'collection',
			placeholder: 'Add Option',
			default: {},
			options: [concurrencyOption, maxFileSizeOption],
		},
	],
);

/** GET /v1/extractions/{publicId}/documents/{documentId}/download → one binary item, file named after the document ID. */
export async function execute(
	this: IExecuteFunctions,
	ctx: ExtractionContext,
	i: number,
): Promise<OperationResult> {
	const publicId = resolveJobId.call(this, i);
	const documentId = String(this.getNodeParameter('documentId', i, '') ?? '').trim();
	const rawFormat = this.getNodeParameter('format', i, 'XML');
	const field =
		String(this.getNodeParameter('binaryPropertyName', i, 'data') ?? '').trim() || 'data';
	const check = new Checker();
	if (check.required('documentId', documentId)) {
		const problem = segmentProblem(documentId);
		if (problem) check.fail('documentId', problem);
	}
	check.oneOf('format', formatOf(rawFormat) ?? rawFormat, DOCUMENT_FORMATS, { required: true });
	check.throwIfFailed(this.getNode(), i);
	const format = formatOf(rawFormat)!;
	const maxBytes = readMaxFileBytes.call(this, i);

	const file = await downloadDocument(ctx, publicId, documentId, format, i, maxBytes);
	const fileName = fileNameFor(documentId, format);
	return [
		{
			json: {
				publicId,
				documentId,
				format,
				fileName,
				mimeType: file.mimeType,
				fileSize: file.body.length,
			},
			binary: { [field]: await this.helpers.prepareBinaryData(file.body, fileName, file.mimeType) },
		},
	];
}
