/**
 * Addresses of the services are built from segments, and an ID that goes into one is checked in one place:
 * here. `path` is a template tag: its literal text is the package's own (`/edocs/`, `/issue`), each value put
 * into it is one segment of the path. A value that could change which address is called — `..` turns
 * `POST /edocs/../issue` into `POST /issue`; `/`, `?`, `#`, `%`, a backslash or a space add segments, start a
 * query or a fragment, or smuggle an encoded one — is refused: the client sends nothing to such a path
 * (transport.ts), and the readers of ID parameters refuse the same values with the field's name
 * (`segmentProblem`). Plain functions, no n8n types.
 */

/**
 * What a path segment may contain: letters, digits and the characters RFC 3986 allows in a segment apart from
 * the percent sign (unreserved `-._~`, sub-delims `!$&'()*+,;=`, `:` and `@`). IDs of the three services
 * (UUIDs, hex ids, `ext_…`, `doc_…`) fit.
 */
const SEGMENT = /^[A-Za-z0-9\-._~!$&'()*+,;=:@]+$/;

/** Why `value` cannot be one segment of an address (in words that follow the value), or undefined. */
export function segmentProblem(value: string): string | undefined {
	if (value === '') return 'is empty';
	if (value === '.' || value === '..')
		return `"${value}" is not an ID (it would change which address is called)`;
	if (SEGMENT.test(value)) return undefined;
	const bad = [...value].find((c) => !SEGMENT.test(c)) ?? '';
	const named = /\s/.test(bad)
		? 'a space'
		: bad.charCodeAt(0) < 32 || bad.charCodeAt(0) === 127
			? 'a control character'
			: `"${bad}"`;
	return `"${value}" is not an ID: it contains ${named}, which would change which address is called`;
}

/** A path below a service's base address, built by `path` (see above). */
export class ApiPath {
	constructor(
		/** The path as sent, e.g. `/edocs/5e4b…/issue`. */
		readonly text: string,
		/** Why one of its values cannot be a segment (nothing may be sent), or undefined. */
		readonly problem?: string,
	) {}

	toString(): string {
		return this.text;
	}
}

/**
 * `path\`/edocs/${id}/issue\``: the literal parts as written, each value checked and encoded as one segment
 * (an ApiPath value is put in as it is: `path\`${base}/${id}\``). Never throws: a path with an unsafe value
 * carries its `problem`, and the client refuses to send it.
 */
export function path(literals: TemplateStringsArray, ...values: unknown[]): ApiPath {
	let text = literals[0];
	let problem: string | undefined;
	values.forEach((value, n) => {
		if (value instanceof ApiPath) {
			problem ??= value.problem;
			text += `${value.text}${literals[n + 1]}`;
			return;
		}
		const segment = typeof value === 'string' || typeof value === 'number' ? String(value) : '';
		problem ??= segmentProblem(segment);
		text += `${encodeURIComponent(segment)}${literals[n + 1]}`;
	});
	return new ApiPath(text, problem);
}

/**
 * A path the package writes as a constant of several segments (a receipt kind's `/purchase-settlements`),
 * each segment checked like a value. Not for values from input: those go through `path`, one segment each.
 */
export function fixedPath(text: string): ApiPath {
	const segments = text.replace(/^\//, '').split('/');
	const problem = segments.map(segmentProblem).find((p) => p !== undefined);
	return new ApiPath(`/${segments.map(encodeURIComponent).join('/')}`, problem);
}
