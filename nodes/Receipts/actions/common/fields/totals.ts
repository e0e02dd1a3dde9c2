import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { displayName, TAX_LINE, TOP, TOTALS } from '../../../domain/labels';
import { compact } from '../receiptInput';
import {
	type FormVersion,
	formVersion,
	fieldsMode,
	money,
	computedMoney,
	one,
	many,
	withoutZeros,
} from './form';
import { salesTaxFields } from './items';

/**
 * `totales` without its tax lines (those are `totalTaxesField`). Version 2 puts a notice above it: n8n shows a
 * collection's description only as a tooltip and no hint under it, and a bookkeeper who sees "Add Totals" and
 * "Add Tax" would otherwise compute and type them.
 */
export const totalsFields = (
	v: FormVersion,
	values: INodeProperties[],
	from: 'items' | 'charges' = 'items',
): INodeProperties[] => {
	const extras = [
		values.some((p) => p.name === 'descuento_adicional') && 'an additional discount',
		values.some((p) => p.name === 'propina') && 'a tip',
	].filter(Boolean);
	const totals: INodeProperties = {
		displayName: displayName(TOP.totales),
		name: 'totales',
		type: 'fixedCollection',
		default: {},
		required: v === 1,
		placeholder: 'Add Totals',
		displayOptions: fieldsMode,
		...(v === 2
			? {
					description:
						'Computed from the items: add it only to state a total yourself, or to give an additional discount or a tip',
				}
			: {}),
		options: [{ displayName: 'Totals', name: 'details', values }],
	};
	if (v === 1) return [totals];
	const notice: INodeProperties = {
		displayName: `${from === 'items' ? 'The totals and the tax totals are computed from the items' : 'The totals are computed from the charges and the taxes below'}. Add Totals only ${extras.length ? `to give ${extras.join(' or ')}, or ` : ''}to state a total yourself; Preview shows what will be sent.`,
		name: 'computedTotalsNotice',
		type: 'notice',
		default: '',
		displayOptions: fieldsMode,
	};
	return [notice, totals];
};

/** The totals of invoices, credit notes and settlements; `extra`: what else the kind's totals hold. */
export const salesTotals = (
	v: FormVersion,
	extra: { discount?: 'items' | 'itemsAndAdditional'; tip?: boolean; charges?: boolean } = {},
): INodeProperties[] => [
	extra.charges
		? computedMoney(
				v,
				TOTALS.total_sin_impuestos,
				'total_sin_impuestos',
				"the sum of the charges' values",
				"Sum of the charges' values",
			)
		: computedMoney(
				v,
				TOTALS.total_sin_impuestos,
				'total_sin_impuestos',
				"the sum of the items' subtotals",
				"Sum of the items' totals without taxes",
			),
	...(extra.discount === 'itemsAndAdditional'
		? [
				computedMoney(
					v,
					TOTALS.descuento,
					'descuento',
					'the item discounts plus the additional discount',
					'Sum of the item discounts and the additional discount',
				),
				money(displayName(TOTALS.descuento_adicional), 'descuento_adicional', {
					description: 'Discount on the subtotal, taken off before the tax',
				}),
			]
		: extra.discount === 'items'
			? [
					computedMoney(
						v,
						TOTALS.descuento,
						'descuento',
						'the sum of the item discounts',
						'Sum of the item discounts',
					),
				]
			: []),
	...(extra.tip ? [money(displayName(TOTALS.propina), 'propina')] : []),
	computedMoney(
		v,
		TOTALS.importe_total,
		'importe_total',
		`total without taxes${extra.discount === 'itemsAndAdditional' ? ' − additional discount' : ''} + taxes${extra.tip ? ' + tip' : ''}`,
		extra.tip
			? 'Total without taxes − additional discount + taxes + tip'
			: extra.discount
				? undefined
				: 'Total without taxes + taxes',
	),
];

/** `totales.impuestos`: one line per tax and percentage code. `tarifa`: the line carries its rate (debit notes). */
export const totalTaxesField = (
	v: FormVersion,
	opts: { noObjectOfTax?: boolean; tarifa?: boolean } = {},
): INodeProperties => ({
	displayName: displayName(TOP.totalTaxes),
	name: 'totalTaxes',
	type: 'fixedCollection',
	typeOptions: { multipleValues: true },
	default: {},
	required: v === 1 || !!opts.tarifa,
	placeholder: 'Add Tax',
	displayOptions: fieldsMode,
	description:
		v === 2
			? opts.tarifa
				? 'The taxes charged (totales.impuestos), one line per tax and percentage code; with one line, its base is the total without taxes'
				: 'Computed from the items when empty: one line per tax and percentage code (totales.impuestos)'
			: 'Tax totals (totales.impuestos), one line per tax and percentage code',
	options: [
		{
			displayName: 'Tax',
			name: 'tax',
			values: [
				...salesTaxFields('', opts),
				...(opts.tarifa
					? [
							computedMoney(
								v,
								TAX_LINE.tarifa,
								'tarifa',
								'the rate of the percentage code',
								'Percentage, e.g. 15',
							),
						]
					: []),
				computedMoney(
					v,
					TAX_LINE.base_imponible,
					'base_imponible',
					opts.tarifa
						? 'the total without taxes, when there is one line'
						: "the sum of the items' bases",
				),
				computedMoney(
					v,
					TAX_LINE.valor,
					'valor',
					opts.tarifa ? 'base × rate' : "the sum of the items' values",
				),
			],
		},
	],
});

/** `totales` of Fields mode: the totals collection plus its tax lines; version 2 leaves out what is at 0. */
export function readTotals(this: IExecuteFunctions, i: number): IDataObject {
	const v = formVersion.call(this);
	const totals = withoutZeros(v, compact(one.call(this, 'totales', i)), [
		'total_sin_impuestos',
		'descuento',
		'importe_total',
	]);
	const lines = many
		.call(this, 'totalTaxes.tax', i)
		.map((line) => compact(withoutZeros(v, line, ['tarifa', 'base_imponible', 'valor'])));
	return { ...totals, ...(v === 1 || lines.length ? { impuestos: lines } : {}) };
}
