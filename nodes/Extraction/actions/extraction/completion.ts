import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';
import {
	DOCUMENT_FORMATS,
	documentsOf,
	fileNameFor,
	formatOf,
	type DocumentFormat,
} from '../../domain/documents';
import { LIMITS } from '../../domain/limits';
import { jobIdIn } from '../../domain/names';
import { binaryKeptSize } from '../../../shared/budget';
import { readMaxFileBytes } from '../../../shared/files';
import { segmentProblem } from '../../../shared/path';
import { redact } from '../../../shared/redact';
import { attachRecovery } from '../../../shared/errors';
import {
	followUntilFinal,
	readWaitTimes,
	timedOutWarning,
	type WaitSettings,
} from '../../../shared/wait';
import { LEGACY_WAIT_FIELDS, pollIntervalOption, waitTimeoutField } from '../common.descriptions';
import { downloadDocument, readJob, type ExtractionContext } from '../../transport';

/** Wait for Completion (the one wait rule, shared/wait.ts) and Download All, shared by Create and Get. */

interface CompletionSettings {
	/** Wait for Completion: its Timeout and Poll Interval, or undefined when off. */
	wait: WaitSettings | undefined;
	downloadAll: boolean;
	/** Format → binary field. */
	fields: Partial<Record<DocumentFormat, string>>;
	/** Max File Size of Download All, in bytes. */
	maxBytes: number;
}

export function readCompletionSettings(
	this: IExecuteFunctions,
	i: number,
	operation: 'create' | 'get',
): CompletionSettings {
	const waiting = this.getNodeParameter('waitForCompletion', i, false) as boolean;
	const downloadAll =
		(operation === 'get' || waiting) && (this.getNodeParameter('downloadAll', i, false) as boolean);
	const fields: CompletionSettings['fields'] = {};
	if (downloadAll) {
		const formats = String(this.getNodeParameter('formats', i, 'XML'))
			.split(',')
			.map(formatOf);
		if (formats.length === 1 && formats[0]) {
			fields[formats[0]] =
				String(this.getNodeParameter('binaryPropertyName', i, 'data')).trim() || 'data';
		} else {
			fields.XML =
				String(this.getNodeParameter('xmlBinaryPropertyName', i, 'data')).trim() || 'data';
			fields.PDF = String(this.getNodeParameter('pdfBinaryPropertyName', i, 'pdf')).trim() || 'pdf';
			if (fields.XML === fields.PDF) {
				throw new NodeOperationError(
					this.getNode(),
					`pdfBinaryPropertyName: must differ from the XML field ("${fields.XML}")`,
					{
						itemIndex: i,
						description: 'Each format needs its own output field. Nothing was sent.',
					},
				);
			}
		}
	}
	return {
		// Read only when waiting (the fields are hidden otherwise); the 100-per-minute budget paces the checks further.
		wait: waiting
			? readWaitTimes.call(
					this,
					i,
					{ timeout: waitTimeoutField, pollInterval: pollIntervalOption },
					LEGACY_WAIT_FIELDS,
				)
			: undefined,
		downloadAll,
		fields,
		maxBytes: downloadAll ? readMaxFileBytes.call(this, i, { inOptions: false }) : 0,
	};
}

/**
 * The job ID from the parameter, or from the input item (publicId or the beta extractionId); an ID that cannot
 * be part of an address (shared/path.ts: `..`, `/`, `?`, `#`, `%`, spaces) stops the item, naming where it came from.
 */
export function resolveJobId(this: IExecuteFunctions, i: number): string {
	const raw = this.getNodeParameter('extractionId', i, '') as unknown;
	const fromParameter =
		raw && typeof raw === 'object'
			? jobIdIn(raw as IDataObject)
			: String(raw ?? '').trim() || undefined;
	const id = fromParameter ?? jobIdIn(this.getInputData()[i]?.json);
	if (!id) {
		throw new NodeOperationError(this.getNode(), `extractionId: is required`, {
			itemIndex: i,
			description:
				'Enter the publicId of the extraction, or pass an item that has publicId or extractionId. Nothing was sent.',
		});
	}
	const problem = segmentProblem(id);
	if (problem) {
		throw new NodeOperationError(
			this.getNode(),
			`${fromParameter ? 'extractionId' : 'publicId (from the input item)'}: ${problem}`,
			{
				itemIndex: i,
				description:
					'Enter the publicId of the extraction as the service gave it. Nothing was sent.',
			},
		);
	}
	return id;
}

const status = (job: IDataObject) => String(job.status ?? '').toUpperCase();

function progress(job: IDataObject): string {
	return `discoveryCount ${String(job.discoveryCount ?? '?')}, completedCount ${String(job.completedCount ?? '?')}`;
}

/**
 * Follows the job with GET /v1/extractions/{publicId} by the one wait rule (shared/wait.ts), each check
 * paced by the execution's 100-per-minute budget, from `first` (the create's answer, or Get's first read).
 * Throws on FAILED, and when a check failure ends the wait (a refused key, or the last failure when the
 * deadline came); when the Timeout passes first, returns the job's last state with `timedOut`.
 */
async function followJob(
	this: IExecuteFunctions,
	ctx: ExtractionContext,
	publicId: string,
	i: number,
	wait: WaitSettings,
	first: IDataObject,
): Promise<{ job: IDataObject; timedOut: boolean }> {
	const followed = await followUntilFinal<IDataObject>({
		settings: wait,
		first,
		check: async (deadline) => {
			const job = await readJob(ctx, publicId, i, deadline);
			return job === 'deadline' ? undefined : job;
		},
		isFinal: (job) => {
			if (status(job) === 'FAILED') throw failedJobError.call(this, job, publicId, i);
			return status(job) === 'COMPLETED';
		},
		path: `/v1/extractions/${publicId}`,
		what: 'job',
	});
	if (followed.outcome === 'check-failed') throw followed.error;
	return { job: followed.state, timedOut: followed.outcome === 'timed-out' };
}

/**
 * What Create and Get output after Wait for Completion: the documents (Download All) or the final job; or,
 * when the Timeout passed first, the job in its last state, marked `wait_timed_out: true`, with a warning that
 * says it exists and how to follow it (nothing is downloaded then). `created`: this item created the job.
 */
export async function afterWait(
	this: IExecuteFunctions,
	ctx: ExtractionContext,
	publicId: string,
	i: number,
	settings: CompletionSettings & { wait: WaitSettings },
	first: IDataObject,
	opts: { created: boolean; warnings: string[] },
): Promise<IDataObject | INodeExecutionData[]> {
	const { job, timedOut } = await followJob.call(this, ctx, publicId, i, settings.wait, first);
	if (opts.created) ctx.created?.setState(i, status(job) || undefined);
	if (!timedOut) {
		if (settings.downloadAll)
			return await downloadAllDocuments.call(this, ctx, job, publicId, i, settings);
		return opts.warnings.length ? { ...job, warnings: opts.warnings } : job;
	}
	const follow = opts.created
		? `This extraction exists: do not create it again; follow it with Extraction → Get (publicId ${publicId}), or start a workflow from its extraction.completed webhook.`
		: `The job continues on the service: read it again later with Extraction → Get (publicId ${publicId}), or start a workflow from its extraction.completed webhook.`;
	const nothing = settings.downloadAll
		? ' Nothing was downloaded: run Get with Download All once the job is COMPLETED.'
		: '';
	const state = status(job) ? `${status(job)} (${progress(job)})` : 'unknown';
	return {
		...job,
		wait_timed_out: true,
		warnings: [
			...opts.warnings,
			`${timedOutWarning('Wait for Completion', settings.wait, state)} ${follow}${nothing}`,
		],
	};
}

function failedJobError(
	this: IExecuteFunctions,
	job: IDataObject,
	publicId: string,
	i: number,
): NodeOperationError {
	const error = (job.error && typeof job.error === 'object' ? job.error : {}) as IDataObject;
	const code = typeof error.code === 'string' ? error.code : undefined;
	const message =
		typeof error.message === 'string'
			? error.message
			: typeof job.error === 'string'
				? job.error
				: undefined;
	const details = error.details !== undefined ? JSON.stringify(redact(error.details)) : undefined;
	const hint =
		code === 'INVALID_CREDENTIALS'
			? ' The SAT rejected the taxpayer credentials: check the RFC and the SAT password (or FIEL files).'
			: '';
	const failed = new NodeOperationError(
		this.getNode(),
		`Extraction ${publicId} FAILED${code ? `: ${code}` : ''}${message ? ` - ${message}` : ''}`,
		{
			itemIndex: i,
			description: `${details ? `Details: ${details}.` : ''}${hint} (${progress(job)})`.trim(),
		},
	);
	// The message names the job already (see create.operation.ts).
	return attachRecovery(failed, { publicId });
}

/** How to ask Download All for less memory (shared/budget.ts). */
const DOWNLOAD_ALL_NARROW =
	"Download one format only, extract a shorter period, or download part of the documents with Download Document; or let n8n keep files outside memory (its binary data mode 'filesystem', N8N_DEFAULT_BINARY_DATA_MODE, the default of n8n 2.x)";

/**
 * Downloads every document of a completed job in the chosen formats: one item per document, its files as
 * binary fields. Documents are listed as domain/documents.ts assumes. Every download the job needs is
 * reserved before the first one (all or none, see rateLimit.ts): a job that needs more than the execution's
 * hourly budget has left stops with nothing downloaded. Each file is counted against the memory the run may
 * keep as soon as n8n holds it (nothing when n8n's binary store keeps it outside memory: shared/budget.ts), so a
 * job too large for it stops before its next download.
 */
export async function downloadAllDocuments(
	this: IExecuteFunctions,
	ctx: ExtractionContext,
	job: IDataObject,
	publicId: string,
	i: number,
	settings: CompletionSettings,
): Promise<INodeExecutionData[]> {
	if (status(job) !== 'COMPLETED') {
		throw new NodeOperationError(
			this.getNode(),
			`Download All: extraction ${publicId} is ${status(job) || 'in an unknown state'}, not COMPLETED`,
			{
				itemIndex: i,
				description: `Documents can be downloaded once the job is COMPLETED (${progress(job)}). Turn on Wait for Completion, or run again later.`,
			},
		);
	}
	const documents = documentsOf(job);
	if (!documents) {
		throw new NodeOperationError(
			this.getNode(),
			`Download All: the record of extraction ${publicId} has no documents list`,
			{
				itemIndex: i,
				description:
					'The service does not document how to list the documents of a job; this node expects a "documents" list in the job record. Download single documents with Download Document, using the document IDs of the document.ready webhook.',
			},
		);
	}
	const wanted = DOCUMENT_FORMATS.filter((f) => settings.fields[f] !== undefined);
	const plan = documents.map((doc) => ({
		doc,
		formats: wanted.filter((f) => !doc.formats || doc.formats.includes(f)),
	}));
	const needed = plan.reduce((n, p) => n + p.formats.length, 0);
	// Reserved, not only checked: items running at the same time each hold their job's downloads, so together
	// they cannot pass the budget; what an item does not use (it failed half-way) goes back for the others.
	const reservation = ctx.downloads.reserve(needed);
	if (!reservation) {
		throw new NodeOperationError(
			this.getNode(),
			`Download All: extraction ${publicId} needs ${needed} downloads, more than this execution may still make`,
			{
				itemIndex: i,
				description: `The service allows ${LIMITS.downloads.label}, counted here for this execution (all items together); ${ctx.downloads.available()} remain. Nothing was downloaded. Download one format only, or use Download Document for part of the documents.`,
			},
		);
	}
	const items: INodeExecutionData[] = [];
	try {
		for (const { doc, formats } of plan) {
			const binary: INodeExecutionData['binary'] = {};
			const files: IDataObject[] = [];
			for (const format of formats) {
				const file = await downloadDocument(
					ctx,
					publicId,
					doc.id,
					format,
					i,
					settings.maxBytes,
					reservation,
				);
				const field = settings.fields[format] as string;
				const fileName = fileNameFor(doc.id, format);
				binary[field] = await this.helpers.prepareBinaryData(file.body, fileName, file.mimeType);
				ctx.kept?.keep(i, binaryKeptSize(binary[field]), 0, 'Download All', DOWNLOAD_ALL_NARROW);
				files.push({
					format,
					field,
					fileName,
					mimeType: file.mimeType,
					fileSize: file.body.length,
				});
			}
			const skipped = wanted.filter((f) => !formats.includes(f));
			const json: IDataObject = {
				publicId,
				documentId: doc.id,
				document: redact(doc.record),
				files,
			};
			if (skipped.length) json.skippedFormats = skipped;
			items.push(files.length ? { json, binary } : { json });
		}
	} finally {
		reservation.release();
	}
	return items;
}
