import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { PAYMENT_MEANS } from '../../domain/catalogs';
import {
	additionalFields,
	infoAdicionalField,
	lineItemsField,
	many,
	money,
	paymentsField,
	readInfo,
	readLineItems,
	readSalesHeader,
	readTotals,
	salesExampleHeader,
	salesHeaderFields,
	text,
	totalsField,
	totalTaxesField,
} from '../common/fields';
import type { ReceiptSpec } from '../common/operations';
import { compact } from '../common/receiptInput';

/**
 * Invoice (factura): `/invoices` — the service's public documentation (Facturas); the spec names invoices
 * without showing their operations. Amounts must add up (domain/totals.ts).
 */

export const invoiceExample: IDataObject = {
	...salesExampleHeader(1, true),
	items: [
		{
			descripcion: '',
			codigo_principal: '',
			cantidad: 2,
			precio_unitario: 5,
			descuento: 0,
			precio_total_sin_impuestos: 10,
			impuestos: [{ codigo: '2', codigo_porcentaje: '4', tarifa: 15, base_imponible: 10, valor: 1.5 }],
		},
	],
	totales: { total_sin_impuestos: 10, descuento: 0, propina: 0, importe_total: 11.5, impuestos: [{ codigo: '2', codigo_porcentaje: '4', base_imponible: 10, valor: 1.5 }] },
	pagos: [{ medio: 'efectivo', total: 11.5 }],
};

export const invoiceFields: INodeProperties[] = [
	...salesHeaderFields('Who the invoice is issued to; the service e-mails the authorized invoice to their e-mail', { currency: true }),
	lineItemsField('lineItems', 'Goods or services sold'),
	totalsField([
		money('Total Without Taxes', 'total_sin_impuestos', { description: "Sum of the items' totals without taxes" }),
		money('Discount', 'descuento', { description: 'Sum of the item discounts and the additional discount' }),
		money('Additional Discount', 'descuento_adicional', { description: 'Discount on the subtotal, taken off before the tax' }),
		money('Tip', 'propina'),
		money('Total Amount', 'importe_total', { description: 'Total without taxes − additional discount + taxes + tip' }),
	]),
	totalTaxesField(),
	paymentsField(
		[
			{
				displayName: 'Means',
				name: 'medio',
				type: 'options',
				options: PAYMENT_MEANS.map((m) => ({ name: m.name, value: m.code })).sort((a, b) => a.name.localeCompare(b.name)),
				default: 'efectivo',
				description: 'Payment means (medio), e.g. efectivo; the service maps it to the SRI payment form',
			},
			money('Total', 'total'),
			text('Date', 'fecha', { placeholder: 'e.g. 2026-03-31', description: 'ISO 8601; the time of the issue when empty' }),
			text('Notes', 'notas', { description: 'At most 300 characters' }),
		],
		'How the invoice is paid; with the credit and retained values they add up to the total amount',
	),
	infoAdicionalField('valor'),
	additionalFields([
		money('Credit Amount', 'credito_monto', { description: 'Direct credit granted to the buyer (credito.monto)' }),
		text('Credit Due Date', 'credito_fecha_vencimiento', { placeholder: 'e.g. 2026-04-30', description: 'ISO 8601 (credito.fecha_vencimiento)' }),
		money('Retained Income Tax', 'valor_retenido_renta'),
		money('Retained VAT', 'valor_retenido_iva'),
		text('Waybill Number', 'guia_remision', { placeholder: 'e.g. 001-002-000000003', description: 'The waybill that goes with this invoice' }),
	]),
];

export function readInvoiceFields(this: IExecuteFunctions, i: number): IDataObject {
	const { credito_monto, credito_fecha_vencimiento, ...header } = readSalesHeader.call(this, i, { currency: true });
	const totales = readTotals.call(this, i);
	if (totales.descuento_adicional === 0) delete totales.descuento_adicional; // an untouched field, not a discount
	return compact({
		...header,
		items: readLineItems.call(this, 'lineItems.item', i),
		totales,
		pagos: many.call(this, 'pagos.payment', i).map(compact),
		credito: credito_monto !== undefined || credito_fecha_vencimiento !== undefined ? { monto: credito_monto, fecha_vencimiento: credito_fecha_vencimiento } : undefined,
		info_adicional: readInfo.call(this, i),
	});
}

export const invoiceSpec: ReceiptSpec = { resource: 'invoice', kind: 'invoice', base: '/invoices', example: invoiceExample, fields: invoiceFields, read: readInvoiceFields };
