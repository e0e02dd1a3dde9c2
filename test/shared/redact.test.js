import { REDACTED, redact, scrubError, scrubText } from '../../nodes/shared/redact';

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
		expect(redact({ 'certificate-password': null, password: '', 'api-key': undefined })).toEqual({ 'certificate-password': null, password: '', 'api-key': undefined });
	});

	test('cuts the secret values that were sent out of every text, wherever they are', () => {
		expect(redact({ note: 'sent hunter22 to SAT', list: ['key hunter22!', 3] }, ['hunter22'])).toEqual({ note: `sent ${REDACTED} to SAT`, list: [`key ${REDACTED}!`, 3] });
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
		expect(JSON.stringify({ m: out.message, s: out.stack, d: out.description, ms: out.messages, r: out.errorResponse, c: out.context })).not.toContain('hunter22');
		expect(out.errorResponse).toEqual({ password: REDACTED, text: REDACTED });
	});
});
