import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';
import { addFacts, itemError, itemLabel } from '../../../shared/errors';
import { maxFileSizeOption, readMaxFileBytes } from '../../../shared/files';
import { Deferred, type OperationResult } from '../../../shared/router';
import type { PublicServiceContext } from '../../../shared/soap';
import { readSourceOrNotRead } from '../../../shared/xmlSource';
import {
	keepOnce,
	readReceivedList,
	type LineNotRead,
	type ListedReceipt,
} from '../../domain/receivedList';

export const kind = 'read';

/** What the errors of this operation add: it only reads. */
const ONLY_READS =
	'Read Received List sends nothing anywhere. Give it the .txt file SRI en línea downloads (Facturación electrónica → Comprobantes electrónicos recibidos), as it was downloaded.';

const ownRucOption: INodeProperties = {
	displayName: 'Your RUC',
	name: 'ownRuc',
	type: 'string',
	default: '',
	placeholder: 'e.g. 1792146739001',
	description:
		'Your RUC, 13 digits. A row whose IDENTIFICACION_RECEPTOR is neither this RUC nor its first 10 digits (the cédula inside a person’s RUC), or whose access key you issued yourself, gets a warning.',
};

export const description: INodeProperties[] = updateDisplayOptions(
	{ show: { resource: ['receivedList'], operation: ['read'] } },
	[
		{
			displayName: 'Input Binary Field',
			name: 'binaryPropertyName',
			type: 'string',
			default: 'data',
			required: true,
			hint: 'The name of the input binary field holding the .txt file the SRI portal downloads',
			description:
				'One file per input item: several items are several downloads (a month and another, one per document type), read in one run, each receipt kept once',
		},
		{
			displayName: 'Options',
			name: 'options',
			type: 'collection',
			placeholder: 'Add Option',
			default: {},
			options: [
				{
					...maxFileSizeOption,
					description:
						'The largest file read. A row of the list takes about 250 bytes: 10 MB holds some 40,000 receipts. A larger file is refused without being read whole.',
				},
				ownRucOption,
			],
		},
	],
);

/** One file read in a run, kept until every item has been read (receipts listed in several files are kept once). */
interface FileRead {
	label: string;
	fileName: string | null;
	receipts: ListedReceipt[];
	notRead: LineNotRead[];
	/** The file's receipts left once `keepOnce` has seen every file of the run. */
	kept?: ListedReceipt[];
}

/** The files of a run, by input item: the execution's context is the run's (router.ts makes one per run). */
const RUNS = new WeakMap<PublicServiceContext, Map<number, FileRead>>();

/** Options → Your RUC of item `i`: undefined when empty; a setting that is not a RUC stops the node. */
function ownRucOf(this: IExecuteFunctions, i: number, options: IDataObject): string | undefined {
	const raw = options.ownRuc;
	const ruc = typeof raw === 'number' ? String(raw) : typeof raw === 'string' ? raw.trim() : '';
	if (!ruc) return undefined;
	if (!/^\d{13}$/.test(ruc))
		throw itemError(
			this.getNode(),
			i,
			`Options → Your RUC: must be your RUC, 13 digits, got ${JSON.stringify(ruc.slice(0, 40))}`,
			'Type your RUC, or remove the option. Nothing was read.',
		);
	return ruc;
}

/**
 * Reads the SRI portal's list of the receipts issued to the taxpayer (domain/receivedList.ts) from the file on item
 * `i`: one output item per receipt, paired with the file's item, for Check Authorization to fetch each one by its
 * access key. A file that is not the list leaves by Not Read (version 2), named; so does each line whose access key
 * is not one, with its line number. Receipts listed twice, in one file or in several files of the run, are output
 * once (the first, in input order), with a warning. A file with no receipt outputs nothing, and says so in the
 * node's output panel (an execution hint). Nothing is sent anywhere.
 */
export async function execute(
	this: IExecuteFunctions,
	ctx: PublicServiceContext,
	i: number,
): Promise<OperationResult | Deferred> {
	const options = this.getNodeParameter('options', i, {}) as IDataObject;
	const ownRuc = ownRucOf.call(this, i, options);
	const maxBytes = readMaxFileBytes.call(this, i);
	const { data, field, fileName, notRead } = await readSourceOrNotRead.call(
		this,
		i,
		{ maxBytes, why: ' (Options → Max File Size)' },
		ONLY_READS,
	);
	// Always a file here (the operation has no XML Source field); text, from a node saved otherwise, read as UTF-8.
	const read = readReceivedList(typeof data === 'string' ? Buffer.from(data, 'utf8') : data, {
		ownRuc,
	});
	if ('problem' in read)
		throw addFacts(itemError(this.getNode(), i, `${field}: ${read.problem}`, ONLY_READS), notRead);

	let run = RUNS.get(ctx);
	if (!run) RUNS.set(ctx, (run = new Map()));
	const file: FileRead = {
		label: field,
		fileName: fileName ?? null,
		receipts: read.receipts,
		notRead: read.notRead,
	};
	run.set(i, file);
	// Settled once every item is read (router.ts), so that a receipt of two files is kept in the first.
	return new Deferred(async () => {
		const files = run;
		if (file.kept === undefined) {
			const order = [...files.keys()].sort((a, b) => a - b).map((k) => files.get(k) as FileRead);
			keepOnce(order).forEach((kept, k) => (order[k].kept = kept));
		}
		if (read.rows === 0)
			this.addExecutionHints({
				message: `${field} lists no receipts (only its header line): the SRI found none for the year, month, day and document type it was downloaded with. If you expected some, download it again from SRI en línea.`,
				location: 'outputPane',
			});
		return outputOf(file, i);
	});
}

/** The output of a file: a row per receipt kept, then an error row per line not read (version 2: Not Read). */
function outputOf(file: FileRead, i: number): IDataObject[] {
	const rows: IDataObject[] = (file.kept ?? file.receipts).map((receipt) => ({
		...receipt.row,
		file_name: file.fileName,
		line: receipt.line,
		warnings: receipt.warnings.join(' | '),
	}));
	for (const line of file.notRead)
		rows.push({
			error: `${itemLabel(i)} ${file.label}, line ${line.line}: ${line.problem}. The row is not read, so its receipt is not fetched: check the line in the file as SRI en línea gave it.`,
			item_index: i,
			...(file.fileName ? { file_name: file.fileName } : {}),
			line: line.line,
		});
	return rows;
}
