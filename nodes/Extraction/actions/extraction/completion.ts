import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeOperationError, sleep } from 'n8n-workflow';
import { DOCUMENT_FORMATS, documentsOf, fileNameFor, formatOf, type DocumentFormat } from '../../domain/documents';
import { LIMITS } from '../../domain/limits';
import { jobIdIn } from '../../domain/names';
import { readMaxFileBytes } from '../../../shared/files';
import { segmentProblem } from '../../../shared/path';
import { redact } from '../../../shared/redact';
import { failedCheck, lastCheckFailure } from '../../../shared/transport';
import { attachRecovery } from '../../../shared/errors';
import { numberOption } from '../../../shared/options';
import { pollIntervalField, waitTimeoutField } from '../common.descriptions';
import { downloadDocument, readJob, type ExtractionContext } from '../../transport';

/** Wait-for-completion and Download All, shared by Create and Get. */

export interface CompletionSettings {
	wait: boolean;
	timeoutMs: number;
	intervalMs: number;
	downloadAll: boolean;
	/** Format → binary field. */
	fields: Partial<Record<DocumentFormat, string>>;
	/** Max File Size of Download All, in bytes. */
	maxBytes: number;
}

export function readCompletionSettings(this: IExecuteFunctions, i: number, operation: 'create' | 'get'): CompletionSettings {
	const wait = this.getNodeParameter('waitForCompletion', i, false) as boolean;
	const downloadAll = (operation === 'get' || wait) && (this.getNodeParameter('downloadAll', i, false) as boolean);
	const fields: CompletionSettings['fields'] = {};
	if (downloadAll) {
		const formats = String(this.getNodeParameter('formats', i, 'XML')).split(',').map(formatOf);
		if (formats.length === 1 && formats[0]) {
			fields[formats[0]] = String(this.getNodeParameter('binaryPropertyName', i, 'data')).trim() || 'data';
		} else {
			fields.XML = String(this.getNodeParameter('xmlBinaryPropertyName', i, 'data')).trim() || 'data';
			fields.PDF = String(this.getNodeParameter('pdfBinaryPropertyName', i, 'pdf')).trim() || 'pdf';
			if (fields.XML === fields.PDF) {
				throw new NodeOperationError(this.getNode(), `pdfBinaryPropertyName: must differ from the XML field ("${fields.XML}")`, {
					itemIndex: i,
					description: 'Each format needs its own output field. Nothing was sent.',
				});
			}
		}
	}
	return {
		wait,
		// Read only when waiting (the fields are hidden otherwise); the 100-per-minute budget paces the checks further.
		intervalMs: wait ? numberOption.call(this, pollIntervalField, i) * 1000 : 0,
		timeoutMs: wait ? numberOption.call(this, waitTimeoutField, i) * 1000 : 0,
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
		raw && typeof raw === 'object' ? jobIdIn(raw as IDataObject) : String(raw ?? '').trim() || undefined;
	const id = fromParameter ?? jobIdIn(this.getInputData()[i]?.json);
	if (!id) {
		throw new NodeOperationError(this.getNode(), `extractionId: is required`, {
			itemIndex: i,
			description: 'Enter the publicId of the extraction, or pass an item that has publicId or extractionId. Nothing was sent.',
		});
	}
	const problem = segmentProblem(id);
	if (problem) {
		throw new NodeOperationError(this.getNode(), `${fromParameter ? 'extractionId' : 'publicId (from the input item)'}: ${problem}`, {
			itemIndex: i,
			description: 'Enter the publicId of the extraction as the service gave it. Nothing was sent.',
		});
	}
	return id;
}

const status = (job: IDataObject) => String(job.status ?? '').toUpperCase();

function progress(job: IDataObject): string {
	return `discoveryCount ${String(job.discoveryCount ?? '?')}, completedCount ${String(job.completedCount ?? '?')}`;
}

/**
 * Checks the job until COMPLETED or FAILED; throws on FAILED and on timeout. `first` is a record already read.
 * A check that fails for a reason that may pass — the service does not know a new job yet (404), a rate
 * limit past the transport's retries (429), a 5xx or the network — does not end the wait; the deadline
 * does, and the error then names the last failure. A refused key (401/403) ends it at once. No check
 * outlives the deadline.
 */
export async function waitForJob(
	this: IExecuteFunctions,
	ctx: ExtractionContext,
	publicId: string,
	i: number,
	settings: CompletionSettings,
	first?: IDataObject,
): Promise<IDataObject> {
	const started = Date.now();
	const deadline = started + settings.timeoutMs;
	let job = first;
	let last: IDataObject | undefined = first;
	let lastError: unknown;
	for (;;) {
		if (!job) {
			let next: IDataObject | 'deadline';
			try {
				next = await readJob(ctx, publicId, i, deadline);
				lastError = undefined;
			} catch (error) {
				const failed = failedCheck(error);
				if (failed.counts) lastError = error;
				if (failed.ends) break;
				next = last ?? {};
			}
			if (next === 'deadline') break;
			job = next;
			last = next;
		}
		const s = status(job);
		if (s === 'COMPLETED') return job;
		if (s === 'FAILED') throw failedJobError.call(this, job, publicId, i);
		if (Date.now() + settings.intervalMs > deadline) break;
		await sleep(settings.intervalMs);
		job = undefined;
	}
	if (lastError !== undefined) throw lastCheckFailure(lastError, `/v1/extractions/${publicId}`, 'job');
	const seconds = Math.round(settings.timeoutMs / 1000);
	const timedOut = new NodeOperationError(this.getNode(), `Extraction ${publicId} did not finish within ${seconds} s`, {
		itemIndex: i,
		description: `Last state: ${last && status(last) ? `${status(last)} (${progress(last)})` : 'not read'}. The job continues on the service: read it later with Extraction → Get (publicId ${publicId}), or start a workflow from the extraction.completed webhook. Raise Timeout to wait longer.`,
	});
	// The message names the job already (see create.operation.ts).
	throw attachRecovery(timedOut, { publicId });
}

export function failedJobError(this: IExecuteFunctions, job: IDataObject, publicId: string, i: number): NodeOperationError {
	const error = (job.error && typeof job.error === 'object' ? job.error : {}) as IDataObject;
	const code = typeof error.code === 'string' ? error.code : undefined;
	const message = typeof error.message === 'string' ? error.message : typeof job.error === 'string' ? job.error : undefined;
	const details = error.details !== undefined ? JSON.stringify(redact(error.details)) : undefined;
	const hint =
		code === 'INVALID_CREDENTIALS'
			? ' The SAT rejected the taxpayer credentials: check the RFC and the SAT password (or FIEL files).'
			: '';
	const failed = new NodeOperationError(this.getNode(), `Extraction ${publicId} FAILED${code ? `: ${code}` : ''}${message ? ` - ${message}` : ''}`, {
		itemIndex: i,
		description: `${details ? `Details: ${details}.` : ''}${hint} (${progress(job)})`.trim(),
	});
	// The message names the job already (see create.operation.ts).
	return attachRecovery(failed, { publicId });
}

/**
 * Downloads every document of a completed job in the chosen formats: one item per document, its files as
 * binary fields. Documents are listed as domain/documents.ts assumes. Stops before the first download when
 * the job needs more downloads than the hourly budget allows.
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
		throw new NodeOperationError(this.getNode(), `Download All: extraction ${publicId} is ${status(job) || 'in an unknown state'}, not COMPLETED`, {
			itemIndex: i,
			description: `Documents can be downloaded once the job is COMPLETED (${progress(job)}). Turn on Wait for Completion, or run again later.`,
		});
	}
	const documents = documentsOf(job);
	if (!documents) {
		throw new NodeOperationError(this.getNode(), `Download All: the record of extraction ${publicId} has no documents list`, {
			itemIndex: i,
			description:
				'The service does not document how to list the documents of a job; this node expects a "documents" list in the job record. Download single documents with Download Document, using the document IDs of the document.ready webhook.',
		});
	}
	const wanted = DOCUMENT_FORMATS.filter((f) => settings.fields[f] !== undefined);
	const plan = documents.map((doc) => ({ doc, formats: wanted.filter((f) => !doc.formats || doc.formats.includes(f)) }));
	const needed = plan.reduce((n, p) => n + p.formats.length, 0);
	const free = ctx.downloads.available();
	if (needed > free) {
		throw new NodeOperationError(this.getNode(), `Download All: extraction ${publicId} needs ${needed} downloads, more than this execution may still make`, {
			itemIndex: i,
			description: `The service allows ${LIMITS.downloads.label}; ${free} remain in this execution. Nothing was downloaded. Download one format only, or use Download Document for part of the documents.`,
		});
	}
	const items: INodeExecutionData[] = [];
	for (const { doc, formats } of plan) {
		const binary: INodeExecutionData['binary'] = {};
		const files: IDataObject[] = [];
		for (const format of formats) {
			const file = await downloadDocument(ctx, publicId, doc.id, format, i, settings.maxBytes);
			const field = settings.fields[format] as string;
			const fileName = fileNameFor(doc.id, format);
			binary[field] = await this.helpers.prepareBinaryData(file.body, fileName, file.mimeType);
			files.push({ format, field, fileName, mimeType: file.mimeType, fileSize: file.body.length });
		}
		const skipped = wanted.filter((f) => !formats.includes(f));
		const json: IDataObject = { publicId, documentId: doc.id, document: redact(doc.record), files };
		if (skipped.length) json.skippedFormats = skipped;
		items.push(files.length ? { json, binary } : { json });
	}
	return items;
}
