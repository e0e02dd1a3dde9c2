import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';
import { heldSize, type KeptBudget } from './budget';
import { itemLabel, keptMessage, upstreamError } from './errors';
import { binaryUpTo } from './files';
import { Findings, upstreamFinding, type StopGroup } from './findings';
import { megabytes } from './http';

/**
 * What every monthly declaration shares — the ATS (SRI → Monthly Annex → Build), the DIOT (SAT → DIOT → Build):
 * many items in, one filing out, n8n's aggregate pattern (shared/router.ts AggregateModule). The seam, in the order
 * an operation uses it:
 * - `documentsOf`: every input item read — a previous node's error, a file in the Input Binary Field, or the
 *   JSON of the node before — several at a time, kept in item order, each document counted against the run's
 *   memory budget as it is held, with one policy for what is not a document;
 * - `Findings` (shared/findings.ts): warnings, problems and stops, in item order, shared with the domain that builds;
 * - `stopError`: the one error that stops a filing, every problem grouped with its fix, nothing built;
 * - `lastCompletePeriod`: "the last complete period" on the authority's clock;
 * - `filingItem`: the output item — the file and the JSON, paired by the router with every input item.
 * The rules of each filing stay in its service's `domain/`; the operation reads the form, calls these, and writes.
 */

/** How many input items' files are read at the same time: n8n's binary store reads each one from disk. */
const FILES_AT_ONCE = 8;

/** The words a filing's messages use. */
interface FilingWords {
	/** The filing's name: `ATS`, `DIOT`. */
	name: string;
	/** What it is called in a sentence: `annex`, `DIOT`. */
	filing: string;
	/** One input document: `receipt`, `CFDI`. */
	document: string;
	/** Where a document missing from the file is added by hand: `in the DIMM`. */
	byHand: string;
}

/** Why an item is not a document the filing can use, in words that follow the item's label. */
type Unread = { unread: string };

/** A filing, as the seam reads its items: its words, and how one item's document is read. */
export interface Filing<T> {
	words: FilingWords;
	/** The operation, as the memory budget's error names it (`DIOT → Build DIOT File`). */
	what: string;
	/** How to ask for less when the month's documents pass the run's memory. */
	narrow: string;
	/** Files larger than this are not documents (said, not read). */
	maxBytes: number;
	/** The document in the bytes of the item's file (its Input Binary Field `field`), or why it is not one. */
	fromFile(bytes: Buffer, item: INodeExecutionData, index: number, field: string): T | Unread;
	/** The document in the item's JSON (it has no file in `field`), or why it is not one. */
	fromJson(item: INodeExecutionData, index: number, field: string): T | Unread;
	/** The stop group of the items that are not documents: its title, and its fix naming `field`. */
	notDocuments(field: string): { title: string; fix: string };
}

const isUnread = (read: unknown): read is Unread =>
	typeof read === 'object' && read !== null && 'unread' in read && typeof read.unread === 'string';

/** `pedido.xml (binary field "data"): ` — the file first, as the input panel names it. */
function fileNamed(item: INodeExecutionData, field: string): string {
	const name = item.binary?.[field]?.fileName;
	return name ? `${name} (binary field "${field}"): ` : `binary field "${field}": `;
}

/**
 * Every input item of `node`'s run read as `filing` says, `FILES_AT_ONCE` files at a time, into the documents of the
 * filing, in item order (`itemCount`: every item, documents or not). The item's file in Input Binary Field
 * (`binaryPropertyName`) is read before its JSON. One policy for the rest, every filing alike:
 * - an item whose JSON is a previous node's error (errors.ts `upstreamError`) and carries no document of its own
 *   (`comprobante`) is a problem of the filing, naming it (findings.ts `upstreamFinding`): built, never complete;
 * - an item that is not a document stops the filing, named with its file (one stop group).
 * Each document read is counted against the run's memory budget (`kept`) under its item: the documents a filing
 * holds while it builds are memory as real as its output.
 */
export async function documentsOf<T>(
	node: IExecuteFunctions,
	filing: Filing<T>,
	findings: Findings,
	kept: KeptBudget | undefined,
): Promise<{ documents: T[]; itemCount: number }> {
	const field = textParameter.call(node, 'binaryPropertyName');
	const items = node.getInputData();
	const read: Array<T | Unread | undefined> = new Array(items.length);
	const readOne = async (index: number): Promise<T | Unread | undefined> => {
		const item = items[index];
		const json = item.json ?? {};
		const error = json.comprobante === undefined ? upstreamError(json) : undefined;
		if (error !== undefined) {
			const fileName = typeof json.file_name === 'string' ? json.file_name : undefined;
			upstreamFinding(findings, index, error, filing.words, fileName);
			return undefined;
		}
		let document: T | Unread;
		if (!field || !item.binary || !Object.hasOwn(item.binary, field))
			document = filing.fromJson(item, index, field);
		else {
			const bytes = await binaryUpTo.call(node, index, field, filing.maxBytes);
			document =
				bytes === 'too-large'
					? { unread: `is larger than ${megabytes(filing.maxBytes)}` }
					: filing.fromFile(bytes, item, index, field);
			if (isUnread(document)) return { unread: `${fileNamed(item, field)}${document.unread}` };
		}
		// Held until the filing is built: counted now, so that a month too large stops before the next file.
		if (!isUnread(document)) kept?.keep(index, heldSize(document), 0, filing.what, filing.narrow);
		return document;
	};
	let next = 0;
	const worker = async () => {
		for (let i = next++; i < items.length; i = next++) read[i] = await readOne(i);
	};
	await Promise.all(Array.from({ length: Math.min(FILES_AT_ONCE, items.length) }, worker));
	const documents: T[] = [];
	const notDocuments = filing.notDocuments(field);
	read.forEach((document, index) => {
		if (document === undefined) return;
		if (isUnread(document))
			findings.stop(notDocuments.title, notDocuments.fix, `${itemLabel(index)} ${document.unread}`);
		else documents.push(document);
	});
	return { documents, itemCount: items.length };
}

/** The stop group of the form's own fields (a filing's taxpayer, its period): each line names its field. */
export const FORM_FIELDS = 'form fields to fix';

/** A field of the form that cannot be used: a line of FORM_FIELDS, led by the field's label as the form shows it. */
export function stopAtField(
	findings: Findings,
	label: string,
	line: string,
	fix = "Fix the node's parameters and run again.",
): void {
	findings.stop(FORM_FIELDS, fix, `${label}: ${line}`);
}

/** The most lines a group of a stopping error lists; the others are counted. */
const SHOWN_LINES = 50;

/**
 * The one error that stops a filing: its first line names what is wrong and the first item concerned, its details
 * every group (what is wrong, each item, how to fix it), kept as written (errors.ts keptMessage). Nothing is built.
 */
function stopError(
	this: IExecuteFunctions,
	words: FilingWords,
	groups: StopGroup[],
): NodeOperationError {
	const count = groups.reduce((n, g) => n + g.lines.length, 0);
	const [first] = groups;
	const message = `No ${words.name} was built: ${first.title}: ${first.lines[0]}${count > 1 ? ` (${count} problems in all: see the details)` : ''}`;
	const description = [
		...groups.map((g) => {
			const shown = g.lines.slice(0, SHOWN_LINES);
			const more = g.lines.length - shown.length;
			return `${g.title} (${g.lines.length}):\n- ${shown.join('\n- ')}${more ? `\n- … and ${more} more` : ''}\n${g.fix}`;
		}),
		'No file was built.',
	].join('\n\n');
	return keptMessage(new NodeOperationError(this.getNode(), message, { description }), message);
}

/**
 * Stops the filing when `findings` say so (see stopError).
 */
export function throwIfStopped(this: IExecuteFunctions, words: FilingWords, findings: Findings) {
	if (findings.stopped) throw stopError.call(this, words, findings.stops);
}

/** A period of a filing: a month, `year` and `month` (1–12). */
interface YearMonth {
	year: number;
	month: number;
}

/**
 * The last complete period at `nowMs` on the clock of `timeZone` (an IANA name: `America/Guayaquil`,
 * `America/Mexico_City`): the month before the one it is there; with `months` 6, the last semester that has
 * ended, named by its last month (June or December).
 */
export function lastCompletePeriod(nowMs: number, timeZone: string, months: 1 | 6 = 1): YearMonth {
	const [year, month] = new Intl.DateTimeFormat('en-CA', {
		timeZone,
		year: 'numeric',
		month: '2-digit',
	})
		.format(nowMs)
		.split('-')
		.map(Number);
	if (months === 6) return month <= 6 ? { year: year - 1, month: 12 } : { year, month: 6 };
	return month === 1 ? { year: year - 1, month: 12 } : { year, month: month - 1 };
}

/** Input Binary Field, at the top of every filing's form. */
export function inputBinaryField(documents: string): INodeProperties {
	return {
		displayName: 'Input Binary Field',
		name: 'binaryPropertyName',
		type: 'string',
		default: 'data',
		hint: `The binary field holding each item's ${documents} XML; an item without it is read from its JSON, as the reader node before outputs it`,
	};
}

/** Options → Put Output File in Field, in every filing's form. */
export const outputFieldOption: INodeProperties = {
	displayName: 'Put Output File in Field',
	name: 'outputBinaryField',
	type: 'string',
	default: 'data',
	description: 'The binary field of the output item that holds the file. Empty: data.',
};

/** A text parameter's value, trimmed; `fallback` when it is empty. */
export function textParameter(this: IExecuteFunctions, path: string, fallback = ''): string {
	const value = this.getNodeParameter(path, 0, fallback);
	const text = typeof value === 'string' || typeof value === 'number' ? String(value).trim() : '';
	return text || fallback;
}

/**
 * The filing's one output item: its verdict first — `ready_to_file`, true only for a file with no problem (the
 * nodes' version 3 sends it by Ready to File, anything else by Check First: shared/outputs.ts `filingOutputs`) —
 * then its JSON (what the bookkeeper reads and checks, its `warnings` and `problems` from `findings`) and, when
 * there is one, its file in the binary field Options → Put Output File in Field (empty: `data`). The router pairs
 * it with every input item, scrubs it and counts it.
 */
export async function filingItem(
	this: IExecuteFunctions,
	findings: Findings,
	json: IDataObject,
	file?: { bytes: Buffer; name: string; mimeType: string },
): Promise<INodeExecutionData> {
	const { warnings, problems } = findings;
	const out: IDataObject = {
		ready_to_file: file !== undefined && problems.length === 0,
		...json,
		warnings,
		problems,
	};
	if (!file) return { json: out };
	const field = textParameter.call(this, 'options.outputBinaryField', 'data');
	return {
		json: out,
		binary: {
			[field]: await this.helpers.prepareBinaryData(file.bytes, file.name, file.mimeType),
		},
	};
}
