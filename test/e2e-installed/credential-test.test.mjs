// End-to-end: the credential Test buttons of the package installed as users install it (see installed.test.mjs:
// the packed tarball in .n8n/nodes, no N8N_CUSTOM_EXTENSIONS), pressed through n8n's own REST route, the one the
// editor's credential dialog calls (POST /rest/credentials/test). The package's credentials have no `test`
// request: n8n finds each one's test in the node that names it (`testedBy`), and that node tests it through the
// package's rules (nodes/shared/credentialTest.ts). Against the simulators playing a hostile service: a redirect
// to a second origin that records what reaches it, a 300 MB answer, an endless answer, a correct secret and a
// wrong one. Run with `node --test test/e2e-installed/credential-test.test.mjs` (`N8N_LINE=1` for 1.x).
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import { freePort } from '../../scripts/n8n/boot.mjs';
import { lineOf, selectedVersion } from '../../scripts/n8n/install.mjs';
import {
	CREDENTIAL_IDS,
	outsideRepoFor,
	ownerApiKey,
	prepareSandbox,
} from '../../scripts/n8n/sandbox.mjs';

const line = lineOf(selectedVersion());
const userFolder = outsideRepoFor(`e2e-credential-test-n8n${line}`);
/** @type {Awaited<ReturnType<typeof prepareSandbox>>} */
let sb;
/** @type {{ url: string; logs(): string; stop(): Promise<void> }} */
let n8n;
/** @type {{ cookie: string }} */
let api;
/** The second origin a hostile redirect points to; it records every request that reaches it. */
let elsewhere = '';

before(async () => {
	rmSync(userFolder, { recursive: true, force: true });
	sb = await prepareSandbox({
		userFolder,
		as: 'installed',
		skipBuild: process.env.E2E_SKIP_BUILD === '1',
		quiet: true,
	});
	elsewhere = await sb.sim.server.addOrigin();
	n8n = await sb.start({ port: await freePort() });
	api = await ownerApiKey(n8n.url);
});

after(async () => {
	await n8n?.stop();
	await sb?.stop();
});

/**
 * Presses the Test button of the stored credential of `type` with the dialog's data changed by `changes`.
 * @returns {Promise<{ status: 'OK' | 'Error'; message: string }>}
 */
async function press(type, changes = {}) {
	const { id, name } = CREDENTIAL_IDS[type];
	const res = await fetch(`${n8n.url}/rest/credentials/test`, {
		method: 'POST',
		headers: {
			cookie: api.cookie,
			'browser-id': 'latam-fiscal-dev-scripts',
			'content-type': 'application/json',
		},
		body: JSON.stringify({
			credentials: { id, name, type, data: { ...sb.sim.credentials[type], ...changes } },
		}),
	});
	assert.equal(
		res.status,
		200,
		`the test route answered ${res.status}: ${await res.clone().text()}`,
	);
	const body = /** @type {{ data: { status: 'OK' | 'Error'; message: string } }} */ (
		await res.json()
	);
	return body.data;
}

/** What each HTTP credential's test reads, and how its secret is made wrong. */
const CASES = [
	{
		type: 'partnersApi',
		service: 'partners',
		path: '/v1/products',
		secret: () => sb.sim.partners.clientSecret,
		wrong: { clientSecret: 'not-the-secret' },
		ok: 'Connection successful: Partners accepted the access token.',
		refused: /^Partners refused the credential: .*Check the Client ID and Client Secret/,
	},
	{
		type: 'receiptsApi',
		service: 'receipts',
		path: '/catalog/id-types',
		secret: () => sb.sim.receipts.apiKey,
		wrong: { apiKey: 'not-the-key' },
		ok: 'Connection successful: Receipts accepted the API key.',
		refused:
			/^Receipts refused the API key .*\(GET \/catalog\/id-types, HTTP 401\)\. Check the API Key/,
	},
	{
		type: 'extractionApi',
		service: 'extraction',
		path: '/staging/v1/auth/verify',
		secret: () => sb.sim.extraction.stagingKey,
		wrong: { apiKey: 'staging_not-the-key' },
		ok: 'Connection successful: Document Extraction accepted the API key.',
		refused: /^Document Extraction refused the API key: it is missing, invalid or expired/,
	},
];

describe(`the credential Test buttons in n8n ${selectedVersion()}, the package installed`, () => {
	for (const c of CASES) {
		test(`${c.type}: a correct secret is OK (after one request to the service); a wrong one gets the credential's message`, async () => {
			sb.sim.server.clear();
			assert.deepEqual(await press(c.type), { status: 'OK', message: c.ok });
			assert.ok(
				sb.sim.server.received(c.service).some((r) => r.path === c.path),
				'the test asked the service',
			);
			const refused = await press(c.type, c.wrong);
			assert.equal(refused.status, 'Error');
			assert.match(refused.message, c.refused);
			for (const secret of [c.secret(), ...Object.values(c.wrong)])
				assert.ok(!refused.message.includes(secret), 'no secret in the message');
		});

		test(`${c.type}: a 307 to a second origin is refused and nothing reaches that origin`, async () => {
			sb.sim.server.clear();
			sb.sim.server.fail({
				service: c.service,
				path: c.path,
				mode: 'redirect',
				to: elsewhere,
				times: 1,
			});
			const result = await press(c.type);
			assert.equal(result.status, 'Error');
			assert.match(result.message, /with a redirect \(HTTP 307\) to .*which was not followed/);
			assert.deepEqual(
				sb.sim.server.receivedAt(elsewhere),
				[],
				'nothing reached the second origin',
			);
		});

		test(`${c.type}: a 300 MB answer (no Content-Length) is stopped at 1 MB, its connection closed`, async () => {
			sb.sim.server.clear();
			sb.sim.server.fail({
				service: c.service,
				path: c.path,
				mode: 'oversize',
				declareLength: false,
				times: 1,
			});
			const result = await press(c.type);
			assert.equal(result.status, 'Error');
			assert.match(result.message, /is larger than 1 MB \(it did not end there\)/);
			const [stream] = await sb.sim.server.delivered();
			assert.equal(stream.closedEarly, true);
			assert.ok(stream.sent < 64 * 1024 * 1024, `${stream.sent} bytes were sent`);
		});
	}

	test('an endless answer (one byte every 400 ms) ends each test at its 15 s deadline', async () => {
		sb.sim.server.clear();
		for (const c of CASES)
			sb.sim.server.fail({
				service: c.service,
				path: c.path,
				mode: 'drip',
				intervalMs: 400,
				times: 1,
			});
		const started = Date.now();
		const results = await Promise.all(CASES.map((c) => press(c.type)));
		const elapsed = Date.now() - started;
		for (const result of results) {
			assert.equal(result.status, 'Error');
			assert.match(result.message, / did not answer GET .* within 15 s\. Check the Base URL/);
		}
		// Generous: the three ran side by side, each cut at 15 s (plus a token request for Partners).
		assert.ok(elapsed >= 15_000 && elapsed < 45_000, `took ${elapsed} ms`);
		const drips = await sb.sim.server.delivered();
		assert.equal(drips.length, 3);
		assert.ok(drips.every((d) => d.closedEarly));
	});

	test('extractionWebhookApi: the offline check of the webhook secret', async () => {
		assert.equal((await press('extractionWebhookApi')).status, 'OK');
		assert.deepEqual(await press('extractionWebhookApi', { secret: ' padded ' }), {
			status: 'Error',
			message: 'The webhook secret starts or ends with spaces: paste it again without them',
		});
	});
});
