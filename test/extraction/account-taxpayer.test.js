import { NODE, startExtraction } from './setup';
/** @import { ExtractionEnv } from './setup' */

/** @type {ExtractionEnv} */
let env;
beforeAll(async () => (env = await startExtraction()));
afterAll(async () => env.stop());
beforeEach(() => env.reset());

describe('Account', () => {
	test('Verify API Key outputs validity, organization, permissions and rate limit', async () => {
		env.sim.addKey('live_readonly_key', { env: 'prod', permissions: ['extractions:read'], plan: 'starter', requestsPerHour: 100 });
		env.useCredential({ apiKey: 'live_readonly_key' });
		const result = await env.run({ resource: 'account', operation: 'verifyApiKey' });
		expect(result.error).toBeUndefined();
		expect(result.output(NODE)[0].json).toEqual({
			valid: true,
			organization: { id: 'org_42', name: 'Contadores Unidos SC' },
			permissions: ['extractions:read'],
			rateLimit: { plan: 'starter', requestsPerHour: 100, remaining: 99 },
		});
	});
});

describe('Taxpayer', () => {
	test('Register posts the JSON body as given, with secret fields merged in at their paths', async () => {
		const result = await env.run({
			resource: 'taxpayer',
			operation: 'register',
			taxpayer: JSON.stringify({ identification: '1790012345001', fullName: 'Comercial Andina SA', country: 'EC', contact: { email: 'a@b.ec' } }),
			secretFields: { field: [{ path: 'credentials.password', value: 'SRI-clave-2026' }] },
		});
		expect(result.error).toBeUndefined();
		const [call] = env.calls();
		expect([call.method, call.path]).toEqual(['POST', '/prod/taxpayers']);
		expect(call.body).toEqual({
			identification: '1790012345001',
			fullName: 'Comercial Andina SA',
			country: 'EC',
			contact: { email: 'a@b.ec' },
			credentials: { password: 'SRI-clave-2026' },
		});
		expect(result.output(NODE)[0].json).toMatchObject({ status: 'REGISTERED', identification: '1790012345001' });
	});

	test('secrets echoed back by the service never reach the output', async () => {
		env.sim.echoSecrets = true;
		const result = await env.run({
			resource: 'taxpayer',
			operation: 'register',
			taxpayer: { identification: '1790012345001', note: 'x' },
			secretFields: { field: [{ path: 'password', value: 'SRI-clave-2026' }, { path: 'signature.keyMaterial', value: 'MIIEvQIBADANBgkqhkiG9w0BAQEFAASC' }] },
		});
		expect(result.error).toBeUndefined();
		const text = JSON.stringify(result.output(NODE));
		expect(text).not.toContain('SRI-clave-2026');
		expect(text).not.toContain('MIIEvQIBADANBgkqhkiG9w0BAQEFAASC');
		expect(result.output(NODE)[0].json).toMatchObject({ identification: '1790012345001', password: '[redacted]', signature: { keyMaterial: '[redacted]' } });
	});

	test('an empty body or a bad secret path is refused before sending', async () => {
		const result = await env.run({ resource: 'taxpayer', operation: 'register', taxpayer: '{}', secretFields: { field: [{ path: 'a..b', value: 'x' }] } });
		expect(result.error?.message).toMatch(/^\[item 1\] secretFields\[0\]\.path: "a\.\.b" is not a field path/);
		expect(result.error?.description).toMatch(/taxpayer: give at least one field/);
		expect(env.calls()).toHaveLength(0);
	});
});

describe('Taxpayer: secret field paths cannot reach an object prototype', () => {
	test.each(['__proto__.polluted', 'credentials.__proto__.polluted', 'constructor.prototype.polluted', 'prototype.x', 'a.constructor'])(
		'%s is refused before sending, and Object.prototype stays untouched',
		async (path) => {
			const result = await env.run({
				resource: 'taxpayer',
				operation: 'register',
				taxpayer: JSON.stringify({ identification: '1790012345001' }),
				secretFields: { field: [{ path, value: 'SRI-clave-2026' }] },
			});
			expect(env.calls()).toHaveLength(0);
			expect(result.error?.message).toMatch(/^\[item 1\] secretFields\[0\]\.path: ".*" uses "(__proto__|prototype|constructor)", which is not a field name$/);
			expect(`${result.error?.message} ${result.error?.description}`).not.toContain('SRI-clave-2026');
			expect(/** @type {Record<string, unknown>} */ ({}).polluted).toBeUndefined();
			expect(/** @type {Record<string, unknown>} */ ({}).x).toBeUndefined();
			expect(Object.prototype.hasOwnProperty.call(Object.prototype, 'polluted')).toBe(false);
		},
	);

	test('a "__proto__" key in the body JSON never becomes a prototype; a secret path through an inherited name writes an own field', async () => {
		const result = await env.run({
			resource: 'taxpayer',
			operation: 'register',
			taxpayer: '{"identification":"1790012345001","__proto__":{"polluted":"yes"}}',
			secretFields: { field: [{ path: 'toString.password', value: 'SRI-clave-2026' }] },
		});
		expect(result.error).toBeUndefined();
		const [call] = env.calls();
		// What reaches the service: the own fields only (the "__proto__" key does not survive as a field either).
		expect(call.raw.toString('utf8')).toBe('{"identification":"1790012345001","toString":{"password":"SRI-clave-2026"}}');
		expect(/** @type {Record<string, unknown>} */ ({}).polluted).toBeUndefined();
		expect(typeof /** @type {{ toString: unknown }} */ ({}).toString).toBe('function');
	});
});
