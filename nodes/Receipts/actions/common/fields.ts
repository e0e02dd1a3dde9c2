import { clock } from '../../../shared/clock';
import type {
	IDataObject,
	IDisplayOptions,
	IExecuteFunctions,
	INodeProperties,
} from 'n8n-workflow';
import {
	PAYMENT_MEANS,
	SALES_TAX_TYPES,
	SRI_PAYMENT_FORMS,
	WITHHOLDING_TAX_TYPES,
	type CatalogEntry,
} from '../../domain/catalogs';
import {
	displayName,
	ISSUER,
	ITEM,
	ITEM_TAX,
	PARTY,
	PAYMENT,
	TAX_LINE,
	TOP,
	TOTALS,
	type Label,
} from '../../domain/labels';
import { compact, inputModeField, jsonBodyField } from './receiptInput';

/**
 * Field groups shared by the Fields input mode of several receipt kinds, and their readers.
 *
 * Two versions of the form (the node's typeVersion; n8n's light versioning: one node, properties shown per
 * `@version`). A saved workflow stores only what differs from a field's default, so a default that changes would
 * change what an existing workflow sends; version 1 keeps its defaults and meanings exactly, version 2 (new
 * nodes) is the bookkeeper's form:
 * - amounts (item subtotal and tax rate, base and value; totals; tax totals; payment totals; retained values)
 *   left at 0 are computed (domain/totals.ts); in version 1 a 0 is sent as 0 (and refused when it contradicts);
 * - Issue Date sits on the form and means today in Ecuador when empty (version 1: under Additional Fields);
 * - an empty identification type is inferred from the identification (version 1: RUC by default);
 * - Keeps Accounting can be left to the issuer saved in the credential (version 1: No by default).
 * Every field whose words or meaning are the same in both versions is one property (see `byVersion`).
 */

export type FormVersion = 1 | 2;

/** The form version of the node being run. */
export function formVersion(this: IExecuteFunctions): FormVersion {
	return this.getNode().typeVersion >= 2 ? 2 : 1;
}

const SHOW_V1: ShowValues = [1];
const SHOW_V2: ShowValues = [{ _cnd: { gte: 2 } }];

type Show = NonNullable<IDisplayOptions['show']>;
type ShowValues = NonNullable<Show['@version']>;

function forVersion(property: INodeProperties, versions: ShowValues): INodeProperties {
	const show: Show = { ...property.displayOptions?.show };
	show['@version'] = versions;
	return { ...property, displayOptions: { ...property.displayOptions, show } };
}

/**
 * The properties of both form versions: a property built the same for both is listed once; one that differs is
 * listed twice, each shown only for its version (`@version`). Each version keeps its own order.
 */
function byVersion(build: (v: FormVersion) => INodeProperties[]): INodeProperties[] {
	const v1 = build(1);
	const v2 = build(2);
	const key = (p: INodeProperties) => JSON.stringify(p);
	const inV1 = new Set(v1.map(key));
	const inV2 = new Set(v2.map(key));
	const out: INodeProperties[] = [];
	const done = new Set<string>();
	let i = 0;
	let j = 0;
	while (i < v1.length || j < v2.length) {
		if (i < v1.length && done.has(key(v1[i]))) {
			i++;
		} else if (j < v2.length && !inV1.has(key(v2[j]))) {
			out.push(forVersion(v2[j++], SHOW_V2));
		} else if (i < v1.length && !inV2.has(key(v1[i]))) {
			out.push(forVersion(v1[i++], SHOW_V1));
		} else if (j < v2.length) {
			done.add(key(v2[j]));
			out.push(v2[j++]);
		} else {
			i++;
		}
	}
	return out;
}

/** The receipt itself, as Issue, Preview and Reissue show it: the input mode, the JSON body, the Fields form (both versions). */
export const receiptProperties = (
	example: IDataObject,
	fields: (v: FormVersion) => INodeProperties[],
): INodeProperties[] => [inputModeField, jsonBodyField(example), ...byVersion(fields)];

export const fieldsMode = { show: { inputMode: ['fields'] } };

export const text = (
	displayName: string,
	name: string,
	extra: Partial<INodeProperties> = {},
): INodeProperties =>
	({ displayName, name, type: 'string', default: '', ...extra }) as INodeProperties;

/** An amount with 2 decimals (money). */
export const money = (
	displayName: string,
	name: string,
	extra: Partial<INodeProperties> = {},
): INodeProperties =>
	({
		displayName,
		name,
		type: 'number',
		typeOptions: { numberPrecision: 2 },
		default: 0,
		...extra,
	}) as INodeProperties;

/** What version 2 says of an amount it computes when left at 0. */
const COMPUTED = 'Computed when 0 (leave it so)';

/**
 * The line version 2 shows under an amount it computes: the description is only a tooltip, and a bookkeeper who
 * sees 0.00 in a Total field would otherwise type the total in.
 */
export const COMPUTED_HINT = 'Leave 0: the node computes it';

/** An amount the node computes in version 2 (`how`), given by the user in version 1 (`v1`: its old description). */
const computedMoney = (
	v: FormVersion,
	label: Label,
	name: string,
	how: string,
	v1?: string,
): INodeProperties =>
	money(
		displayName(label),
		name,
		v === 2
			? { description: `${COMPUTED}: ${how}`, hint: COMPUTED_HINT }
			: v1
				? { description: v1 }
				: {},
	);

/** Static options of a code table, sorted by name, each showing its code. */
const codeOptions = (entries: CatalogEntry[]) =>
	entries
		.map((e) => ({ name: `${e.name} (${e.code})`, value: e.code }))
		.sort((a, b) => a.name.localeCompare(b.name));

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

export const documentTypeField = (
	displayName: string,
	name: string,
	extra: Partial<INodeProperties> = {},
): INodeProperties => ({
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
 * Defaults: IVA 15 %, or IVA not subject to tax (`noObjectOfTax`: reimbursement settlements). `prefix`: the
 * item's own tax line (`tax_`, among the item's fields) or a line of the tax totals ('').
 */
function salesTaxFields(
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

const ambienteField: INodeProperties = {
	displayName: displayName(TOP.ambiente),
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

const tipoEmisionField: INodeProperties = {
	displayName: displayName(TOP.tipo_emision),
	name: 'tipo_emision',
	type: 'options',
	options: [
		{ name: 'Normal (1)', value: 1 },
		{ name: 'Unavailability (2)', value: 2 },
	],
	default: 1,
	displayOptions: fieldsMode,
};

const sequentialField = (name: 'secuencial' | 'secuencia'): INodeProperties => ({
	displayName: displayName(TOP[name]),
	name,
	type: 'string',
	default: '',
	required: true,
	placeholder: 'e.g. 1024',
	displayOptions: fieldsMode,
	description: 'Sequential number of the receipt, 1 to 999999999',
});

/** Version 2: the issue date on the form; empty means today in Ecuador. */
const issueDateField: INodeProperties = {
	displayName: displayName(TOP.fecha_emision),
	name: 'fecha_emision',
	type: 'string',
	default: '',
	placeholder: 'e.g. 2026-03-31',
	displayOptions: fieldsMode,
	description: 'YYYY-MM-DD. Leave empty for today in Ecuador (America/Guayaquil).',
};

/** Today in Ecuador, YYYY-MM-DD: America/Guayaquil is UTC−5 all year (no daylight saving time). */
export function todayInEcuador(now = clock.now()): string {
	return new Date(now - 5 * 60 * 60 * 1000).toISOString().slice(0, 10);
}

/** The common head of every form: environment, emission type, sequential and, in version 2, the issue date. */
export const headFields = (
	v: FormVersion,
	sequential: 'secuencial' | 'secuencia',
): INodeProperties[] => [
	ambienteField,
	tipoEmisionField,
	sequentialField(sequential),
	...(v === 2 ? [issueDateField] : []),
];

export const periodoFiscalField: INodeProperties = {
	displayName: displayName(TOP.periodo_fiscal),
	name: 'periodo_fiscal',
	type: 'string',
	default: '',
	required: true,
	placeholder: 'e.g. 03/2026',
	displayOptions: fieldsMode,
	description: 'Month of the retention, MM/YYYY',
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

export const infoAdicionalField = (valueKey: 'descripcion' | 'valor'): INodeProperties => ({
	displayName: displayName(TOP.info_adicional),
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

/** Optional top-level fields: access key, format version and, in version 1, the issue date. */
export const additionalFields = (
	v: FormVersion,
	extra: INodeProperties[] = [],
): INodeProperties => ({
	displayName: 'Additional Fields',
	name: 'additionalFields',
	type: 'collection',
	placeholder: 'Add Field',
	default: {},
	displayOptions: fieldsMode,
	options: (
		[
			{
				displayName: displayName(TOP.clave_acceso),
				name: 'clave_acceso',
				type: 'string',
				default: '',
				description: '49 digits; generated by the service when omitted',
			},
			...(v === 1
				? [
						{
							displayName: displayName(TOP.fecha_emision),
							name: 'fecha_emision',
							type: 'string',
							default: '',
							placeholder: 'e.g. 2026-03-31',
							description: 'ISO 8601 date',
						},
					]
				: []),
			{
				displayName: 'Version',
				name: 'version',
				type: 'string',
				default: '',
				description: 'Receipt-format version; the latest implemented revision when empty',
			},
			...extra,
		] as INodeProperties[]
	).sort((a, b) => a.displayName.localeCompare(b.displayName)),
});

/** Reads one-entry fixed collection `name` (its `details` values). */
export function one(this: IExecuteFunctions, name: string, i: number): IDataObject {
	return (this.getNodeParameter(`${name}.details`, i, {}) as IDataObject) ?? {};
}

/** Reads multi-entry fixed collection `name.key`. */
export function many(this: IExecuteFunctions, path: string, i: number): IDataObject[] {
	return ((this.getNodeParameter(path, i, []) as IDataObject[]) ?? []).map((e) => ({ ...e }));
}

/**
 * Version 2: the amounts of `entry` named in `keys` that are left at 0 are not given (the node computes them);
 * version 1 sends them as they are.
 */
export function withoutZeros(v: FormVersion, entry: IDataObject, keys: string[]): IDataObject {
	if (v === 1) return entry;
	const out = { ...entry };
	for (const key of keys) if (out[key] === 0) delete out[key];
	return out;
}

function readEmisor(this: IExecuteFunctions, i: number): IDataObject {
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

/** The common top-level fields of Fields mode: environment, emission type, sequential, issue date, optional fields. */
export function readCommon(
	this: IExecuteFunctions,
	i: number,
	sequential: 'secuencial' | 'secuencia',
): IDataObject {
	const v = formVersion.call(this);
	const issueDate =
		v === 2 ? { fecha_emision: textParam.call(this, 'fecha_emision', i) || todayInEcuador() } : {};
	return compact({
		ambiente: this.getNodeParameter('ambiente', i, 1) as number,
		tipo_emision: this.getNodeParameter('tipo_emision', i, 1) as number,
		[sequential]: String(this.getNodeParameter(sequential, i, '')).trim(),
		...issueDate,
		...(this.getNodeParameter('additionalFields', i, {}) as IDataObject),
		emisor: readEmisor.call(this, i),
	});
}

export function readInfo(this: IExecuteFunctions, i: number): IDataObject[] | undefined {
	const entries = many
		.call(this, 'info_adicional.entry', i)
		.map(compact)
		.filter((e) => Object.keys(e).length);
	return entries.length ? entries : undefined;
}

export const currencyField: INodeProperties = {
	...text(displayName(TOP.moneda), 'moneda', {
		placeholder: 'e.g. USD',
		description: 'ISO currency code',
	}),
	default: 'USD',
	required: true,
	displayOptions: fieldsMode,
};

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

/** `informacion_adicional` (a dictionary) from name/value pairs: the field the notes and retentions document. */
export const infoDictionaryField = (description: string): INodeProperties => ({
	displayName: displayName(TOP.info_adicional),
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
	for (const e of many.call(this, 'informacion_adicional.entry', i))
		if (String(e.name ?? '').trim()) info[String(e.name).trim()] = e.value as string;
	return info;
}

/** The document a credit or debit note modifies. */
export const modifiedDocumentFields: INodeProperties[] = [
	{
		...documentTypeField(displayName(TOP.tipo_documento_modificado), 'tipo_documento_modificado'),
		required: true,
		displayOptions: fieldsMode,
	},
	{
		...text(displayName(TOP.numero_documento_modificado), 'numero_documento_modificado', {
			placeholder: 'e.g. 001-002-000058473',
			description: 'Full number: establishment-emission point-sequential',
		}),
		required: true,
		displayOptions: fieldsMode,
	},
	{
		...text(
			displayName(TOP.fecha_emision_documento_modificado),
			'fecha_emision_documento_modificado',
			{
				placeholder: 'e.g. 2026-03-15',
				description: 'ISO 8601; not after the note’s own issue date',
			},
		),
		required: true,
		displayOptions: fieldsMode,
	},
];

export function readModifiedDocument(this: IExecuteFunctions, i: number): IDataObject {
	const out: IDataObject = {};
	for (const name of [
		'tipo_documento_modificado',
		'numero_documento_modificado',
		'fecha_emision_documento_modificado',
	])
		out[name] = textParam.call(this, name, i);
	return out;
}

/** A text parameter of item `i`, trimmed. */
export function textParam(this: IExecuteFunctions, name: string, i: number): string {
	return String(this.getNodeParameter(name, i, '') ?? '').trim();
}

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
export const modifiedDocumentExample: IDataObject = {
	tipo_documento_modificado: '01',
	numero_documento_modificado: '001-001-000000001',
	fecha_emision_documento_modificado: '2026-03-15',
};

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
