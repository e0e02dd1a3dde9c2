/**
 * DEFLATE decompression (RFC 1951, "DEFLATE Compressed Data Format Specification version 1.3"), for the ZIP files
 * the package reads (zip.ts: the SAT's bulk download packages). The package may not use Node's zlib (n8n's
 * community-node lint allows only a few modules, and zlib is not one), so it is written here, from the RFC:
 * - blocks of the three types (§3.2.3): stored (§3.2.4), fixed Huffman codes (§3.2.6) and dynamic Huffman codes
 *   (§3.2.7), the length and distance codes of §3.2.5;
 * - Huffman codes built as §3.2.2 says (canonical: shorter codes first, then by symbol), refused when
 *   over-subscribed, and when incomplete except for the one case the RFC allows (a single code of one bit);
 * - every input in time linear in its length and in what it inflates to, which is bounded by the caller
 *   (`maxBytes`, or the exact size the ZIP declares): a symbol is read through a 9-bit table or, for a longer
 *   code, at most 15 steps; a block's tables cost a few hundred steps and need a header of tens of bits.
 * Anything that is not valid DEFLATE — a back-reference before the start, a code the block does not define, a
 * stream that ends early, more output than allowed — is an `InflateError`, never a partial result.
 */

export class InflateError extends Error {
	constructor(message: string) {
		super(message);
		this.name = 'InflateError';
	}
}

/** The longest Huffman code (§3.2.7: code lengths 0–15). */
const MAX_BITS = 15;
/** Codes of up to this many bits are read through one table lookup; longer ones bit by bit. */
const FAST_BITS = 9;
const FAST_MASK = (1 << FAST_BITS) - 1;

/** §3.2.5: base lengths and extra bits of length codes 257–285. */
const LENGTH_BASE = [
	3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131,
	163, 195, 227, 258,
];
const LENGTH_EXTRA = [
	0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0,
];
/** §3.2.5: base distances and extra bits of distance codes 0–29. */
const DISTANCE_BASE = [
	1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537, 2049,
	3073, 4097, 6145, 8193, 12289, 16385, 24577,
];
const DISTANCE_EXTRA = [
	0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13,
];
/** §3.2.7: the order in which the code lengths of the code-length alphabet are given. */
const CODE_LENGTH_ORDER = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15];

/** A canonical Huffman code: codes per length and symbols in code order (to read bit by bit), and a fast table. */
interface Huffman {
	count: Uint16Array;
	symbol: Uint16Array;
	/** By the next FAST_BITS input bits: `symbol | length << 16`, or 0 when the code is longer (or undefined). */
	fast: Int32Array;
}

/**
 * The canonical code of `lengths` (§3.2.2). `what` names it in messages. An over-subscribed code is refused; an
 * incomplete one only where `incompleteOk` (the distance code of a block without distances, or with a single
 * one-bit code), as zlib also decodes.
 */
function huffman(lengths: ArrayLike<number>, what: string, incompleteOk: boolean): Huffman {
	const count = new Uint16Array(MAX_BITS + 1);
	for (let s = 0; s < lengths.length; s++) count[lengths[s]]++;
	count[0] = 0;
	let left = 1;
	let codes = 0;
	for (let len = 1; len <= MAX_BITS; len++) {
		left <<= 1;
		left -= count[len];
		codes += count[len];
		if (left < 0) throw new InflateError(`the ${what} code is over-subscribed`);
	}
	if (left > 0 && !(incompleteOk && (codes === 0 || (codes === 1 && count[1] === 1))))
		throw new InflateError(`the ${what} code is incomplete`);
	const offset = new Uint16Array(MAX_BITS + 2);
	for (let len = 1; len <= MAX_BITS; len++) offset[len + 1] = offset[len] + count[len];
	const symbol = new Uint16Array(codes);
	const next = offset.slice();
	for (let s = 0; s < lengths.length; s++) if (lengths[s] !== 0) symbol[next[lengths[s]]++] = s;
	const fast = new Int32Array(1 << FAST_BITS);
	let code = 0;
	let k = 0;
	for (let len = 1; len <= FAST_BITS; len++) {
		for (let n = 0; n < count[len]; n++, k++, code++) {
			// Deflate sends a code's most significant bit first: the table is indexed by the bits reversed.
			let reversed = 0;
			for (let b = 0; b < len; b++) reversed |= ((code >>> b) & 1) << (len - 1 - b);
			for (let i = reversed; i <= FAST_MASK; i += 1 << len) fast[i] = symbol[k] | (len << 16);
		}
		code <<= 1;
	}
	return { count, symbol, fast };
}

function fixedCodes(): { lengths: Huffman; distances: Huffman } {
	const lit = new Uint8Array(288);
	lit.fill(8, 0, 144);
	lit.fill(9, 144, 256);
	lit.fill(7, 256, 280);
	lit.fill(8, 280, 288);
	return {
		lengths: huffman(lit, 'fixed literal/length', false),
		// 32 codes of five bits (a complete code); 30 and 31 never occur (§3.2.6) and are refused where read.
		distances: huffman(new Uint8Array(32).fill(5), 'fixed distance', false),
	};
}

let FIXED: { lengths: Huffman; distances: Huffman } | undefined;

/** What `inflateRaw` may produce. */
interface InflateLimits {
	/** The exact size the output must have (a ZIP entry's declared size): more, or less, is an error. */
	expectedBytes?: number;
	/** The most output allowed when no exact size is known. */
	maxBytes: number;
}

class Inflater {
	private pos = 0;
	private bits = 0;
	private bitCount = 0;
	private out: Buffer;
	private o = 0;

	constructor(
		private readonly input: Uint8Array,
		private readonly limits: InflateLimits,
	) {
		const initial =
			limits.expectedBytes ?? Math.min(limits.maxBytes, Math.max(1024, input.length * 4));
		this.out = Buffer.allocUnsafe(initial);
	}

	private ended(): never {
		throw new InflateError('the compressed data ends before its last block does');
	}

	/** Loads input bytes until `n` bits are buffered, or throws when the input ends first. */
	private need(n: number): void {
		while (this.bitCount < n) {
			if (this.pos >= this.input.length) this.ended();
			this.bits |= this.input[this.pos++] << this.bitCount;
			this.bitCount += 8;
		}
	}

	private take(n: number): number {
		if (n === 0) return 0;
		this.need(n);
		const value = this.bits & ((1 << n) - 1);
		this.bits >>>= n;
		this.bitCount -= n;
		return value;
	}

	/** One symbol of `code`. */
	private decode(code: Huffman): number {
		while (this.bitCount < 16 && this.pos < this.input.length) {
			this.bits |= this.input[this.pos++] << this.bitCount;
			this.bitCount += 8;
		}
		const entry = code.fast[this.bits & FAST_MASK];
		if (entry !== 0) {
			const len = entry >>> 16;
			if (len > this.bitCount) this.ended();
			this.bits >>>= len;
			this.bitCount -= len;
			return entry & 0xffff;
		}
		// Longer than FAST_BITS (or not a code): bit by bit, §3.2.2's canonical order.
		let value = 0;
		let first = 0;
		let index = 0;
		for (let len = 1; len <= MAX_BITS; len++) {
			if (len > this.bitCount) this.ended();
			value |= (this.bits >>> (len - 1)) & 1;
			const count = code.count[len];
			if (value - first < count) {
				this.bits >>>= len;
				this.bitCount -= len;
				return code.symbol[index + value - first];
			}
			index += count;
			first = (first + count) << 1;
			value <<= 1;
		}
		throw new InflateError('the compressed data uses a code its block does not define');
	}

	/** Room for `n` more output bytes. */
	private room(n: number): void {
		if (this.o + n <= this.out.length) return;
		const { expectedBytes, maxBytes } = this.limits;
		if (expectedBytes !== undefined)
			throw new InflateError(`the data inflates to more than the ${expectedBytes} bytes declared`);
		if (this.o + n > maxBytes)
			throw new InflateError(`the data inflates to more than ${maxBytes} bytes`);
		const grown = Buffer.allocUnsafe(Math.min(maxBytes, Math.max(this.o + n, this.out.length * 2)));
		this.out.copy(grown, 0, 0, this.o);
		this.out = grown;
	}

	private stored(): void {
		// §3.2.4: the rest of the current byte is skipped; whole bytes already buffered go back to the input.
		this.bits = 0;
		this.pos -= this.bitCount >>> 3;
		this.bitCount = 0;
		if (this.pos + 4 > this.input.length) this.ended();
		const input = this.input;
		const len = input[this.pos] | (input[this.pos + 1] << 8);
		const nlen = input[this.pos + 2] | (input[this.pos + 3] << 8);
		this.pos += 4;
		if (len !== (~nlen & 0xffff))
			throw new InflateError('a stored block’s length does not match its complement');
		if (this.pos + len > input.length) this.ended();
		this.room(len);
		this.out.set(input.subarray(this.pos, this.pos + len), this.o);
		this.o += len;
		this.pos += len;
	}

	private dynamicCodes(): { lengths: Huffman; distances: Huffman } {
		const nlen = this.take(5) + 257;
		const ndist = this.take(5) + 1;
		const ncode = this.take(4) + 4;
		if (nlen > 286 || ndist > 30)
			throw new InflateError('a block declares more length or distance codes than exist');
		const codeLengths = new Uint8Array(19);
		for (let k = 0; k < ncode; k++) codeLengths[CODE_LENGTH_ORDER[k]] = this.take(3);
		const lengthCode = huffman(codeLengths, 'code-length', false);
		const lengths = new Uint8Array(nlen + ndist);
		for (let k = 0; k < nlen + ndist; ) {
			const symbol = this.decode(lengthCode);
			if (symbol < 16) {
				lengths[k++] = symbol;
				continue;
			}
			let repeat: number;
			let value = 0;
			if (symbol === 16) {
				if (k === 0) throw new InflateError('a code length repeats before the first one');
				value = lengths[k - 1];
				repeat = 3 + this.take(2);
			} else if (symbol === 17) repeat = 3 + this.take(3);
			else repeat = 11 + this.take(7);
			if (k + repeat > nlen + ndist)
				throw new InflateError('code lengths repeat past the number of codes');
			lengths.fill(value, k, k + repeat);
			k += repeat;
		}
		if (lengths[256] === 0) throw new InflateError('a block has no end-of-block code');
		return {
			lengths: huffman(lengths.subarray(0, nlen), 'literal/length', false),
			distances: huffman(lengths.subarray(nlen), 'distance', true),
		};
	}

	private codes(lengths: Huffman, distances: Huffman): void {
		for (;;) {
			const symbol = this.decode(lengths);
			if (symbol < 256) {
				this.room(1);
				this.out[this.o++] = symbol;
				continue;
			}
			if (symbol === 256) return;
			const l = symbol - 257;
			if (l >= 29) throw new InflateError('the compressed data uses an invalid length code');
			const length = LENGTH_BASE[l] + this.take(LENGTH_EXTRA[l]);
			const d = this.decode(distances);
			if (d >= 30) throw new InflateError('the compressed data uses an invalid distance code');
			const distance = DISTANCE_BASE[d] + this.take(DISTANCE_EXTRA[d]);
			if (distance > this.o)
				throw new InflateError('the compressed data refers back before its beginning');
			this.room(length);
			const out = this.out;
			const from = this.o - distance;
			if (distance >= length) out.copyWithin(this.o, from, from + length);
			else for (let k = 0; k < length; k++) out[this.o + k] = out[from + k];
			this.o += length;
		}
	}

	run(): Buffer {
		for (let last = 0; !last; ) {
			last = this.take(1);
			const type = this.take(2);
			if (type === 0) this.stored();
			else if (type === 1) {
				FIXED ??= fixedCodes();
				this.codes(FIXED.lengths, FIXED.distances);
			} else if (type === 2) {
				const { lengths, distances } = this.dynamicCodes();
				this.codes(lengths, distances);
			} else throw new InflateError('a block has the reserved type 3');
		}
		const { expectedBytes } = this.limits;
		if (expectedBytes !== undefined && this.o !== expectedBytes)
			throw new InflateError(
				`the data inflates to ${this.o} bytes, not the ${expectedBytes} bytes declared`,
			);
		return this.o === this.out.length ? this.out : this.out.subarray(0, this.o);
	}
}

/**
 * The data a raw DEFLATE stream (RFC 1951, no zlib or gzip wrapper: what a ZIP entry of method 8 holds)
 * inflates to, within `limits`, or what is wrong with it.
 */
export function inflateRawResult(
	input: Uint8Array,
	limits: InflateLimits,
): { data: Buffer } | { problem: string } {
	try {
		return { data: new Inflater(input, limits).run() };
	} catch (error) {
		// Anything the inflater throws is about the data (an index past the input is one more way to be damaged).
		return { problem: error instanceof Error ? error.message : String(error) };
	}
}

/** `inflateRawResult`'s data, or an `InflateError` that says what is wrong with the stream. */
export function inflateRaw(input: Uint8Array, limits: InflateLimits): Buffer {
	const result = inflateRawResult(input, limits);
	if ('problem' in result) throw new InflateError(result.problem);
	return result.data;
}
