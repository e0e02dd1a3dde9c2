import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { displayName, RETAINED, TOP } from '../../domain/labels';
import { documentTypeField } from '../common/fields/documents';
import {
	COMPUTED_HINT,
	fieldsMode,
	formVersion,
	many,
	one,
	withoutZeros,
	type FormVersion,
} from '../common/fields/form';
import {
	additionalFields,
	headFields,
	periodoFiscalField,
	readCommon,
} from '../common/fields/head';
import { infoDictionaryField, readInfoDictionary } from '../common/fields/info';
import { withholdingTaxFields } from '../common/fields/items';
import { emisorField, partyField } from '../common/fields/parties';
import { compact } from '../common/receiptInput';

/**
 * Retention (comprobante de retención, `/retentions`; the service's public documentation, Comprobantes de
 * Retención): the form (example, Fields, reader) of this kind; its operations: the table of
 * actions/receiptKinds.ts.
 */
export const retentionExample = {
	ambiente: 1,
	tipo_emision: 1,
	secuencial: 1,
	periodo_fiscal: '03/2026',
	emisor: { ruc: '', razon_social: '', establecimiento: { codigo: '001', punto_emision: '001' } },
	sujeto: { identificacion: '', tipo_identificacion: '04', razon_social: '' },
	items: [
		{
			base_imponible: 100,
			codigo: '1',
			codigo_porcentaje: '312',
			valor_retenido: 1.75,
			fecha_emision_documento_sustento: '2026-03-01',
			numero_documento_sustento: '001-001-000000001',
			tipo_documento_sustento: '01',
		},
	],
};

export const retentionFields = (v: FormVersion): INodeProperties[] => [
	...headFields(v, 'secuencial'),
	periodoFiscalField,
	emisorField(v),
	partyField(v, 'sujeto', TOP.sujeto, 'Who the retention is issued to'),
	{
		displayName: displayName(TOP.retainedTaxes),
		name: 'items',
		type: 'fixedCollection',
		typeOptions: { multipleValues: true },
		default: {},
		required: true,
		placeholder: 'Add Retained Tax',
		displayOptions: fieldsMode,
		options: [
			{
				displayName: 'Retained Tax',
				name: 'item',
				values: [
					{
						displayName: displayName(RETAINED.porcentaje),
						name: 'porcentaje',
						type: 'number',
						default: 0,
						description:
							v === 2
								? "0: the rate of the percentage code (the service's catalog, or the built-in table for VAT and ISD)"
								: 'Optional;	0 leaves it out',
						...(v === 2 ? { hint: COMPUTED_HINT } : {}),
					},
					{
						displayName: displayName(RETAINED.valor_retenido),
						name: 'valor_retenido',
						type: 'number',
						default: 0,
						description:
							v === 2
								? 'Computed when 0: taxable base × percentage'
								: 'Base times percentage, at most 2 decimals',
						...(v === 2 ? { hint: COMPUTED_HINT } : {}),
					},
					{
						displayName: displayName(RETAINED.fecha_emision_documento_sustento),
						name: 'fecha_emision_documento_sustento',
						type: 'string',
						default: '',
						placeholder: 'e.g. 2026-03-01',
						description: 'ISO 8601',
					},
					{
						displayName: displayName(RETAINED.numero_documento_sustento),
						name: 'numero_documento_sustento',
						type: 'string',
						default: '',
						placeholder: 'e.g. 001-001-000000123',
					},
					documentTypeField(
						displayName(RETAINED.tipo_documento_sustento),
						'tipo_documento_sustento',
					),
					...withholdingTaxFields,
					{
						displayName: displayName(RETAINED.base_imponible),
						name: 'base_imponible',
						type: 'number',
						default: 0,
						description: 'At most 2 decimals',
					},
				],
			},
		],
	},
	infoDictionaryField(
		'Name/value pairs printed on the retention (sent as informacion_adicional, the field this endpoint documents)',
	),
	additionalFields(v),
];

export function readRetentionFields(this: IExecuteFunctions, i: number): IDataObject {
	const v = formVersion.call(this);
	return compact({
		...readCommon.call(this, i, 'secuencial'),
		periodo_fiscal: String(this.getNodeParameter('periodo_fiscal', i, '')).trim(),
		sujeto: compact(one.call(this, 'sujeto', i)),
		items: many.call(this, 'items.item', i).map((item) => {
			const out = compact(withoutZeros(v, item, ['valor_retenido']));
			if (out.porcentaje === 0) delete out.porcentaje;
			return out;
		}),
		informacion_adicional: readInfoDictionary.call(this, i),
	});
}
