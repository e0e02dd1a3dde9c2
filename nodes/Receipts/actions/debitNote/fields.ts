import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { displayName, TAX_LINE, TOP } from '../../domain/labels';
import {
	modifiedDocumentFields,
	modifiedDocumentExample,
	readModifiedDocument,
} from '../common/fields/documents';
import { fieldsMode, many, money, text, type FormVersion } from '../common/fields/form';
import { readInfoDictionary } from '../common/fields/info';
import {
	noteTrailingFields,
	readSalesHeader,
	salesExampleHeader,
	salesHeaderFields,
} from '../common/fields/sales';
import { readTotals, salesTotals, totalsFields, totalTaxesField } from '../common/fields/totals';
import { compact } from '../common/receiptInput';

/**
 * Debit note (nota de débito): `/debit-notes` — the service's public documentation (Notas de débito):
 * `secuencial` as text, no currency, items are the charges `{motivo, valor}`, and the taxes are given on the
 * totals with their rate.
 * The form (example, Fields, reader) of this kind; its operations: the table of actions/receiptKinds.ts.
 */

export const debitNoteExample: IDataObject = {
	...salesExampleHeader('1', false),
	...modifiedDocumentExample,
	items: [{ motivo: 'Interés por mora', valor: 10 }],
	totales: { impuestos: [{ codigo: '2', codigo_porcentaje: '4' }] },
};

export const debitNoteFields = (v: FormVersion): INodeProperties[] => [
	...salesHeaderFields(v, 'The buyer of the modified document', { currency: false }),
	...modifiedDocumentFields,
	{
		displayName: displayName(TOP.charges),
		name: 'debitItems',
		type: 'fixedCollection',
		typeOptions: { multipleValues: true },
		default: {},
		required: true,
		placeholder: 'Add Charge',
		displayOptions: fieldsMode,
		description: 'What is charged (items): a reason and its value without taxes',
		options: [
			{
				displayName: 'Charge',
				name: 'item',
				values: [
					text(displayName(TOP.motivo), 'motivo', { placeholder: 'e.g. Interés por mora' }),
					money(displayName(TAX_LINE.valor), 'valor', { description: 'Without taxes' }),
				],
			},
		],
	},
	...totalsFields(v, salesTotals(v, { charges: true }), 'charges'),
	totalTaxesField(v, { tarifa: true }),
	...noteTrailingFields(v, 'debit notes'),
];

export function readDebitNoteFields(this: IExecuteFunctions, i: number): IDataObject {
	return compact({
		...readSalesHeader.call(this, i, { currency: false }),
		...readModifiedDocument.call(this, i),
		items: many.call(this, 'debitItems.item', i).map(compact),
		totales: readTotals.call(this, i),
		informacion_adicional: readInfoDictionary.call(this, i),
	});
}
