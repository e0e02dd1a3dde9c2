import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { PAYMENT_MEANS, SRI_PAYMENT_FORMS } from '../../../domain/catalogs';
import { displayName, PAYMENT, TOP } from '../../../domain/labels';
import { compact } from '../receiptInput';
import {
	type FormVersion,
	formVersion,
	fieldsMode,
	money,
	COMPUTED_HINT,
	codeOptions,
	many,
	withoutZeros,
} from './form';

/** `pagos`: one entry per payment; what a payment holds differs between invoices and purchase settlements. */
export const paymentsField = (
	values: INodeProperties[],
	description?: string,
): INodeProperties => ({
	displayName: displayName(TOP.pagos),
	name: 'pagos',
	type: 'fixedCollection',
	typeOptions: { multipleValues: true },
	default: {},
	required: true,
	placeholder: 'Add Payment',
	displayOptions: fieldsMode,
	...(description ? { description } : {}),
	options: [{ displayName: 'Payment', name: 'payment', values }],
});

/** A payment's total: version 2 gives the rest of the Total Amount to the one payment left at 0. */
export const paymentTotal = (v: FormVersion): INodeProperties =>
	money(
		displayName(PAYMENT.total),
		'total',
		v === 2
			? {
					description: '0: the rest of the Total Amount (one payment only may leave it at 0)',
					hint: COMPUTED_HINT,
				}
			: {},
	);

/** Invoice payment means: the service's own codes, each saying the SRI payment form the service sends for it. */
export const paymentMeansField: INodeProperties = {
	displayName: displayName(PAYMENT.medio),
	name: 'medio',
	type: 'options',
	options: PAYMENT_MEANS.map((m) => ({ name: `${m.name} · SRI ${m.sri}`, value: m.code })).sort(
		(a, b) => a.name.localeCompare(b.name),
	),
	default: 'efectivo',
	description:
		'How it was paid (medio); the service sends the SRI payment form shown (01 cash, 16 debit card, 19 credit card, 20 other through the financial system, …)',
};

/** Settlement payment form: the SRI's own code. */
export const paymentFormField: INodeProperties = {
	displayName: displayName(PAYMENT.forma_pago),
	name: 'forma_pago',
	type: 'options',
	options: codeOptions(SRI_PAYMENT_FORMS),
	default: '01',
	description:
		'The SRI payment form (forma_pago), e.g. 01 cash, 20 other through the financial system. An expression may give any code.',
};

/** The payments of `path` as the body's `pagos` (version 2: a total left at 0 takes the rest). */
export function readPayments(this: IExecuteFunctions, i: number): IDataObject[] {
	const v = formVersion.call(this);
	return many.call(this, 'pagos.payment', i).map((p) => compact(withoutZeros(v, p, ['total'])));
}
