import type { INodeProperties } from 'n8n-workflow';
import { concurrencyOption } from '../../../shared/router';

/**
 * Options → Parallel Requests of Check Authorization: 2 at a time by default. The SRI asks callers not to
 * stress its services (Ficha técnica, esquema offline), and answers one key in well under a second.
 */
export const parallelRequestsOption: INodeProperties = {
	...concurrencyOption,
	typeOptions: { minValue: 1, maxValue: 10, numberPrecision: 0 },
	default: 2,
	description:
		'How many access keys to ask the SRI about at the same time (read once per execution, from the first item). The SRI asks not to be stressed: keep it small. Output order always matches input order.',
};

/** Options → Request Timeout of Check Authorization. */
export const requestTimeoutOption: INodeProperties = {
	displayName: 'Request Timeout (Seconds)',
	name: 'requestTimeout',
	type: 'number',
	typeOptions: { minValue: 1, maxValue: 600, numberPrecision: 0 },
	default: 30,
	description:
		'How long asking about one key may take at most, from sending the question to the last byte of the answer, retries included (read once per execution, from the first item). An answer that arrives slowly is cut at that time too.',
};

/** Options → Service Address of Check Authorization. */
export const serviceAddressOption: INodeProperties = {
	displayName: 'Service Address',
	name: 'serviceAddress',
	type: 'string',
	default: '',
	placeholder: 'e.g. https://proxy.example.com/sri',
	description:
		"Leave empty to ask the SRI itself: its test host (celcer.sri.gob.ec) for keys of the test environment, its production host (cel.sri.gob.ec) for the others. A full address (scheme, host, port, optional path) sends every question there instead, e.g. to a proxy or a simulator; the service's path is added unless the address already ends with AutorizacionComprobantesOffline.",
};

/** Options → Attach XML File (on by default). */
export const attachXmlOption: INodeProperties = {
	displayName: 'Attach XML File',
	name: 'attachXml',
	type: 'boolean',
	default: true,
	description:
		'Whether to add the XML as a binary file named after its access key (its 49 digits, then .xml)',
};

/** Options → Put XML in Field. */
export const binaryFieldOption: INodeProperties = {
	displayName: 'Put XML in Field',
	name: 'binaryPropertyName',
	type: 'string',
	default: 'data',
	description: 'The name of the output binary field to put the XML file in',
};

/** What the errors of Check Authorization's input add: the SRI was not asked. */
export const NOT_ASKED =
	'Nothing was sent to the SRI. Fix the value in the input or in the node parameter and run again.';

/** What the errors of Read XML add: it only reads. */
export const ONLY_READS =
	'Read XML sends nothing anywhere. Give it the receipt’s XML or its authorization file as the SRI or the supplier sent it, e.g. the .xml attachment of the supplier’s e-mail.';
