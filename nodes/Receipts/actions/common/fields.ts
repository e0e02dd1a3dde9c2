import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { SALES_TAX_TYPES, WITHHOLDING_TAX_TYPES, type CatalogEntry } from '../../domain/catalogs';
import { compact } from './receiptInput';

/** Field groups shared by the Fields input mode of several receipt kinds, and their readers. */

export const fieldsMode = { show: { inputMode: ['fields'] } };

export const text = (displayName: string, name: string, extra: Partial<INodeProperties> = {}): INodeProperties =>
	({ displayName, name, type: 'string', default: '', ...extra }) as INodeProperties;

/** An amount with 2 decimals (money). */
export const money = (displayName: string, name: string, extra: Partial<INodeProperties> = {}): INodeProperties =>
	({ displayName, name, type: 'number', typeOptions: { numberPrecision: 2 }, default: 0, ...extra }) as INodeProperties;

/** Static options of a code table, sorted by name, each showing its code. */
const codeOptions = (entries: CatalogEntry[]) => entries.map((e) => ({ name: `${e.name} (${e.code})`, value: e.code })).sort((a, b) => a.name.localeCompare(b.name));

/**
 * Code fields whose values come from the service's catalogs (methods/loadOptions.ts: `GET /catalog/...`, with
 * a fixed list when the catalog cannot be reached). An expression is accepted as well, like any options field.
 */
export const idTypeField: INodeProperties = {
	displayName: 'Identification Type Name or ID',
	name: 'tipo_identificacion',
	type: 'options',
	typeOptions: { loadOptionsMethod: 'getIdTypes' },
	default: '04',
	description:
		'Code of the identification type (04 RUC, 05 cédula, 06 passport, 07 final consumer, 08 foreign ID). Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
};

export const documentTypeField = (displayName: string, name: string, extra: Partial<INodeProperties> = {}): INodeProperties => ({
	displayName: `${displayName} Name or ID`,
	name,
	type: 'options',
	typeOptions: { loadOptionsMethod: 'getDocumentTypes' },
	default: '01',
	description:
		'Code of the document type (01 invoice, 03 purchase settlement, 04 credit note, 05 debit note, 06 waybill, 07 retention). Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
	...extra,
});

/**
 * Tax type and percentage code of a sales tax line; the percentage codes are those of the chosen tax type.
 * Defaults: VAT 15 %, or VAT not subject to tax (`noObjectOfTax`: reimbursement settlements).
 */
export function salesTaxFields(prefix: '' | 'tax_', opts: { noObjectOfTax?: boolean } = {}): INodeProperties[] {
	// The default is set after the literal: n8n's lint (node-param-default-missing) requires a literal default.
	const percentage: INodeProperties = {
		displayName: 'Tax Percentage Code Name or ID',
		name: `${prefix}codigo_porcentaje`,
		type: 'options',
		typeOptions: { loadOptionsMethod: 'getSalesTaxRates', loadOptionsDependsOn: [`&${prefix}codigo`] },
		default: '4',
		description:
			'Percentage code of the tax (codigo_porcentaje), e.g. 4 for VAT 15%. Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
	};
	if (opts.noObjectOfTax) percentage.default = '6';
	return [
		{
			displayName: 'Tax Code',
			name: `${prefix}codigo`,
			type: 'options',
			options: codeOptions(SALES_TAX_TYPES),
			default: '2',
			description: opts.noObjectOfTax ? 'Reimbursement items carry the no-object-of-tax kind (VAT, percentage code 6)' : 'Tax type (codigo)',
		},
		percentage,
	];
}

/** Tax type and percentage code of a retained tax. */
export const withholdingTaxFields: INodeProperties[] = [
	{
		displayName: 'Tax Code',
		name: 'codigo',
		type: 'options',
		options: codeOptions(WITHHOLDING_TAX_TYPES),
		default: '1',
		description: 'Tax type retained (codigo)',
	},
	{
		displayName: 'Percentage Code Name or ID',
		name: 'codigo_porcentaje',
		type: 'options',
		typeOptions: { loadOptionsMethod: 'getWithholdingRates', loadOptionsDependsOn: ['&codigo'] },
		default: '',
		description:
			'Percentage code within the tax type, e.g. 312 for income tax on goods. Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
	},
];

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

const partyValues = (carrier: boolean): INodeProperties[] => [
	{ displayName: 'Identification', name: 'identificacion', type: 'string', default: '', description: 'RUC, cédula, passport or foreign ID, 5 to 20 characters' },
	idTypeField,
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

export const currencyField: INodeProperties = {
	...text('Currency', 'moneda', { placeholder: 'e.g. USD', description: 'ISO currency code' }),
	default: 'USD',
	required: true,
	displayOptions: fieldsMode,
};

/**
 * Items of invoices, credit notes and purchase settlements (one tax line each in Fields mode), and their
 * reader. `reimbursement`: the tax defaults of a reimbursement settlement (no object of tax).
 */
export const lineItemsField = (name: string, what: string, opts: { reimbursement?: boolean } = {}): INodeProperties => ({
	displayName: 'Items',
	name,
	type: 'fixedCollection',
	typeOptions: { multipleValues: true },
	default: {},
	required: true,
	placeholder: 'Add Item',
	displayOptions: fieldsMode,
	description: `${what}, each with one tax line (use JSON input for several taxes per item)`,
	options: [
		{
			displayName: 'Item',
			name: 'item',
			values: [
				text('Description', 'descripcion', { description: 'At most 300 characters' }),
				text('Main Code', 'codigo_principal', { description: 'At most 25 characters' }),
				text('Auxiliary Code', 'codigo_auxiliar', { description: 'At most 25 characters' }),
				text('Unit of Measure', 'unidad_medida'),
				{ displayName: 'Quantity', name: 'cantidad', type: 'number', typeOptions: { numberPrecision: 6 }, default: 1, description: 'Up to 6 decimals' },
				{ displayName: 'Unit Price', name: 'precio_unitario', type: 'number', typeOptions: { numberPrecision: 6 }, default: 0, description: 'Up to 6 decimals' },
				money('Discount', 'descuento'),
				money('Total Without Taxes', 'precio_total_sin_impuestos', { description: 'Quantity × unit price − discount' }),
				...salesTaxFields('tax_', { noObjectOfTax: opts.reimbursement }),
				money('Tax Rate', 'tax_tarifa', { description: 'Percentage, e.g. 15' }),
				money('Tax Base', 'tax_base_imponible'),
				money('Tax Value', 'tax_valor'),
			],
		},
	],
});

/** Items of `lineItemsField` as the body's `items`: the tax line becomes `impuestos`. */
export function readLineItems(this: IExecuteFunctions, path: string, i: number): IDataObject[] {
	return many.call(this, path, i).map((item) => {
		const { tax_codigo, tax_codigo_porcentaje, tax_tarifa, tax_base_imponible, tax_valor, ...rest } = item;
		const tax = compact({ codigo: tax_codigo, codigo_porcentaje: tax_codigo_porcentaje, tarifa: tax_tarifa, base_imponible: tax_base_imponible, valor: tax_valor });
		return compact({ ...rest, impuestos: tax.codigo ? [tax] : undefined });
	});
}

/** `totales` without its tax lines (those are `totalTaxesField`). */
export const totalsField = (values: INodeProperties[]): INodeProperties => ({
	displayName: 'Totals',
	name: 'totales',
	type: 'fixedCollection',
	default: {},
	required: true,
	placeholder: 'Add Totals',
	displayOptions: fieldsMode,
	options: [{ displayName: 'Totals', name: 'details', values }],
});

/** `pagos`: one entry per payment; what a payment holds differs between invoices and purchase settlements. */
export const paymentsField = (values: INodeProperties[], description?: string): INodeProperties => ({
	displayName: 'Payments',
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

/** `totales.impuestos`: one line per tax and percentage code. `tarifa`: the line carries its rate (debit notes). */
export const totalTaxesField = (opts: { noObjectOfTax?: boolean; tarifa?: boolean } = {}): INodeProperties => ({
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
				...salesTaxFields('', opts),
				...(opts.tarifa ? [money('Tax Rate', 'tarifa', { description: 'Percentage, e.g. 15' })] : []),
				money('Tax Base', 'base_imponible'),
				money('Tax Value', 'valor'),
			],
		},
	],
});

/** `totales` of Fields mode: the totals collection plus its tax lines. */
export function readTotals(this: IExecuteFunctions, i: number): IDataObject {
	return { ...compact(one.call(this, 'totales', i)), impuestos: many.call(this, 'totalTaxes.tax', i).map(compact) };
}

/** `informacion_adicional` (a dictionary) from name/value pairs: the field the notes and retentions document. */
export const infoDictionaryField = (description: string): INodeProperties => ({
	displayName: 'Additional Information',
	name: 'informacion_adicional',
	type: 'fixedCollection',
	typeOptions: { multipleValues: true },
	default: {},
	placeholder: 'Add Entry',
	displayOptions: fieldsMode,
	description,
	options: [
		{
			displayName: 'Entry',
			name: 'entry',
			values: [text('Name', 'name'), text('Value', 'value')],
		},
	],
});

export function readInfoDictionary(this: IExecuteFunctions, i: number): IDataObject {
	const info: IDataObject = {};
	for (const e of many.call(this, 'informacion_adicional.entry', i)) if (String(e.name ?? '').trim()) info[String(e.name).trim()] = e.value as string;
	return info;
}

/** The document a credit or debit note modifies. */
export const modifiedDocumentFields: INodeProperties[] = [
	{ ...documentTypeField('Modified Document Type', 'tipo_documento_modificado'), required: true, displayOptions: fieldsMode },
	{
		...text('Modified Document Number', 'numero_documento_modificado', { placeholder: 'e.g. 001-002-000058473', description: 'Full number: establishment-emission point-sequential' }),
		required: true,
		displayOptions: fieldsMode,
	},
	{
		...text('Modified Document Date', 'fecha_emision_documento_modificado', { placeholder: 'e.g. 2026-03-15', description: 'ISO 8601; not after the note’s own issue date' }),
		required: true,
		displayOptions: fieldsMode,
	},
];

export function readModifiedDocument(this: IExecuteFunctions, i: number): IDataObject {
	const out: IDataObject = {};
	for (const name of ['tipo_documento_modificado', 'numero_documento_modificado', 'fecha_emision_documento_modificado']) out[name] = textParam.call(this, name, i);
	return out;
}

/** A text parameter of item `i`, trimmed. */
export function textParam(this: IExecuteFunctions, name: string, i: number): string {
	return String(this.getNodeParameter(name, i, '') ?? '').trim();
}

/** The start of the examples of invoices and notes (identities left to fill in), and of a note's modified document. */
export const salesExampleHeader = (secuencial: number | string, currency: boolean): IDataObject => ({
	ambiente: 1,
	tipo_emision: 1,
	secuencial,
	fecha_emision: '2026-03-31',
	...(currency ? { moneda: 'USD' } : {}),
	emisor: { ruc: '', razon_social: '', obligado_contabilidad: false, establecimiento: { codigo: '001', punto_emision: '001' } },
	comprador: { identificacion: '', tipo_identificacion: '05', razon_social: '', email: '' },
});
export const modifiedDocumentExample: IDataObject = { tipo_documento_modificado: '01', numero_documento_modificado: '001-001-000000001', fecha_emision_documento_modificado: '2026-03-15' };

/** The first fields of an invoice or a note: environment, emission type, sequential, currency, issuer and buyer. */
export const salesHeaderFields = (buyer: string, opts: { currency: boolean }): INodeProperties[] => [
	ambienteField,
	tipoEmisionField,
	sequentialField('secuencial'),
	...(opts.currency ? [currencyField] : []),
	emisorField,
	partyField('comprador', 'Buyer (Comprador)', buyer),
];

/** What `salesHeaderFields` and Additional Fields give, as body fields. */
export function readSalesHeader(this: IExecuteFunctions, i: number, opts: { currency: boolean }): IDataObject {
	return {
		...readCommon.call(this, i, 'secuencial'),
		...(opts.currency ? { moneda: textParam.call(this, 'moneda', i) } : {}),
		comprador: compact(one.call(this, 'comprador', i)),
	};
}

/** The last fields of a credit or debit note: its informacion_adicional and the optional top-level fields. */
export const noteTrailingFields = (what: string): INodeProperties[] => [
	infoDictionaryField(`Name/value pairs printed on the note (sent as informacion_adicional, the field the service documents for ${what})`),
	additionalFields(),
];
