import type { INodeProperties } from 'n8n-workflow';
import { maxFileSizeOption } from '../../shared/files';

/** Fields shared by several Extraction operations. */

export const extractionIdField: INodeProperties = {
	displayName: 'Extraction ID',
	name: 'extractionId',
	type: 'string',
	default: '',
	placeholder: 'e.g. ext_2f9c1a7b',
	description:
		'The publicId of the extraction job. Leave empty to take publicId, or the beta name extractionId, from the input item (also under data, as in webhook deliveries).',
};

/** Wait for Completion: how long at most. */
export const waitTimeoutField: INodeProperties = {
	displayName: 'Timeout (Seconds)',
	name: 'timeout',
	type: 'number',
	typeOptions: { minValue: 1, maxValue: 86400 },
	default: 600,
	description: 'How long to wait for the job to finish (up to a day) before stopping with an error. The job continues on the service.',
	displayOptions: { show: { waitForCompletion: [true] } },
};

/** Wait for Completion: the time between two status checks. */
export const pollIntervalField: INodeProperties = {
	displayName: 'Check Every (Seconds)',
	name: 'pollInterval',
	type: 'number',
	typeOptions: { minValue: 0.1, maxValue: 3600, numberPrecision: 1 },
	default: 15,
	description: 'Seconds between two status checks (0.1 to 3600); the service limit of 100 checks per minute paces them further',
	displayOptions: { show: { waitForCompletion: [true] } },
};

export const waitFields = (operation: string): INodeProperties[] => [
	{
		displayName: 'Wait for Completion',
		name: 'waitForCompletion',
		type: 'boolean',
		default: false,
		description:
			'Whether to check the job until it is COMPLETED or FAILED (or the timeout passes) and output the final job. Status checks stay within the service limit of 100 per minute.',
	},
	waitTimeoutField,
	pollIntervalField,
	{
		displayName: 'Download All',
		name: 'downloadAll',
		type: 'boolean',
		default: false,
		description:
			'Whether to download every document of the completed job and output one binary item per document instead of the job. Downloads stay within the service limit of 1,000 per hour.',
		...(operation === 'create' ? { displayOptions: { show: { waitForCompletion: [true] } } } : {}),
	},
	{
		displayName: 'Formats',
		name: 'formats',
		type: 'options',
		default: 'XML',
		options: [
			{ name: 'PDF', value: 'PDF' },
			{ name: 'XML', value: 'XML' },
			{ name: 'XML and PDF', value: 'XML,PDF' },
		],
		description: 'Which files to download for each document. A format a document does not offer (availableFormats) is skipped.',
		displayOptions: { show: { downloadAll: [true] } },
	},
	{
		displayName: 'Put Output File in Field',
		name: 'binaryPropertyName',
		type: 'string',
		default: 'data',
		hint: 'The name of the output binary field to put the file in',
		displayOptions: { show: { downloadAll: [true], formats: ['XML', 'PDF'] } },
	},
	{ ...maxFileSizeOption, displayOptions: { show: { downloadAll: [true] } } },
	{
		displayName: 'Put XML File in Field',
		name: 'xmlBinaryPropertyName',
		type: 'string',
		default: 'data',
		hint: 'The name of the output binary field to put the XML file in',
		displayOptions: { show: { downloadAll: [true], formats: ['XML,PDF'] } },
	},
	{
		displayName: 'Put PDF File in Field',
		name: 'pdfBinaryPropertyName',
		type: 'string',
		default: 'pdf',
		hint: 'The name of the output binary field to put the PDF file in',
		displayOptions: { show: { downloadAll: [true], formats: ['XML,PDF'] } },
	},
];
