import type { IBinaryData, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';
import { addFacts, itemError } from '../../../shared/errors';
import { XmlError } from '../../../shared/xml';
import { readSourceOrNotRead, xmlSourceFields } from '../../../shared/xmlSource';
import { NotACfdiError, readCfdi, type CfdiReading } from '../../domain/cfdi';

/** The largest CFDI read (10 MB, the XML reader's own default): far above any real CFDI. */
const MAX_CFDI_BYTES = 10 * 1024 * 1024;

/** Where the CFDI's XML comes from (shared/xmlSource.ts); `show`: when the fields appear (Check CFDI Status: in its CFDI XML input mode). */
export const cfdiSourceFields = (show?: Record<string, string[]>): INodeProperties[] =>
	xmlSourceFields({
		what: "The CFDI's XML",
		placeholder: 'e.g. <?xml version="1.0" encoding="UTF-8"?><cfdi:Comprobante …',
		show,
	});

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
 * (with line and column), refused by the XML reader (a DTD, an entity, too large, too deep), or not a CFDI — a
 * problem of the item's input (errors.ts `notRead`, with the file's name), so Read CFDI XML of version 2 sends
 * it to Not Read.
 */
export async function readCfdiInput(
	this: IExecuteFunctions,
	i: number,
	consequence: string,
): Promise<CfdiInput> {
	const node = this.getNode();
	const item = this.getInputData()[i];
	const description = `${consequence} Give the CFDI's XML as the SAT's stamping left it (a CFDI 4.0, 3.3 or 3.2 with its <cfdi:Comprobante> root), not its PDF, a ZIP or an acknowledgment.`;
	const { data, field, fileName, notRead } = await readSourceOrNotRead.call(
		this,
		i,
		{ maxBytes: MAX_CFDI_BYTES, why: ', which no CFDI is' },
		description,
	);
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
		const problem =
			error instanceof XmlError
				? `is not XML the package can read: ${error.message}`
				: error.message;
		throw addFacts(itemError(node, i, `${field}: ${problem}`, description), notRead);
	}
}
