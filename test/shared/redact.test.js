import { REDACTED, redact, scrubError, scrubText, secretForms } from '../../nodes/shared/redact';

/** The one redaction rule of the package: what each service echoes, masked by name; what was sent, cut out by value. */
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

	test('cuts a secret out in every form a service echoes it: raw, JSON-escaped (also as PHP writes it), URL- and form-encoded', () => {
		const secret = 'p@ss "wörd"/+ &x=1';
		expect(secretForms(secret)).toEqual([
			secret,
			'p@ss \\"wörd\\"/+ &x=1',
			'p@ss \\"w\\u00f6rd\\"\\/+ &x=1',
			'p%40ss%20%22w%C3%B6rd%22%2F%2B%20%26x%3D1',
			'p%40ss+%22w%C3%B6rd%22%2F%2B+%26x%3D1',
		]);
		const echoed = `raw ${secret} | json {"s":${JSON.stringify(secret)}} | php ${secretForms(secret)[2]} | query ?s=${encodeURIComponent(secret)} | form s=${secretForms(secret)[4]}`;
		expect(scrubText(echoed, [secret])).toBe(
			`raw ${REDACTED} | json {"s":"${REDACTED}"} | php ${REDACTED} | query ?s=${REDACTED} | form s=${REDACTED}`,
		);
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
