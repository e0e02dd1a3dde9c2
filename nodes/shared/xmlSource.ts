import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { addFacts, upstreamError, upstreamProblem, type FailureFacts } from './errors';
import { binaryUpTo } from './files';
import { megabytes } from './http';
import { Checker } from './validate';

/**
 * Where an operation that reads an XML document takes it from (SRI → Read XML, SAT → Read CFDI XML and Check
 * CFDI Status given the XML, Receipts → Issue From XML): XML Source (a binary field of the input item, or text),
 * then Input Binary Field or XML. One set of fields, one set of words.
 */
export function xmlSourceFields(options: {
	/** What the XML is, in the XML field's description: "The CFDI's XML". */
	what: string;
	/** The XML field's example. */
	placeholder: string;
	/** The source a new node starts with (Receipts: text, kept for its saved workflows). */
	defaultSource?: 'binary' | 'text';
	/** When the fields appear, besides the operation's own display options. */
	show?: Record<string, string[]>;
}): INodeProperties[] {
	const show = options.show ?? {};
	const source: INodeProperties = {
		displayName: 'XML Source',
		name: 'xmlSource',
		type: 'options',
		noDataExpression: true,
		default: 'binary',
		options: [
			{
				name: 'Binary File',
				value: 'binary',
				description:
					'A binary field of the input item (an e-mail attachment, a file read from disk or downloaded, Document Extraction’s output)',
			},
			{ name: 'Text', value: 'text', description: 'The XML as text (e.g. from an expression)' },
		],
	};
	if (options.show) source.displayOptions = { show };
	if (options.defaultSource === 'text') source.default = 'text';
	return [
		source,
		{
			displayName: 'Input Binary Field',
			name: 'binaryPropertyName',
			type: 'string',
			default: 'data',
			required: true,
			displayOptions: { show: { ...show, xmlSource: ['binary'] } },
			hint: 'The name of the input binary field containing the XML file',
		},
		{
			displayName: 'XML',
			name: 'xml',
			type: 'string',
			typeOptions: { rows: 6 },
			default: '',
			required: true,
			placeholder: options.placeholder,
			displayOptions: { show: { ...show, xmlSource: ['text'] } },
			description: `${options.what} as text`,
		},
	];
}

/**
 * The XML of item `i` from the source its form names, at most `limit.maxBytes` — or no `data`, with what is wrong
 * in `check` under the source's label (`Input Binary Field "data"`, `XML`; a file by the name it arrived with,
 * `File "factura.xml"`): no such binary field (naming the ones the item has), an empty file or text, a file larger
 * than the limit (`limit.why`: what follows "is larger than 4 MB", e.g. ", which no CFDI is"), and an input item
 * that is a previous node's error (errors.ts upstreamError). `field` names the source for later messages,
 * `fileName` is the file's name as it arrived.
 */
async function readXmlSource(
	this: IExecuteFunctions,
	i: number,
	limit: { maxBytes: number; why: string },
	check: Checker,
): Promise<{ data?: Buffer | string; field: string; fileName?: string }> {
	const { maxBytes } = limit;
	if (this.getNodeParameter('xmlSource', i, 'binary') === 'text') {
		const raw = this.getNodeParameter('xml', i, '');
		if (typeof raw !== 'string' || !raw.trim()) {
			const upstream = upstreamError(this.getInputData()[i]?.json);
			check.fail('XML', upstream ? upstreamProblem(upstream) : 'is required: give the XML text');
			return { field: 'XML' };
		}
		return { data: raw, field: 'XML' };
	}
	const property = String(this.getNodeParameter('binaryPropertyName', i, 'data') ?? '').trim();
	const field = `Input Binary Field "${property}"`;
	// As n8n's own nodes do (assertBinaryData), say which binary field is missing, before reading it.
	const item = this.getInputData()[i];
	const binary = item?.binary ?? {};
	if (!property || !Object.hasOwn(binary, property)) {
		const present = Object.keys(binary);
		const upstream = upstreamError(item?.json);
		check.fail(
			field,
			upstream
				? upstreamProblem(upstream)
				: 'the input item has no such binary field' +
						(present.length
							? `; it has ${present.map((p) => `"${p}"`).join(', ')}`
							: ': it carries no file at all, so the previous node did not output one'),
		);
		return { field };
	}
	// A file is named by the name it arrived with (the input panel numbers files from 1, n8n's items from 0).
	const fileName = binary[property].fileName || undefined;
	const named = fileName ? `File "${fileName}"` : field;
	const bytes = await binaryUpTo.call(this, i, property, maxBytes);
	if (bytes === 'too-large') {
		check.fail(named, `is larger than ${megabytes(maxBytes)}${limit.why}`);
		return { field: named, fileName };
	}
	if (!bytes.toString('latin1', 0, 4096).trim()) {
		check.fail(named, 'is an empty file');
		return { field: named, fileName };
	}
	return { data: bytes, field: named, fileName };
}

/**
 * `readXmlSource` for a reader whose input that cannot be read is the item's own problem (a Not Read item where the
 * node has that output, shared/outputs.ts): what is wrong is thrown at once, with `consequence` as its description,
 * carrying the fact `notRead` (errors.ts) with the file's name; `notRead` is returned too, for the reader's later
 * errors about the same file.
 */
export async function readSourceOrNotRead(
	this: IExecuteFunctions,
	i: number,
	limit: { maxBytes: number; why: string },
	consequence: string,
): Promise<{ data: Buffer | string; field: string; fileName?: string; notRead: FailureFacts }> {
	const check = new Checker();
	const { data, field, fileName } = await readXmlSource.call(this, i, limit, check);
	const notRead = { notRead: fileName ? { file_name: fileName } : {} };
	try {
		check.throwIfFailed(this.getNode(), i, consequence);
	} catch (error) {
		throw addFacts(error, notRead);
	}
	return { data: data as Buffer | string, field, fileName, notRead };
}
