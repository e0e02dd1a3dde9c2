import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { displayName, ISSUER, PARTY, TOP, type Label } from '../../../domain/labels';
import { compact } from '../receiptInput';
import { type FormVersion, fieldsMode, one } from './form';

/**
 * Code fields whose values come from the service's catalogs (methods/loadOptions.ts: `GET /catalog/...`, with
 * a fixed list when the catalog cannot be reached). An expression is accepted as well, like any options field.
 */
export const idTypeField = (v: FormVersion): INodeProperties => {
	// Literal default and description first: n8n's lint requires them; version 2 then leaves it empty (inferred).
	const field: INodeProperties = {
		displayName: displayName(PARTY.tipo_identificacion, { dynamic: true }),
		name: 'tipo_identificacion',
		type: 'options',
		typeOptions: { loadOptionsMethod: 'getIdTypes' },
		default: '04',
		description:
			'Code of the identification type (04 RUC, 05 cédula, 06 passport, 07 final consumer, 08 foreign ID). Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
	};
	if (v === 2) {
		field.default = '';
		field.typeOptions = { loadOptionsMethod: 'getIdTypesOrInferred' };
		field.description = `"From the Identification" (the default) tells it from the identification (13 digits ending in 001: RUC; 10 digits: cédula; 9999999999999: final consumer). ${field.description}`;
	}
	return field;
};

const partyValues = (v: FormVersion, carrier: boolean): INodeProperties[] => [
	{
		displayName: displayName(PARTY.identificacion),
		name: 'identificacion',
		type: 'string',
		default: '',
		description: 'RUC, cédula, passport or foreign ID, 5 to 20 characters',
	},
	idTypeField(v),
	{
		displayName: displayName(PARTY.razon_social),
		name: 'razon_social',
		type: 'string',
		default: '',
	},
	{ displayName: displayName(PARTY.direccion), name: 'direccion', type: 'string', default: '' },
	{
		displayName: displayName(PARTY.email),
		name: 'email',
		type: 'string',
		placeholder: 'name@email.com',
		default: '',
	},
	{ displayName: displayName(PARTY.telefono), name: 'telefono', type: 'string', default: '' },
	...(carrier
		? [
				{
					displayName: displayName(PARTY.placa),
					name: 'placa',
					type: 'string',
					default: '',
				} as INodeProperties,
			]
		: []),
];

/** A person (sujeto, proveedor, transportista) as a one-entry fixed collection. */
export const partyField = (
	v: FormVersion,
	name: string,
	label: Label,
	description: string,
	carrier = false,
): INodeProperties => ({
	displayName: displayName(label),
	name,
	type: 'fixedCollection',
	default: {},
	required: true,
	placeholder: `Add ${label.en}`,
	displayOptions: fieldsMode,
	description,
	options: [{ displayName: label.en, name: 'details', values: partyValues(v, carrier) }],
});

/** The issuer: each field left empty comes from the issuer saved in the Receipts credential. */
export const emisorField = (v: FormVersion): INodeProperties => ({
	displayName: displayName(TOP.emisor),
	name: 'emisor',
	type: 'fixedCollection',
	default: {},
	placeholder: 'Add Issuer',
	displayOptions: fieldsMode,
	description:
		'Leave it out to use the issuer saved in the Receipts credential; a value here overrides the saved one',
	options: [
		{
			displayName: 'Issuer',
			name: 'details',
			values: [
				{
					displayName: displayName(ISSUER.punto_emision),
					name: 'punto_emision',
					type: 'string',
					default: '',
					placeholder: 'e.g. 001',
				},
				{
					displayName: displayName(ISSUER.establecimiento_direccion),
					name: 'establecimiento_direccion',
					type: 'string',
					default: '',
				},
				{
					displayName: displayName(ISSUER.codigo),
					name: 'establecimiento_codigo',
					type: 'string',
					default: '',
					placeholder: 'e.g. 001',
				},
				v === 2
					? {
							displayName: displayName(ISSUER.obligado_contabilidad),
							name: 'obligado_contabilidad',
							type: 'options',
							options: [
								{ name: 'As Saved in the Credential', value: '' },
								{ name: 'No', value: false },
								{ name: 'Yes', value: true },
							],
							default: '',
							description: 'Whether the issuer is required to keep accounting',
						}
					: {
							displayName: displayName(ISSUER.obligado_contabilidad),
							name: 'obligado_contabilidad',
							type: 'boolean',
							default: false,
							description: 'Whether the issuer is required to keep accounting',
						},
				{
					displayName: displayName(ISSUER.razon_social),
					name: 'razon_social',
					type: 'string',
					default: '',
				},
				{
					displayName: displayName(ISSUER.direccion),
					name: 'direccion',
					type: 'string',
					default: '',
				},
				{
					displayName: displayName(ISSUER.ruc),
					name: 'ruc',
					type: 'string',
					default: '',
					placeholder: 'e.g. 1792146739001',
				},
				{
					displayName: displayName(ISSUER.contribuyente_especial),
					name: 'contribuyente_especial',
					type: 'string',
					default: '',
				},
				{
					displayName: displayName(ISSUER.nombre_comercial),
					name: 'nombre_comercial',
					type: 'string',
					default: '',
				},
			],
		},
	],
});

export function readEmisor(this: IExecuteFunctions, i: number): IDataObject {
	const e = one.call(this, 'emisor', i);
	return compact({
		ruc: e.ruc,
		razon_social: e.razon_social,
		nombre_comercial: e.nombre_comercial,
		direccion: e.direccion,
		obligado_contabilidad: e.obligado_contabilidad,
		contribuyente_especial: e.contribuyente_especial,
		establecimiento: {
			codigo: e.establecimiento_codigo,
			punto_emision: e.punto_emision,
			direccion: e.establecimiento_direccion,
		},
	});
}
