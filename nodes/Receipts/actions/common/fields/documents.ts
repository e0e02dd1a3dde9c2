import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { displayName, TOP } from '../../../domain/labels';
import { fieldsMode, textParam, text } from './form';

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

export const modifiedDocumentExample: IDataObject = {
	tipo_documento_modificado: '01',
	numero_documento_modificado: '001-001-000000001',
	fecha_emision_documento_modificado: '2026-03-15',
};
