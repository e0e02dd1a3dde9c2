import type { IExecuteFunctions } from 'n8n-workflow';
import { addFacts, itemError } from '../../../shared/errors';
import { binaryUpTo } from '../../../shared/files';
import { SRI_RECEIPT_MAX_BYTES, XmlError } from '../../../shared/xml';
import { readSourceOrNotRead } from '../../../shared/xmlSource';
import { MAX_ANSWER_BYTES, readDocument, type ReadDocument } from '../../domain/answer';
import { presentAnswer, presentReceipt, type Presented } from '../../domain/result';
import { ONLY_READS } from './common.descriptions';

/**
 * A receipt's XML on an input item — the file Read XML reads, the file Check Authorization compares with the
 * receipt the SRI authorized — read with the package's XML reader (shared/xml.ts) and presented as both operations
 * output it (domain/result.ts). Every message about a file names it by the name it arrived with.
 */

/** A receipt XML read from item `i`. */
interface ReadFile {
	/** How messages name it: `File "factura.xml"`, `Input Binary Field "data"` (a file without a name), or `XML`. */
	label: string;
	/** The binary field it came from; undefined for XML given as text. */
	field?: string;
	/** Its name as it arrived, when it has one. */
	name?: string;
	xml: string | Buffer;
	presented: Presented;
}

/** The receipt in `xml` (a bare receipt, or its authorization file in any of its wrappings), or why it is not one. */
export function presentXml(xml: string | Buffer): Presented | { problem: string } {
	let document: ReadDocument;
	try {
		document = readDocument(xml);
	} catch (error) {
		const reason = error instanceof Error ? error.message : String(error);
		return {
			problem: error instanceof XmlError ? `is not XML the package can read: ${reason}` : reason,
		};
	}
	if (document.kind === 'receipt') {
		const size = typeof xml === 'string' ? Buffer.byteLength(xml) : xml.length;
		if (size > SRI_RECEIPT_MAX_BYTES)
			return {
				problem: `is a receipt of ${Math.ceil(size / 1024)} KB, larger than the SRI's limit for one receipt (320 KB): the SRI would not have authorized it`,
			};
		return presentReceipt(document.receipt);
	}
	const presented = presentAnswer(document.answer, 'authorization_file');
	return 'unreadable' in presented
		? { problem: `holds a <comprobante> that cannot be read: ${presented.unreadable}` }
		: presented;
}

/**
 * The file in binary field `field` of item `i` (which has one): how messages name it, its name, and its bytes up to
 * the size of an SRI answer, or why there are none.
 */
export async function binaryFile(
	this: IExecuteFunctions,
	i: number,
	field: string,
): Promise<{ label: string; name?: string; bytes?: Buffer; problem?: string }> {
	const name = this.getInputData()[i]?.binary?.[field]?.fileName || undefined;
	const label = name ? `File "${name}"` : `Input Binary Field "${field}"`;
	const bytes = await binaryUpTo.call(this, i, field, MAX_ANSWER_BYTES);
	return bytes === 'too-large'
		? { label, name, problem: `is larger than ${MAX_ANSWER_BYTES / (1024 * 1024)} MB` }
		: { label, name, bytes };
}

/**
 * Read XML's input of item `i` (the XML Source the form names, shared/xmlSource.ts), read; throws what is wrong with
 * it as a problem of the input (errors.ts `notRead`, with the file's name), so that Read XML of version 2 sends the
 * item to Not Read instead of stopping.
 */
export async function readXmlInput(this: IExecuteFunctions, i: number): Promise<ReadFile> {
	const { data, field, fileName, notRead } = await readSourceOrNotRead.call(
		this,
		i,
		{
			maxBytes: MAX_ANSWER_BYTES,
			why: ': no receipt or authorization file of the SRI is (a receipt is at most 320 KB)',
		},
		ONLY_READS,
	);
	const xml = data;
	const presented = presentXml(xml);
	if ('problem' in presented)
		throw addFacts(
			itemError(this.getNode(), i, `${field}: ${presented.problem}`, ONLY_READS),
			notRead,
		);
	const binarySource = this.getNodeParameter('xmlSource', i, 'binary') !== 'text';
	const property = String(this.getNodeParameter('binaryPropertyName', i, 'data') ?? '').trim();
	return {
		label: field,
		...(binarySource ? { field: property } : {}),
		name: fileName,
		xml,
		presented,
	};
}
