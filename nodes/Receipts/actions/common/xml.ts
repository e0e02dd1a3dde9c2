import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';
import { Checker } from '../../../shared/validate';
import type { XmlElement } from '../../../shared/xml';
import { parseXml, SRI_RECEIPT_MAX_BYTES, XmlError } from '../../../shared/xml';
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
 */
export async function readXml(this: IExecuteFunctions, i: number): Promise<ReceiptXml> {
	const source = this.getNodeParameter('xmlSource', i, 'text') as string;
	let xml: string;
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
		const buffer = await this.helpers.getBinaryDataBuffer(i, property);
		xml = buffer.toString('utf8');
	} else {
		xml = String(this.getNodeParameter('xml', i, '') ?? '');
	}
	xml = xml.replace(/^\uFEFF/, '').trim();
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
