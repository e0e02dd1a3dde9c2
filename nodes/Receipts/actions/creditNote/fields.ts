import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import {
	additionalFields,
	ambienteField,
	currencyField,
	emisorField,
	fieldsMode,
	infoDictionaryField,
	lineItemsField,
	modifiedDocumentFields,
	money,
	one,
	partyField,
	readCommon,
	readInfoDictionary,
	readLineItems,
	readModifiedDocument,
	readTotals,
	sequentialField,
	text,
	textParam,
	tipoEmisionField,
	totalsField,
	totalTaxesField,
} from '../common/fields';
import type { ReceiptSpec } from '../common/operations';
import { compact } from '../common/receiptInput';

/**
 * Credit note (nota de crédito): `/credit-notes` — the service's public documentation (Notas de crédito): an
 * invoice's shape without payments and tip, plus the document it modifies and the reason.
 */

export const creditNoteExample: IDataObject = {
	ambiente: 1,
	tipo_emision: 1,
	secuencial: 1,
	fecha_emision: '2026-03-31',
	moneda: 'USD',
	emisor: { ruc: '', razon_social: '', obligado_contabilidad: false, establecimiento: { codigo: '001', punto_emision: '001' } },
	comprador: { identificacion: '', tipo_identificacion: '05', razon_social: '', email: '' },
	tipo_documento_modificado: '01',
	numero_documento_modificado: '001-001-000000001',
	fecha_emision_documento_modificado: '2026-03-15',
	motivo: 'Devolución',
	items: [
		{
			descripcion: '',
			codigo_principal: '',
			cantidad: 1,
			precio_unitario: 10,
			descuento: 0,
			precio_total_sin_impuestos: 10,
			impuestos: [{ codigo: '2', codigo_porcentaje: '4', tarifa: 15, base_imponible: 10, valor: 1.5 }],
		},
	],
	totales: { total_sin_impuestos: 10, importe_total: 11.5, impuestos: [{ codigo: '2', codigo_porcentaje: '4', base_imponible: 10, valor: 1.5 }] },
};

export const creditNoteFields: INodeProperties[] = [
	ambienteField,
	tipoEmisionField,
	sequentialField('secuencial'),
	currencyField,
	emisorField,
	partyField('comprador', 'Buyer (Comprador)', 'The buyer of the modified document'),
	...modifiedDocumentFields,
	{ ...text('Reason', 'motivo', { placeholder: 'e.g. Devolución de productos', description: 'Why the document is modified; at most 300 characters' }), required: true, displayOptions: fieldsMode },
	lineItemsField('lineItems', 'Goods or services credited'),
	totalsField([money('Total Without Taxes', 'total_sin_impuestos', { description: "Sum of the items' totals without taxes" }), money('Total Amount', 'importe_total', { description: 'Total without taxes + taxes' })]),
	totalTaxesField(),
	infoDictionaryField('Name/value pairs printed on the note (sent as informacion_adicional, the field the service documents for credit notes)'),
	additionalFields(),
];

export function readCreditNoteFields(this: IExecuteFunctions, i: number): IDataObject {
	return compact({
		...readCommon.call(this, i, 'secuencial'),
		moneda: textParam.call(this, 'moneda', i),
		comprador: compact(one.call(this, 'comprador', i)),
		...readModifiedDocument.call(this, i),
		motivo: textParam.call(this, 'motivo', i),
		items: readLineItems.call(this, 'lineItems.item', i),
		totales: readTotals.call(this, i),
		informacion_adicional: readInfoDictionary.call(this, i),
	});
}

export const creditNoteSpec: ReceiptSpec = {
	resource: 'creditNote',
	kind: 'creditNote',
	base: '/credit-notes',
	example: creditNoteExample,
	fields: creditNoteFields,
	read: readCreditNoteFields,
};
