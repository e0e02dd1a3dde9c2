import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { compact } from './receiptInput';

/** Field groups shared by the Fields input mode of several receipt kinds, and their readers. */

const fieldsMode = { show: { inputMode: ['fields'] } };

export const ambienteField: INodeProperties = {
	displayName: 'Environment (Ambiente)',
	name: 'ambiente',
	type: 'options',
	options: [
		{ name: 'Production (2)', value: 2 },
		{ name: 'Test (1)', value: 1 },
	],
	default: 1,
	displayOptions: fieldsMode,
	description: 'Tax authority environment the receipt is sent to',
};

export const tipoEmisionField: INodeProperties = {
	displayName: 'Emission Type (Tipo Emisión)',
	name: 'tipo_emision',
	type: 'options',
	options: [
		{ name: 'Normal (1)', value: 1 },
		{ name: 'Unavailability (2)', value: 2 },
	],
	default: 1,
	displayOptions: fieldsMode,
};

export const sequentialField = (name: 'secuencial' | 'secuencia'): INodeProperties => ({
	displayName: name === 'secuencia' ? 'Sequence (Secuencia)' : 'Sequential (Secuencial)',
	name,
	type: 'string',
	default: '',
	required: true,
	placeholder: 'e.g. 1024',
	displayOptions: fieldsMode,
	description: 'Sequential number of the receipt, 1 to 999999999',
});

export const periodoFiscalField: INodeProperties = {
	displayName: 'Fiscal Period (Periodo Fiscal)',
	name: 'periodo_fiscal',
	type: 'string',
	default: '',
	required: true,
	placeholder: 'e.g. 03/2026',
	displayOptions: fieldsMode,
	description: 'Month of the retention, MM/YYYY',
};

export const ID_TYPE_OPTIONS = [
	{ name: 'Cédula (05)', value: '05' },
	{ name: 'Final Consumer (07)', value: '07' },
	{ name: 'Foreign ID (08)', value: '08' },
	{ name: 'Passport (06)', value: '06' },
	{ name: 'RUC (04)', value: '04' },
];

const partyValues = (carrier: boolean): INodeProperties[] => [
	{ displayName: 'Identification', name: 'identificacion', type: 'string', default: '', description: 'RUC, cédula, passport or foreign ID, 5 to 20 characters' },
	{ displayName: 'Identification Type', name: 'tipo_identificacion', type: 'options', options: ID_TYPE_OPTIONS, default: '04' },
	{ displayName: 'Legal Name (Razón Social)', name: 'razon_social', type: 'string', default: '' },
	{ displayName: 'Address', name: 'direccion', type: 'string', default: '' },
	{ displayName: 'Email', name: 'email', type: 'string', placeholder: 'name@email.com', default: '' },
	{ displayName: 'Phone', name: 'telefono', type: 'string', default: '' },
	...(carrier ? [{ displayName: 'Vehicle Plate (Placa)', name: 'placa', type: 'string', default: '' } as INodeProperties] : []),
];

/** A person (sujeto, proveedor, transportista) as a one-entry fixed collection. */
export const partyField = (name: string, displayName: string, description: string, carrier = false): INodeProperties => ({
	displayName,
	name,
	type: 'fixedCollection',
	default: {},
	required: true,
	placeholder: `Add ${displayName}`,
	displayOptions: fieldsMode,
	description,
	options: [{ displayName, name: 'details', values: partyValues(carrier) }],
});

export const emisorField: INodeProperties = {
	displayName: 'Issuer (Emisor)',
	name: 'emisor',
	type: 'fixedCollection',
	default: {},
	required: true,
	placeholder: 'Add Issuer',
	displayOptions: fieldsMode,
	options: [
		{
			displayName: 'Issuer',
			name: 'details',
			values: [
				{
					displayName: 'Emission Point',
					name: 'punto_emision',
					type: 'string',
					default: '',
					placeholder: 'e.g. 001',
				},
				{
					displayName: 'Establishment Address',
					name: 'establecimiento_direccion',
					type: 'string',
					default: '',
				},
				{
					displayName: 'Establishment Code',
					name: 'establecimiento_codigo',
					type: 'string',
					default: '',
					placeholder: 'e.g. 001',
				},
				{
					displayName: 'Keeps Accounting (Obligado Contabilidad)',
					name: 'obligado_contabilidad',
					type: 'boolean',
					default: false,
					description: 'Whether the issuer is required to keep accounting',
				},
				{
					displayName: 'Legal Name (Razón Social)',
					name: 'razon_social',
					type: 'string',
					default: '',
				},
				{
					displayName: 'Main Address',
					name: 'direccion',
					type: 'string',
					default: '',
				},
				{
					displayName: 'RUC',
					name: 'ruc',
					type: 'string',
					default: '',
					placeholder: 'e.g. 1792146739001',
				},
				{
					displayName: 'Special Taxpayer Number',
					name: 'contribuyente_especial',
					type: 'string',
					default: '',
				},
				{
					displayName: 'Trade Name',
					name: 'nombre_comercial',
					type: 'string',
					default: '',
				},
			],
		},
	],
};

export const infoAdicionalField = (valueKey: 'descripcion' | 'valor'): INodeProperties => ({
	displayName: 'Additional Information',
	name: 'info_adicional',
	type: 'fixedCollection',
	typeOptions: { multipleValues: true },
	default: {},
	placeholder: 'Add Entry',
	displayOptions: fieldsMode,
	description: 'Name/value pairs printed on the receipt (info_adicional)',
	options: [
		{
			displayName: 'Entry',
			name: 'entry',
			values: [
				{ displayName: 'Name', name: 'nombre', type: 'string', default: '' },
				{ displayName: 'Value', name: valueKey, type: 'string', default: '' },
			],
		},
	],
});

/** Optional top-level fields: access key, issue date, format version. */
export const additionalFields = (extra: INodeProperties[] = []): INodeProperties => ({
	displayName: 'Additional Fields',
	name: 'additionalFields',
	type: 'collection',
	placeholder: 'Add Field',
	default: {},
	displayOptions: fieldsMode,
	options: ([
		{ displayName: 'Access Key (Clave De Acceso)', name: 'clave_acceso', type: 'string', default: '', description: '49 digits; generated by the service when omitted' },
		{ displayName: 'Issue Date', name: 'fecha_emision', type: 'string', default: '', placeholder: 'e.g. 2026-03-31', description: 'ISO 8601 date' },
		{ displayName: 'Version', name: 'version', type: 'string', default: '', description: 'Receipt-format version; the latest implemented revision when empty' },
		...extra,
	] as INodeProperties[]).sort((a, b) => a.displayName.localeCompare(b.displayName)),
});

/** Reads one-entry fixed collection `name` (its `details` values). */
export function one(this: IExecuteFunctions, name: string, i: number): IDataObject {
	return (this.getNodeParameter(`${name}.details`, i, {}) as IDataObject) ?? {};
}

/** Reads multi-entry fixed collection `name.key`. */
export function many(this: IExecuteFunctions, path: string, i: number): IDataObject[] {
	return ((this.getNodeParameter(path, i, []) as IDataObject[]) ?? []).map((e) => ({ ...e }));
}

export function readEmisor(this: IExecuteFunctions, i: number): IDataObject {
	const e = one.call(this, 'emisor', i);
	return compact({
		ruc: e.ruc,
		razon_social: e.razon_social,
		nombre_comercial: e.nombre_comercial,
		direccion: e.direccion,
		obligado_contabilidad: e.obligado_contabilidad,
		contribuyente_especial: e.contribuyente_especial,
		establecimiento: { codigo: e.establecimiento_codigo, punto_emision: e.punto_emision, direccion: e.establecimiento_direccion },
	});
}

/** The common top-level fields of Fields mode: environment, emission type, sequential, optional fields. */
export function readCommon(this: IExecuteFunctions, i: number, sequential: 'secuencial' | 'secuencia'): IDataObject {
	return compact({
		ambiente: this.getNodeParameter('ambiente', i, 1) as number,
		tipo_emision: this.getNodeParameter('tipo_emision', i, 1) as number,
		[sequential]: String(this.getNodeParameter(sequential, i, '')).trim(),
		...(this.getNodeParameter('additionalFields', i, {}) as IDataObject),
		emisor: readEmisor.call(this, i),
	});
}

export function readInfo(this: IExecuteFunctions, i: number): IDataObject[] | undefined {
	const entries = many.call(this, 'info_adicional.entry', i).map(compact).filter((e) => Object.keys(e).length);
	return entries.length ? entries : undefined;
}
