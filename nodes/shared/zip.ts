import { megabytes } from './http';
import { inflateRawResult } from './inflate';

/**
 * A ZIP file's entries, read from its central directory as PKWARE's APPNOTE.TXT ("ZIP File Format
 * Specification", sections 4.3.6 to 4.3.16) lays it out, for ZIPs that arrive from a service (the SAT's bulk
 * download packages): the end of central directory record found in the file's last 64 KB, every central
 * directory header and the local header it points at checked against the file's length, entries stored
 * (method 0) or deflated (method 8, inflate.ts), each checked against its CRC-32 and declared size.
 *
 * What it refuses, with a `ZipError` that says what: a file that is not a ZIP, a multi-disk or ZIP64 archive,
 * encrypted entries, other compression methods, entries whose data overlap or lie outside the file, and — before
 * inflating anything — more entries than `maxEntries`, more declared bytes than `maxTotalBytes` in all, or an
 * entry that declares more than `maxRatio` times its compressed size (the "zip bomb"s). An entry that inflates to
 * another size than it declares is refused too, so a lying header cannot get past the limits.
 */

export class ZipError extends Error {
	constructor(message: string) {
		super(message);
		this.name = 'ZipError';
	}
}

/** What one ZIP may hold. */
export interface ZipLimits {
	maxEntries: number;
	/** All entries together, as declared (each is then held to its declaration). */
	maxTotalBytes: number;
	/** Declared size over compressed size, for an entry past RATIO_FLOOR bytes. */
	maxRatio: number;
}

/** Entries this small are not held to the ratio: a few hundred zeros compress far better than any limit. */
const RATIO_FLOOR = 1024 * 1024;

export interface ZipEntry {
	/** As the archive writes it (UTF-8 when its flag says so, else read as ISO-8859-1). */
	name: string;
	method: 0 | 8;
	compressedSize: number;
	size: number;
	crc32: number;
	/** Where the entry's data start in the file. */
	dataOffset: number;
}

const EOCD = 0x06054b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;

/** CRC-32 (ISO 3309, the polynomial 0xEDB88320 reflected), as ZIP checks its entries. */
const CRC_TABLE = (() => {
	const table = new Int32Array(256);
	for (let n = 0; n < 256; n++) {
		let c = n;
		for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
		table[n] = c;
	}
	return table;
})();

export function crc32(data: Uint8Array): number {
	let c = -1;
	for (let i = 0; i < data.length; i++) c = CRC_TABLE[(c ^ data[i]) & 0xff] ^ (c >>> 8);
	return (c ^ -1) >>> 0;
}

/** The end of central directory record's offset: the last one whose comment ends at or before the file's end. */
function endOfCentralDirectory(zip: Buffer): number {
	const lowest = Math.max(0, zip.length - 22 - 0xffff);
	for (let at = zip.length - 22; at >= lowest; at--) {
		if (zip.readUInt32LE(at) === EOCD && at + 22 + zip.readUInt16LE(at + 20) <= zip.length)
			return at;
	}
	throw new ZipError('it is not a ZIP file (no end of central directory record)');
}

/**
 * The entries of `zip` (directories left out), checked as the top of this file says, in the order its central
 * directory lists them. Nothing is inflated.
 */
export function zipEntries(zip: Buffer, limits: ZipLimits): ZipEntry[] {
	if (zip.length < 22) throw new ZipError('it is not a ZIP file (too short)');
	const end = endOfCentralDirectory(zip);
	const disk = zip.readUInt16LE(end + 4);
	const cdDisk = zip.readUInt16LE(end + 6);
	const onDisk = zip.readUInt16LE(end + 8);
	const total = zip.readUInt16LE(end + 10);
	const cdSize = zip.readUInt32LE(end + 12);
	const cdOffset = zip.readUInt32LE(end + 16);
	if (total === 0xffff || cdSize === 0xffffffff || cdOffset === 0xffffffff)
		throw new ZipError('it is a ZIP64 archive, which is not read');
	if (disk !== 0 || cdDisk !== 0 || onDisk !== total)
		throw new ZipError('it is split over several disks, which is not read');
	if (total > limits.maxEntries)
		throw new ZipError(
			`it holds ${total} entries, more than the ${limits.maxEntries} one ZIP may hold here`,
		);
	if (cdOffset + cdSize > end) throw new ZipError('its central directory lies outside the file');

	const entries: Array<ZipEntry & { headerOffset: number }> = [];
	let declared = 0;
	let at = cdOffset;
	for (let n = 0; n < total; n++) {
		if (at + 46 > cdOffset + cdSize || zip.readUInt32LE(at) !== CENTRAL)
			throw new ZipError(`its central directory is damaged (entry ${n + 1})`);
		const flags = zip.readUInt16LE(at + 8);
		const method = zip.readUInt16LE(at + 10);
		const crc = zip.readUInt32LE(at + 16);
		const compressedSize = zip.readUInt32LE(at + 20);
		const size = zip.readUInt32LE(at + 24);
		const nameLength = zip.readUInt16LE(at + 28);
		const extraLength = zip.readUInt16LE(at + 30);
		const commentLength = zip.readUInt16LE(at + 32);
		const headerOffset = zip.readUInt32LE(at + 42);
		const next = at + 46 + nameLength + extraLength + commentLength;
		if (next > cdOffset + cdSize)
			throw new ZipError(`its central directory is damaged (entry ${n + 1})`);
		const name = zip.toString(flags & 0x800 ? 'utf8' : 'latin1', at + 46, at + 46 + nameLength);
		at = next;
		if (name.endsWith('/')) continue;
		if (compressedSize === 0xffffffff || size === 0xffffffff || headerOffset === 0xffffffff)
			throw new ZipError(`the entry "${name}" uses ZIP64 sizes, which are not read`);
		if (flags & 0x1) throw new ZipError(`the entry "${name}" is encrypted`);
		if (method !== 0 && method !== 8)
			throw new ZipError(
				`the entry "${name}" is compressed with method ${method}; only stored (0) and deflated (8) entries are read`,
			);
		if (method === 0 && compressedSize !== size)
			throw new ZipError(`the stored entry "${name}" declares two different sizes`);
		if (size > RATIO_FLOOR && size > Math.max(1, compressedSize) * limits.maxRatio)
			throw new ZipError(
				`the entry "${name}" declares ${megabytes(size)} from ${compressedSize} compressed bytes, more than ${limits.maxRatio} times its size: refused as a zip bomb`,
			);
		declared += size;
		if (declared > limits.maxTotalBytes)
			throw new ZipError(
				`its entries declare more than ${megabytes(limits.maxTotalBytes)} in all, more than one ZIP may inflate to here`,
			);
		if (headerOffset + 30 > cdOffset || zip.readUInt32LE(headerOffset) !== LOCAL)
			throw new ZipError(`the entry "${name}" has no local header where the directory says`);
		const dataOffset =
			headerOffset + 30 + zip.readUInt16LE(headerOffset + 26) + zip.readUInt16LE(headerOffset + 28);
		if (dataOffset + compressedSize > cdOffset)
			throw new ZipError(`the entry "${name}" lies outside the file`);
		entries.push({
			name,
			method: method as 0 | 8,
			compressedSize,
			size,
			crc32: crc,
			dataOffset,
			headerOffset,
		});
	}
	// Entries that share their data are a way to inflate more than the file holds: each must stand alone.
	const byPlace = [...entries].sort((a, b) => a.headerOffset - b.headerOffset);
	for (let k = 1; k < byPlace.length; k++) {
		const before = byPlace[k - 1];
		if (before.dataOffset + before.compressedSize > byPlace[k].headerOffset)
			throw new ZipError(`the entries "${before.name}" and "${byPlace[k].name}" overlap`);
	}
	return entries.map(({ name, method, compressedSize, size, crc32, dataOffset }) => ({
		name,
		method,
		compressedSize,
		size,
		crc32,
		dataOffset,
	}));
}

/** The content of `entry` of `zip`: inflated to exactly its declared size and checked against its CRC-32. */
export function zipEntryData(zip: Buffer, entry: ZipEntry): Buffer {
	const raw = zip.subarray(entry.dataOffset, entry.dataOffset + entry.compressedSize);
	let data = raw;
	if (entry.method === 8) {
		const inflated = inflateRawResult(raw, { expectedBytes: entry.size, maxBytes: entry.size });
		if ('problem' in inflated)
			throw new ZipError(`the entry "${entry.name}" cannot be inflated: ${inflated.problem}`);
		data = inflated.data;
	}
	if (crc32(data) !== entry.crc32)
		throw new ZipError(`the entry "${entry.name}" is damaged (its CRC-32 does not match)`);
	return data;
}
