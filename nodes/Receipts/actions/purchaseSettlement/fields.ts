import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NO_OBJECT_OF_TAX } from '../../domain/schemas';
import { additionalFields, ambienteField, emisorField, infoAdicionalField, many, one, partyField, readCommon, readInfo, sequentialField, tipoEmisionField } from '../common/fields';
import { compact, jsonPart } from '../common/receiptInput';

const fieldsMode = { show: { inputMode: ['fields'] } };

const num = (displayName: string, name: string, extra: Partial<INodeProperties> = {}): INodeProperties =>
	({ displayName, name, type: 'number', typeOptions: { numberPrecision: 2 }, default: 0, ...extra }) as INodeProperties;
const text = (displayName: string, name: string, extra: Partial<INodeProperties> = {}): INodeProperties => ({ displayName, name, type: 'string', default: '', ...extra }) as INodeProperties;

export const settlementExample = (reimbursement: boolean): IDataObject => ({
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
			precio_total_sin_impuestos: 10,
			impuestos: [
				reimbursement
					? { ...NO_OBJECT_OF_TAX, tarifa: 0, base_imponible: 10, valor: 0 }
					: { codigo: '2', codigo_porcentaje: '4', tarifa: 15, base_imponible: 10, valor: 1.5 },
			],
		},
	],
	totales: {
		total_sin_impuestos: 10,
		descuento: 0,
		importe_total: reimbursement ? 10 : 11.5,
		impuestos: [reimbursement ? { ...NO_OBJECT_OF_TAX, base_imponible: 10, valor: 0 } : { codigo: '2', codigo_porcentaje: '4', base_imponible: 10, valor: 1.5 }],
	},
	pagos: [{ forma_pago: '01', total: reimbursement ? 10 : 11.5 }],
	...(reimbursement
		? {
				reembolso: {
					subtotal: 10,
					total_impuestos: 0,
					total: 10,
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
							impuestos: [{ codigo: '2', codigo_porcentaje: '0', tarifa: 0, base_imponible: 10, valor: 0 }],
						},
					],
				},
			}
		: {}),
});

export const settlementFields = (reimbursement: boolean): INodeProperties[] => [
	ambienteField,
	tipoEmisionField,
	sequentialField('secuencial'),
	{ ...text('Currency', 'moneda', { placeholder: 'e.g. USD', description: 'ISO currency code' }), default: 'USD', required: true, displayOptions: fieldsMode },
	emisorField,
	partyField('proveedor', 'Supplier (Proveedor)', 'Who sold the goods or services'),
	{
		displayName: 'Items',
		name: 'settlementItems',
		type: 'fixedCollection',
		typeOptions: { multipleValues: true },
		default: {},
		required: true,
		placeholder: 'Add Item',
		displayOptions: fieldsMode,
		description: 'Purchased goods or services, each with one tax line (use JSON input for several taxes per item)',
		options: [
			{
				displayName: 'Item',
				name: 'item',
				values: [
					text('Description', 'descripcion'),
					text('Main Code', 'codigo_principal', { description: 'At most 25 characters' }),
					text('Auxiliary Code', 'codigo_auxiliar', { description: 'At most 25 characters' }),
					text('Unit of Measure', 'unidad_medida'),
					num('Quantity', 'cantidad', { typeOptions: { numberPrecision: 6 }, default: 1 }),
					num('Unit Price', 'precio_unitario', { typeOptions: { numberPrecision: 6 } }),
					num('Discount', 'descuento'),
					num('Total Without Taxes', 'precio_total_sin_impuestos'),
					text('Tax Code', 'tax_codigo', { default: reimbursement ? NO_OBJECT_OF_TAX.codigo : '2', description: reimbursement ? 'Reimbursement items carry the no-object-of-tax kind (2)' : 'e.g. 2 for VAT' }),
					text('Tax Percentage Code', 'tax_codigo_porcentaje', {
						default: reimbursement ? NO_OBJECT_OF_TAX.codigo_porcentaje : '4',
						description: reimbursement ? 'Reimbursement items carry the no-object-of-tax kind (6)' : 'e.g. 4 for VAT 15%',
					}),
					num('Tax Rate', 'tax_tarifa', { description: 'Percentage, e.g. 15' }),
					num('Tax Base', 'tax_base_imponible'),
					num('Tax Value', 'tax_valor'),
				],
			},
		],
	},
	{
		displayName: 'Totals',
		name: 'totales',
		type: 'fixedCollection',
		default: {},
		required: true,
		placeholder: 'Add Totals',
		displayOptions: fieldsMode,
		options: [
			{
				displayName: 'Totals',
				name: 'details',
				values: [num('Total Without Taxes', 'total_sin_impuestos'), num('Discount', 'descuento', { description: 'Sum of the item discounts' }), num('Total Amount', 'importe_total')],
			},
		],
	},
	{
		displayName: 'Total Taxes',
		name: 'totalTaxes',
		type: 'fixedCollection',
		typeOptions: { multipleValues: true },
		default: {},
		required: true,
		placeholder: 'Add Tax',
		displayOptions: fieldsMode,
		description: 'Tax totals (totales.impuestos), one line per tax and percentage code',
		options: [
			{
				displayName: 'Tax',
				name: 'tax',
				values: [
					text('Tax Code', 'codigo', { default: reimbursement ? NO_OBJECT_OF_TAX.codigo : '2' }),
					text('Tax Percentage Code', 'codigo_porcentaje', { default: reimbursement ? NO_OBJECT_OF_TAX.codigo_porcentaje : '4' }),
					num('Tax Base', 'base_imponible'),
					num('Tax Value', 'valor'),
				],
			},
		],
	},
	{
		displayName: 'Payments',
		name: 'pagos',
		type: 'fixedCollection',
		typeOptions: { multipleValues: true },
		default: {},
		required: true,
		placeholder: 'Add Payment',
		displayOptions: fieldsMode,
		options: [
			{
				displayName: 'Payment',
				name: 'payment',
				values: [
					text('Payment Form Code', 'forma_pago', { default: '01', description: 'e.g. 01 cash, 20 other with use of the financial system' }),
					num('Total', 'total'),
					text('Time Unit', 'unidad_tiempo', { placeholder: 'e.g. dias', description: 'At most 10 characters' }),
					text('Term', 'plazo', { description: 'At most 14 characters' }),
				],
			},
		],
	},
	...(reimbursement
		? [
				{
					displayName: 'Reimbursement (JSON)',
					name: 'reembolso',
					type: 'json',
					default: '',
					placeholder: JSON.stringify(settlementExample(true).reembolso, null, 2),
					required: true,
					displayOptions: fieldsMode,
					description: 'The reembolso object: subtotal, total, total_impuestos and the reimbursed documents with their taxes',
				} as INodeProperties,
			]
		: []),
	infoAdicionalField('descripcion'),
	additionalFields([text('Fiscal Machine Brand', 'maquina_marca'), text('Fiscal Machine Model', 'maquina_modelo'), text('Fiscal Machine Serial', 'maquina_serie')]),
];

export function readSettlementFields(reimbursement: boolean) {
	return function (this: IExecuteFunctions, i: number): IDataObject {
		const common = readCommon.call(this, i, 'secuencial');
		const { maquina_marca, maquina_modelo, maquina_serie, ...top } = common;
		const items = many.call(this, 'settlementItems.item', i).map((item) => {
			const { tax_codigo, tax_codigo_porcentaje, tax_tarifa, tax_base_imponible, tax_valor, ...rest } = item;
			const tax = compact({ codigo: tax_codigo, codigo_porcentaje: tax_codigo_porcentaje, tarifa: tax_tarifa, base_imponible: tax_base_imponible, valor: tax_valor });
			return compact({ ...rest, impuestos: tax.codigo ? [tax] : undefined });
		});
		return compact({
			...top,
			moneda: String(this.getNodeParameter('moneda', i, '')).trim(),
			proveedor: compact(one.call(this, 'proveedor', i)),
			items,
			totales: { ...compact(one.call(this, 'totales', i)), impuestos: many.call(this, 'totalTaxes.tax', i).map(compact) },
			pagos: many.call(this, 'pagos.payment', i).map(compact),
			maquina_fiscal: { marca: maquina_marca, modelo: maquina_modelo, serie: maquina_serie },
			reembolso: reimbursement ? (jsonPart.call(this, 'reembolso', 'reembolso', i) as IDataObject) : undefined,
			info_adicional: readInfo.call(this, i),
		});
	};
}
