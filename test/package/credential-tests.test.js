import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CredentialTestContext } from 'n8n-core';
/** @import { ICredentialDataDecryptedObject, ICredentialTestFunctions, INodeCredentialTestResult, INodeType } from 'n8n-workflow' */
import { withFakeClock } from '../harness/clock';
import { credentialsIn, leaks } from '../harness/hostile';
import { startSimulators } from '../simulator/main';

/**
 * The credential Test buttons, as n8n runs them for a node's `testedBy` method: with n8n-core's own
 * CredentialTestContext (whose only request helper is the legacy `request`), against the simulators playing a
 * hostile service. For each HTTP credential: a correct secret is OK, a wrong one gets the credential's own
 * message, a redirect to another origin is refused with nothing reaching it, a 300 MB answer and an endless
 * one end with a message that says so. Real n8n (installed) runs the same through its REST API:
 * test/e2e-installed/credential-test.test.mjs.
 */

const root = join(__dirname, '..', '..');
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
/** @returns {any} */
const load = (file) => {
	const mod = require(join(root, file));
	const Class = /** @type {new () => any} */ (Object.values(mod)[0]);
	return new Class();
};
/** @type {INodeType[]} */
const nodes = manifest.n8n.nodes.map(load);
/** @type {Array<{ name: string; test?: unknown }>} */
const credentialTypes = manifest.n8n.credentials.map(load);

describe('every credential of the package has a Test button n8n can find', () => {
	test.each(credentialTypes.map((c) => [c.name]))(
		'%s: no `test` request (n8n would send it outside the package’s client); every node that uses it names an existing method',
		(name) => {
			const type = credentialTypes.find((c) => c.name === name);
			expect(type?.test).toBeUndefined();
			const users = nodes.filter((n) =>
				(n.description.credentials ?? []).some((c) => c.name === name),
			);
			expect(users.length).toBeGreaterThan(0);
			for (const node of users) {
				const entry = (node.description.credentials ?? []).find((c) => c.name === name);
				const testedBy = /** @type {string} */ (entry?.testedBy);
				expect([node.description.name, typeof testedBy]).toEqual([node.description.name, 'string']);
				expect([node.description.name, typeof node.methods?.credentialTest?.[testedBy]]).toEqual([
					node.description.name,
					'function',
				]);
			}
		},
	);
});

/** @type {Awaited<ReturnType<typeof startSimulators>>} */
let sim;
/** Another origin of the simulator server: where a hostile redirect points. */
let elsewhere = '';

beforeAll(async () => {
	sim = await startSimulators(0);
	elsewhere = await sim.server.addOrigin();
});
afterAll(async () => await sim.server.stop());
beforeEach(() => sim.server.clear());

/** The node that tests `credentialType`, as n8n finds it: the first node of the package that names one. */
function testerOf(credentialType) {
	for (const node of nodes) {
		const entry = (node.description.credentials ?? []).find((c) => c.name === credentialType);
		if (entry?.testedBy)
			return /** @type {(this: ICredentialTestFunctions, c: unknown) => Promise<INodeCredentialTestResult>} */ (
				node.methods?.credentialTest?.[/** @type {string} */ (entry.testedBy)]
			);
	}
	throw new Error(`no node tests ${credentialType}`);
}

/**
 * Presses the Test button of `type` with `data` over the simulator's credential, as n8n's credentials tester does.
 * @param {string} type
 * @param {ICredentialDataDecryptedObject} [data]
 */
async function press(type, data = {}) {
	const context = /** @type {ICredentialTestFunctions} */ (
		/** @type {unknown} */ (new CredentialTestContext(/** @type {any} */ (undefined)))
	);
	return await testerOf(type).call(context, {
		id: 'c1',
		name: type,
		type,
		data: { .../** @type {ICredentialDataDecryptedObject} */ (sim.credentials[type]), ...data },
	});
}

/**
 * The three credentials that reach a service: which path their test reads, their secrets, a wrong secret and
 * the start of the message it gets.
 * @type {Array<{ type: string; service: string; path: string; secrets: () => string[]; wrong: Record<string, string>; refused: RegExp }>}
 */
const HTTP_CREDENTIALS = [
	{
		type: 'partnersApi',
		service: 'partners',
		path: '/v1/products',
		secrets: () => [sim.partners.clientSecret],
		wrong: { clientSecret: 'not-the-secret' },
		refused: /^Partners refused the credential: .*Check the Client ID and Client Secret/,
	},
	{
		type: 'receiptsApi',
		service: 'receipts',
		path: '/catalog/id-types',
		secrets: () => [sim.receipts.apiKey, sim.receipts.certificatePassword],
		wrong: { apiKey: 'not-the-key' },
		refused:
			/^Receipts refused the API key .*\(GET \/catalog\/id-types, HTTP 401\)\. Check the API Key/,
	},
	{
		type: 'extractionApi',
		service: 'extraction',
		path: '/staging/v1/auth/verify',
		secrets: () => [sim.extraction.stagingKey],
		wrong: { apiKey: 'staging_not-the-key' },
		refused:
			/^Document Extraction refused the API key: it is missing, invalid or expired.*\(GET \/v1\/auth\/verify, HTTP 401\)/,
	},
];

describe.each(HTTP_CREDENTIALS)('the $type Test button', (c) => {
	test('a correct secret: OK, after one request to the service', async () => {
		expect(await press(c.type)).toEqual({
			status: 'OK',
			message: expect.stringMatching(/^Connection successful: .* accepted the /),
		});
		expect(sim.server.received(c.service).map((r) => r.path)).toContain(c.path);
	});

	test('a wrong secret: the service’s refusal in the credential’s words, no secret in them', async () => {
		const result = await press(c.type, c.wrong);
		expect(result.status).toBe('Error');
		expect(result.message).toMatch(c.refused);
		expect(leaks(result.message, [...c.secrets(), ...Object.values(c.wrong)])).toEqual([]);
	});

	test.each([307, 302])(
		'a redirect (HTTP %s) to another origin: refused, nothing reaches that origin',
		async (status) => {
			sim.server.fail({
				service: c.service,
				path: c.path,
				mode: 'redirect',
				status,
				to: elsewhere,
				times: 1,
			});
			const result = await press(c.type);
			expect(result.status).toBe('Error');
			expect(result.message).toMatch(
				new RegExp(`with a redirect \\(HTTP ${status}\\) to ${elsewhere}.*which was not followed`),
			);
			expect(sim.server.receivedAt(elsewhere)).toEqual([]);
			const home = sim.server.received(c.service).filter((r) => r.path === c.path);
			expect(home).toHaveLength(1);
			expect(credentialsIn(home[0]).length).toBeGreaterThan(0); // the credential went to its own origin only
		},
	);

	test.each([
		['announced by Content-Length', true],
		['streamed without one', false],
	])('a 300 MB answer (%s): stopped at 1 MB, the connection closed', async (_, declareLength) => {
		sim.server.fail({
			service: c.service,
			path: c.path,
			mode: 'oversize',
			declareLength,
			times: 1,
		});
		const result = await press(c.type);
		expect(result).toEqual({
			status: 'Error',
			message: expect.stringMatching(
				declareLength
					? /: the answer to GET .* is larger than 1 MB \(it announced 300 MB\)/
					: /: the answer to GET .* is larger than 1 MB \(it did not end there\)/,
			),
		});
		const [stream] = await sim.server.delivered();
		expect(stream.closedEarly).toBe(true);
		expect(stream.sent).toBeLessThan(64 * 1024 * 1024);
	});

	test('an endless answer (one byte every 400 ms): stopped at 15 s', async () => {
		sim.server.fail({ service: c.service, path: c.path, mode: 'drip', intervalMs: 400, times: 1 });
		const { result, elapsedMs } = await withFakeClock(() => press(c.type));
		expect(result).toEqual({
			status: 'Error',
			message: expect.stringMatching(/ did not answer GET .* within 15 s\. Check the Base URL/),
		});
		expect(elapsedMs).toBeGreaterThanOrEqual(15_000);
		expect(elapsedMs).toBeLessThan(16_000);
		const [drip] = await sim.server.delivered();
		expect(drip.closedEarly).toBe(true);
	});

	test('a Base URL that is not an http(s) address: nothing sent', async () => {
		const field = c.type === 'extractionApi' ? 'stagingBaseUrl' : 'baseUrl';
		const result = await press(c.type, { [field]: 'ftp://example.com' });
		expect(result).toEqual({
			status: 'Error',
			message: expect.stringMatching(/is not an http\(s\) address/),
		});
		expect(sim.server.received()).toEqual([]);
	});

	test('an address where nothing listens: says it could not be reached', async () => {
		const field = c.type === 'extractionApi' ? 'stagingBaseUrl' : 'baseUrl';
		const result = await press(c.type, { [field]: 'http://127.0.0.1:9' });
		expect(result).toEqual({
			status: 'Error',
			message: expect.stringMatching(/could not be reached \(ECONNREFUSED\)/),
		});
	});
});

describe('what each credential’s test checks besides', () => {
	test('Partners: a token request redirected is refused before any data request; the client secret never leaves', async () => {
		sim.server.fail({
			service: 'partners',
			path: '/v1/auth/token',
			mode: 'redirect',
			to: elsewhere,
			times: 1,
		});
		const result = await press('partnersApi');
		expect(result.message).toMatch(/POST \/v1\/auth\/token with a redirect \(HTTP 307\)/);
		expect(sim.server.receivedAt(elsewhere)).toEqual([]);
		expect(sim.server.received('partners').map((r) => r.path)).toEqual(['/v1/auth/token']);
	});

	test('Extraction: a staging key with Production is refused before anything is sent', async () => {
		const result = await press('extractionApi', { environment: 'production' });
		expect(result.status).toBe('Error');
		expect(result.message).toMatch(/staging/i);
		expect(sim.server.received()).toEqual([]);
	});

	test('Receipts: a service answering 200 with an HTML page is not taken for the service', async () => {
		sim.server.fail({
			service: 'receipts',
			path: '/catalog/id-types',
			status: 200,
			raw: '<!doctype html><html>login</html>',
			headers: { 'content-type': 'text/html' },
			times: 1,
		});
		expect(await press('receiptsApi')).toEqual({
			status: 'Error',
			message: expect.stringMatching(
				/answered GET \/catalog\/id-types, but the answer is not JSON \(content-type text\/html/,
			),
		});
	});

	test('a refusal that echoes the secret in every spelling: none of them in the message', async () => {
		sim.server.fail({
			service: 'receipts',
			path: '/catalog/id-types',
			mode: 'echo-secrets',
			times: 1,
		});
		const result = await press('receiptsApi');
		expect(result.status).toBe('Error');
		expect(leaks(result.message, [sim.receipts.apiKey])).toEqual([]);
	});
});
