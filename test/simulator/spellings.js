/**
 * The ways services write back a value they received, each written here the way that service's platform
 * writes it (independently of the package's scrubber): what a careless service echoes, and what the tests look
 * for in everything a run kept.
 */

const hex4 = (n) => n.toString(16).padStart(4, '0');

/** The code point of a character (from a string's iterator: never empty). */
const codeOf = (char) => /** @type {number} */ (char.codePointAt(0));

/** `\uXXXX` for every UTF-16 unit that `escape(char)` selects; the rest as JSON writes it. */
function jsonEscaping(value, escape, upper = false) {
	let out = '';
	for (const char of value) {
		if (escape(char)) {
			for (let i = 0; i < char.length; i++) {
				const unit = hex4(char.charCodeAt(i));
				out += `\\u${upper ? unit.toUpperCase() : unit}`;
			}
		} else out += JSON.stringify(char).slice(1, -1);
	}
	return out;
}

/** What OWASP ESAPI's HTML encoder leaves as it is: letters, digits, `,.-_` and a space. */
const IMMUNE = /^[A-Za-z0-9,.\-_ ]$/;

const nonAscii = (char) => codeOf(char) > 0x7e;

/** Named references the way PHP's htmlentities writes the Spanish letters (others: decimal). */
const NAMED = {
	ñ: 'ntilde',
	Ñ: 'Ntilde',
	á: 'aacute',
	é: 'eacute',
	í: 'iacute',
	ó: 'oacute',
	ú: 'uacute',
	ü: 'uuml',
	ö: 'ouml',
};

/**
 * Every spelling of `value`, by the name of who writes it so.
 * @param {string} value
 * @returns {Record<string, string>}
 */
export function spellingsOf(value) {
	const utf8 = Buffer.from(value, 'utf8');
	return {
		raw: value,
		// JavaScript's JSON.stringify, Java's Jackson
		json: JSON.stringify(value).slice(1, -1),
		// PHP's json_encode: `\/` and every non-ASCII character as \u (lower-case hex)
		php: jsonEscaping(value, nonAscii).replace(/\//g, '\\/'),
		// Python's json.dumps (ensure_ascii): every non-ASCII character as \u, lower-case hex
		python: jsonEscaping(value, nonAscii),
		// Go's encoding/json: <, > and & as \u003c, \u003e, \u0026 (HTML-safe), non-ASCII as it is
		go: jsonEscaping(value, (c) => '<>&\u2028\u2029'.includes(c)),
		// .NET's System.Text.Json: non-ASCII and the HTML-sensitive signs, upper-case hex
		dotnet: jsonEscaping(value, (c) => nonAscii(c) || `<>&'"+\``.includes(c), true),
		// encodeURIComponent, upper-case hex as RFC 3986 recommends
		url: encodeURIComponent(value),
		// an encoder that writes lower-case hex (allowed: RFC 3986, 2.1), `+` and all
		urlLower: encodeURIComponent(value).replace(/%[0-9A-F]{2}/g, (h) => h.toLowerCase()),
		// application/x-www-form-urlencoded: `+` for a space
		form: new URLSearchParams({ s: value }).toString().slice(2),
		// PHP's htmlentities
		htmlNamed: [...value]
			.map((c) =>
				c === '&'
					? '&amp;'
					: c === '<'
						? '&lt;'
						: c === '>'
							? '&gt;'
							: c === '"'
								? '&quot;'
								: c === "'"
									? '&#039;'
									: NAMED[c]
										? `&${NAMED[c]};`
										: nonAscii(c)
											? `&#${codeOf(c)};`
											: c,
			)
			.join(''),
		// an encoder that writes every sign but `,.-_` and a space as a decimal reference (OWASP ESAPI's way)
		htmlDecimal: [...value].map((c) => (IMMUNE.test(c) ? c : `&#${codeOf(c)};`)).join(''),
		// and as a hex reference (ESAPI's encodeForHTML; upper-case X and digits, as some templates write them)
		htmlHex: [...value]
			.map((c) => (IMMUNE.test(c) ? c : `&#X${codeOf(c).toString(16).toUpperCase()};`))
			.join(''),
		base64: utf8.toString('base64'),
		// a Basic-like echo of the header the service thinks it got
		basic: Buffer.from(`n8n:${value}`, 'utf8').toString('base64'),
		basicUrlSafe: Buffer.from(`api-user:${value}`, 'utf8').toString('base64url'),
	};
}
