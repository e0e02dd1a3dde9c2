import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { numberOption, type NumberOptionPlace } from './options';

/**
 * The files the nodes download (a receipt's printable form or XML, an extraction's documents): one check of
 * the bytes that arrived, and one size cap. What a file is comes from its first bytes, never from the
 * Content-Type a server claims: a login or error page answered with 200 is not a PDF, whatever it is called.
 */

export const FILE_TYPES = {
	pdf: { mimeType: 'application/pdf', extension: 'pdf', what: 'a PDF' },
	xml: { mimeType: 'application/xml', extension: 'xml', what: 'XML' },
} as const;

export type FileFormat = keyof typeof FILE_TYPES;

/** What `body` is, from its first bytes: a PDF (`%PDF-`), XML (a tag that is not HTML), an HTML page, empty, or unknown. */
export function sniff(body: Buffer, contentType = ''): FileFormat | 'html' | 'empty' | 'unknown' {
	const head = body
		.subarray(0, 512)
		.toString('utf8')
		.replace(/^\uFEFF/, '')
		.trimStart();
	if (!head) return 'empty';
	if (head.startsWith('%PDF-')) return 'pdf';
	if (!head.startsWith('<')) return 'unknown';
	// An HTML page is markup too: told apart by its doctype or <html> tag, or by a server that says it is HTML.
	if (/^<!doctype html|<html[\s>]/i.test(head) || /html/i.test(contentType)) return 'html';
	return 'xml';
}

/** Why `body` is not a file of `expected`, in words that follow "the answer" — or undefined when it is one. */
export function fileProblem(
	expected: FileFormat,
	body: Buffer,
	contentType: string,
): string | undefined {
	if (sniff(body, contentType) === expected) return undefined;
	const head = body
		.subarray(0, 64)
		.toString('utf8')
		.replace(/^\uFEFF/, '')
		.trimStart();
	const got = `${contentType ? `content-type ${contentType}, ` : ''}${body.length ? `starting with ${JSON.stringify(head.slice(0, 20))}` : 'empty'}`;
	return `the answer is not ${FILE_TYPES[expected].what} (${got})`;
}

/** The default and the bounds of Max File Size, in megabytes (the option's default is written out: n8n's lint wants a literal). */
const MAX_FILE_SIZE = { defaultMb: 10, minMb: 1, maxMb: 500 } as const;

/** Options → Max File Size, on every operation that downloads files. */
export const maxFileSizeOption: INodeProperties = {
	displayName: 'Max File Size (MB)',
	name: 'maxFileSize',
	type: 'number',
	typeOptions: { minValue: MAX_FILE_SIZE.minMb, maxValue: MAX_FILE_SIZE.maxMb },
	default: 10,
	description:
		'The largest file accepted. A printable form or an XML is a few kilobytes; a larger answer is stopped as soon as it passes this size, without being read whole, and the item fails saying so.',
};

/**
 * Max File Size of item `i`, in bytes, read by the package's one rule for number options (options.ts): a value
 * out of range stops the item before anything is sent. In Options unless `place` says otherwise (Download All).
 */
export function readMaxFileBytes(
	this: IExecuteFunctions,
	i: number,
	place: NumberOptionPlace = { inOptions: true },
): number {
	return Math.floor(numberOption.call(this, maxFileSizeOption, i, place) * 1024 * 1024);
}

/**
 * The bytes of binary field `property` of input item `i`, or 'too-large' once they pass `limit`: a file n8n
 * keeps in its binary-data store is read as a stream and abandoned at the limit, so a huge file is never
 * held in memory whole (files a node read into the item itself are already in memory). A stored file whose size
 * n8n recorded (`bytes`, n8n 2.x) within the limit is read in one call instead: several times faster than n8n's
 * stream for small files (a month of 5,000 CFDIs, bench/diot.mjs).
 */
export async function binaryUpTo(
	this: IExecuteFunctions,
	i: number,
	property: string,
	limit: number,
): Promise<Buffer | 'too-large'> {
	const data = this.helpers.assertBinaryData(i, property);
	if (!data.id || (typeof data.bytes === 'number' && data.bytes <= limit)) {
		const bytes = await this.helpers.getBinaryDataBuffer(i, property);
		return bytes.length > limit ? 'too-large' : bytes;
	}
	const stream = await this.helpers.getBinaryStream(data.id);
	const chunks: Buffer[] = [];
	let total = 0;
	for await (const chunk of stream) {
		const bytes = Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk));
		total += bytes.length;
		if (total > limit) {
			stream.destroy();
			return 'too-large';
		}
		chunks.push(bytes);
	}
	return Buffer.concat(chunks);
}
