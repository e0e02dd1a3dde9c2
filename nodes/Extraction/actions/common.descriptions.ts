import type { INodeProperties } from 'n8n-workflow';
import { maxFileSizeOption } from '../../shared/files';
import { pollIntervalProperty, POLL_INTERVAL_RULE, waitTimeoutProperty } from '../../shared/wait';

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

/**
 * Wait for Completion follows the package's one wait rule (shared/wait.ts): the same Timeout and Options → Poll
 * Interval as Receipts' Wait for Final State, the same growing interval, and the same ending: a job that has not
 * finished when the Timeout passes is output in its last state, marked `wait_timed_out`.
 */
export const waitTimeoutField = waitTimeoutProperty({
	default: 600,
	description:
		'How long to wait at most (up to a day). When it passes, the job is output in its last state with wait_timed_out set to true; it continues on the service.',
	displayOptions: { show: { waitForCompletion: [true] } },
});

/** Options → Poll Interval: the first interval of Wait for Completion, growing by half after each check. */
export const pollIntervalOption = pollIntervalProperty({
	default: 15,
	description: `Wait for Completion: ${POLL_INTERVAL_RULE}. The status checks of this execution (all items together) also stay within the service limit of 100 per minute.`,
});

/**
 * What versions before the one wait rule saved: `timeout` (Timeout) and a `pollInterval` of its own (Check
 * Every, a fixed interval), both shown under Wait for Completion. Kept as hidden parameters so that n8n passes a
 * saved value on to the node (it drops parameters its description does not list); shared/wait.ts reads them
 * while the new fields are left as they are.
 */
export const LEGACY_WAIT_FIELDS = {
	timeout: { name: 'timeout', label: 'Timeout (Seconds)' },
	pollInterval: { name: 'pollInterval', label: 'Check Every (Seconds)' },
} as const;

const legacyWaitFields: INodeProperties[] = Object.values(LEGACY_WAIT_FIELDS).map((legacy) => ({
	displayName: legacy.label,
	name: legacy.name,
	type: 'hidden',
	default: '',
	displayOptions: { show: { waitForCompletion: [true] } },
}));

export const waitFields = (operation: string): INodeProperties[] => [
	{
		displayName: 'Wait for Completion',
		name: 'waitForCompletion',
		type: 'boolean',
		default: false,
		description:
			'Whether to check the job until it is COMPLETED or FAILED (or the timeout passes) and output the final job. The status checks of this execution (all items together) stay within the service limit of 100 per minute; other executions running at the same time are not counted.',
	},
	waitTimeoutField,
	...legacyWaitFields,
	{
		displayName: 'Download All',
		name: 'downloadAll',
		type: 'boolean',
		default: false,
		description:
			'Whether to download every document of the completed job and output one binary item per document instead of the job. Before the first download, the item reserves every download its job needs from the service limit of 1,000 per hour, counted for this execution (all items together; other executions running at the same time are not counted): a job that needs more than remain is refused with nothing downloaded.',
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
		description:
			'Which files to download for each document. A format a document does not offer (availableFormats) is skipped.',
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
