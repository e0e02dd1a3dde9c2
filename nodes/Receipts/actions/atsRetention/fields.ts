import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { TOP } from '../../domain/labels';
import { one, type FormVersion } from '../common/fields/form';
import {
	additionalFields,
	headFields,
	periodoFiscalField,
	readCommon,
} from '../common/fields/head';
import { infoAdicionalField, readInfo } from '../common/fields/info';
import { emisorField, partyField } from '../common/fields/parties';
import { compact, jsonPart } from '../common/receiptInput';

/**
 * ATS retention (`/ats-retentions`; receipts service): the form (example, Fields, reader) of this kind; its
 * operations: the table of actions/receiptKinds.ts.
 */
export const atsRetentionExample = {
	ambiente: 1,
	tipo_emision: 1,
	secuencia: 1,
	periodo_fiscal: '03/2026',
	emisor: { ruc: '', razon_social: '', establecimiento: { codigo: '001', punto_emision: '001' } },
	sujeto: { identificacion: '', tipo_identificacion: '04', razon_social: '' },
	documentos_soporte: [
		{
			codigo_sustento: '01',
			tipo_documento: '01',
			numero: '001-001-000000001',
			fecha_emision: '2026-03-01',
			total_sin_impuestos: 100,
			total: 115,
			impuestos: [
				{ codigo: '2', codigo_porcentaje: '4', base_imponible: 100, tarifa: 15, valor: 15 },
			],
			retenciones: [
				{
					codigo: '1',
					codigo_porcentaje: '312',
					base_imponible: 100,
					tarifa: 1.75,
					valor_retenido: 1.75,
				},
			],
			pagos: [{ tipo_pago: '01', total: 115 }],
		},
	],
};

export const atsRetentionFields = (v: FormVersion): INodeProperties[] => [
	...headFields(v, 'secuencia'),
	periodoFiscalField,
	emisorField(v),
	partyField(v, 'sujeto', TOP.sujeto, 'Who the retention is issued to'),
	{
		displayName: 'Supporting Documents (JSON)',
		name: 'documentos_soporte',
		type: 'json',
		default: '',
		placeholder: JSON.stringify(atsRetentionExample.documentos_soporte, null, 2),
		required: true,
		displayOptions: { show: { inputMode: ['fields'] } },
		description:
			'The documentos_soporte list: each supporting document with its taxes, retentions, payments and optional reimbursement. Too deep for fields, so it is given as JSON here.',
	},
	infoAdicionalField('descripcion'),
	additionalFields(v, [
		{
			displayName: 'Retained Subject Type',
			name: 'tipo_sujeto_retenido',
			type: 'string',
			default: '',
			description: 'Required when the retained subject has a foreign identification',
		},
	]),
];

export function readAtsRetentionFields(this: IExecuteFunctions, i: number): IDataObject {
	return compact({
		...readCommon.call(this, i, 'secuencia'),
		periodo_fiscal: String(this.getNodeParameter('periodo_fiscal', i, '')).trim(),
		sujeto: compact(one.call(this, 'sujeto', i)),
		documentos_soporte: jsonPart.call(
			this,
			'documentos_soporte',
			'documentos_soporte',
			i,
		) as IDataObject[],
		info_adicional: readInfo.call(this, i),
	});
}
