import { constants, deflateRawSync } from 'node:zlib';
import { inflateRaw, InflateError } from '../../nodes/shared/inflate';
import { crc32, zipEntries, zipEntryData, ZipError } from '../../nodes/shared/zip';
import { seededRandom } from '../simulator/server';
import { zipFile } from '../simulator/zip';

/**
 * The package's own DEFLATE inflater (RFC 1951) and ZIP reader (PKWARE's APPNOTE), which the official lint
 * requires instead of Node's zlib: every stream zlib writes (each level and strategy: stored, fixed and dynamic
 * blocks) inflates to what zlib was given, random data included; ZIPs as the usual tools write them (stored and
 * deflated entries) read back; malformed and hostile input (truncated, a reference before the start, codes that
 * do not exist, a lying header, a zip bomb, overlapping entries) is refused with what is wrong, never a partial
 * result.
 */

/** A generator of numbers that repeats for a seed (the simulators' mulberry32). */
const random = seededRandom;
const randomBytes = (n, seed) => {
	const next = random(seed);
	return Buffer.from(Array.from({ length: n }, () => Math.floor(next() * 256)));
};
/** Text-like data: words from a small vocabulary, as XML and metadata are. */
const textLike = (n, seed) => {
	const next = random(seed);
	const words = [
		'<cfdi:Concepto ',
		'Importe="',
		'1160.00',
		'" ',
		'EKU9003173C9',
		'~',
		'\r\n',
		'Ñandú ',
	];
	let out = '';
	while (out.length < n) out += words[Math.floor(next() * words.length)];
	return Buffer.from(out, 'utf8').subarray(0, n);
};

const inflate = (data, maxBytes = 64 * 1024 * 1024) => inflateRaw(data, { maxBytes });

describe('inflateRaw against zlib', () => {
	const inputs = [
		['empty', Buffer.alloc(0)],
		['one byte', Buffer.from('x')],
		['random, 100 KB', randomBytes(100_000, 1)],
		['text-like, 300 KB', textLike(300_000, 2)],
		['zeros, 1 MB (long matches, distance 1)', Buffer.alloc(1024 * 1024)],
		[
			'a real CFDI-like text repeated',
			Buffer.from('<cfdi:Comprobante Total="1160.00"/>'.repeat(5000)),
		],
	];
	test.each(inputs)('%s, at every level', (_name, given) => {
		const data = /** @type {Buffer} */ (given);
		for (const level of [0, 1, 6, 9]) {
			const packed = deflateRawSync(data, { level });
			expect(inflate(packed).equals(data)).toBe(true);
		}
	});

	test.each([
		['fixed codes only', constants.Z_FIXED],
		['Huffman only (no matches)', constants.Z_HUFFMAN_ONLY],
		['run-length (distance 1)', constants.Z_RLE],
		['filtered', constants.Z_FILTERED],
	])('%s', (_name, strategy) => {
		for (const data of [textLike(200_000, 3), randomBytes(50_000, 4)]) {
			const packed = deflateRawSync(data, { level: 9, strategy });
			expect(inflate(packed).equals(data)).toBe(true);
		}
	});

	test('200 random inputs of random sizes and levels', () => {
		const next = random(99);
		for (let n = 0; n < 200; n++) {
			const size = Math.floor(next() * 20_000);
			const data = n % 2 ? randomBytes(size, n) : textLike(size, n);
			const level = Math.floor(next() * 10);
			expect(inflate(deflateRawSync(data, { level })).equals(data)).toBe(true);
		}
	});

	test('an exact expected size: more or less is refused', () => {
		const data = textLike(10_000, 5);
		const packed = deflateRawSync(data);
		expect(inflateRaw(packed, { expectedBytes: 10_000, maxBytes: 10_000 }).equals(data)).toBe(true);
		expect(() => inflateRaw(packed, { expectedBytes: 9_999, maxBytes: 9_999 })).toThrow(
			/inflates to more than the 9999 bytes declared/,
		);
		expect(() => inflateRaw(packed, { expectedBytes: 10_001, maxBytes: 10_001 })).toThrow(
			/inflates to 10000 bytes, not the 10001 bytes declared/,
		);
	});

	test('without a size: stopped at maxBytes (a bomb of zeros never inflates past it)', () => {
		const bomb = deflateRawSync(Buffer.alloc(50 * 1024 * 1024), { level: 9 });
		expect(bomb.length).toBeLessThan(100_000);
		expect(() => inflate(bomb, 1024 * 1024)).toThrow(/inflates to more than 1048576 bytes/);
	});
});

describe('inflateRaw refuses what is not DEFLATE', () => {
	const data = textLike(50_000, 6);
	const packed = deflateRawSync(data);

	test('every truncation of a stream: an error, never a partial result', () => {
		for (let cut = 0; cut < packed.length; cut += Math.max(1, Math.floor(packed.length / 300)))
			expect(() => inflate(packed.subarray(0, cut))).toThrow(InflateError);
	});

	test('the reserved block type 3', () => {
		expect(() => inflate(Buffer.from([0x07]))).toThrow(/reserved type 3/);
	});

	test('a stored block whose length does not match its complement', () => {
		expect(() => inflate(Buffer.from([0x01, 0x05, 0x00, 0x00, 0x00, 1, 2, 3, 4, 5]))).toThrow(
			/stored block’s length does not match/,
		);
	});

	test('a reference before the beginning', () => {
		// Fixed block: length code 257 (3 bytes, 7 bits 0000001), distance code 0 (5 bits), end of block.
		// Bits LSB first: BFINAL 1, BTYPE 01, then the codes.
		const bits = [1, 1, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0];
		const bytes = Buffer.alloc(Math.ceil(bits.length / 8));
		bits.forEach((b, k) => (bytes[k >> 3] |= b << (k & 7)));
		expect(() => inflate(bytes)).toThrow(/refers back before its beginning/);
	});

	test('random garbage: refused, in time linear in its size', () => {
		for (let n = 0; n < 300; n++) {
			const garbage = randomBytes(2000, 1000 + n);
			try {
				const out = inflate(garbage, 1024 * 1024);
				// A few random inputs happen to be valid DEFLATE; they stay within the limit.
				expect(out.length).toBeLessThanOrEqual(1024 * 1024);
			} catch (error) {
				expect(error).toBeInstanceOf(InflateError);
			}
		}
	});

	test('a dynamic block with an over-subscribed code-length code', () => {
		// BFINAL 1, BTYPE 10, HLIT 0, HDIST 0, HCLEN 0 (4 lengths), each 1: four codes of one bit.
		const bits = [1, 0, 1, ...Array(5).fill(0), ...Array(5).fill(0), 0, 0, 0, 0];
		for (let k = 0; k < 4; k++) bits.push(1, 0, 0);
		const bytes = Buffer.alloc(Math.ceil(bits.length / 8) + 4);
		bits.forEach((b, k) => (bytes[k >> 3] |= b << (k & 7)));
		expect(() => inflate(bytes)).toThrow(/code-length code is over-subscribed/);
	});
});

describe('the ZIP reader', () => {
	const limits = { maxEntries: 1000, maxTotalBytes: 64 * 1024 * 1024, maxRatio: 200 };
	const xml = textLike(40_000, 7);

	test('deflated and stored entries, UTF-8 names, directories left out: as written', () => {
		const zip = zipFile([
			{ name: 'a.xml', data: xml },
			{ name: 'b.txt', data: 'Uuid~RfcEmisor\r\n', method: 0 },
			{ name: 'año/', data: '', method: 0 },
			{ name: 'ñandú.xml', data: randomBytes(3000, 8) },
			{ name: 'empty.txt', data: '' },
		]);
		const entries = zipEntries(zip, limits);
		expect(entries.map((e) => [e.name, e.method])).toEqual([
			['a.xml', 8],
			['b.txt', 0],
			['ñandú.xml', 8],
			['empty.txt', 8],
		]);
		expect(zipEntryData(zip, entries[0]).equals(xml)).toBe(true);
		expect(zipEntryData(zip, entries[1]).toString()).toBe('Uuid~RfcEmisor\r\n');
		expect(zipEntryData(zip, entries[2]).equals(randomBytes(3000, 8))).toBe(true);
		expect(zipEntryData(zip, entries[3]).length).toBe(0);
	});

	test('a comment after the directory is skipped', () => {
		const zip = zipFile([{ name: 'a.xml', data: xml }], { comment: 'x'.repeat(5000) });
		expect(zipEntryData(zip, zipEntries(zip, limits)[0]).equals(xml)).toBe(true);
	});

	test('crc32 is the standard one', () => {
		expect(crc32(Buffer.from('123456789'))).toBe(0xcbf43926);
	});

	test.each([
		[
			'not a ZIP',
			() => Buffer.from('PK but not really a zip file at all, just text'),
			/not a ZIP file/,
		],
		['too short', () => Buffer.from('PK'), /too short/],
		[
			'more entries than allowed',
			() => zipFile(Array.from({ length: 5 }, (_, n) => ({ name: `${n}.xml`, data: 'x' }))),
			/holds 5 entries, more than the 4/,
		],
		[
			'an encrypted entry',
			() => zipFile([{ name: 'a.xml', data: xml, lie: { flags: 1 } }]),
			/"a.xml" is encrypted/,
		],
		[
			'another method (bzip2, 12)',
			() => zipFile([{ name: 'a.xml', data: xml, lie: { method: 12 } }]),
			/method 12; only stored \(0\) and deflated \(8\)/,
		],
		[
			'a declared size past the total',
			() => zipFile([{ name: 'a.xml', data: xml, lie: { size: 70 * 1024 * 1024 } }]),
			/declare more than 64 MB in all|more than 200 times/,
		],
		[
			'a zip bomb (ratio)',
			() => zipFile([{ name: 'bomb.xml', data: Buffer.alloc(30 * 1024 * 1024), level: 9 }]),
			/more than 200 times its size: refused as a zip bomb/,
		],
		[
			'a size that lies (smaller)',
			() => zipFile([{ name: 'a.xml', data: xml, lie: { size: 1000 } }]),
			/inflates to more than the 1000 bytes declared/,
		],
		[
			'a size that lies (larger)',
			() => zipFile([{ name: 'a.xml', data: xml, lie: { size: 50_000 } }]),
			/inflates to 40000 bytes, not the 50000/,
		],
		[
			'a damaged entry (CRC)',
			() => zipFile([{ name: 'a.xml', data: xml, lie: { crc: 1234 } }]),
			/"a.xml" is damaged \(its CRC-32 does not match\)/,
		],
		[
			'a stored entry with two sizes',
			() => zipFile([{ name: 'a.xml', data: xml, method: 0, lie: { compressedSize: 10 } }]),
			/two different sizes/,
		],
	])('%s: refused', (_name, make, message) => {
		const zip = make();
		const small = { ...limits, maxEntries: 4 };
		expect(() => {
			for (const entry of zipEntries(zip, small)) zipEntryData(zip, entry);
		}).toThrow(message);
		try {
			for (const entry of zipEntries(zip, small)) zipEntryData(zip, entry);
		} catch (error) {
			expect(error).toBeInstanceOf(ZipError);
		}
	});

	test('entries that share their data (the overlapping zip bomb): refused', () => {
		const zip = zipFile([
			{ name: 'a.xml', data: xml },
			{ name: 'b.xml', data: xml },
		]);
		// The second central header points at the first entry's local header.
		const cd = zip.readUInt32LE(zip.length - 22 + 16);
		const second = cd + 46 + 'a.xml'.length;
		zip.writeUInt32LE(0, second + 42);
		expect(() => zipEntries(zip, limits)).toThrow(/overlap/);
	});

	test('a truncated ZIP: every cut refused with a ZipError', () => {
		const zip = zipFile([
			{ name: 'a.xml', data: xml },
			{ name: 'b.xml', data: textLike(10_000, 9) },
		]);
		for (let cut = 0; cut < zip.length; cut += 97) {
			const part = zip.subarray(0, cut);
			expect(() => {
				for (const entry of zipEntries(part, limits)) zipEntryData(part, entry);
			}).toThrow(ZipError);
		}
	});

	test('random bytes flipped in a ZIP: a ZipError or the right data, never anything else', () => {
		const zip = zipFile([{ name: 'a.xml', data: xml }]);
		const next = random(42);
		for (let n = 0; n < 300; n++) {
			const copy = Buffer.from(zip);
			for (let k = 0; k < 3; k++)
				copy[Math.floor(next() * copy.length)] ^= 1 + Math.floor(next() * 255);
			try {
				const [entry] = zipEntries(copy, limits);
				const data = zipEntryData(copy, entry);
				expect(data.equals(xml)).toBe(true);
			} catch (error) {
				expect(error).toBeInstanceOf(ZipError);
			}
		}
	});
});
