import { NODE, startExtraction } from './setup';
/** @import { ExtractionEnv } from './setup' */

/** @type {ExtractionEnv} */
let env;
beforeAll(async () => (env = await startExtraction()));
afterAll(async () => env.stop());
beforeEach(() => env.reset());

const verify = { resource: 'account', operation: 'verifyApiKey' };

describe('Credential', () => {
	test('Bearer scheme sends Authorization: Bearer <key> and no x-api-key', async () => {
		const result = await env.run(verify);
		expect(result.error).toBeUndefined();
		const [call] = env.calls();
		expect(call.path).toBe('/prod/v1/auth/verify');
		expect(call.headers.authorization).toBe(`Bearer ${env.sim.prodKey}`);
		expect(call.headers['x-api-key']).toBeUndefined();
	});

	test('x-api-key scheme sends x-api-key: <key> and no Authorization', async () => {
		env.useCredential({ authScheme: 'xApiKey' });
		env.sim.acceptedSchemes = ['x-api-key'];
		const result = await env.run(verify);
		expect(result.error).toBeUndefined();
		const [call] = env.calls();
		expect(call.headers['x-api-key']).toBe(env.sim.prodKey);
		expect(call.headers.authorization).toBeUndefined();
		expect(result.output(NODE)[0].json.valid).toBe(true);
	});

	test('Staging uses the staging base URL with a staging key', async () => {
		env.useCredential({ environment: 'staging', apiKey: env.sim.stagingKey });
		const result = await env.run(verify);
		expect(result.error).toBeUndefined();
		expect(env.calls().map((c) => c.path)).toEqual(['/staging/v1/auth/verify']);
		expect(result.output(NODE)[0].json.rateLimit).toMatchObject({ plan: 'sandbox' });
	});

	test('a staging key with Production is refused before any request, saying what to change', async () => {
		env.useCredential({ environment: 'production', apiKey: env.sim.stagingKey });
		const result = await env.run(verify);
		expect(result.error?.message).toMatch(
			/staging key.*Environment is Production: set Environment to Staging, or enter a production key/,
		);
		expect(env.calls()).toHaveLength(0);
	});

	test('a production key with Staging is refused before any request, saying what to change', async () => {
		env.useCredential({ environment: 'staging', apiKey: env.sim.prodKey });
		const result = await env.run({
			resource: 'extraction',
			operation: 'get',
			extractionId: 'ext_1',
		});
		expect(result.error?.message).toMatch(
			/Environment is Staging but the Mexico API Key is not a staging key.*set Environment to Production, or enter a staging key/,
		);
		expect(env.calls()).toHaveLength(0);
	});

	test('a missing base URL for the chosen environment is refused before any request', async () => {
		env.useCredential({ productionBaseUrl: '' });
		const result = await env.run(verify);
		expect(result.error?.message).toMatch(/no Mexico Production Base URL/);
		expect(env.calls()).toHaveLength(0);
	});

	test('the Test button calls GET /v1/auth/verify of the Mexico API with the chosen scheme and environment, and never sends the Ecuador key', async () => {
		const base = {
			productionBaseUrl: env.baseUrl('prod'),
			stagingBaseUrl: env.baseUrl('staging'),
			ecuadorProductionBaseUrl: env.ecuadorBaseUrl('prod'),
			ecuadorStagingBaseUrl: env.ecuadorBaseUrl('staging'),
			ecuadorApiKey: env.sim.ecuador.prodKey,
			ecuadorOrganizationId: env.sim.ecuador.organizationId,
		};
		const ok = {
			status: 'OK',
			message: 'Connection successful: Document Extraction accepted the API key.',
		};
		expect(
			await env.engine.testCredential('extractionApi', {
				...base,
				apiKey: env.sim.prodKey,
				authScheme: 'bearer',
			}),
		).toEqual(ok);
		expect(
			await env.engine.testCredential('extractionApi', {
				...base,
				environment: 'staging',
				apiKey: env.sim.stagingKey,
				authScheme: 'xApiKey',
			}),
		).toEqual(ok);
		expect(
			env.calls().map((c) => [c.path, c.headers.authorization ?? c.headers['x-api-key']]),
		).toEqual([
			['/prod/v1/auth/verify', `Bearer ${env.sim.prodKey}`],
			['/staging/v1/auth/verify', env.sim.stagingKey],
		]);
		const wrong = await env.engine.testCredential('extractionApi', {
			...base,
			apiKey: 'live_wrong',
		});
		expect(wrong).toEqual({
			status: 'Error',
			message: expect.stringMatching(/^Document Extraction refused the API key.*HTTP 401/),
		});
		expect(env.server.receivedAt(env.ecuadorOrigin)).toEqual([]);
		expect(JSON.stringify(env.server.received().map((c) => c.headers))).not.toContain(
			env.sim.ecuador.prodKey,
		);
	});

	test('every credential field the messages name is a field of the credential, as the form labels it', () => {
		const labels = env.engine.credentials
			.type('extractionApi')
			.properties.map((p) => p.displayName);
		for (const label of [
			'Environment',
			'Mexico Production Base URL',
			'Mexico Staging Base URL',
			'Mexico API Key',
			'Mexico Auth Scheme',
			'Ecuador Production Base URL',
			'Ecuador Staging Base URL',
			'Ecuador API Key',
			'Ecuador Organization ID',
		]) {
			expect(labels).toContain(label);
		}
		// The Ecuador fields are optional: a credential for the Mexico API alone can be saved without them.
		const ecuador = env.engine.credentials
			.type('extractionApi')
			.properties.filter((p) => p.name.startsWith('ecuador'));
		expect(ecuador.map((p) => [p.name, p.required ?? false, p.default])).toEqual([
			['ecuadorProductionBaseUrl', false, ''],
			['ecuadorStagingBaseUrl', false, ''],
			['ecuadorApiKey', false, ''],
			['ecuadorOrganizationId', false, ''],
		]);
		expect(ecuador.find((p) => p.name === 'ecuadorApiKey')?.typeOptions?.password).toBe(true);
	});
});
