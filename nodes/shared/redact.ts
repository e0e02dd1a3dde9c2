/**
 * The one scrubber that keeps secrets out of output items, error messages and logs, for every node of the
 * package (the service client applies it to everything it returns and throws, the router to every item and
 * error a node emits, the triggers to what they output: see transport.ts, router.ts and the trigger nodes).
 * Secrets reach us two ways, and there is one net for each:
 * - by field name: the services echo secrets in their answers (the receipts service puts the account key in
 *   `api-key` and a `certificate-password` beside signing failures; the extraction service may echo the
 *   taxpayer's SAT password or FIEL key). A field whose name says "secret" keeps its place but its value is
 *   replaced by `[redacted]` (an empty or null value says nothing and stays as it is).
 * - by value: the exact secrets a request carried (API key, certificate password, SAT password…) are cut out
 *   of every text, wherever they appear (a free-text message, an error description, a stack), in every
 *   spelling a service writes them in (`spellingsOf`, `base64Cores`), and out of object keys too (a service
 *   that files something under the key it received).
 * Plain functions, no n8n types.
 */

export const REDACTED = '[redacted]';

/** Field names whose values are secrets, in the spellings the three services, OAuth and their users write. */
const SECRET_FIELD =
	/^(password|pass|contrase(n|ñ)a|ciec|secret|private[-_]?key|key[-_]?password|fiel[-_]?(key|password)|api[-_]?key|x[-_]?key|x[-_]?password|certificate[-_]?password|client[-_]?secret|(access|refresh)[-_]?token|authorization|webhook[-_]?secret)$/i;

/** Secret values shorter than this are only masked by field name (cutting "ab" out of every text would mangle it). */
const MIN_SCRUB_LENGTH = 4;

/**
 * Secrets of fewer UTF-8 bytes than this are not looked for in base64: the encoded part would be so short that
 * unrelated base64 (a file, a token) could contain it by chance.
 */
const MIN_BASE64_BYTES = 8;

/** The two-character escapes of JSON, JavaScript and Python strings. */
const SHORT_ESCAPES: Readonly<Record<string, string>> = {
	'"': '\\"',
	"'": "\\'",
	'\\': '\\\\',
	'/': '\\/',
	'\b': '\\b',
	'\f': '\\f',
	'\n': '\\n',
	'\r': '\\r',
	'\t': '\\t',
};

/** HTML's names for ASCII signs (HTML 4's and HTML5's named character references). */
const ASCII_ENTITIES: Readonly<Record<string, readonly string[]>> = {
	'"': ['quot'],
	'&': ['amp'],
	"'": ['apos'],
	'<': ['lt'],
	'>': ['gt'],
	'/': ['sol'],
	'+': ['plus'],
	'=': ['equals'],
	'?': ['quest'],
	'#': ['num'],
	'%': ['percnt'],
	':': ['colon'],
	'@': ['commat'],
	'!': ['excl'],
	$: ['dollar'],
	'(': ['lpar'],
	')': ['rpar'],
	'*': ['ast', 'midast'],
	',': ['comma'],
	'.': ['period'],
	';': ['semi'],
	_: ['lowbar', 'UnderBar'],
	'`': ['grave', 'DiacriticalGrave'],
	'[': ['lsqb', 'lbrack'],
	']': ['rsqb', 'rbrack'],
	'{': ['lcub', 'lbrace'],
	'}': ['rcub', 'rbrace'],
	'|': ['verbar', 'vert', 'VerticalLine'],
	'\\': ['bsol'],
	'^': ['Hat'],
	'\t': ['Tab'],
	'\n': ['NewLine'],
};

/** HTML 4's names of U+00A0 to U+00FF, in order (what PHP's htmlentities and many templates write for ñ, á…). */
export const LATIN1_ENTITIES = (
	'nbsp iexcl cent pound curren yen brvbar sect uml copy ordf laquo not shy reg macr deg plusmn sup2 sup3 ' +
	'acute micro para middot cedil sup1 ordm raquo frac14 frac12 frac34 iquest Agrave Aacute Acirc Atilde Auml ' +
	'Aring AElig Ccedil Egrave Eacute Ecirc Euml Igrave Iacute Icirc Iuml ETH Ntilde Ograve Oacute Ocirc Otilde ' +
	'Ouml times Oslash Ugrave Uacute Ucirc Uuml Yacute THORN szlig agrave aacute acirc atilde auml aring aelig ' +
	'ccedil egrave eacute ecirc euml igrave iacute icirc iuml eth ntilde ograve oacute ocirc otilde ouml divide ' +
	'oslash ugrave uacute ucirc uuml yacute thorn yuml'
).split(' ');

function entityNames(char: string): readonly string[] {
	const code = char.codePointAt(0) ?? 0;
	if (code >= 0xa0 && code <= 0xff) return [LATIN1_ENTITIES[code - 0xa0]];
	if (char === ' ') return ['nbsp'];
	return ASCII_ENTITIES[char] ?? [];
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** `hex` as a pattern that matches its letters in upper or lower case (`00f1` → `00[fF]1`). */
const anyCaseHex = (hex: string) =>
	hex.replace(/[a-f]/gi, (d) => `[${d.toLowerCase()}${d.toUpperCase()}]`);

const hexOf = (n: number, width: number) => n.toString(16).padStart(width, '0');

/**
 * Letters, digits and `-`, `.`, `_`: no encoder escapes them (JSON, URL and form encoding, HTML escapers all
 * write them as they are), so they appear as they are in every spelling of a secret.
 */
const PLAIN = /^[A-Za-z0-9._-]$/;

/**
 * A pattern that matches one character of a secret in every spelling a service may echo it in:
 * - as it is;
 * - the string escapes of JSON, JavaScript, Python, Go and .NET: `\u00f1` or `\u00F1` for any character
 *   (a surrogate pair above U+FFFF; Python and .NET escape every non-ASCII character, Go and .NET also `<`, `>`,
 *   `&` as `\u003c`, `\u003e`, `\u0026`), `\xf1`, and the two-character escapes (`\"`, `\/`, `\n`…);
 * - URL and form encoding: `%C3%B1` or `%c3%b1` (each UTF-8 byte), `+` for a space;
 * - HTML character references: decimal `&#241;`, hex `&#xf1;` or `&#XF1;`, and the names HTML gives it
 *   (`&ntilde;`, `&amp;`, `&quot;`…).
 * A PLAIN character has one spelling: itself. The spellings of one character start differently, but for the
 * sign they start with (`&` and `&amp;`, `%` and `%25`, `\` and `\\`): a text is tried at most twice per such
 * sign, never more.
 */
function spellingsOf(char: string): string {
	if (PLAIN.test(char)) return char;
	const code = char.codePointAt(0) ?? 0;
	const spellings = new Set<string>([escapeRegExp(char)]);
	const units = char.length > 1 ? [char.charCodeAt(0), char.charCodeAt(1)] : [code];
	spellings.add(units.map((unit) => `\\\\u${anyCaseHex(hexOf(unit, 4))}`).join(''));
	if (code < 0x100) spellings.add(`\\\\x${anyCaseHex(hexOf(code, 2))}`);
	const short = SHORT_ESCAPES[char];
	if (short) spellings.add(escapeRegExp(short));
	const bytes = [...Buffer.from(char, 'utf8')];
	spellings.add(bytes.map((byte) => `%${anyCaseHex(hexOf(byte, 2))}`).join(''));
	if (char === ' ') spellings.add('\\+');
	spellings.add(`&#0*${code};`);
	spellings.add(`&#[xX]0*${anyCaseHex(code.toString(16))};`);
	for (const name of entityNames(char)) spellings.add(`&${name};`);
	return `(?:${[...spellings].join('|')})`;
}

/**
 * The longest run of PLAIN characters of `secret`, which every spelling of it contains as it is: a text without
 * it cannot hold the secret, and is not scanned further (most texts are not).
 */
function plainRun(secret: string): string {
	return secret.split(/[^A-Za-z0-9._-]+/).reduce((a, b) => (b.length > a.length ? b : a), '');
}

/** Plain runs shorter than this would be found in most texts: a secret without a longer one skips that check. */
const MIN_PLAIN_RUN = 3;

/**
 * What base64 of a text that contains `secret` always contains, whatever came before it (`user:secret` in a
 * Basic-like echo, or the secret alone): for each of the three places the secret's first byte can take in
 * base64's 3-byte groups, the encoding of its bytes from the first group boundary to the last, in the standard
 * and the URL-safe alphabets. None for a secret of fewer than MIN_BASE64_BYTES bytes (see there).
 */
export function base64Cores(secret: string): string[] {
	const bytes = Buffer.from(secret, 'utf8');
	if (bytes.length < MIN_BASE64_BYTES) return [];
	const cores = new Set<string>();
	for (const skip of [0, 1, 2]) {
		const whole = Math.floor((bytes.length - skip) / 3) * 3;
		const core = bytes.subarray(skip, skip + whole).toString('base64');
		cores.add(core);
		cores.add(core.replace(/\+/g, '-').replace(/\//g, '_'));
	}
	return [...cores];
}

/** A character of base64 (either alphabet): a base64 text is a run of them, then `=` padding. */
function isBase64Char(code: number): boolean {
	return (
		(code >= 0x30 && code <= 0x39) ||
		(code >= 0x41 && code <= 0x5a) ||
		(code >= 0x61 && code <= 0x7a) ||
		code === 0x2b ||
		code === 0x2f ||
		code === 0x2d ||
		code === 0x5f
	);
}

type Cut = (text: string) => string;

/**
 * The last cutters made, by their secrets: a run scrubs every answer with the same few secrets, so their
 * pattern is built once, not once per answer (a small cache; the secrets are in this process's memory anyway).
 */
const recentCutters = new Map<string, Cut>();
const RECENT_CUTTERS = 16;

/** A function that cuts every spelling of every secret out of a text (its pattern built once). */
function cutter(secrets: readonly string[]): Cut {
	const key = secrets.join('\u0000');
	const known = recentCutters.get(key);
	if (known) return known;
	const made = makeCutter(secrets);
	recentCutters.set(key, made);
	if (recentCutters.size > RECENT_CUTTERS)
		recentCutters.delete(recentCutters.keys().next().value as string);
	return made;
}

/**
 * One regular expression for all the secrets, so a text is scanned once whatever the number of secrets and
 * spellings: each character of a secret is one group of spellings that start differently (see `spellingsOf`),
 * so the scan stays linear in the text's length. Longest secrets first, so that a secret containing
 * another is cut whole. A base64 core is cut with the whole base64 text around it (the user name and the
 * padding of a Basic-like echo too): that text is walked once, never again from a later match.
 */
function makeCutter(secrets: readonly string[]): Cut {
	const usable = [
		...new Set(secrets.filter((s) => typeof s === 'string' && s.length >= MIN_SCRUB_LENGTH)),
	].sort((a, b) => b.length - a.length);
	if (!usable.length) return (text) => text;
	const spelled = usable.map((secret) => [...secret].map(spellingsOf).join(''));
	const cores = [...new Set(usable.flatMap(base64Cores))].sort((a, b) => b.length - a.length);
	const pattern = new RegExp(
		`(${spelled.join('|')})${cores.length ? `|(${cores.map(escapeRegExp).join('|')})` : ''}`,
		'g',
	);
	// What a text must contain to hold any of them: a plain run of each secret, or a base64 core.
	const runs = usable.map(plainRun);
	const hint = runs.every((run) => run.length >= MIN_PLAIN_RUN)
		? new RegExp([...new Set([...runs, ...cores])].map(escapeRegExp).join('|'))
		: undefined;
	const shortest = Math.min(...usable.map((s) => s.length), ...cores.map((c) => c.length));
	return (text) => {
		if (text.length < shortest || (hint && !hint.test(text))) return text;
		pattern.lastIndex = 0;
		let match = pattern.exec(text);
		if (!match) return text;
		let out = '';
		let copied = 0;
		for (; match; match = pattern.exec(text)) {
			let start = match.index;
			let end = start + match[0].length;
			if (match[2] !== undefined) {
				while (start > copied && isBase64Char(text.charCodeAt(start - 1))) start--;
				while (end < text.length && isBase64Char(text.charCodeAt(end))) end++;
				while (end < text.length && text.charCodeAt(end) === 0x3d) end++;
			}
			out += `${text.slice(copied, start)}${REDACTED}`;
			copied = end;
			pattern.lastIndex = end;
		}
		return out + text.slice(copied);
	};
}

/** `text` with every secret, in every spelling (`spellingsOf`, `base64Cores`), replaced by `[redacted]`. */
export function scrubText(text: string, secrets: readonly string[]): string {
	return cutter(secrets)(text);
}

function isEmpty(value: unknown): boolean {
	return value === null || value === undefined || value === '';
}

function redactWith<T>(value: T, cut: Cut): T {
	if (typeof value === 'string') return cut(value) as T;
	if (Array.isArray(value)) return value.map((v) => redactWith(v, cut)) as T;
	if (!value || typeof value !== 'object' || Buffer.isBuffer(value)) return value;
	const out: Record<string, unknown> = {};
	for (const [key, v] of Object.entries(value as Record<string, unknown>)) {
		// A secret used as a key (a service filing an error under the key it received) is cut out of the key;
		// two keys that become the same are told apart by a number.
		let name = cut(key);
		for (let n = 2; name !== key && Object.hasOwn(out, name); n++) name = `${cut(key)} ${n}`;
		const redacted =
			SECRET_FIELD.test(key) && !isEmpty(v) && typeof v !== 'object'
				? REDACTED
				: redactWith(v, cut);
		// `__proto__` as a key of an answer is data, not the copy's prototype.
		if (name === '__proto__')
			Object.defineProperty(out, name, { value: redacted, enumerable: true, writable: true });
		else out[name] = redacted;
	}
	return out as T;
}

/**
 * A deep copy of `value` with secret-named fields masked and the given secret values cut out of every string
 * and every key.
 */
export function redact<T>(value: T, secrets: readonly string[] = []): T {
	return redactWith(value, cutter(secrets));
}

function scrubErrorWith<E>(error: E, cut: Cut, depth: number): E {
	if (!(error instanceof Error)) return error;
	const e = error as Error & {
		description?: unknown;
		messages?: unknown;
		errorResponse?: unknown;
		context?: Record<string, unknown>;
		facts?: Record<string, unknown>;
		node?: unknown;
	};
	e.message = cut(e.message);
	if (typeof e.stack === 'string') e.stack = cut(e.stack);
	if (typeof e.description === 'string') e.description = cut(e.description);
	if (Array.isArray(e.messages)) e.messages = e.messages.map((m) => cut(String(m)));
	if (e.errorResponse !== undefined) e.errorResponse = redactWith(e.errorResponse, cut);
	if (e.context) e.context = redactWith(e.context, cut);
	if (e.facts) e.facts = redactWith(e.facts, cut);
	// The node n8n attaches (kept with the execution's error) carries its parameters, where a secret given as
	// data was typed (Extraction's SAT password): a scrubbed copy, the workflow's own node left as it is.
	if (e.node && typeof e.node === 'object') e.node = redactWith(e.node, cut);
	if (e.cause instanceof Error && depth < 3) scrubErrorWith(e.cause, cut, depth + 1);
	return error;
}

/**
 * The same error with the given secrets cut out of everything a user or a log can see: message, stack,
 * description, the messages list, the service's answer, the request context and the node n8n attaches, the
 * error's facts and its causes.
 */
export function scrubError<E>(error: E, secrets: readonly string[]): E {
	return scrubErrorWith(error, cutter(secrets), 0);
}
