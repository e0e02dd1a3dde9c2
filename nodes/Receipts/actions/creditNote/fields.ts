import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { displayName, TOP } from '../../domain/labels';
import {
	modifiedDocumentFields,
	modifiedDocumentExample,
	readModifiedDocument,
} from '../common/fields/documents';
import { fieldsMode, text, textParam, type FormVersion } from '../common/fields/form';
import { readInfoDictionary } from '../common/fields/info';
import { lineItemsField, readLineItems } from '../common/fields/items';
import {
	noteTrailingFields,
	readSalesHeader,
	salesExampleHeader,
	salesHeaderFields,
} from '../common/fields/sales';
import { readTotals, salesTotals, totalsFields, totalTaxesField } from '../common/fields/totals';
import { compact } from '../common/receiptInput';

/**
 * Credit note (nota de crédito): `/credit-notes` — the service's public documentation (Notas de crédito): an
 * invoice's shape without payments and tip, plus the document it modifies and the reason.
 * The form (example, Fields, reader) of this kind; its operations: the table of actions/receiptKinds.ts.
 */

export const creditNoteExample: IDataObject = {
	...salesExampleHeader(1, true),
	...modifiedDocumentExample,
	motivo: 'Devolución',
	items: [
		{
			descripcion: '',
			codigo_principal: '',
			cantidad: 1,
			precio_unitario: 10,
			descuento: 0,
			impuestos: [{ codigo: '2', codigo_porcentaje: '4' }],
		},
	],
};

export const creditNoteFields = (v: FormVersion): INodeProperties[] => [
	...salesHeaderFields(v, 'The buyer of the modified document', { currency: true }),
	...modifiedDocumentFields,
	{
		...text(displayName(TOP.motivo), 'motivo', {
			placeholder: 'e.g. Devolución de productos',
			description: 'Why the document is modified; at most 300 characters',
		}),
		required: true,
		displayOptions: fieldsMode,
	},
	lineItemsField(v, 'lineItems', 'Goods or services credited'),
	...totalsFields(v, salesTotals(v)),
	totalTaxesField(v),
	...noteTrailingFields(v, 'credit notes'),
];

export function readCreditNoteFields(this: IExecuteFunctions, i: number): IDataObject {
	return compact({
		...readSalesHeader.call(this, i, { currency: true }),
		...readModifiedDocument.call(this, i),
		motivo: textParam.call(this, 'motivo', i),
		items: readLineItems.call(this, 'lineItems.item', i),
		totales: readTotals.call(this, i),
		informacion_adicional: readInfoDictionary.call(this, i),
	});
}
