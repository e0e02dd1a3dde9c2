/**
 * Text operations on what strangers send (a service's error page, an address typed or read from a credential, a
 * value an AI agent wrote), written as single scans so that each takes time linear in its input. The patterns
 * they replace (`/\/+$/`, `/[?#].*$/`, `/<[^>]*>/g`) retry from every position of a hostile text and take
 * quadratic time: a body of 80,000 `<` took 7 s on n8n's main thread, where no Request Timeout can cut it.
 * `npm run lint` refuses such patterns in the shipped code (eslint.regexp.config.mjs).
 */

/** `text` without the run of `char` (one character) at its end: `trimEnd('https://a/b//', '/')` is `https://a/b`. */
export function trimEnd(text: string, char: string): string {
	let end = text.length;
	while (end > 0 && text[end - 1] === char) end--;
	return text.slice(0, end);
}

/** An address without its query and fragment: everything before its first `?` or `#`. */
export function withoutQuery(address: string): string {
	for (let i = 0; i < address.length; i++)
		if (address[i] === '?' || address[i] === '#') return address.slice(0, i);
	return address;
}

/** How much of a text answer is read for a message: its first 16 KB (an error page says what it is near its top). */
export const MESSAGE_SCAN_CHARS = 16 * 1024;

/**
 * The words of a markup text (an HTML error page, a SOAP fault read as text): tags (`<…>`) replaced by a space,
 * runs of white space by one, trimmed; only its first `MESSAGE_SCAN_CHARS` are looked at. A `<` that no `>`
 * closes is a character of the text, as it is for `/<[^>]*>/g`: no later tag can close either, so the rest is
 * text.
 */
export function markupWords(text: string): string {
	const head = text.length > MESSAGE_SCAN_CHARS ? text.slice(0, MESSAGE_SCAN_CHARS) : text;
	let out = '';
	let i = 0;
	while (i < head.length) {
		const open = head.indexOf('<', i);
		if (open < 0) {
			out += head.slice(i);
			break;
		}
		const close = head.indexOf('>', open + 1);
		if (close < 0) {
			out += head.slice(i);
			break;
		}
		out += `${head.slice(i, open)} `;
		i = close + 1;
	}
	return collapseSpace(out);
}

/** `text` with every run of white space as one space, trimmed. */
function collapseSpace(text: string): string {
	return text.split(/\s+/).filter(Boolean).join(' ');
}

/** A value as a message quotes it: a text in quotes (cut at 60 characters), else what kind of value it is. */
export function describe(value: unknown): string {
	if (value === undefined) return 'nothing';
	if (typeof value === 'string')
		return JSON.stringify(value.length > 60 ? `${value.slice(0, 57)}...` : value);
	if (typeof value === 'object')
		return Array.isArray(value) ? 'a list' : value === null ? 'null' : 'an object';
	return String(value);
}
