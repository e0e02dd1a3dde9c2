import type { IExecuteFunctions, NodeOperationError } from 'n8n-workflow';
import { addFacts, upstreamError, upstreamProblem } from '../../../shared/errors';
import { binaryUpTo } from '../../../shared/files';
import { SRI_RECEIPT_MAX_BYTES, XmlError } from '../../../shared/xml';
import { readDocument, type ReadDocument } from '../../domain/answer';
import { presentAnswer, presentReceipt, type Presented } from '../../domain/result';
import { MAX_ANSWER_BYTES } from '../../domain/service';
import { itemError, ONLY_READS } from './common.descriptions';

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

/** The file of binary field `field` of item `i`: its bytes (up to the size of an SRI answer), or why there are none. */
export async function binaryFile(
	this: IExecuteFunctions,
	i: number,
	field: string,
): Promise<{ label: string; name?: string; bytes?: Buffer; problem?: string }> {
	const item = this.getInputData()[i];
	const binary = item?.binary ?? {};
	if (!field || !Object.hasOwn(binary, field)) {
		const upstream = upstreamError(item?.json);
		const present = Object.keys(binary);
		return {
			label: `Input Binary Field "${field}"`,
			problem: upstream
				? upstreamProblem(upstream)
				: `the input item has no such binary field` +
					(present.length
						? `; it has ${present.map((p) => `"${p}"`).join(', ')}`
						: ': it carries no file at all, so the previous node did not output one'),
		};
	}
	const name = binary[field].fileName || undefined;
	const label = name ? `File "${name}"` : `Input Binary Field "${field}"`;
	const bytes = await binaryUpTo.call(this, i, field, MAX_ANSWER_BYTES);
	if (bytes === 'too-large')
		return {
			label,
			name,
			problem: `is larger than ${MAX_ANSWER_BYTES / (1024 * 1024)} MB: no receipt or authorization file of the SRI is (a receipt is at most 320 KB)`,
		};
	return { label, name, bytes };
}

/**
 * The error of an input that cannot be read: `label: problem`, and the fact that it is the input's (errors.ts
 * `notRead`, with the file's name), so that Read XML of version 2 sends the item to Not Read instead of stopping.
 */
function notRead(
	this: IExecuteFunctions,
	i: number,
	label: string,
	problem: string,
	name?: string,
): NodeOperationError {
	return addFacts(itemError(this.getNode(), i, `${label}: ${problem}`, ONLY_READS), {
		notRead: name ? { file_name: name } : {},
	});
}

/** Read XML's input of item `i` (the binary field or the text the form names), read; throws what is wrong with it. */
export async function readXmlInput(this: IExecuteFunctions, i: number): Promise<ReadFile> {
	if (this.getNodeParameter('xmlSource', i, 'binary') === 'text') {
		const raw = this.getNodeParameter('xml', i, '');
		if (typeof raw !== 'string' || !raw.trim()) {
			const upstream = upstreamError(this.getInputData()[i]?.json);
			throw notRead.call(
				this,
				i,
				'XML',
				upstream ? upstreamProblem(upstream) : 'is required: give the XML text',
			);
		}
		const presented = presentXml(raw);
		if ('problem' in presented) throw notRead.call(this, i, 'XML', presented.problem);
		return { label: 'XML', xml: raw, presented };
	}
	const field = String(this.getNodeParameter('binaryPropertyName', i, 'data') ?? '').trim();
	const file = await binaryFile.call(this, i, field);
	if (!file.bytes) throw notRead.call(this, i, file.label, file.problem ?? '', file.name);
	const presented = presentXml(file.bytes);
	if ('problem' in presented) throw notRead.call(this, i, file.label, presented.problem, file.name);
	return { label: file.label, field, name: file.name, xml: file.bytes, presented };
}
