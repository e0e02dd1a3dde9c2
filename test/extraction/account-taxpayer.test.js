import { credentialsIn } from '../harness/hostile';
import { createParams, fastWait, NODE, startExtraction } from './setup';
/** @import { ExtractionEnv } from './setup' */

/** @type {ExtractionEnv} */
let env;
beforeAll(async () => (env = await startExtraction()));
afterAll(async () => env.stop());
beforeEach(() => env.reset());

describe('Account', () => {
	test('Verify API Key outputs validity, organization, permissions and rate limit', async () => {
		env.sim.addKey('live_readonly_key', {
			env: 'prod',
			permissions: ['extractions:read'],
			plan: 'starter',
			requestsPerHour: 100,
		});
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
			taxpayer: JSON.stringify({
				identification: '1790012345001',
				fullName: 'Comercial Andina SA',
				country: 'EC',
				contact: { email: 'a@b.ec' },
			}),
			secretFields: { field: [{ path: 'credentials.password', value: 'SRI-clave-2026' }] },
		});
		expect(result.error).toBeUndefined();
		const [call] = env.ecuadorCalls();
		expect([call.method, call.path]).toEqual(['POST', '/prod/taxpayers']);
		expect(call.body).toEqual({
			identification: '1790012345001',
			fullName: 'Comercial Andina SA',
			country: 'EC',
			contact: { email: 'a@b.ec' },
			credentials: { password: 'SRI-clave-2026' },
		});
		expect(result.output(NODE)[0].json).toMatchObject({
			status: 'REGISTERED',
			identification: '1790012345001',
		});
	});

	test('secrets echoed back by the service never reach the output', async () => {
		env.sim.ecuador.echoSecrets = true;
		const result = await env.run({
			resource: 'taxpayer',
			operation: 'register',
			taxpayer: { identification: '1790012345001', note: 'x' },
			secretFields: {
				field: [
					{ path: 'password', value: 'SRI-clave-2026' },
					{ path: 'signature.keyMaterial', value: 'MIIEvQIBADANBgkqhkiG9w0BAQEFAASC' },
				],
			},
		});
		expect(result.error).toBeUndefined();
		const text = JSON.stringify(result.output(NODE));
		expect(text).not.toContain('SRI-clave-2026');
		expect(text).not.toContain('MIIEvQIBADANBgkqhkiG9w0BAQEFAASC');
		expect(result.output(NODE)[0].json).toMatchObject({
			identification: '1790012345001',
			password: '[redacted]',
			signature: { keyMaterial: '[redacted]' },
		});
	});

	test('an empty body or a bad secret path is refused before sending', async () => {
		const result = await env.run({
			resource: 'taxpayer',
			operation: 'register',
			taxpayer: '{}',
			secretFields: { field: [{ path: 'a..b', value: 'x' }] },
		});
		expect(result.error?.message).toMatch(
			/^\[item 1\] secretFields\[0\]\.path: "a\.\.b" is not a field path/,
		);
		expect(result.error?.description).toMatch(/taxpayer: give at least one field/);
		expect(env.server.received()).toHaveLength(0);
	});
});

const register = {
	resource: 'taxpayer',
	operation: 'register',
	taxpayer: '{"identification":"1790012345001","fullName":"Comercial Andina SA"}',
};

/** A credential saved before it had Ecuador fields: the Mexico ones only. */
const mexicoOnly = () => ({
	environment: 'production',
	productionBaseUrl: env.baseUrl('prod'),
	stagingBaseUrl: env.baseUrl('staging'),
	apiKey: env.sim.prodKey,
	authScheme: 'bearer',
});

describe('Taxpayer → Register goes to the Ecuador API, with the Ecuador key; the Mexico API never gets it', () => {
	test.each(['bearer', 'xApiKey'])(
		'Register reaches the Ecuador host with x-api-key and x-organization-id, and nothing reaches the Mexico host (Mexico Auth Scheme %s)',
		async (authScheme) => {
			env.useCredential({ authScheme });
			const result = await env.run(register);
			expect(result.error).toBeUndefined();
			expect(result.output(NODE)[0].json).toMatchObject({
				status: 'REGISTERED',
				identification: '1790012345001',
			});
			// Every request of the run, on every origin: the one registration, at the Ecuador host.
			const all = env.server.received();
			expect(all.map((r) => [r.origin, r.service, r.method, r.path])).toEqual([
				[env.ecuadorOrigin, 'extraction-ec', 'POST', '/prod/taxpayers'],
			]);
			const [call] = all;
			expect(credentialsIn(call)).toEqual(['x-api-key']);
			expect(call.headers['x-api-key']).toBe(env.sim.ecuador.prodKey);
			expect(call.headers['x-organization-id']).toBe(env.sim.ecuador.organizationId);
			expect(JSON.stringify(call.headers)).not.toContain(env.sim.prodKey);
			expect(env.sim.ecuador.taxpayers).toHaveLength(1);
		},
	);

	test('Staging: the Ecuador staging address with the Ecuador staging key', async () => {
		env.useCredential({
			environment: 'staging',
			apiKey: env.sim.stagingKey,
			ecuadorApiKey: env.sim.ecuador.stagingKey,
		});
		const result = await env.run(register);
		expect(result.error).toBeUndefined();
		expect(env.server.received().map((r) => [r.origin, r.path, r.headers['x-api-key']])).toEqual([
			[env.ecuadorOrigin, '/staging/taxpayers', env.sim.ecuador.stagingKey],
		]);
	});

	test('the Mexico operations never reach the Ecuador host, and never carry the Ecuador key or organization', async () => {
		const job = env.sim.seedJob({ status: 'COMPLETED', documents: 1 });
		const runs = [
			await env.run({ resource: 'account', operation: 'verifyApiKey' }),
			await env.runTimed(createParams({ ...fastWait, downloadAll: true, formats: 'XML' })),
			await env.run({ resource: 'extraction', operation: 'get', extractionId: job.publicId }),
			await env.run({
				resource: 'extraction',
				operation: 'downloadDocument',
				extractionId: job.publicId,
				documentId: job.documents[0].id,
			}),
		];
		expect(runs.map((r) => r.error)).toEqual([undefined, undefined, undefined, undefined]);
		expect(env.server.receivedAt(env.ecuadorOrigin)).toEqual([]);
		expect(env.ecuadorCalls()).toEqual([]);
		const mexico = env.server.received();
		expect(mexico.length).toBeGreaterThanOrEqual(6);
		for (const call of mexico) {
			expect(call.headers.authorization).toBe(`Bearer ${env.sim.prodKey}`);
			expect(call.headers['x-organization-id']).toBeUndefined();
			expect(JSON.stringify(call.headers)).not.toContain(env.sim.ecuador.prodKey);
		}
	});

	test('a credential saved before the Ecuador fields: Register names the fields to fill and sends nothing; the Mexico operations still work', async () => {
		env.engine.credentials.set('extractionApi', mexicoOnly());
		const result = await env.run(register);
		expect(result.error?.message).toBe(
			'[item 1] Taxpayer → Register goes to the Ecuador API, and the Document Extraction credential has no Ecuador Production Base URL, Ecuador API Key and Ecuador Organization ID: fill them in the credential (the Ecuador API has its own address and key; the Mexico ones are never sent there). Nothing was sent.',
		);
		expect(env.server.received()).toEqual([]);
		const verify = await env.run({ resource: 'account', operation: 'verifyApiKey' });
		expect(verify.error).toBeUndefined();
		expect(env.server.received().map((r) => r.path)).toEqual(['/prod/v1/auth/verify']);
	});

	test.each([
		[{ ecuadorApiKey: '' }, 'no Ecuador API Key: fill it in the credential'],
		[{ ecuadorOrganizationId: '  ' }, 'no Ecuador Organization ID: fill it in the credential'],
		[
			{ environment: 'staging', apiKey: 'staging_x', ecuadorStagingBaseUrl: '' },
			'no Ecuador Staging Base URL: fill it in the credential',
		],
	])('one Ecuador field missing (%j): named, nothing sent', async (data, says) => {
		env.useCredential(data);
		const result = await env.run(register);
		expect(result.error?.message).toContain(says);
		expect(env.server.received()).toEqual([]);
	});

	test('an Ecuador staging key with Production is refused before sending, saying what to change', async () => {
		env.useCredential({ ecuadorApiKey: env.sim.ecuador.stagingKey });
		const result = await env.run(register);
		expect(result.error?.message).toBe(
			'[item 1] The Ecuador API Key is a staging key (it starts with "staging_") but the credential\'s Environment is Production: set Environment to Staging, or enter a production key. Nothing was sent.',
		);
		expect(env.server.received()).toEqual([]);
	});

	test('Register does not need the Mexico fields: a credential with only the Ecuador ones registers', async () => {
		env.useCredential({ apiKey: '', productionBaseUrl: '' });
		const result = await env.run(register);
		expect(result.error).toBeUndefined();
		expect(env.server.received().map((r) => r.origin)).toEqual([env.ecuadorOrigin]);
	});

	test('the Ecuador API refusing the key: the error names the Ecuador fields, and the Mexico key check is not asked', async () => {
		env.useCredential({ ecuadorApiKey: 'ec_live_revoked' });
		const refused = await env.run(register);
		expect(refused.error?.message).toBe(
			'[item 1] Document Extraction (Ecuador API) refused the Ecuador API key: it is missing, invalid or expired [INVALID_API_KEY]',
		);
		expect(refused.error?.description).toMatch(
			/Check the credential's Ecuador API Key and Ecuador Organization ID .*\(POST \/taxpayers, HTTP 401\)$/,
		);
		env.server.clear();
		env.useCredential({ ecuadorOrganizationId: 'another-organization' });
		const forbidden = await env.run(register);
		expect(forbidden.error?.message).toBe(
			'[item 1] Document Extraction (Ecuador API): the Ecuador API key is valid but lacks a permission for this request [FORBIDDEN]',
		);
		// A 403 of the Mexico API is explained with GET /v1/auth/verify; that describes the Mexico key, not this one.
		expect(env.server.received().map((r) => r.origin)).toEqual([env.ecuadorOrigin]);
	});

	test('a wrong Ecuador address (the Mexico one): the Mexico API has no /taxpayers, and the error says which field to check', async () => {
		env.useCredential({ ecuadorProductionBaseUrl: env.baseUrl('prod') });
		const result = await env.run(register);
		expect(result.error?.message).toMatch(
			/^\[item 1\] Document Extraction \(Ecuador API\): not found/,
		);
		expect(result.error?.description).toMatch(
			/check the Ecuador Base URL of the chosen Environment in the credential/,
		);
		// The Ecuador headers went to the address the user gave for the Ecuador API, never the Mexico key.
		const [call] = env.calls();
		expect(call.path).toBe('/prod/taxpayers');
		expect(credentialsIn(call)).toEqual(['x-api-key']);
		expect(call.headers['x-api-key']).toBe(env.sim.ecuador.prodKey);
	});
});

describe('the simulators answer as the real APIs do', () => {
	test('the Mexico API has no /taxpayers (404); the Ecuador API refuses the Mexico scheme (401)', async () => {
		const mexico = await fetch(`${env.baseUrl('prod')}/taxpayers`, {
			method: 'POST',
			headers: { authorization: `Bearer ${env.sim.prodKey}`, 'content-type': 'application/json' },
			body: '{"a":1}',
		});
		expect(mexico.status).toBe(404);
		const bearer = await fetch(`${env.ecuadorBaseUrl('prod')}/taxpayers`, {
			method: 'POST',
			headers: {
				authorization: `Bearer ${env.sim.ecuador.prodKey}`,
				'x-api-key': env.sim.ecuador.prodKey,
				'x-organization-id': env.sim.ecuador.organizationId,
				'content-type': 'application/json',
			},
			body: '{"a":1}',
		});
		expect(bearer.status).toBe(401);
		const mexicoKey = await fetch(`${env.ecuadorBaseUrl('prod')}/taxpayers`, {
			method: 'POST',
			headers: {
				'x-api-key': env.sim.prodKey,
				'x-organization-id': env.sim.ecuador.organizationId,
				'content-type': 'application/json',
			},
			body: '{"a":1}',
		});
		expect(mexicoKey.status).toBe(401);
		expect(env.sim.ecuador.taxpayers).toEqual([]);
	});
});

describe('Taxpayer: secret field paths cannot reach an object prototype', () => {
	test.each([
		'__proto__.polluted',
		'credentials.__proto__.polluted',
		'constructor.prototype.polluted',
		'prototype.x',
		'a.constructor',
	])('%s is refused before sending, and Object.prototype stays untouched', async (path) => {
		const result = await env.run({
			resource: 'taxpayer',
			operation: 'register',
			taxpayer: JSON.stringify({ identification: '1790012345001' }),
			secretFields: { field: [{ path, value: 'SRI-clave-2026' }] },
		});
		expect(env.server.received()).toHaveLength(0);
		expect(result.error?.message).toMatch(
			/^\[item 1\] secretFields\[0\]\.path: ".*" uses "(__proto__|prototype|constructor)", which is not a field name$/,
		);
		expect(`${result.error?.message} ${result.error?.description}`).not.toContain('SRI-clave-2026');
		expect(/** @type {Record<string, unknown>} */ ({}).polluted).toBeUndefined();
		expect(/** @type {Record<string, unknown>} */ ({}).x).toBeUndefined();
		expect(Object.prototype.hasOwnProperty.call(Object.prototype, 'polluted')).toBe(false);
	});

	test('a "__proto__" key in the body JSON never becomes a prototype; a secret path through an inherited name writes an own field', async () => {
		const result = await env.run({
			resource: 'taxpayer',
			operation: 'register',
			taxpayer: '{"identification":"1790012345001","__proto__":{"polluted":"yes"}}',
			secretFields: { field: [{ path: 'toString.password', value: 'SRI-clave-2026' }] },
		});
		expect(result.error).toBeUndefined();
		const [call] = env.ecuadorCalls();
		// What reaches the service: the own fields only (the "__proto__" key does not survive as a field either).
		expect(call.raw.toString('utf8')).toBe(
			'{"identification":"1790012345001","toString":{"password":"SRI-clave-2026"}}',
		);
		expect(/** @type {Record<string, unknown>} */ ({}).polluted).toBeUndefined();
		expect(typeof (/** @type {{ toString: unknown }} */ ({}).toString)).toBe('function');
	});
});
