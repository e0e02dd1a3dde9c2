import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { TOP } from '../../../domain/labels';
import { compact } from '../receiptInput';
import { type FormVersion, one, textParam } from './form';
import { additionalFields, currencyField, headFields, readCommon } from './head';
import { infoDictionaryField } from './info';
import { partyField, emisorField } from './parties';

/** The start of the examples of invoices and notes (identities left to fill in), and of a note's modified document. */
export const salesExampleHeader = (
	secuencial: number | string,
	currency: boolean,
): IDataObject => ({
	ambiente: 1,
	tipo_emision: 1,
	secuencial,
	fecha_emision: '2026-03-31',
	...(currency ? { moneda: 'USD' } : {}),
	emisor: {
		ruc: '',
		razon_social: '',
		obligado_contabilidad: false,
		establecimiento: { codigo: '001', punto_emision: '001' },
	},
	comprador: { identificacion: '', tipo_identificacion: '05', razon_social: '', email: '' },
});

/** The first fields of an invoice or a note: environment, emission type, sequential, issue date, currency, issuer and buyer. */
export const salesHeaderFields = (
	v: FormVersion,
	buyer: string,
	opts: { currency: boolean },
): INodeProperties[] => [
	...headFields(v, 'secuencial'),
	...(opts.currency ? [currencyField] : []),
	emisorField(v),
	partyField(v, 'comprador', TOP.comprador, buyer),
];

/** What `salesHeaderFields` and Additional Fields give, as body fields. */
export function readSalesHeader(
	this: IExecuteFunctions,
	i: number,
	opts: { currency: boolean },
): IDataObject {
	return {
		...readCommon.call(this, i, 'secuencial'),
		...(opts.currency ? { moneda: textParam.call(this, 'moneda', i) } : {}),
		comprador: compact(one.call(this, 'comprador', i)),
	};
}

/** The last fields of a credit or debit note: its informacion_adicional and the optional top-level fields. */
export const noteTrailingFields = (v: FormVersion, what: string): INodeProperties[] => [
	infoDictionaryField(
		`Name/value pairs printed on the note (sent as informacion_adicional, the field the service documents for ${what})`,
	),
	additionalFields(v),
];
