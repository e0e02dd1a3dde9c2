import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { SALES_TAX_TYPES, WITHHOLDING_TAX_TYPES } from '../../../domain/catalogs';
import { displayName, ITEM, ITEM_TAX, TAX_LINE, TOP } from '../../../domain/labels';
import { compact } from '../receiptInput';
import {
	type FormVersion,
	formVersion,
	fieldsMode,
	text,
	money,
	computedMoney,
	codeOptions,
	many,
	withoutZeros,
} from './form';

/**
 * Tax type and percentage code of a sales tax line; the percentage codes are those of the chosen tax type.
 * Defaults: IVA 15 %, or IVA not subject to tax (`noObjectOfTax`: reimbursement settlements). `prefix`: the
 * item's own tax line (`tax_`, among the item's fields) or a line of the tax totals ('').
 */
export function salesTaxFields(
	prefix: '' | 'tax_',
	opts: { noObjectOfTax?: boolean } = {},
): INodeProperties[] {
	const labels = prefix ? ITEM_TAX : TAX_LINE;
	// The default is set after the literal: n8n's lint (node-param-default-missing) requires a literal default.
	const percentage: INodeProperties = {
		displayName: displayName(labels.codigo_porcentaje, { dynamic: true }),
		name: `${prefix}codigo_porcentaje`,
		type: 'options',
		typeOptions: {
			loadOptionsMethod: 'getSalesTaxRates',
			loadOptionsDependsOn: [`&${prefix}codigo`],
		},
		default: '4',
		description:
			'Percentage code of the tax (codigo_porcentaje), e.g. 4 for IVA 15%, 0 for IVA 0%; it sets the rate. Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
	};
	if (opts.noObjectOfTax) percentage.default = '6';
	return [
		{
			displayName: displayName(labels.codigo),
			name: `${prefix}codigo`,
			type: 'options',
			options: codeOptions(SALES_TAX_TYPES),
			default: '2',
			description: opts.noObjectOfTax
				? 'Reimbursement items carry the no-object-of-tax kind (IVA, percentage code 6)'
				: 'Tax type (codigo)',
		},
		percentage,
	];
}

/** Tax type and percentage code of a retained tax. */
export const withholdingTaxFields: INodeProperties[] = [
	{
		displayName: 'Tax Code (Impuesto)',
		name: 'codigo',
		type: 'options',
		options: codeOptions(WITHHOLDING_TAX_TYPES),
		default: '1',
		description: 'Tax type retained (codigo)',
	},
	{
		displayName: 'Percentage Code (Código Retención) Name or ID',
		name: 'codigo_porcentaje',
		type: 'options',
		typeOptions: { loadOptionsMethod: 'getWithholdingRates', loadOptionsDependsOn: ['&codigo'] },
		default: '',
		description:
			'Percentage code within the tax type, e.g. 312 for income tax on goods. Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
	},
];

/** The amounts of an item that version 2 computes when left at 0. */
const ITEM_AMOUNTS = [
	'precio_total_sin_impuestos',
	'tax_tarifa',
	'tax_base_imponible',
	'tax_valor',
];

/**
 * Items of invoices, credit notes and purchase settlements (one tax line each in Fields mode), and their
 * reader. `reimbursement`: the tax defaults of a reimbursement settlement (no object of tax).
 */
export const lineItemsField = (
	v: FormVersion,
	name: string,
	what: string,
	opts: { reimbursement?: boolean } = {},
): INodeProperties => ({
	displayName: displayName(TOP.items),
	name,
	type: 'fixedCollection',
	typeOptions: { multipleValues: true },
	default: {},
	required: true,
	placeholder: 'Add Item',
	displayOptions: fieldsMode,
	description:
		v === 2
			? `${what}: give the quantity, the unit price, any discount and the tax; the node computes the rest. One tax line each (use JSON input for several taxes per item).`
			: `${what}, each with one tax line (use JSON input for several taxes per item)`,
	options: [{ displayName: 'Item', name: 'item', values: lineItemValues(v, opts) }],
});

/**
 * The fields of an item. Version 2 puts what a user gives first (description, quantity, price, discount, tax),
 * then the codes, then the amounts it computes; version 1 keeps its order.
 */
function lineItemValues(v: FormVersion, opts: { reimbursement?: boolean }): INodeProperties[] {
	const description = text(displayName(ITEM.descripcion), 'descripcion', {
		description: 'At most 300 characters',
	});
	const codes = [
		text(displayName(ITEM.codigo_principal), 'codigo_principal', {
			description: 'At most 25 characters',
		}),
		text(displayName(ITEM.codigo_auxiliar), 'codigo_auxiliar', {
			description: 'At most 25 characters',
		}),
		text(displayName(ITEM.unidad_medida), 'unidad_medida'),
	];
	const sold: INodeProperties[] = [
		{
			displayName: displayName(ITEM.cantidad),
			name: 'cantidad',
			type: 'number',
			// No numberPrecision: n8n would show 1 as 1.000000; more than 6 decimals is refused by the checks.
			default: 1,
			description: 'Up to 6 decimals',
		},
		{
			displayName: displayName(ITEM.precio_unitario),
			name: 'precio_unitario',
			type: 'number',
			default: 0,
			description: 'Without taxes; up to 6 decimals',
		},
		money(displayName(ITEM.descuento), 'descuento', {
			description: 'Discount on this item, in money',
		}),
	];
	const subtotal = computedMoney(
		v,
		ITEM.precio_total_sin_impuestos,
		'precio_total_sin_impuestos',
		'quantity × unit price − discount',
		'Quantity × unit price − discount',
	);
	const tax = salesTaxFields('tax_', { noObjectOfTax: opts.reimbursement });
	const taxAmounts = [
		computedMoney(
			v,
			ITEM_TAX.tarifa,
			'tax_tarifa',
			'the rate of the tax percentage code',
			'Percentage, e.g. 15',
		),
		computedMoney(v, ITEM_TAX.base_imponible, 'tax_base_imponible', "the item's subtotal"),
		computedMoney(v, ITEM_TAX.valor, 'tax_valor', 'tax base × tax rate'),
	];
	return v === 2
		? [description, ...sold, ...tax, ...codes, subtotal, ...taxAmounts]
		: [description, ...codes, ...sold, subtotal, ...tax, ...taxAmounts];
}

/** Items of `lineItemsField` as the body's `items`: the tax line becomes `impuestos`. */
export function readLineItems(this: IExecuteFunctions, path: string, i: number): IDataObject[] {
	const v = formVersion.call(this);
	return many.call(this, path, i).map((entry) => {
		const item = withoutZeros(v, entry, ITEM_AMOUNTS);
		const {
			tax_codigo,
			tax_codigo_porcentaje,
			tax_tarifa,
			tax_base_imponible,
			tax_valor,
			...rest
		} = item;
		const tax = compact({
			codigo: tax_codigo,
			codigo_porcentaje: tax_codigo_porcentaje,
			tarifa: tax_tarifa,
			base_imponible: tax_base_imponible,
			valor: tax_valor,
		});
		return compact({ ...rest, impuestos: tax.codigo ? [tax] : undefined });
	});
}
