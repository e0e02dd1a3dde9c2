import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { binaryUpTo } from './files';
import { megabytes } from './http';
import type { Checker } from './validate';

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
 * in `check` under the form's label (`Input Binary Field "data"`, `XML`): no such binary field (naming the ones the
 * item has), an empty file or text, a file larger than the limit (`limit.why`: what follows "is larger than 4 MB",
 * e.g. ", which no CFDI is"). `field` names the source for later messages.
 */
export async function readXmlSource(
	this: IExecuteFunctions,
	i: number,
	limit: { maxBytes: number; why: string },
	check: Checker,
): Promise<{ data?: Buffer | string; field: string }> {
	const { maxBytes } = limit;
	if (this.getNodeParameter('xmlSource', i, 'binary') === 'text') {
		const raw = this.getNodeParameter('xml', i, '');
		if (typeof raw !== 'string' || !raw.trim()) {
			check.fail('XML', 'is required: give the XML text');
			return { field: 'XML' };
		}
		return { data: raw, field: 'XML' };
	}
	const property = String(this.getNodeParameter('binaryPropertyName', i, 'data') ?? '').trim();
	const field = `Input Binary Field "${property}"`;
	// As n8n's own nodes do (assertBinaryData), say which binary field is missing, before reading it.
	const binary = this.getInputData()[i]?.binary ?? {};
	if (!property || !Object.hasOwn(binary, property)) {
		const present = Object.keys(binary);
		check.fail(
			field,
			'the input item has no such binary field' +
				(present.length
					? `; it has ${present.map((p) => `"${p}"`).join(', ')}`
					: ': it carries no file at all, so the previous node did not output one'),
		);
		return { field };
	}
	const bytes = await binaryUpTo.call(this, i, property, maxBytes);
	if (bytes === 'too-large') {
		check.fail(field, `is larger than ${megabytes(maxBytes)}${limit.why}`);
		return { field };
	}
	if (!bytes.toString('latin1', 0, 4096).trim()) {
		check.fail(field, 'is an empty file');
		return { field };
	}
	return { data: bytes, field };
}
