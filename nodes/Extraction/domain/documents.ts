import type { FileFormat } from '../../shared/files';
import { path, type ApiPath } from '../../shared/path';

/**
 * Documents of an extraction job: how they are listed and how one is downloaded. The spec shows neither
 * how to list a job's documents nor the parameter that picks the download format, so both assumptions
 * live here and nowhere else. Plain functions, no n8n types.
 */

const FORMATS = {
	XML: { mimeType: 'application/xml', extension: 'xml' },
	PDF: { mimeType: 'application/pdf', extension: 'pdf' },
} as const;

export type DocumentFormat = keyof typeof FORMATS;
export const DOCUMENT_FORMATS = Object.keys(FORMATS) as DocumentFormat[];

/**
 * ASSUMPTION (download format): the public documentation of the real service selects the format with the
 * query parameter `type`, `XML` (the default) or `PDF`. The spec does not show it.
 */
const FORMAT_QUERY_PARAMETER = 'type';

/** The download address of a document; an ID that cannot be a path segment makes a path the client refuses to send. */
export function downloadPath(publicId: string, documentId: string): ApiPath {
	return path`/v1/extractions/${publicId}/documents/${documentId}/download`;
}

/** The file check's name of a format (shared/files.ts). */
export function fileFormatOf(format: DocumentFormat): FileFormat {
	return format === 'PDF' ? 'pdf' : 'xml';
}

export function downloadQuery(format: DocumentFormat): Record<string, string> {
	return { [FORMAT_QUERY_PARAMETER]: format };
}

export function formatOf(value: unknown): DocumentFormat | undefined {
	const upper = String(value ?? '')
		.trim()
		.toUpperCase();
	return (DOCUMENT_FORMATS as string[]).includes(upper) ? (upper as DocumentFormat) : undefined;
}

/** `<document id>.<xml|pdf>`, with characters that are unsafe in file names replaced by `_`. */
export function fileNameFor(documentId: string, format: DocumentFormat): string {
	const safe = documentId.replace(/[^\w.-]+/g, '_').replace(/^\.+/, '_') || 'document';
	return `${safe}.${FORMATS[format].extension}`;
}

interface JobDocument {
	id: string;
	/** Formats the record says are available (`availableFormats`), or undefined when it does not say. */
	formats?: DocumentFormat[];
	/** The record as the service gave it (unknown fields kept); `{ id }` when only an ID was listed. */
	record: Record<string, unknown>;
}

/**
 * ASSUMPTION (listing documents): a job record carries its documents in a `documents` list. Each entry is
 * a document record shaped like the `document` of the `document.ready` webhook (`id`, `uuid`, `type`,
 * `issueDate`, `amount`, `currency`, `emitter`, `receiver`, `availableFormats`), or just its ID as text;
 * `documentId` is accepted for `id`. Returns undefined when the record has no such list.
 */
export function documentsOf(job: Record<string, unknown>): JobDocument[] | undefined {
	const list = job.documents;
	if (!Array.isArray(list)) return undefined;
	const out: JobDocument[] = [];
	for (const entry of list) {
		if (typeof entry === 'string' || typeof entry === 'number') {
			out.push({ id: String(entry), record: { id: String(entry) } });
			continue;
		}
		if (!entry || typeof entry !== 'object') continue;
		const record = entry as Record<string, unknown>;
		const id = record.id ?? record.documentId;
		if (id === undefined || id === null || String(id).trim() === '') continue;
		const formats = Array.isArray(record.availableFormats)
			? record.availableFormats.map(formatOf).filter((f): f is DocumentFormat => f !== undefined)
			: undefined;
		out.push({ id: String(id), formats, record });
	}
	return out;
}
