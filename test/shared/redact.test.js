import {
	base64Cores,
	LATIN1_ENTITIES,
	REDACTED,
	redact,
	scrubError,
	scrubText,
} from '../../nodes/shared/redact';

/** The one redaction rule of the package: what each service echoes, masked by name; what was sent, cut out by value. */
const KEY = 'rk_live/0123+4567';

describe('redact', () => {
	test('masks the secret fields each service echoes, at any depth, and keeps their place', () => {
		const out = redact({
			id: 'x',
			'api-key': 'k-123',
			nested: [{ 'certificate-password': 'pw', note: 'ok' }],
			SAT: { rfc: 'X', password: 'p', ciec: 'c' },
			signature: { privateKey: 'k', keyPassword: 'kp', fielKey: 'f' },
			headers: { 'X-Key': 'a', 'x-password': 'b' },
			apiKey: 'z',
			secret: 's',
		});
		expect(out).toEqual({
			id: 'x',
			'api-key': REDACTED,
			nested: [{ 'certificate-password': REDACTED, note: 'ok' }],
			SAT: { rfc: 'X', password: REDACTED, ciec: REDACTED },
			signature: { privateKey: REDACTED, keyPassword: REDACTED, fielKey: REDACTED },
			headers: { 'X-Key': REDACTED, 'x-password': REDACTED },
			apiKey: REDACTED,
			secret: REDACTED,
		});
	});

	test('an empty or null secret field says nothing and stays as it is (a signing failure carries certificate-password: null)', () => {
		expect(redact({ 'certificate-password': null, password: '', 'api-key': undefined })).toEqual({
			'certificate-password': null,
			password: '',
			'api-key': undefined,
		});
	});

	test('cuts the secret values that were sent out of every text, wherever they are', () => {
		expect(
			redact({ note: 'sent hunter22 to SAT', list: ['key hunter22!', 3] }, ['hunter22']),
		).toEqual({ note: `sent ${REDACTED} to SAT`, list: [`key ${REDACTED}!`, 3] });
	});

	test('values shorter than 4 characters are only masked by name (cutting "ab" out of every text would mangle it)', () => {
		expect(scrubText('abc', ['ab'])).toBe('abc');
		expect(scrubText('abcd abcd', ['abcd'])).toBe(`${REDACTED} ${REDACTED}`);
	});

	test('leaves the input untouched and binary data as it is', () => {
		const input = { password: 'p', data: Buffer.from('password') };
		const out = redact(input);
		expect(input.password).toBe('p');
		expect(out.data).toBe(input.data);
	});

	test('scrubError cleans message, stack, description, the service answer and the request context', () => {
		const error = Object.assign(new Error('refused hunter22'), {
			description: 'with hunter22',
			messages: ['hunter22 again'],
			errorResponse: { password: 'x', text: 'hunter22' },
			context: { data: { note: 'hunter22' } },
		});
		const out = scrubError(error, ['hunter22']);
		expect(out).toBe(error);
		expect(
			JSON.stringify({
				m: out.message,
				s: out.stack,
				d: out.description,
				ms: out.messages,
				r: out.errorResponse,
				c: out.context,
			}),
		).not.toContain('hunter22');
		expect(out.errorResponse).toEqual({ password: REDACTED, text: REDACTED });
	});

	describe('every spelling a service may echo a secret in', () => {
		const secret = 'p@ss "wörd"/+ &x=1<ñ>';
		const spelled = (text) => scrubText(`«${text}»`, [secret]);
		test.each([
			['as it is', secret],
			['JSON-escaped', JSON.stringify(secret).slice(1, -1)],
			['JSON the PHP way (\\/ and \\u00f6)', 'p@ss \\"w\\u00f6rd\\"\\/+ &x=1<\\u00f1>'],
			[
				'Python (every non-ASCII character \\u-escaped, lower-case hex)',
				'p@ss \\"w\\u00f6rd\\"/+ &x=1<\\u00f1>',
			],
			['Go (<, >, & as \\u003c, \\u003e, \\u0026)', 'p@ss \\"wörd\\"/+ \\u0026x=1\\u003cñ\\u003e'],
			[
				'.NET (upper-case hex, HTML-sensitive signs too)',
				'p@ss \\u0022w\\u00F6rd\\u0022/\\u002B \\u0026x=1\\u003C\\u00F1\\u003E',
			],
			['URL-encoded', encodeURIComponent(secret)],
			[
				'URL-encoded with lower-case hex',
				encodeURIComponent(secret).replace(/%[0-9A-F]{2}/g, (h) => h.toLowerCase()),
			],
			['form-encoded (+ for a space)', new URLSearchParams({ s: secret }).toString().slice(2)],
			['HTML, named entities', 'p@ss &quot;w&ouml;rd&quot;/+ &amp;x=1&lt;&ntilde;&gt;'],
			['HTML, decimal references', 'p@ss &#34;w&#246;rd&#34;&#47;&#43; &#38;x=1&#60;&#241;&#62;'],
			[
				'HTML, hex references in either case',
				'p@ss &#x22;w&#xF6;rd&#X22;/+ &#x26;x=1&#x3c;&#xf1;&#x3E;',
			],
			['a mix of them', 'p@ss &quot;w\\u00f6rd%22/%2b+&amp;x=1&lt;%C3%B1\\u003e'],
			['base64 of the secret alone', Buffer.from(secret).toString('base64')],
			[
				'base64 of user:secret (a Basic-like echo)',
				Buffer.from(`user:${secret}`).toString('base64'),
			],
			[
				'base64url of a longer prefix and the secret',
				Buffer.from(`ab:${secret}`).toString('base64url'),
			],
		])('%s', (_, text) => {
			expect(spelled(text)).toBe(`«${REDACTED}»`);
		});

		test('a Basic header echoed whole: the user name and the padding go with it', () => {
			const header = `Basic ${Buffer.from(`someone:${secret}`).toString('base64')}`;
			expect(scrubText(`got "${header}"`, [secret])).toBe(`got "Basic ${REDACTED}"`);
		});

		test('characters outside the Basic Multilingual Plane: as UTF-16 surrogate escapes and as UTF-8 bytes', () => {
			const emoji = 'key🔑2026';
			expect(scrubText('a key\\ud83d\\udd112026 b', [emoji])).toBe(`a ${REDACTED} b`);
			expect(scrubText('a key%F0%9F%94%912026 b', [emoji])).toBe(`a ${REDACTED} b`);
			expect(scrubText('a key&#128273;2026 b', [emoji])).toBe(`a ${REDACTED} b`);
		});

		test('HTML names every character from U+00A0 to U+00FF (96 names, in order)', () => {
			expect(LATIN1_ENTITIES).toHaveLength(96);
			expect(LATIN1_ENTITIES[0xf1 - 0xa0]).toBe('ntilde');
			expect(LATIN1_ENTITIES[0xff - 0xa0]).toBe('yuml');
		});

		test('a text that only looks like the secret stays as it is', () => {
			for (const near of [
				secret.slice(0, -1),
				secret.toUpperCase(),
				'p@ss "word"/+ &x=1<n>',
				Buffer.from(secret.slice(0, 6)).toString('base64'),
			])
				expect(scrubText(`«${near}»`, [secret])).toBe(`«${near}»`);
		});

		test('a secret of fewer than 8 bytes is not looked for in base64 (so little base64 could be anything)', () => {
			expect(base64Cores('abc1234')).toEqual([]);
			expect(base64Cores('abc12345').length).toBeGreaterThan(0);
			const short = Buffer.from('xx:abc1234').toString('base64');
			expect(scrubText(short, ['abc1234'])).toBe(short);
		});
	});

	test('a secret used as a key is cut out of the key, at any depth; keys that become the same keep both values', () => {
		const out = redact(
			{
				errors: { [KEY]: ['is not valid'], [`X-Key ${KEY}`]: 'no', [`${KEY}`.toUpperCase()]: 1 },
				[KEY]: 2,
				[encodeURIComponent(KEY)]: 3,
			},
			[KEY],
		);
		expect(out).toEqual({
			errors: { [REDACTED]: ['is not valid'], [`X-Key ${REDACTED}`]: 'no', [KEY.toUpperCase()]: 1 },
			[REDACTED]: 2,
			[`${REDACTED} 2`]: 3,
		});
	});

	test('__proto__ in an answer is data, not the prototype of the copy', () => {
		const answer = JSON.parse('{"__proto__": {"polluted": true}, "ok": 1}');
		const out = redact(answer, [KEY]);
		expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
		expect(Object.keys(out)).toEqual(['__proto__', 'ok']);
		expect(/** @type {Record<string, unknown>} */ ({}).polluted).toBeUndefined();
	});

	test('scrubError also cleans the causes and a copy of the node n8n attaches (its parameters), leaving the node itself as it is', () => {
		const node = { name: 'N', parameters: { satPassword: 'hunter22' } };
		const cause = new Error('cause hunter22');
		const error = Object.assign(new Error('top', { cause }), { node });
		scrubError(error, ['hunter22']);
		expect(cause.message).toBe(`cause ${REDACTED}`);
		expect(error.node).toEqual({ name: 'N', parameters: { satPassword: REDACTED } });
		expect(node.parameters.satPassword).toBe('hunter22');
	});

	test('masks the OAuth and webhook secrets by name as well', () => {
		expect(
			redact({
				client_secret: 'a',
				access_token: 'b',
				Authorization: 'Bearer c',
				webhookSecret: 'd',
				token_type: 'Bearer',
			}),
		).toEqual({
			client_secret: REDACTED,
			access_token: REDACTED,
			Authorization: REDACTED,
			webhookSecret: REDACTED,
			token_type: 'Bearer',
		});
	});
});
