import type { IBinaryData, IExecuteFunctions, INode, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';
import { addFacts, upstreamError, upstreamProblem } from '../../../shared/errors';
import { binaryUpTo } from '../../../shared/files';
import { megabytes } from '../../../shared/http';
import { Checker } from '../../../shared/validate';
import { XmlError } from '../../../shared/xml';
import { NotACfdiError, readCfdi, type CfdiReading } from '../../domain/cfdi';

/** The largest CFDI read (10 MB, the XML reader's own default): far above any real CFDI. */
const MAX_CFDI_BYTES = 10 * 1024 * 1024;

/**
 * Where the CFDI's XML comes from: a binary property of the input item, or text. `show`: when the fields
 * appear, besides the operation's own display options (Check CFDI Status: only in its CFDI XML input mode).
 */
export function xmlSourceFields(show: Record<string, string[]> = {}): INodeProperties[] {
	return [
		{
			displayName: 'XML Source',
			name: 'xmlSource',
			type: 'options',
			noDataExpression: true,
			displayOptions: { show },
			options: [
				{
					name: 'Binary File',
					value: 'binary',
					description:
						'A binary property of the input item (e.g. from Document Extraction, Read Files or an e-mail attachment)',
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
			displayOptions: { show: { ...show, xmlSource: ['binary'] } },
			hint: "The name of the input binary field containing the CFDI's XML file",
		},
		{
			displayName: 'XML',
			name: 'xml',
			type: 'string',
			typeOptions: { rows: 6 },
			default: '',
			required: true,
			placeholder: 'e.g. <?xml version="1.0" encoding="UTF-8"?><cfdi:Comprobante …',
			displayOptions: { show: { ...show, xmlSource: ['text'] } },
			description: "The CFDI's XML as text",
		},
	];
}

/** The CFDI of item `i`, read, with the name of the field it came from and the item's files. */
export interface CfdiInput {
	reading: CfdiReading;
	/** How messages name where the XML came from: `File "factura.xml"`, `Input Binary Field "data"` or `XML`. */
	field: string;
	/** The file's name as it arrived (a binary file that has one). */
	fileName?: string;
	/** The input item's binary data, passed on with the output. */
	binary?: Record<string, IBinaryData>;
}

/**
 * Reads the CFDI of item `i` from the binary field or the text the form names. Nothing is sent anywhere.
 * Throws an error that names the item's field and says what is wrong: no such binary field, empty, not XML
 * (with line and column), refused by the XML reader (a DTD, an entity, too large, too deep), or not a CFDI.
 */
export async function readCfdiInput(
	this: IExecuteFunctions,
	i: number,
	consequence: string,
): Promise<CfdiInput> {
	const node = this.getNode();
	const source = this.getNodeParameter('xmlSource', i, 'binary');
	const item = this.getInputData()[i];
	const check = new Checker();
	let data: Buffer | string;
	let field: string;
	let fileName: string | undefined;
	if (source === 'text') {
		field = 'XML';
		const raw = this.getNodeParameter('xml', i, '');
		data = typeof raw === 'string' ? raw : '';
		if (typeof raw !== 'string' || !raw.trim()) {
			const upstream = upstreamError(item?.json);
			check.fail(field, upstream ? upstreamProblem(upstream) : 'is required: give the XML text');
		}
	} else {
		const property = String(this.getNodeParameter('binaryPropertyName', i, 'data') ?? '').trim();
		field = `Input Binary Field "${property}"`;
		// As n8n's own nodes do (assertBinaryData), say which binary field is missing, before reading it.
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
			throw failure(check, node, i, consequence);
		}
		fileName = binary[property].fileName || undefined;
		if (fileName) field = `File "${fileName}"`;
		const bytes = await binaryUpTo.call(this, i, property, MAX_CFDI_BYTES);
		if (bytes === 'too-large')
			check.fail(field, `is larger than ${megabytes(MAX_CFDI_BYTES)}, which no CFDI is`);
		else if (!bytes.toString('latin1', 0, 4096).trim()) check.fail(field, 'is an empty file');
		data = bytes === 'too-large' ? '' : bytes;
	}
	if (!check.ok) throw failure(check, node, i, consequence, fileName);
	try {
		return {
			reading: readCfdi(data, { maxBytes: MAX_CFDI_BYTES }),
			field,
			fileName,
			binary: item?.binary,
		};
	} catch (error) {
		// Not a problem of the file: a fault of this code, reported as it is.
		if (!(error instanceof XmlError) && !(error instanceof NotACfdiError))
			throw new NodeOperationError(node, error as Error, { itemIndex: i });
		check.fail(
			field,
			error instanceof XmlError
				? `is not XML the package can read: ${error.message}`
				: error.message,
		);
		throw failure(check, node, i, consequence, fileName);
	}
}

/**
 * The Checker's one error for the item, saying what happens because of it and what the XML must be; a problem of
 * the item's input (errors.ts `notRead`, with the file's name), so Read CFDI XML of version 2 sends it to Not Read.
 */
function failure(
	check: Checker,
	node: INode,
	i: number,
	consequence: string,
	fileName?: string,
): NodeOperationError {
	const message = check.problems.join('; ');
	const error = new NodeOperationError(node, message, {
		itemIndex: i,
		description: `${consequence} Give the CFDI's XML as the SAT's stamping left it (a CFDI 4.0, 3.3 or 3.2 with its <cfdi:Comprobante> root), not its PDF, a ZIP or an acknowledgment.`,
	});
	// n8n swaps a message that contains a system error code (EACCES, ENOENT…) for a generic one; the file's own
	// element names are quoted here: keep ours.
	error.message = message;
	return addFacts(error, { notRead: fileName ? { file_name: fileName } : {} });
}
