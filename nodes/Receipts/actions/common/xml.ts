import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';
import { binaryUpTo } from '../../../shared/files';
import { Checker } from '../../../shared/validate';
import type { XmlElement } from '../../../shared/xml';
import {
	parseXml,
	SRI_RECEIPT_MAX_BYTES,
	withUtf8Declaration,
	XmlError,
	xmlText,
} from '../../../shared/xml';
import { xmlSourceFields } from '../../../shared/xmlSource';

/** Issue From XML: the receipt XML from a text field or from a binary field of the input item (shared/xmlSource.ts). */
export const xmlFields: INodeProperties[] = xmlSourceFields({
	what: 'The receipt XML, following the tax authority’s specification,',
	placeholder:
		'e.g. <?xml version="1.0" encoding="UTF-8"?><factura id="comprobante" version="1.1.0">…',
	defaultSource: 'text',
});

/** The receipt XML of item `i` as it is sent (`xml`), and as the package's XML reader reads it (`root`). */
export interface ReceiptXml {
	xml: string;
	root: XmlElement;
}

/**
 * Reads the XML of item `i` and parses it (well-formed, no DOCTYPE, at most the SRI's 320 KB for a receipt);
 * throws before anything is sent. What is parsed is exactly what is sent.
 *
 * A file is read as bytes and decoded by the package's XML reader as its BOM and declaration say (UTF-8, whose
 * invalid bytes are refused; ISO-8859-1; windows-1252), never as UTF-8 by default: a receipt written in
 * ISO-8859-1 keeps its `Peñón`. The service takes the receipt as text inside JSON (`{xml}`, receipts service,
 * "issue/xml"), which is UTF-8, and the SRI's receipts are UTF-8 (its ficha técnica): so the characters the file
 * holds are sent, and a declaration that named another encoding is made to say UTF-8 (a reader that honoured
 * "ISO-8859-1" on that text would read `PeÃ±Ã³n`). A signature inside the receipt is not affected: XML
 * signatures are computed over characters (Canonical XML), not over the bytes of one encoding.
 */
export async function readXml(this: IExecuteFunctions, i: number): Promise<ReceiptXml> {
	const source = this.getNodeParameter('xmlSource', i, 'text') as string;
	let xml = '';
	let field = 'xml';
	if (source === 'binary') {
		const property = String(this.getNodeParameter('binaryPropertyName', i, 'data')).trim();
		field = `binary.${property}`;
		// As n8n's own nodes do (assertBinaryData), say which binary property is missing, before reading it.
		const binary = this.getInputData()[i]?.binary ?? {};
		if (!Object.hasOwn(binary, property)) {
			const present = Object.keys(binary);
			const check = new Checker().fail(
				field,
				`the input item has no binary property "${property}" (Input Binary Field)` +
					(present.length
						? `; it has ${present.map((p) => `"${p}"`).join(', ')}`
						: ': it carries no file at all, so the previous node did not output one'),
			);
			check.throwIfFailed(this.getNode(), i);
		}
		const bytes = await binaryUpTo.call(this, i, property, SRI_RECEIPT_MAX_BYTES);
		const check = new Checker();
		try {
			if (bytes === 'too-large')
				check.fail(
					field,
					`is larger than the SRI's limit for one receipt (${SRI_RECEIPT_MAX_BYTES / 1024} KB)`,
				);
			else xml = xmlText(bytes, SRI_RECEIPT_MAX_BYTES);
		} catch (error) {
			// Only the reader's refusal is the file's problem; anything else is a fault of this code.
			if (!(error instanceof XmlError))
				throw new NodeOperationError(this.getNode(), error as Error, { itemIndex: i });
			check.fail(field, error.message);
		}
		check.throwIfFailed(this.getNode(), i);
	} else {
		xml = String(this.getNodeParameter('xml', i, '') ?? '');
	}
	xml = withUtf8Declaration(xml.replace(/^\uFEFF/, '').trim());
	const check = new Checker();
	if (check.required(field, xml) && !/^<(\?xml|[A-Za-z_])/.test(xml)) {
		check.fail(
			field,
			'is not XML: it must start with "<?xml" or an element such as <comprobanteRetencion>',
		);
	}
	check.throwIfFailed(this.getNode(), i);
	try {
		return { xml, root: parseXml(xml, { maxBytes: SRI_RECEIPT_MAX_BYTES }) };
	} catch (error) {
		if (error instanceof XmlError)
			check.fail(field, error.message).throwIfFailed(this.getNode(), i);
		// Only a fault of the reader itself gets here (throwIfFailed has thrown for a refused XML).
		throw new NodeOperationError(this.getNode(), error as Error, { itemIndex: i });
	}
}
