import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { displayName, TOP } from '../../../domain/labels';
import { compact } from '../receiptInput';
import { fieldsMode, text, many } from './form';

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

export function readInfo(this: IExecuteFunctions, i: number): IDataObject[] | undefined {
	const entries = many
		.call(this, 'info_adicional.entry', i)
		.map(compact)
		.filter((e) => Object.keys(e).length);
	return entries.length ? entries : undefined;
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
