import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { TOP } from '../../domain/labels';
import { documentTypeField } from '../common/fields/documents';
import { fieldsMode, many, one, text, type FormVersion } from '../common/fields/form';
import { additionalFields, headFields, readCommon } from '../common/fields/head';
import { infoAdicionalField, readInfo } from '../common/fields/info';
import { emisorField, idTypeField, partyField } from '../common/fields/parties';
import { Checker, numberValue } from '../../../shared/validate';
import { compact } from '../common/receiptInput';

/**
 * Waybill (guía de remisión, `/waybills`; receipts service): the form (example, Fields, reader) of this kind;
 * its operations: the table of actions/receiptKinds.ts.
 */
export const waybillExample = {
	ambiente: 1,
	tipo_emision: 1,
	secuencial: '1',
	emisor: { ruc: '', razon_social: '', establecimiento: { codigo: '001', punto_emision: '001' } },
	fecha_inicio_transporte: '2026-03-01',
	fecha_fin_transporte: '2026-03-02',
	direccion_partida: '',
	transportista: { identificacion: '', tipo_identificacion: '04', razon_social: '', placa: '' },
	destinatarios: [
		{
			identificacion: '',
			tipo_identificacion: '04',
			razon_social: '',
			direccion: '',
			motivo_traslado: 'Venta',
			items: [{ descripcion: '', codigo_principal: '', cantidad: 1 }],
		},
	],
};

export const waybillFields = (v: FormVersion): INodeProperties[] => [
	...headFields(v, 'secuencial'),
	emisorField(v),
	{
		...text('Transport Start Date', 'fecha_inicio_transporte', {
			placeholder: 'e.g. 2026-03-01',
			description: 'ISO 8601',
		}),
		required: true,
		displayOptions: fieldsMode,
	},
	{
		...text('Transport End Date', 'fecha_fin_transporte', {
			placeholder: 'e.g. 2026-03-02',
			description: 'ISO 8601',
		}),
		required: true,
		displayOptions: fieldsMode,
	},
	{ ...text('Departure Address', 'direccion_partida'), required: true, displayOptions: fieldsMode },
	partyField(
		v,
		'transportista',
		TOP.transportista,
		'Who transports the goods; the vehicle plate is required',
		true,
	),
	{
		displayName: 'Recipients',
		name: 'destinatarios',
		type: 'fixedCollection',
		typeOptions: { multipleValues: true },
		default: {},
		required: true,
		placeholder: 'Add Recipient',
		displayOptions: fieldsMode,
		description:
			'Who receives the goods. Add the goods under Items, each with the number of its recipient.',
		options: [
			{
				displayName: 'Recipient',
				name: 'recipient',
				values: [
					text('Identification', 'identificacion', { description: '5 to 20 characters' }),
					idTypeField(v),
					text('Legal Name (Razón Social)', 'razon_social', {
						description: 'At most 300 characters',
					}),
					text('Address', 'direccion'),
					text('Reason for Transfer', 'motivo_traslado', { placeholder: 'e.g. Venta' }),
					text('Route', 'ruta', { description: 'At most 300 characters' }),
					text('Email', 'email', { placeholder: 'name@email.com' }),
					text('Phone', 'telefono'),
					text('Customs Document (DAU)', 'documento_aduanero_unico', {
						description: 'At most 20 characters',
					}),
					text('Destination Establishment Code', 'codigo_establecimiento_destino'),
					documentTypeField('Supporting Document Type', 'tipo_documento_sustento', {
						default: '',
						typeOptions: { loadOptionsMethod: 'getDocumentTypesOrNone' },
					}),
					text('Supporting Document Number', 'numero_documento_sustento', {
						placeholder: 'e.g. 001-001-000000123',
					}),
					text('Supporting Document Date', 'fecha_emision_documento_sustento', {
						description: 'ISO 8601',
					}),
					text('Supporting Document Authorization', 'numero_autorizacion_documento_sustento'),
				],
			},
		],
	},
	{
		displayName: 'Items',
		name: 'waybillItems',
		type: 'fixedCollection',
		typeOptions: { multipleValues: true },
		default: {},
		required: true,
		placeholder: 'Add Item',
		displayOptions: fieldsMode,
		description:
			'Goods transported, each assigned to a recipient by its position in Recipients (1 = first)',
		options: [
			{
				displayName: 'Item',
				name: 'item',
				values: [
					{
						displayName: 'Recipient Number',
						name: 'recipient',
						type: 'number',
						typeOptions: { minValue: 1, numberPrecision: 0 },
						default: 1,
						description: 'Position of the recipient in Recipients (1 = first)',
					},
					text('Description', 'descripcion'),
					text('Main Code', 'codigo_principal', { description: 'At most 25 characters' }),
					text('Auxiliary Code', 'codigo_auxiliar', { description: 'At most 25 characters' }),
					{
						displayName: 'Quantity',
						name: 'cantidad',
						type: 'number',
						default: 1,
						description: 'Up to 6 decimals',
					},
				],
			},
		],
	},
	infoAdicionalField('valor'),
	additionalFields(v),
];

export function readWaybillFields(this: IExecuteFunctions, i: number): IDataObject {
	const destinatarios = many
		.call(this, 'destinatarios.recipient', i)
		.map((r) => ({ ...compact(r), items: [] as IDataObject[] }));
	const items = many.call(this, 'waybillItems.item', i);
	// Which recipient each item belongs to: a whole number from 1, never guessed (an expression may give "2nd").
	const check = new Checker();
	items.forEach((item, k) =>
		check.integer(`waybillItems[${k}].recipient`, item.recipient ?? 1, { min: 1 }),
	);
	check.throwIfFailed(this.getNode(), i);
	for (const item of items) {
		const n = numberValue(item.recipient ?? 1) as number;
		const rest = { ...item };
		delete rest.recipient;
		// An item pointing past the last recipient gets a recipient of its own, so validation names it.
		while (destinatarios.length < n) destinatarios.push({ items: [] });
		(destinatarios[n - 1].items as IDataObject[]).push(compact(rest));
	}
	return compact({
		...readCommon.call(this, i, 'secuencial'),
		fecha_inicio_transporte: String(this.getNodeParameter('fecha_inicio_transporte', i, '')).trim(),
		fecha_fin_transporte: String(this.getNodeParameter('fecha_fin_transporte', i, '')).trim(),
		direccion_partida: String(this.getNodeParameter('direccion_partida', i, '')).trim(),
		transportista: compact(one.call(this, 'transportista', i)),
		destinatarios,
		info_adicional: readInfo.call(this, i),
	});
}
