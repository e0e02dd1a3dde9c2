import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { displayName, PAYMENT, TOP } from '../../domain/labels';
import { money, text, type FormVersion } from '../common/fields/form';
import { additionalFields } from '../common/fields/head';
import { infoAdicionalField, readInfo } from '../common/fields/info';
import { lineItemsField, readLineItems } from '../common/fields/items';
import {
	paymentMeansField,
	paymentsField,
	paymentTotal,
	readPayments,
} from '../common/fields/payments';
import { readSalesHeader, salesExampleHeader, salesHeaderFields } from '../common/fields/sales';
import { readTotals, salesTotals, totalsFields, totalTaxesField } from '../common/fields/totals';
import { compact } from '../common/receiptInput';

/**
 * Invoice (factura): `/invoices` — the service's public documentation (Facturas); the spec names invoices
 * without showing their operations. Amounts must add up (domain/totals.ts).
 * The form (example, Fields, reader) of this kind; its operations: the table of actions/receiptKinds.ts.
 */

/** What the user gives: quantities, prices, tax codes and the means of payment; the node computes the amounts. */
export const invoiceExample: IDataObject = {
	...salesExampleHeader(1, true),
	items: [
		{
			descripcion: '',
			codigo_principal: '',
			cantidad: 2,
			precio_unitario: 5,
			descuento: 0,
			impuestos: [{ codigo: '2', codigo_porcentaje: '4' }],
		},
	],
	pagos: [{ medio: 'efectivo' }],
};

export const invoiceFields = (v: FormVersion): INodeProperties[] => [
	...salesHeaderFields(
		v,
		'Who the invoice is issued to; the service e-mails the authorized invoice to their e-mail',
		{ currency: true },
	),
	lineItemsField(v, 'lineItems', 'Goods or services sold'),
	...totalsFields(v, salesTotals(v, { discount: 'itemsAndAdditional', tip: true })),
	totalTaxesField(v),
	paymentsField(
		[
			paymentMeansField,
			paymentTotal(v),
			text(displayName(PAYMENT.fecha), 'fecha', {
				placeholder: 'e.g. 2026-03-31',
				description: 'ISO 8601; the time of the issue when empty',
			}),
			text(displayName(PAYMENT.notas), 'notas', { description: 'At most 300 characters' }),
		],
		v === 2
			? 'How the invoice is paid: with one payment, only its means is needed (its total is the Total Amount, less any credit and retained values)'
			: 'How the invoice is paid; with the credit and retained values they add up to the total amount',
	),
	infoAdicionalField('valor'),
	additionalFields(v, [
		money(displayName(TOP.credito_monto), 'credito_monto', {
			description: 'Direct credit granted to the buyer (credito.monto)',
		}),
		text(displayName(TOP.credito_fecha_vencimiento), 'credito_fecha_vencimiento', {
			placeholder: 'e.g. 2026-04-30',
			description: 'ISO 8601 (credito.fecha_vencimiento)',
		}),
		money(displayName(TOP.valor_retenido_renta), 'valor_retenido_renta'),
		money(displayName(TOP.valor_retenido_iva), 'valor_retenido_iva'),
		text(displayName(TOP.guia_remision), 'guia_remision', {
			placeholder: 'e.g. 001-002-000000003',
			description: 'The waybill that goes with this invoice',
		}),
	]),
];

export function readInvoiceFields(this: IExecuteFunctions, i: number): IDataObject {
	const { credito_monto, credito_fecha_vencimiento, ...header } = readSalesHeader.call(this, i, {
		currency: true,
	});
	const totales = readTotals.call(this, i);
	if (totales.descuento_adicional === 0) delete totales.descuento_adicional; // an untouched field, not a discount
	return compact({
		...header,
		items: readLineItems.call(this, 'lineItems.item', i),
		totales,
		pagos: readPayments.call(this, i),
		credito:
			credito_monto !== undefined || credito_fecha_vencimiento !== undefined
				? { monto: credito_monto, fecha_vencimiento: credito_fecha_vencimiento }
				: undefined,
		info_adicional: readInfo.call(this, i),
	});
}
