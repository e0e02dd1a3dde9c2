/**
 * The package's one XML reader, for XML that arrives from strangers: receipts and authorization answers of the
 * SRI (Ecuador), CFDIs and SOAP answers of the SAT (Mexico), receipts given to Issue From XML. The package may
 * not add runtime dependencies, so it is written here: a strict, small, non-validating XML 1.0 parser with
 * namespaces (Namespaces in XML 1.0) that builds a plain tree.
 *
 * What it refuses, with an `XmlError` that says what and where (line, column):
 * - a `<!DOCTYPE` anywhere: no DTD is read, no entity is declared or expanded, no other file is reached
 *   (this closes "billion laughs" and external entities, XXE, by construction);
 * - a reference to any entity other than the five predefined ones, a character reference to a code point
 *   XML does not allow, a character XML does not allow;
 * - a document that is not well-formed: end tags that do not match, more than one root, text or markup after
 *   the root, attributes not quoted or repeated, `<` in an attribute value, `--` in a comment, `]]>` in text,
 *   an XML declaration or processing instruction named `xml` anywhere but at the start, an unbound prefix;
 * - a document past its limits (`XmlLimits`): every input ends in time linear in its size — no regular
 *   expression that backtracks runs on untrusted text, and elements are nested with an explicit stack, so a
 *   deep document cannot exhaust the call stack.
 *
 * Encodings: a string is read as it is (a leading BOM dropped). A Buffer is read as UTF-8 (a UTF-8 BOM
 * dropped; bytes that are not UTF-8 are an error, never replaced silently), or as ISO-8859-1 / windows-1252
 * when its declaration says so — both are one byte per character and cheap to decode, and older Mexican
 * CFDIs were written in them. UTF-16 and every other declared encoding are refused with a message.
 * Whitespace before the XML declaration is tolerated (text pasted into a field often starts with a newline);
 * everything else follows XML 1.0.
 */

/** Limits of one `parseXml` call. Callers pass smaller ones where a service documents them. */
export interface XmlLimits {
	/** Largest input, in bytes (a string counts its UTF-8 bytes). */
	maxBytes: number;
	/** Deepest nesting of elements; the root is depth 1. */
	maxDepth: number;
	/** Most attributes on one element (namespace declarations included). */
	maxAttributes: number;
	/** Most elements in the whole document. */
	maxElements: number;
	/** Longest element, attribute or processing-instruction name, in characters. */
	maxNameLength: number;
	/** Longest attribute value, in characters (as written, before entities are decoded). */
	maxAttributeLength: number;
}

/**
 * Defaults: large enough for a CFDI with thousands of conceptos (each concepto is a handful of elements,
 * its data in attributes), small enough that a hostile document cannot take the memory of an n8n instance.
 * The SRI caps one receipt at 320 KB (`SRI_RECEIPT_MAX_BYTES`): its callers pass that.
 */
export const DEFAULT_XML_LIMITS: Readonly<XmlLimits> = Object.freeze({
	maxBytes: 10 * 1024 * 1024,
	maxDepth: 100,
	maxAttributes: 256,
	maxElements: 200_000,
	maxNameLength: 1_000,
	maxAttributeLength: 1024 * 1024,
});

/** The SRI's cap on one electronic receipt (SRI, Ficha técnica de comprobantes electrónicos, esquema offline). */
export const SRI_RECEIPT_MAX_BYTES = 320 * 1024;

/** One element. */
export interface XmlElement {
	/** The qualified name as written: `soap:Envelope`, `cfdi:Comprobante`, `factura`. */
	name: string;
	/** The name without its prefix: `Envelope`, `Comprobante`, `factura`. */
	local: string;
	/** The namespace URI the element is in, from the `xmlns` declarations in scope; '' for none. */
	ns: string;
	/** Attributes by their written names (`Total`, `xsi:schemaLocation`, `xmlns:cfdi`), values decoded. */
	attributes: Record<string, string>;
	/** Child elements, in document order. */
	children: XmlElement[];
	/**
	 * The character data directly inside the element, concatenated exactly as read (CDATA included, entities
	 * decoded, line ends normalized to "\n"; whitespace between child elements included, not trimmed).
	 */
	text: string;
}

/**
 * Why an XML was refused: a message a user understands, and where in the document when that applies. The
 * message may quote the document's names: a caller that puts it in an n8n error must set that error's `message`
 * again after constructing it, because n8n swaps a message containing a system error code (EACCES, EPERM…) for
 * a generic one, and `claveAcceso` contains EACCES (`Checker.throwIfFailed` does so).
 */
export class XmlError extends Error {
	readonly line?: number;
	readonly column?: number;

	/** `message` is complete (the parser writes the place into it); `where` repeats it for programs. */
	constructor(message: string, where?: { line: number; column: number }) {
		super(message);
		this.name = 'XmlError';
		this.line = where?.line;
		this.column = where?.column;
	}
}

const XML_NS = 'http://www.w3.org/XML/1998/namespace';
const XMLNS_NS = 'http://www.w3.org/2000/xmlns/';
/** `object[key] = value`; `__proto__`, a valid XML name, is defined rather than assigned (which would change the object's prototype). */
function setOwn<T>(object: Record<string, T>, key: string, value: T): void {
	if (key === '__proto__')
		Object.defineProperty(object, key, {
			value,
			enumerable: true,
			writable: true,
			configurable: true,
		});
	else object[key] = value;
}

const PREDEFINED: Record<string, string> = { lt: '<', gt: '>', amp: '&', apos: "'", quot: '"' };

/** "320 KB", "10 MB", "1500 bytes". */
function size(bytes: number): string {
	const mb = 1024 * 1024;
	if (bytes >= mb) return bytes % mb === 0 ? `${bytes / mb} MB` : `${(bytes / mb).toFixed(1)} MB`;
	if (bytes >= 1024 && bytes % 1024 === 0) return `${bytes / 1024} KB`;
	if (bytes >= 1024) return `${(bytes / 1024).toFixed(1)} KB`;
	return `${bytes} bytes`;
}

function tooLarge(max: number, actual?: number): XmlError {
	return new XmlError(
		`the XML is larger than ${size(max)}` +
			(actual !== undefined ? ` (it has ${size(actual)})` : ''),
	);
}

// windows-1252 characters 0x80–0x9F (the WHATWG Encoding Standard's table; the five it leaves undefined
// keep their ISO-8859-1 meaning, as browsers do).
const CP1252 =
	'\u20ac\u0081\u201a\u0192\u201e\u2026\u2020\u2021\u02c6\u2030\u0160\u2039\u0152\u008d\u017d\u008f' +
	'\u0090\u2018\u2019\u201c\u201d\u2022\u2013\u2014\u02dc\u2122\u0161\u203a\u0153\u009d\u017e\u0178';

/**
 * `bytes` read as UTF-8, or undefined when they are not valid UTF-8 (Node would replace each byte it cannot read with
 * U+FFFD, changing the data).
 */
export function strictUtf8(bytes: Buffer): string | undefined {
	const text = bytes.toString('utf8');
	return text.includes('\ufffd') && !Buffer.from(text, 'utf8').equals(bytes) ? undefined : text;
}

/** `bytes` read as windows-1252: ISO-8859-1, but for the characters of 0x80–0x9F (CP1252 above). */
export function windows1252(bytes: Buffer): string {
	return bytes
		.toString('latin1')
		.replace(/[\u0080-\u009f]/g, (c) => CP1252[c.charCodeAt(0) - 0x80]);
}

/** The text of `input`, decoded as its BOM and declaration say, after the size check. */
function decode(input: string | Buffer, maxBytes: number): string {
	if (typeof input === 'string') {
		const bytes = Buffer.byteLength(input, 'utf8');
		if (bytes > maxBytes) throw tooLarge(maxBytes, bytes);
		return input.charCodeAt(0) === 0xfeff ? input.slice(1) : input;
	}
	if (!Buffer.isBuffer(input)) throw new XmlError('the XML must be text or a file (Buffer)');
	if (input.length > maxBytes) throw tooLarge(maxBytes, input.length);
	if (
		(input[0] === 0xff && input[1] === 0xfe) ||
		(input[0] === 0xfe && input[1] === 0xff) ||
		(input.length > 1 && (input[0] === 0 || input[1] === 0))
	) {
		throw new XmlError(
			'the XML is encoded in UTF-16 (or another two-byte encoding), which is not read: save it as UTF-8',
		);
	}
	const bom = input[0] === 0xef && input[1] === 0xbb && input[2] === 0xbf;
	const bytes = bom ? input.subarray(3) : input;
	const encoding = declaredEncoding(bytes.subarray(0, 1024).toString('latin1'));
	const name = encoding?.toLowerCase().replace(/_/g, '-');
	if (
		name === undefined ||
		name === 'utf-8' ||
		name === 'utf8' ||
		name === 'us-ascii' ||
		name === 'ascii'
	) {
		const text = strictUtf8(bytes);
		// Bytes that are not UTF-8 are refused rather than changed.
		if (text === undefined) {
			throw new XmlError(
				`the XML is not valid UTF-8${encoding ? '' : ' (it declares no encoding, so it must be UTF-8)'}: save it as UTF-8, or declare the encoding it is written in`,
			);
		}
		return text;
	}
	if (bom) {
		throw new XmlError(
			`the XML starts with a UTF-8 byte-order mark but declares the encoding "${encoding}"`,
		);
	}
	if (name === 'iso-8859-1' || name === 'latin1' || name === 'l1') return bytes.toString('latin1');
	if (name === 'windows-1252' || name === 'cp1252') return windows1252(bytes);
	throw new XmlError(
		`the XML declares the encoding "${encoding}", which is not read: only UTF-8, US-ASCII, ISO-8859-1 and windows-1252 are (the SRI and the SAT use UTF-8)`,
	);
}

/**
 * The characters of an XML file (its bytes), decoded as its BOM and declaration say — UTF-8 (invalid bytes
 * refused), ISO-8859-1, windows-1252 — with the same size check and the same errors as `parseXml`: for a caller
 * that must hand on the document it read (Issue From XML sends the receipt as text in JSON).
 */
export function xmlText(bytes: Buffer, maxBytes: number): string {
	return decode(bytes, maxBytes);
}

/**
 * `text` (a decoded document) with its XML declaration saying `encoding="UTF-8"` where it named another
 * encoding: once decoded, the document is characters, and whoever receives it as text (JSON is UTF-8) must not
 * be told to read it as ISO-8859-1 again. A document without a declaration or without an encoding in it is
 * returned as it is (UTF-8 is XML's default). Only the declaration is looked at (its first 1024 characters).
 */
export function withUtf8Declaration(text: string): string {
	const head = text.slice(0, 1024);
	const decl = /^[ \t\r\n]*<\?xml[ \t\r\n][^?>]*\?>/.exec(head)?.[0];
	if (!decl) return text;
	const encoding = /(encoding[ \t\r\n]*=[ \t\r\n]*)(["'])([A-Za-z0-9._-]*)\2/.exec(decl);
	if (!encoding || /^utf-?8$/i.test(encoding[3])) return text;
	const at = encoding.index + encoding[1].length;
	return `${decl.slice(0, at)}"UTF-8"${decl.slice(at + encoding[3].length + 2)}${text.slice(decl.length)}`;
}

/** The encoding named in the XML declaration at the start of `head` (at most 1024 characters), if any. */
function declaredEncoding(head: string): string | undefined {
	const decl = /^[ \t\r\n]*<\?xml[ \t\r\n]([^?>]*)\?>/.exec(head);
	return decl
		? /encoding[ \t\r\n]*=[ \t\r\n]*["']([A-Za-z0-9._-]*)["']/.exec(decl[1])?.[1]
		: undefined;
}

/** Where the first character XML 1.0 does not allow (§2.2) is, a surrogate without its pair included; -1 if none. */
function forbiddenChar(text: string): number {
	for (let i = 0; i < text.length; i++) {
		const c = text.charCodeAt(i);
		if (c >= 0x20 && c < 0xd800) continue;
		if (c < 0x20) {
			if (c === 0x9 || c === 0xa || c === 0xd) continue;
			return i;
		}
		if (c <= 0xdbff) {
			const next = text.charCodeAt(i + 1);
			if (next >= 0xdc00 && next <= 0xdfff) {
				i++;
				continue;
			}
			return i;
		}
		if (c <= 0xdfff || c === 0xfffe || c === 0xffff) return i;
	}
	return -1;
}

const DECLARATION =
	/^[ \t\n]+version[ \t\n]*=[ \t\n]*(["'])1\.[0-9]+\1(?:[ \t\n]+encoding[ \t\n]*=[ \t\n]*(["'])[A-Za-z][A-Za-z0-9._-]*\2)?(?:[ \t\n]+standalone[ \t\n]*=[ \t\n]*(["'])(?:yes|no)\3)?[ \t\n]*$/;

function isNameStart(c: number): boolean {
	return (
		(c >= 0x61 && c <= 0x7a) ||
		(c >= 0x41 && c <= 0x5a) ||
		c === 0x5f ||
		c === 0x3a ||
		(c >= 0xc0 && c <= 0xd6) ||
		(c >= 0xd8 && c <= 0xf6) ||
		(c >= 0xf8 && c <= 0x2ff) ||
		(c >= 0x370 && c <= 0x37d) ||
		(c >= 0x37f && c <= 0x1fff) ||
		(c >= 0x200c && c <= 0x200d) ||
		(c >= 0x2070 && c <= 0x218f) ||
		(c >= 0x2c00 && c <= 0x2fef) ||
		(c >= 0x3001 && c <= 0xd7ff) ||
		(c >= 0xf900 && c <= 0xfdcf) ||
		(c >= 0xfdf0 && c <= 0xfffd) ||
		// #x10000–#xEFFFF: the first half of a surrogate pair (pairs were checked once for the document)
		(c >= 0xd800 && c <= 0xdb7f)
	);
}

function isNameChar(c: number): boolean {
	return (
		isNameStart(c) ||
		c === 0x2d ||
		c === 0x2e ||
		(c >= 0x30 && c <= 0x39) ||
		c === 0xb7 ||
		(c >= 0x300 && c <= 0x36f) ||
		(c >= 0x203f && c <= 0x2040) ||
		(c >= 0xdc00 && c <= 0xdfff)
	);
}

function isSpace(c: number): boolean {
	return c === 0x20 || c === 0x0a || c === 0x09;
}

function isXmlChar(code: number): boolean {
	return (
		code === 0x9 ||
		code === 0xa ||
		code === 0xd ||
		(code >= 0x20 && code <= 0xd7ff) ||
		(code >= 0xe000 && code <= 0xfffd) ||
		(code >= 0x10000 && code <= 0x10ffff)
	);
}

interface Frame {
	element: XmlElement;
	/** Where its start tag begins, for messages. */
	at: number;
	/** Prefixes it declared ('' for the default namespace), to unbind when it ends. */
	declared?: string[];
}

class Parser {
	private pos = 0;
	private elements = 0;
	/** In-scope namespace bindings: prefix → URIs, innermost last (pushed by a start tag, popped by its end). */
	private readonly bindings = new Map<string, string[]>([['xml', [XML_NS]]]);

	constructor(
		private readonly src: string,
		private readonly limits: XmlLimits,
	) {}

	private where(at: number): { line: number; column: number } {
		let line = 1;
		let lineStart = 0;
		for (let i = this.src.indexOf('\n'); i !== -1 && i < at; i = this.src.indexOf('\n', i + 1)) {
			line++;
			lineStart = i + 1;
		}
		return { line, column: at - lineStart + 1 };
	}

	/** Throws "the XML is not well-formed: `message` (line L, column C)"; `placed`: the message says where. */
	private fail(message: string, at = this.pos, placed = false): never {
		const where = this.where(at);
		const place = placed ? '' : ` (line ${where.line}, column ${where.column})`;
		throw new XmlError(`the XML is not well-formed: ${message}${place}`, where);
	}

	private limit(message: string, at = this.pos): never {
		const where = this.where(at);
		throw new XmlError(`${message} (line ${where.line}, column ${where.column})`, where);
	}

	private startsWith(s: string): boolean {
		return this.src.startsWith(s, this.pos);
	}

	private skipSpace(): boolean {
		const start = this.pos;
		while (isSpace(this.src.charCodeAt(this.pos))) this.pos++;
		return this.pos > start;
	}

	private name(what: string): string {
		const start = this.pos;
		if (!isNameStart(this.src.charCodeAt(this.pos))) {
			const c = this.src[this.pos];
			this.fail(
				c === undefined
					? `the document ends where ${what} was expected`
					: `${what} was expected, found ${JSON.stringify(c)}`,
			);
		}
		const max = start + this.limits.maxNameLength;
		this.pos++;
		while (isNameChar(this.src.charCodeAt(this.pos))) {
			if (++this.pos > max)
				this.limit(`the XML has a name longer than ${this.limits.maxNameLength} characters`, start);
		}
		return this.src.slice(start, this.pos);
	}

	/** `local` of a qualified name, checked (Namespaces in XML: at most one colon, neither first nor last). */
	private split(qname: string, at: number): [prefix: string, local: string] {
		const colon = qname.indexOf(':');
		if (colon === -1) return ['', qname];
		const local = qname.slice(colon + 1);
		if (colon === 0 || local === '' || local.includes(':') || !isNameStart(local.charCodeAt(0)))
			this.fail(`the name "${qname}" is not a valid qualified name`, at);
		return [qname.slice(0, colon), local];
	}

	private uri(prefix: string): string | undefined {
		const uris = this.bindings.get(prefix);
		return uris?.length ? uris[uris.length - 1] : undefined;
	}

	/** Decodes the references in `raw`, which starts at `at` in the source. */
	private references(raw: string, at: number): string {
		let amp = raw.indexOf('&');
		if (amp === -1) return raw;
		let out = '';
		let last = 0;
		while (amp !== -1) {
			out += raw.slice(last, amp);
			let i = amp + 1;
			let char: string;
			if (raw.charCodeAt(i) === 0x23 /* # */) {
				const hex = raw[i + 1] === 'x';
				i += hex ? 2 : 1;
				const digitsStart = i;
				const digit = hex ? /[0-9a-fA-F]/ : /[0-9]/;
				while (i < raw.length && digit.test(raw[i])) i++;
				const digits = raw.slice(digitsStart, i);
				if (raw[i] !== ';' || digits === '')
					this.fail('a character reference (&#…;) is malformed', at + amp);
				const code = digits.length > 8 ? -1 : parseInt(digits, hex ? 16 : 10);
				if (!isXmlChar(code))
					this.fail(
						`the character reference ${raw.slice(amp, i + 1)} is not a character XML allows`,
						at + amp,
					);
				char = String.fromCodePoint(code);
			} else {
				const nameStart = i;
				while (i < raw.length && i - nameStart <= 64 && isNameChar(raw.charCodeAt(i))) i++;
				const name = raw.slice(nameStart, i);
				if (raw[i] !== ';' || name === '')
					this.fail(
						'"&" must start an entity reference such as &amp; (write "&amp;" for "&")',
						at + amp,
					);
				if (!Object.hasOwn(PREDEFINED, name))
					this.fail(
						`the entity &${name}; is not defined (only &lt; &gt; &amp; &apos; &quot; and character references are read)`,
						at + amp,
					);
				char = PREDEFINED[name];
			}
			out += char;
			last = i + 1;
			amp = raw.indexOf('&', last);
		}
		return out + raw.slice(last);
	}

	private doctype(): never {
		const where = this.where(this.pos);
		throw new XmlError(
			`the XML declares a DOCTYPE (line ${where.line}, column ${where.column}), which is refused: document type definitions and entity declarations are not read, so that a document cannot expand entities or reach other files. Remove the <!DOCTYPE …> declaration`,
			where,
		);
	}

	/** `<!-- … -->` at `pos`. */
	private comment(): void {
		const start = this.pos;
		const end = this.src.indexOf('-->', start + 4);
		if (end === -1) this.fail('a comment (<!--) is never closed with -->', start);
		const dashes = this.src.indexOf('--', start + 4);
		if (dashes < end) this.fail('a comment contains "--"', dashes);
		this.pos = end + 3;
	}

	/** `<?target … ?>` at `pos` (not the XML declaration, which is read at the start). */
	private instruction(): void {
		const start = this.pos;
		this.pos += 2;
		const target = this.name('a processing instruction name');
		if (target.toLowerCase() === 'xml')
			this.fail(
				'an XML declaration (<?xml …?>) may only stand at the start of the document',
				start,
			);
		const end = this.src.indexOf('?>', this.pos);
		if (end === -1) this.fail('a processing instruction (<?) is never closed with ?>', start);
		if (end !== this.pos && !isSpace(this.src.charCodeAt(this.pos)))
			this.fail('a processing instruction name is followed by an unexpected character');
		this.pos = end + 2;
	}

	private declaration(): void {
		const start = this.pos;
		const end = this.src.indexOf('?>', start);
		if (end === -1 || end - start > 500)
			this.fail('the XML declaration (<?xml …?>) is never closed with ?>', start);
		if (!DECLARATION.test(this.src.slice(start + 5, end)))
			this.fail(
				'the XML declaration must read <?xml version="1.0" encoding="…" standalone="…"?> (encoding and standalone optional, in that order)',
				start,
			);
		this.pos = end + 2;
	}

	/** Reads the start tag at `pos`; returns its frame and whether it closed itself (`<a/>`). */
	private startTag(parent: XmlElement | undefined, depth: number): [Frame, boolean] {
		const at = this.pos;
		if (depth > this.limits.maxDepth)
			this.limit(`the XML nests elements deeper than ${this.limits.maxDepth} levels`, at);
		if (++this.elements > this.limits.maxElements)
			this.limit(`the XML has more than ${this.limits.maxElements} elements`, at);
		this.pos++;
		const name = this.name('an element name');
		const attributes: Record<string, string> = {};
		const attributeAt: number[] = [];
		const names: string[] = [];
		let closed = false;
		for (;;) {
			const spaced = this.skipSpace();
			const c = this.src.charCodeAt(this.pos);
			if (c === 0x3e /* > */) {
				this.pos++;
				break;
			}
			if (c === 0x2f /* / */) {
				if (this.src.charCodeAt(this.pos + 1) !== 0x3e)
					this.fail('"/" in a tag must be followed by ">"');
				this.pos += 2;
				closed = true;
				break;
			}
			if (Number.isNaN(c)) this.fail(`the document ends inside the start tag <${name}>`, at);
			if (!spaced) this.fail(`in the start tag <${name}>, an attribute must follow a space`);
			if (names.length >= this.limits.maxAttributes)
				this.limit(
					`the element <${name}> has more than ${this.limits.maxAttributes} attributes`,
					at,
				);
			const attrAt = this.pos;
			const attr = this.name('an attribute name');
			this.skipSpace();
			if (this.src[this.pos] !== '=')
				this.fail(`the attribute ${attr} of <${name}> has no value (attr="value")`);
			this.pos++;
			this.skipSpace();
			const quote = this.src[this.pos];
			if (quote !== '"' && quote !== "'")
				this.fail(`the value of the attribute ${attr} of <${name}> is not in quotes`);
			const end = this.src.indexOf(quote, this.pos + 1);
			if (end === -1)
				this.fail(`the value of the attribute ${attr} of <${name}> is never closed`, attrAt);
			if (end - this.pos - 1 > this.limits.maxAttributeLength)
				this.limit(
					`the attribute ${attr} of <${name}> is longer than ${this.limits.maxAttributeLength} characters`,
					attrAt,
				);
			const raw = this.src.slice(this.pos + 1, end);
			const lt = raw.indexOf('<');
			if (lt !== -1)
				this.fail(
					`the value of the attribute ${attr} of <${name}> contains "<" (write "&lt;")`,
					this.pos + 1 + lt,
				);
			if (Object.hasOwn(attributes, attr))
				this.fail(`the attribute ${attr} appears twice in <${name}>`, attrAt);
			// Attribute-value normalization (§3.3.3): a literal tab or line end is a space; a reference is kept.
			const normalized = /[\t\n]/.test(raw) ? raw.replace(/[\t\n]/g, ' ') : raw;
			setOwn(attributes, attr, this.references(normalized, this.pos + 1));
			names.push(attr);
			attributeAt.push(attrAt);
			this.pos = end + 1;
		}

		// Namespaces: this element's declarations first, then its name and its attributes' prefixes.
		let declared: string[] | undefined;
		for (let k = 0; k < names.length; k++) {
			const attr = names[k];
			if (attr !== 'xmlns' && !attr.startsWith('xmlns:')) continue;
			const prefix = attr === 'xmlns' ? '' : this.split(attr, attributeAt[k])[1];
			const uri = attributes[attr];
			if (prefix === 'xmlns' || uri === XMLNS_NS)
				this.fail('the prefix xmlns and its namespace may not be declared', attributeAt[k]);
			if ((prefix === 'xml') !== (uri === XML_NS))
				this.fail(
					`the prefix xml may only be bound to ${XML_NS}, and that namespace only to it`,
					attributeAt[k],
				);
			if (prefix !== '' && uri === '')
				this.fail(
					`the prefix ${prefix} is declared with an empty namespace, which XML 1.0 does not allow`,
					attributeAt[k],
				);
			const uris = this.bindings.get(prefix);
			if (uris) uris.push(uri);
			else this.bindings.set(prefix, [uri]);
			(declared ??= []).push(prefix);
		}
		const [prefix, local] = this.split(name, at);
		const ns = this.uri(prefix);
		if (prefix !== '' && ns === undefined)
			this.fail(`the prefix "${prefix}" of <${name}> is not declared (xmlns:${prefix}="…")`, at);
		let qualified: Set<string> | undefined;
		for (let k = 0; k < names.length; k++) {
			const attr = names[k];
			if (attr === 'xmlns' || attr.startsWith('xmlns:')) continue;
			const [attrPrefix, attrLocal] = this.split(attr, attributeAt[k]);
			if (attrPrefix === '') continue;
			const attrNs = this.uri(attrPrefix);
			if (attrNs === undefined)
				this.fail(
					`the prefix "${attrPrefix}" of the attribute ${attr} is not declared (xmlns:${attrPrefix}="…")`,
					attributeAt[k],
				);
			const key = `${attrNs} ${attrLocal}`;
			qualified ??= new Set();
			if (qualified.has(key))
				this.fail(
					`the attribute ${attrLocal} of namespace ${attrNs} appears twice in <${name}>`,
					attributeAt[k],
				);
			qualified.add(key);
		}
		const element: XmlElement = { name, local, ns: ns ?? '', attributes, children: [], text: '' };
		parent?.children.push(element);
		return [{ element, at, declared }, closed];
	}

	private end(frame: Frame): void {
		for (const prefix of frame.declared ?? []) this.bindings.get(prefix)?.pop();
	}

	parse(): XmlElement {
		const src = this.src;
		const bad = forbiddenChar(src);
		if (bad !== -1)
			this.limit(
				`the XML contains a character XML does not allow (U+${src.charCodeAt(bad).toString(16).toUpperCase().padStart(4, '0')})`,
				bad,
			);
		this.skipSpace();
		if (
			this.startsWith('<?xml') &&
			(isSpace(src.charCodeAt(this.pos + 5)) || src[this.pos + 5] === '?')
		)
			this.declaration();

		let root: XmlElement | undefined;
		const stack: Frame[] = [];
		for (;;) {
			const top = stack[stack.length - 1];
			if (!top) {
				// Prolog, or after the root: only spaces, comments and processing instructions.
				this.skipSpace();
				if (this.pos >= src.length) {
					if (root) return root;
					this.fail('the document has no root element');
				}
				if (this.startsWith('<!--')) this.comment();
				else if (this.startsWith('<!DOCTYPE')) this.doctype();
				else if (this.startsWith('<?')) this.instruction();
				else if (root && src[this.pos] === '<' && isNameStart(src.charCodeAt(this.pos + 1)))
					this.fail(`a second root element follows <${root.name}>: an XML document has one root`);
				else if (root) this.fail(`there is text or markup after the root element <${root.name}>`);
				else if (src[this.pos] === '<' && src[this.pos + 1] !== '!') {
					const [frame, closed] = this.startTag(undefined, 1);
					root = frame.element;
					if (closed) this.end(frame);
					else stack.push(frame);
				} else this.fail('there is text or markup before the root element');
				continue;
			}
			const lt = src.indexOf('<', this.pos);
			const textEnd = lt === -1 ? src.length : lt;
			if (textEnd > this.pos) {
				const text = src.slice(this.pos, textEnd);
				const cdataEnd = text.indexOf(']]>');
				if (cdataEnd !== -1)
					this.fail('"]]>" appears in text (write "]]&gt;")', this.pos + cdataEnd);
				top.element.text += this.references(text, this.pos);
				this.pos = textEnd;
			}
			if (lt === -1)
				this.fail(`the document ends before the element <${top.element.name}> is closed`, top.at);
			if (src.charCodeAt(lt + 1) === 0x2f /* / */) {
				const at = this.pos;
				this.pos += 2;
				const name = this.name('an end-tag name');
				this.skipSpace();
				if (src[this.pos] !== '>') this.fail(`the end tag </${name}> is not closed with ">"`, at);
				this.pos++;
				if (name !== top.element.name) {
					const opened = this.where(top.at);
					const here = this.where(at);
					this.fail(
						`the end tag </${name}> at line ${here.line}, column ${here.column} does not match <${top.element.name}> (opened at line ${opened.line}, column ${opened.column})`,
						at,
						true,
					);
				}
				this.end(top);
				stack.pop();
			} else if (this.startsWith('<!--')) this.comment();
			else if (this.startsWith('<![CDATA[')) {
				const end = src.indexOf(']]>', this.pos + 9);
				if (end === -1) this.fail('a CDATA section (<![CDATA[) is never closed with ]]>');
				top.element.text += src.slice(this.pos + 9, end);
				this.pos = end + 3;
			} else if (this.startsWith('<!DOCTYPE')) this.doctype();
			else if (this.startsWith('<?')) this.instruction();
			else if (this.startsWith('<!')) this.fail('"<!" starts no comment or CDATA section');
			else {
				const [frame, closed] = this.startTag(top.element, stack.length + 1);
				if (closed) this.end(frame);
				else stack.push(frame);
			}
		}
	}
}

/**
 * Parses a whole XML document and returns its root element. `limits` override `DEFAULT_XML_LIMITS` one by
 * one (`{ maxBytes: SRI_RECEIPT_MAX_BYTES }`). Throws an `XmlError` for anything it refuses (see the top of
 * this file); never expands an entity, never reads a DTD, never reaches a file or the network.
 */
export function parseXml(input: string | Buffer, limits: Partial<XmlLimits> = {}): XmlElement {
	const all: XmlLimits = { ...DEFAULT_XML_LIMITS, ...limits };
	const text = decode(input, all.maxBytes);
	// Line ends (§2.11): CR LF and a lone CR are read as LF.
	return new Parser(text.includes('\r') ? text.replace(/\r\n?/g, '\n') : text, all).parse();
}

const matches = (e: XmlElement, local: string, ns?: string) =>
	e.local === local && (ns === undefined || e.ns === ns);

/** The child elements of `element` named `local` (and in namespace `ns`, when given), in order. */
export function children(element: XmlElement, local: string, ns?: string): XmlElement[] {
	return element.children.filter((e) => matches(e, local, ns));
}

/** The first child element of `element` named `local` (in namespace `ns`, when given). */
export function child(element: XmlElement, local: string, ns?: string): XmlElement | undefined {
	return element.children.find((e) => matches(e, local, ns));
}

/** The trimmed text of the first child named `local` (in `ns`, when given); undefined when there is none. */
export function childText(element: XmlElement, local: string, ns?: string): string | undefined {
	return child(element, local, ns)?.text.trim();
}

/** Every element under `element` (not itself) named `local` (in `ns`, when given), in document order. */
export function descendants(element: XmlElement, local: string, ns?: string): XmlElement[] {
	const found: XmlElement[] = [];
	const pending = [...element.children].reverse();
	for (let e = pending.pop(); e; e = pending.pop()) {
		if (matches(e, local, ns)) found.push(e);
		for (let k = e.children.length - 1; k >= 0; k--) pending.push(e.children[k]);
	}
	return found;
}

/**
 * The value of the attribute of `element` whose local name is `local`: the unprefixed one (`Total`) when
 * present, else the first prefixed one (`xsi:schemaLocation` for `schemaLocation`). Namespace declarations
 * are not attributes here.
 */
export function attribute(element: XmlElement, local: string): string | undefined {
	const { attributes } = element;
	if (Object.hasOwn(attributes, local)) return attributes[local];
	for (const name of Object.keys(attributes)) {
		const colon = name.indexOf(':');
		if (colon !== -1 && name.slice(colon + 1) === local && name.slice(0, colon) !== 'xmlns')
			return attributes[name];
	}
	return undefined;
}

type XmlJson = string | number | XmlJson[] | { [key: string]: XmlJson };

export interface ToJsonOptions {
	/** Local names of elements that are always arrays, even when they occur once (a schema's repeated elements). */
	arrays?: Iterable<string>;
	/** Local names of elements and attributes whose value becomes a number when it is a plain decimal. */
	numbers?: Iterable<string>;
	/** The key of an element's own text when it also has attributes or children. Default `#text`. */
	textKey?: string;
	/**
	 * A schema's say on a child element, replacing rule 3 where it answers: `'list'` (always an array), `'single'`
	 * (one value: a later child of the same name is left out and given to `onLeftOut`), or undefined (rule 3).
	 */
	shapeOf?: (child: XmlElement, parent: XmlElement) => 'list' | 'single' | undefined;
	/** Called for each child that `shapeOf` left out (a second one where the schema allows one). */
	onLeftOut?: (child: XmlElement, parent: XmlElement) => void;
	/**
	 * Whether the attribute `name` (as written) of `element` becomes a number when it is a decimal; replaces
	 * `numbers` for attributes when given.
	 */
	numberAttribute?: (element: XmlElement, name: string) => boolean;
}

/** `value` as a number when it is a plain decimal (`-12.50`) that a number holds exactly; else undefined. */
function plainNumber(value: string): number | undefined {
	// Short values only: an amount or a quantity, never a long run of digits whose precision a number loses.
	if (value.length > 40 || !/^-?[0-9]+(?:\.[0-9]+)?$/.test(value)) return undefined;
	const n = Number(value);
	const negative = value.startsWith('-');
	let [whole, fraction = ''] = (negative ? value.slice(1) : value).split('.');
	whole = whole.replace(/^0+(?=[0-9])/, '');
	let f = fraction.length;
	while (f > 0 && fraction[f - 1] === '0') f--;
	fraction = fraction.slice(0, f);
	const canonical =
		(negative && (whole !== '0' || fraction) ? '-' : '') + whole + (fraction ? `.${fraction}` : '');
	return String(n) === canonical ? n + 0 : undefined; // + 0: -0 becomes 0
}

/**
 * `element` as plain JSON for an output item, by these rules:
 * 1. Names are **local names**, without prefixes (`cfdi:Concepto` → `Concepto`), as the SRI's and the SAT's
 *    documentation name them. The result is the element's value; the caller names the root (`{ factura: … }`).
 * 2. An element with neither attributes nor child elements is its text, trimmed (`<ruc>179…</ruc>` → "179…";
 *    an empty element → "").
 * 3. Otherwise it is an object: its attributes as properties (namespace declarations `xmlns…` dropped), then
 *    its child elements as properties. A child name that occurs more than once, or is listed in
 *    `options.arrays`, is an array of values in document order; otherwise a single value. Its own text, when
 *    not only whitespace, is kept under `options.textKey` (`#text`): `<campoAdicional nombre="Email">a@b.ec
 *    </campoAdicional>` → `{ nombre: "Email", "#text": "a@b.ec" }`.
 * 4. An attribute whose local name is also a child's name, another attribute's local name, or the text key
 *    keeps its written name prefixed with `@` (`@xsi:type`): nothing is dropped.
 * 5. A value (element text or attribute) whose local name is in `options.numbers` becomes a number when it is
 *    a plain decimal (`-?digits[.digits]`) a number holds exactly; any other value stays text, so codes
 *    (`ruc`, `secuencial`, `codigo`, `ClaveProdServ`) stay text unless the caller lists them.
 * A caller that knows the schema says it per element instead (`shapeOf`, `numberAttribute`): the SAT's CFDIs,
 * whose complements reuse local names with other meanings.
 * Iterative: a deep tree cannot exhaust the call stack.
 */
export function toJson(element: XmlElement, options: ToJsonOptions = {}): XmlJson {
	const arrays = new Set(options.arrays ?? []);
	const numbers = new Set(options.numbers ?? []);
	const textKey = options.textKey ?? '#text';
	const scalar = (local: string, text: string): XmlJson =>
		numbers.has(local) ? (plainNumber(text.trim()) ?? text) : text;
	const { shapeOf, onLeftOut, numberAttribute } = options;
	const attributeValue = (e: XmlElement, name: string, local: string): XmlJson => {
		const text = e.attributes[name];
		if (!numberAttribute) return scalar(local, text);
		return numberAttribute(e, name) ? (plainNumber(text.trim()) ?? text) : text;
	};

	// Pre-order, then processed in reverse: every element's children are done before it.
	const order: XmlElement[] = [];
	const pending = [element];
	for (let e = pending.pop(); e; e = pending.pop()) {
		order.push(e);
		for (let k = e.children.length - 1; k >= 0; k--) pending.push(e.children[k]);
	}
	const values = new Map<XmlElement, XmlJson>();
	for (let k = order.length - 1; k >= 0; k--) {
		const e = order[k];
		const attributes = Object.keys(e.attributes).filter(
			(a) => a !== 'xmlns' && !a.startsWith('xmlns:'),
		);
		const text = e.text.trim();
		if (!attributes.length && !e.children.length) {
			values.set(e, scalar(e.local, text));
			continue;
		}
		const object: { [key: string]: XmlJson } = {};
		const childCounts = new Map<string, number>();
		for (const c of e.children) childCounts.set(c.local, (childCounts.get(c.local) ?? 0) + 1);
		const localOf = (a: string) => a.slice(a.indexOf(':') + 1);
		const attributeCounts = new Map<string, number>();
		for (const a of attributes)
			attributeCounts.set(localOf(a), (attributeCounts.get(localOf(a)) ?? 0) + 1);
		for (const a of attributes) {
			const local = localOf(a);
			const clash = childCounts.has(local) || attributeCounts.get(local) !== 1 || local === textKey;
			setOwn(object, clash ? `@${a}` : local, attributeValue(e, a, local));
		}
		const single = new Set<string>();
		for (const c of e.children) {
			const value = values.get(c) as XmlJson;
			values.delete(c);
			if (single.has(c.local)) onLeftOut?.(c, e);
			else if (Object.hasOwn(object, c.local)) (object[c.local] as XmlJson[]).push(value);
			else {
				const shape = shapeOf?.(c, e);
				if (shape === 'single') single.add(c.local);
				const many =
					shape === 'list' ||
					(shape === undefined && (arrays.has(c.local) || (childCounts.get(c.local) ?? 0) > 1));
				setOwn(object, c.local, many ? [value] : value);
			}
		}
		if (text !== '') setOwn(object, textKey, scalar(e.local, text));
		values.set(e, object);
	}
	return values.get(element) as XmlJson;
}

/**
 * Text as XML writes it, in character data or an attribute: `&`, `<`, `>`, `"` and `'` as entities. The one
 * escaping of every XML the package writes (SOAP questions, the SRI's authorization file, the ATS).
 */
export function xmlEscape(text: string): string {
	return text
		.replace(/&/g, '&amp;')
		.replace(/</g, '&lt;')
		.replace(/>/g, '&gt;')
		.replace(/"/g, '&quot;')
		.replace(/'/g, '&apos;');
}
