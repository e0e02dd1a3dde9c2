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

const onePerConcepto: INodeProperties = {
	displayName: 'One Item per Concepto',
	name: 'onePerConcepto',
	type: 'boolean',
	default: false,
	description:
		"Whether to output one item per concepto (a spreadsheet row each, with the CFDI's UUID, folio, date and parties, and no comprobante) instead of one item per CFDI with its conceptos as a list",
};

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
		{ ...onePerConcepto, displayOptions: { show: { '@version': [1] } } },
		// Version 2: the rows a purchases ledger takes, by default (a saved workflow keeps its version's default).
		{
			...onePerConcepto,
			default: true,
			displayOptions: { show: { '@version': [{ _cnd: { gte: 2 } }] } },
		},
	],
);

/**
 * A CFDI's XML read (domain/cfdi.ts): `uuid`, `version`, `tipo`, `serie`, `folio`, `fecha`, `emisor`,
 * `receptor`, `moneda`, `tipo_cambio`, `subtotal`, `descuento`, `total`, `impuestos`, `metodo_pago`,
 * `forma_pago`, `timbre`, `pagos` (payment CFDIs), `conceptos`, `comprobante`, `warnings`; or one row per
 * concepto (version 2's default), each with the CFDI's file. Version 2 also says the file's name (`file_name`),
 * and a file that cannot be read leaves by Not Read (router.ts) while the others go on. Nothing is sent.
 */
export async function execute(
	this: IExecuteFunctions,
	_ctx: PublicServiceContext,
	i: number,
): Promise<OperationResult> {
	const cfdi = await readCfdiInput.call(this, i, 'Nothing was read.');
	const v2 = this.getNode().typeVersion >= 2;
	const named = v2 ? { file_name: cfdi.fileName ?? null } : {};
	if (this.getNodeParameter('onePerConcepto', i, false) !== true)
		return cfdiOutput(cfdi, {}, { file: named });
	if (!v2) return conceptoRows(cfdi);
	// Each row keeps the CFDI's file: a later node can still read, save or mail it.
	return conceptoRows(cfdi).map((row) => ({
		json: { ...row, ...named },
		...(cfdi.binary ? { binary: cfdi.binary } : {}),
	}));
}
