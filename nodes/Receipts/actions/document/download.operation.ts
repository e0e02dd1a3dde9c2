import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';
import { reword } from '../../../shared/errors';
import {
	FILE_TYPES,
	fileProblem,
	maxFileSizeOption,
	readMaxFileBytes,
} from '../../../shared/files';
import { originOf } from '../../../shared/http';
import { path } from '../../../shared/path';
import { concurrencyOption, type OperationResult } from '../../../shared/router';
import { stateOf } from '../../domain/outcome';
import type { ReceiptsContext } from '../../transport';
import { readReceiptId, receiptIdField } from '../common/id';
import { requestTimeoutOption } from '../common/output';
import { Checker } from '../../../shared/validate';

/**
 * Document → Download: the printable form (RIDE, PDF) or the authorized XML of any receipt, as a binary
 * property. The addresses are the receipt's `url_formato_impresion` / `url_documento_electronico` (receipts
 * service, Status objects), read with `GET /edocs/{id}`; the real service serves them from another host
 * (the service's public documentation, Descargas), which never gets the API key: the client sends it only to
 * the credential's own origin, on every redirect hop too (shared/transport.ts, `download`). The bytes are
 * checked (shared/files.ts) and capped at Max File Size. A read: retried, several items at once.
 */

export const kind = 'read';

const FILES = {
	ride: { field: 'url_formato_impresion', what: 'printable form (RIDE)', format: 'pdf' },
	xml: { field: 'url_documento_electronico', what: 'XML document', format: 'xml' },
} as const;
type FileKind = keyof typeof FILES;

export const description: INodeProperties[] = updateDisplayOptions(
	{ show: { resource: ['document'], operation: ['download'] } },
	[
		receiptIdField('ID of the receipt (any kind) whose file to download'),
		{
			displayName: 'File',
			name: 'file',
			type: 'options',
			options: [
				{
					name: 'Authorized XML',
					value: 'xml',
					description: 'The electronic document (url_documento_electronico)',
				},
				{
					name: 'Printable Form (RIDE, PDF)',
					value: 'ride',
					description: 'The RIDE (url_formato_impresion)',
				},
			],
			default: 'ride',
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
			options: [concurrencyOption, maxFileSizeOption, requestTimeoutOption],
		},
	],
);

export async function execute(
	this: IExecuteFunctions,
	ctx: ReceiptsContext,
	i: number,
): Promise<OperationResult> {
	const id = readReceiptId.call(this, i);
	const file = String(this.getNodeParameter('file', i, 'ride')) as FileKind;
	const check = new Checker();
	check.oneOf('file', file, Object.keys(FILES), { required: true });
	check.throwIfFailed(this.getNode(), i);
	const maxBytes = readMaxFileBytes.call(this, i);
	const property =
		String(this.getNodeParameter('binaryPropertyName', i, 'data') ?? '').trim() || 'data';
	const { field, what, format } = FILES[file];
	const { mimeType, extension } = FILE_TYPES[format];

	const doc = await ctx.api.read(path`/edocs/${id}`, i);
	const state = stateOf(doc);
	const url = typeof doc[field] === 'string' ? String(doc[field]).trim() : '';
	if (!originOf(url)) {
		throw new NodeOperationError(
			this.getNode(),
			`Receipt ${id} has no ${what} to download: its ${field} is ${url ? `"${url}", not an http(s) address` : 'empty'}`,
			{
				itemIndex: i,
				description: `The receipt is ${state || 'in an unknown state'}. The service gives the address once the receipt is created; follow it with Document → Get, or wait for its final state when issuing.`,
			},
		);
	}

	let answer;
	try {
		answer = await ctx.api.download(url, i, { maxBytes });
	} catch (error) {
		throw reword(error, `Could not download the ${what} of receipt ${id} from ${originOf(url)}: `);
	}
	const problem = fileProblem(format, answer.body, answer.headers['content-type'] ?? '');
	if (problem) {
		throw new NodeOperationError(
			this.getNode(),
			`The ${what} of receipt ${id} could not be downloaded: ${problem}`,
			{
				itemIndex: i,
				description: `GET ${url} answered something else than the file (for example a login or error page). The receipt is ${state || 'in an unknown state'}; try again once it is AUTORIZADO.`,
			},
		);
	}

	const accessKey =
		typeof doc.clave_acceso === 'string' && /^\d{49}$/.test(doc.clave_acceso)
			? doc.clave_acceso
			: undefined;
	const fileName = `${accessKey ?? id}.${extension}`;
	const json: IDataObject = {
		id,
		clave_acceso: accessKey,
		estado: state || undefined,
		file,
		url,
		fileName,
		mimeType,
		fileSize: answer.body.length,
	};
	if (state !== 'AUTORIZADO')
		json.warnings = [
			`estado: the receipt is ${state || 'in an unknown state'}, not AUTORIZADO: this ${what} is not an authorized tax document`,
		];
	for (const key of Object.keys(json)) if (json[key] === undefined) delete json[key];
	return [
		{
			json,
			binary: { [property]: await this.helpers.prepareBinaryData(answer.body, fileName, mimeType) },
		},
	];
}
