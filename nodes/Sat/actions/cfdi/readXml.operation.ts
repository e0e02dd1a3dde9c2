import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';
import type { OperationResult } from '../../../shared/router';
import type { PublicServiceContext } from '../../../shared/soap';
import { cfdiOutput, conceptoRows } from './output';
import { cfdiSourceFields, readCfdiInput } from './xmlInput';

export const kind = 'read';

/** How to ask for less when a run would keep more than it may (shared/budget.ts). */
export const narrow =
	"Read fewer CFDIs per run (n8n's Loop Over Items node splits them into batches). A CFDI of tens of thousands of conceptos passes the limit alone, more so with One Item per Concepto: one such CFDI is more than n8n should hold for one node";

export const description: INodeProperties[] = updateDisplayOptions(
	{ show: { resource: ['cfdi'], operation: ['readXml'] } },
	[
		{
			displayName: 'Reads a CFDI 4.0, 3.3 or 3.2 from its XML; nothing is sent anywhere',
			name: 'readXmlNotice',
			type: 'notice',
			default: '',
		},
		...cfdiSourceFields(),
		{
			displayName: 'One Item per Concepto',
			name: 'onePerConcepto',
			type: 'boolean',
			default: false,
			description:
				"Whether to output one item per concepto (a spreadsheet row each, with the CFDI's UUID, folio, date and parties) instead of one item per CFDI with its conceptos as a list",
		},
	],
);

/**
 * A CFDI's XML read (domain/cfdi.ts): `uuid`, `version`, `tipo`, `serie`, `folio`, `fecha`, `emisor`,
 * `receptor`, `moneda`, `tipo_cambio`, `subtotal`, `descuento`, `total`, `impuestos`, `metodo_pago`,
 * `forma_pago`, `timbre`, `pagos` (payment CFDIs), `conceptos`, `comprobante`, `warnings`; or one row per
 * concepto. Nothing is sent.
 */
export async function execute(
	this: IExecuteFunctions,
	_ctx: PublicServiceContext,
	i: number,
): Promise<OperationResult> {
	const cfdi = await readCfdiInput.call(this, i, 'Nothing was read.');
	return this.getNodeParameter('onePerConcepto', i, false) === true
		? conceptoRows(cfdi)
		: cfdiOutput(cfdi);
}
