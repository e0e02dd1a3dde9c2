import { crc32, deflateRawSync } from 'node:zlib';

/**
 * ZIP files as the usual tools write them (PKWARE's APPNOTE.TXT: local headers, data, central directory, end of
 * central directory record), with Node's zlib: the packages the SAT's bulk download simulator serves, and the
 * ZIPs the tests of the package's own reader (nodes/shared/zip.ts) compare with. Written independently of that
 * reader.
 */

/**
 * @typedef {object} ZipSpec
 * @property {string} name
 * @property {Buffer | string} data
 * @property {0 | 8} [method] Default 8 (deflate).
 * @property {number} [level] zlib's level for method 8 (default 6).
 * @property {number} [strategy] zlib's strategy for method 8.
 * @property {boolean} [utf8] Set the UTF-8 name flag (bit 11); default true when the name is not ASCII.
 * @property {{ size?: number; compressedSize?: number; crc?: number; method?: number; flags?: number }} [lie] What the headers say instead.
 */

/**
 * A ZIP of `specs`, in order.
 * @param {ZipSpec[]} specs
 * @param {{ comment?: string }} [options]
 * @returns {Buffer}
 */
export function zipFile(specs, { comment = '' } = {}) {
	/** @type {Buffer[]} */
	const locals = [];
	/** @type {Buffer[]} */
	const centrals = [];
	let offset = 0;
	for (const spec of specs) {
		const data = Buffer.isBuffer(spec.data) ? spec.data : Buffer.from(spec.data, 'utf8');
		const method = spec.method ?? 8;
		const body =
			method === 8
				? deflateRawSync(data, { level: spec.level ?? 6, strategy: spec.strategy })
				: data;
		const name = Buffer.from(spec.name, 'utf8');
		const utf8 = spec.utf8 ?? /[^\x20-\x7e]/.test(spec.name);
		const lie = spec.lie ?? {};
		const flags = lie.flags ?? (utf8 ? 0x800 : 0);
		const crc = lie.crc ?? crc32(data);
		const size = lie.size ?? data.length;
		const compressed = lie.compressedSize ?? body.length;
		const m = lie.method ?? method;
		const local = Buffer.alloc(30);
		local.writeUInt32LE(0x04034b50, 0);
		local.writeUInt16LE(20, 4);
		local.writeUInt16LE(flags, 6);
		local.writeUInt16LE(m, 8);
		local.writeUInt16LE(0x6000, 10); // 12:00
		local.writeUInt16LE(0x5b8f, 12); // 2025-12-15
		local.writeUInt32LE(crc, 14);
		local.writeUInt32LE(compressed, 18);
		local.writeUInt32LE(size, 22);
		local.writeUInt16LE(name.length, 26);
		local.writeUInt16LE(0, 28);
		const central = Buffer.alloc(46);
		central.writeUInt32LE(0x02014b50, 0);
		central.writeUInt16LE(20, 4);
		central.writeUInt16LE(20, 6);
		central.writeUInt16LE(flags, 8);
		central.writeUInt16LE(m, 10);
		central.writeUInt16LE(0x6000, 12);
		central.writeUInt16LE(0x5b8f, 14);
		central.writeUInt32LE(crc, 16);
		central.writeUInt32LE(compressed, 20);
		central.writeUInt32LE(size, 24);
		central.writeUInt16LE(name.length, 28);
		central.writeUInt32LE(offset, 42);
		locals.push(local, name, body);
		centrals.push(central, name);
		offset += local.length + name.length + body.length;
	}
	const cd = Buffer.concat(centrals);
	const note = Buffer.from(comment, 'utf8');
	const end = Buffer.alloc(22);
	end.writeUInt32LE(0x06054b50, 0);
	end.writeUInt16LE(specs.length, 8);
	end.writeUInt16LE(specs.length, 10);
	end.writeUInt32LE(cd.length, 12);
	end.writeUInt32LE(offset, 16);
	end.writeUInt16LE(note.length, 20);
	return Buffer.concat([...locals, cd, end, note]);
}
