import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';
import type { OperationResult } from '../../../shared/router';
import type { PublicServiceContext } from '../../../shared/soap';
import { xmlSourceFields } from '../../../shared/xmlSource';
import { attachXmlOption, binaryFieldOption } from './common.descriptions';
import { optionsOf, outputField, receiptOutput } from './output';
import { readXmlInput } from './xmlFile';

export const kind = 'read';

/** Version 2, a file read: the input's file goes on under the name it came with, unless this is on. */
const renameFileOption: INodeProperties = {
	displayName: 'Rename File to Access Key',
	name: 'renameFile',
	type: 'boolean',
	default: false,
	description:
		'Whether to rename the file read to its access key (its 49 digits, then .xml). Off, it keeps the name it arrived with, which is also in file_name.',
	displayOptions: { show: { '/xmlSource': ['binary'] } },
};

export const description: INodeProperties[] = updateDisplayOptions(
	{ show: { resource: ['receipt'], operation: ['readXml'] } },
	[
		...xmlSourceFields({
			what: 'The receipt XML, or its authorization file,',
			placeholder: 'e.g. <autorizacion><estado>AUTORIZADO</estado>…</autorizacion>',
		}),
		outputField,
		optionsOf(1, [attachXmlOption, binaryFieldOption]),
		optionsOf(2, [
			{
				...attachXmlOption,
				description:
					'Whether to add the XML given as text as a binary file named after its access key (its 49 digits, then .xml)',
				displayOptions: { show: { '/xmlSource': ['text'] } },
			},
			{ ...binaryFieldOption, displayOptions: { show: { '/xmlSource': ['text'] } } },
			renameFileOption,
		]),
	],
);

/**
 * Reads a receipt XML, or its authorization file, from a binary field or a text parameter, with the package's
 * XML reader (shared/xml.ts: no DOCTYPE, no entity expansion, limits), and outputs the same fields as Check
 * Authorization (domain/result.ts; version 2: as Output says, with the input's files). A file that cannot be
 * read is the item's error, naming the file; in version 2 it leaves by Not Read (router.ts) and the others go on.
 * Nothing is sent anywhere.
 */
export async function execute(
	this: IExecuteFunctions,
	_ctx: PublicServiceContext,
	i: number,
): Promise<OperationResult> {
	const read = await readXmlInput.call(this, i);
	read.presented.xml = read.xml;
	return await receiptOutput.call(
		this,
		i,
		read.presented,
		this.getNodeParameter('options', i, {}) as IDataObject,
		{ fileName: read.name, ...(read.field !== undefined ? { readField: read.field } : {}) },
	);
}
