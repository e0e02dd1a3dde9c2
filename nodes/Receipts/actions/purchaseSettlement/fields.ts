import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import type { ReceiptForm } from '../receipt/types';
import { NO_OBJECT_OF_TAX } from '../../domain/schemas';
import { displayName, PAYMENT, TOP } from '../../domain/labels';
import { fieldsMode, one, text, type FormVersion } from '../common/fields/form';
import { additionalFields, currencyField, headFields, readCommon } from '../common/fields/head';
import { infoAdicionalField, readInfo } from '../common/fields/info';
import { lineItemsField, readLineItems } from '../common/fields/items';
import { emisorField, partyField } from '../common/fields/parties';
import {
	paymentFormField,
	paymentsField,
	paymentTotal,
	readPayments,
} from '../common/fields/payments';
import { readTotals, salesTotals, totalsFields, totalTaxesField } from '../common/fields/totals';
import { compact, jsonPart } from '../common/receiptInput';

/**
 * Purchase settlement (liquidación de compra, `/purchase-settlements`; receipts service): the form (example,
 * Fields, reader) of this kind; its operations: the table of actions/receiptKinds.ts.
 */
const settlementExample = (reimbursement: boolean): IDataObject => ({
	ambiente: 1,
	tipo_emision: 1,
	secuencial: '1',
	moneda: 'USD',
	emisor: { ruc: '', razon_social: '', establecimiento: { codigo: '001', punto_emision: '001' } },
	proveedor: { identificacion: '', tipo_identificacion: '05', razon_social: '' },
	items: [
		{
			descripcion: '',
			codigo_principal: '',
			cantidad: 1,
			precio_unitario: 10,
			descuento: 0,
			impuestos: [
				reimbursement ? { ...NO_OBJECT_OF_TAX } : { codigo: '2', codigo_porcentaje: '4' },
			],
		},
	],
	pagos: [{ forma_pago: '01' }],
	...(reimbursement
		? {
				reembolso: {
					documentos: [
						{
							tipo_identificacion_proveedor: '04',
							identificacion_proveedor: '',
							pais_origen_proveedor: '593',
							tipo_proveedor: '01',
							tipo: '01',
							codigo_establecimiento: '001',
							codigo_punto_emision: '001',
							secuencia: 1,
							fecha_emision: '2026-03-01',
							numero_autorizacion: '',
							impuestos: [{ codigo: '2', codigo_porcentaje: '0', base_imponible: 10 }],
						},
					],
				},
			}
		: {}),
});

/** `optionalReimbursement`: Reissue, where the corrected settlement may or may not reimburse expenses. */
const settlementFields =
	(reimbursement: boolean, opts: { optionalReimbursement?: boolean } = {}) =>
	(v: FormVersion): INodeProperties[] => [
		...headFields(v, 'secuencial'),
		currencyField,
		emisorField(v),
		partyField(v, 'proveedor', TOP.proveedor, 'Who sold the goods or services'),
		lineItemsField(v, 'settlementItems', 'Purchased goods or services', { reimbursement }),
		...totalsFields(v, salesTotals(v, { discount: 'items' })),
		totalTaxesField(v, { noObjectOfTax: reimbursement }),
		paymentsField([
			paymentFormField,
			paymentTotal(v),
			text(displayName(PAYMENT.unidad_tiempo), 'unidad_tiempo', {
				placeholder: 'e.g. dias',
				description: 'At most 10 characters',
			}),
			text(displayName(PAYMENT.plazo), 'plazo', { description: 'At most 14 characters' }),
		]),
		...(reimbursement || opts.optionalReimbursement
			? [
					{
						displayName: 'Reimbursement (JSON)',
						name: 'reembolso',
						type: 'json',
						default: '',
						placeholder: JSON.stringify(settlementExample(true).reembolso, null, 2),
						required: reimbursement,
						displayOptions: fieldsMode,
						description: reimbursement
							? 'The reembolso object: the reimbursed documents with their taxes (each IVA value, and the subtotal, total taxes and total, are computed when left out)'
							: 'Only for a settlement that reimburses expenses: its reembolso object (the reimbursed documents with their taxes; values and totals computed when left out)',
					} as INodeProperties,
				]
			: []),
		infoAdicionalField('descripcion'),
		additionalFields(v, [
			text('Fiscal Machine Brand', 'maquina_marca'),
			text('Fiscal Machine Model', 'maquina_modelo'),
			text('Fiscal Machine Serial', 'maquina_serie'),
		]),
	];

function readSettlementFields(reimbursement: boolean) {
	return function (this: IExecuteFunctions, i: number): IDataObject {
		const common = readCommon.call(this, i, 'secuencial');
		const { maquina_marca, maquina_modelo, maquina_serie, ...top } = common;
		return compact({
			...top,
			moneda: String(this.getNodeParameter('moneda', i, '')).trim(),
			proveedor: compact(one.call(this, 'proveedor', i)),
			items: readLineItems.call(this, 'settlementItems.item', i),
			totales: readTotals.call(this, i),
			pagos: readPayments.call(this, i),
			maquina_fiscal: { marca: maquina_marca, modelo: maquina_modelo, serie: maquina_serie },
			reembolso: reimbursement
				? (jsonPart.call(this, 'reembolso', 'reembolso', i) as IDataObject)
				: undefined,
			info_adicional: readInfo.call(this, i),
		});
	};
}

/**
 * The form of the plain settlement, of the reimbursement variant (same path, `reembolso` required, its own
 * kind for validation), and of the Reissue of either (`reembolso` optional, validated and sent when given).
 */
export const settlementForm = (variant: 'plain' | 'reimbursement' | 'reissue'): ReceiptForm => ({
	kind: variant === 'reimbursement' ? 'purchaseSettlementReimbursement' : 'purchaseSettlement',
	example: settlementExample(variant === 'reimbursement'),
	fields: settlementFields(variant === 'reimbursement', {
		optionalReimbursement: variant === 'reissue',
	}),
	read: readSettlementFields(variant !== 'plain'),
});
