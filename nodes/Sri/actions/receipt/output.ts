import type {
	IBinaryData,
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { itemError } from '../../../shared/errors';
import { ledgerRow } from '../../domain/ledger';
import type { Presented } from '../../domain/result';

/**
 * The item both operations output for a receipt, by node version:
 * - version 1 (saved workflows): the JSON of domain/result.ts and, with Attach XML File, the XML as
 *   `<clave de acceso>.xml` in Put XML in Field — the input item's files are not passed on;
 * - version 2: **Output** chooses the JSON — a **Ledger Row** (domain/ledger.ts, the default) or the **Whole
 *   Receipt** — and the input item's files always go on with it, under their own names (the file a supplier sent
 *   stays the file a supplier sent: Options → Rename File to Access Key renames Read XML's copy). Check
 *   Authorization's copy of the SRI's authorized XML never replaces an input file of the same field.
 */

/** `displayOptions` that show a property only in version 1 (saved workflows), or only from version 2. */
export const SHOWN_IN = {
	1: { show: { '@version': [1] } },
	2: { show: { '@version': [{ _cnd: { gte: 2 } }] } },
} satisfies Record<1 | 2, INodeProperties['displayOptions']>;

/** The operation's Options of node version `version`. */
export function optionsOf(version: 1 | 2, options: INodeProperties[]): INodeProperties {
	return {
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		options,
		displayOptions: SHOWN_IN[version],
	};
}

/** Version 2's Output: a purchases ledger's row (default), or the whole receipt. */
export const outputField: INodeProperties = {
	displayName: 'Output',
	name: 'output',
	type: 'options',
	options: [
		{
			name: 'Ledger Row',
			value: 'ledgerRow',
			description:
				'One flat row a purchases ledger takes as it is: issuer, number, date, access key, the base per IVA rate, IVA, ICE, total, what a retention withholds, warnings as one text. The whole receipt stays in its XML file.',
		},
		{
			name: 'Whole Receipt',
			value: 'whole',
			description:
				'The summary, the whole receipt as JSON (comprobante), the SRI messages and the warnings as lists',
		},
	],
	default: 'ledgerRow',
	displayOptions: SHOWN_IN[2],
};

/** What the item says about the file it came from, or was compared with (version 2). */
export interface FileFacts {
	/** The file's name as it arrived. */
	fileName?: string;
	/** Check Authorization: whether the file is the receipt the SRI authorized (null: nothing to compare). */
	matches?: boolean | null;
	/** Check Authorization: what differs, in words. */
	differences?: string[];
}

/** The whole output with the file's facts after `found` (the fields a workflow branches on stay together). */
function withFileFacts(json: IDataObject, facts: FileFacts): IDataObject {
	const out: IDataObject = {};
	for (const [key, value] of Object.entries(json)) {
		out[key] = value;
		if (key !== 'found') continue;
		if (facts.matches !== undefined && facts.matches !== null) out.matches_file = facts.matches;
		if (facts.differences?.length) out.file_differences = facts.differences;
		if (facts.fileName) out.file_name = facts.fileName;
	}
	return out;
}

/** The name of Put XML in Field (`options`: the item's Options), checked. */
function putXmlField(this: IExecuteFunctions, i: number, options: IDataObject): string {
	const raw = options.binaryPropertyName ?? 'data';
	const field = typeof raw === 'string' ? raw.trim() : '';
	if (!field)
		throw itemError(
			this.getNode(),
			i,
			'Options → Put XML in Field: must name a binary field, e.g. data',
			'Name the output binary field, or turn Options → Attach XML File off.',
		);
	return field;
}

/** `<clave de acceso>.xml`, or `comprobante.xml` when the key is not 49 digits (a file's own claveAcceso may hold anything). */
function keyFileName(presented: Presented): string {
	const key = presented.json.clave_acceso;
	return `${typeof key === 'string' && /^\d{49}$/.test(key) ? key : 'comprobante'}.xml`;
}

/** The XML as a binary file named after its key. */
async function xmlFile(
	this: IExecuteFunctions,
	presented: Presented,
	xml: string | Buffer,
): Promise<IBinaryData> {
	return await this.helpers.prepareBinaryData(
		typeof xml === 'string' ? Buffer.from(xml, 'utf8') : xml,
		keyFileName(presented),
		'application/xml',
	);
}

/**
 * The output item of input item `i`, `options` its Options (read once). `presented.xml`: the XML to attach (Check
 * Authorization: the SRI's authorization; Read XML: the XML it read), when there is one. `readField`: Read XML's
 * input binary field (its file is the one renamed by Rename File to Access Key).
 */
export async function receiptOutput(
	this: IExecuteFunctions,
	i: number,
	presented: Presented,
	options: IDataObject,
	file: FileFacts & { readField?: string } = {},
): Promise<INodeExecutionData[]> {
	const attach = options.attachXml !== false;
	if (this.getNode().typeVersion < 2) {
		const item: INodeExecutionData = { json: presented.json };
		if (attach && presented.xml !== undefined)
			item.binary = {
				[putXmlField.call(this, i, options)]: await xmlFile.call(this, presented, presented.xml),
			};
		return [item];
	}

	const json =
		this.getNodeParameter('output', i, 'ledgerRow') === 'whole'
			? withFileFacts(presented.json, file)
			: ledgerRow(presented.json, presented.receipt, {
					...(this.getNodeParameter('operation', i) === 'checkAuthorization'
						? { matches: file.matches ?? null }
						: {}),
					fileName: file.fileName ?? null,
				});
	const binary: Record<string, IBinaryData> = { ...(this.getInputData()[i]?.binary ?? {}) };
	if (file.readField !== undefined) {
		// Read XML of a file: the file goes on as it came, unless asked to be named after its key.
		if (options.renameFile === true)
			binary[file.readField] = { ...binary[file.readField], fileName: keyFileName(presented) };
	} else if (attach && presented.xml !== undefined) {
		const field = putXmlField.call(this, i, options);
		if (!Object.hasOwn(binary, field))
			binary[field] = await xmlFile.call(this, presented, presented.xml);
	}
	return [{ json, ...(Object.keys(binary).length ? { binary } : {}) }];
}
