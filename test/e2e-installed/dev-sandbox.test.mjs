// End-to-end: the sandbox of `npm run dev` as a newcomer meets it. scripts/dev.mjs lays the built package out in the
// user folder's .n8n/nodes as npm installs it (sandbox.mjs, `as: 'installed', pack: false`), so n8n loads it as an
// installed community package and every credential's Test button works — for a custom extension n8n answers
// "No testing function found for this credential." (test/e2e/e2e.test.mjs). Pressed through n8n's own REST route,
// the one the editor's credential dialog calls, with the sandbox's own credentials (the Receipts one with its issuer).
// Run with `node --test test/e2e-installed/dev-sandbox.test.mjs` (`N8N_LINE=1` for 1.x).
import assert from 'node:assert/strict';
import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { freePort } from '../../scripts/n8n/boot.mjs';
import { lineOf, selectedVersion } from '../../scripts/n8n/install.mjs';
import {
	CREDENTIAL_IDS,
	outsideRepoFor,
	ownerApiKey,
	prepareSandbox,
	sandboxCredentials,
} from '../../scripts/n8n/sandbox.mjs';

const line = lineOf(selectedVersion());
const userFolder = outsideRepoFor(`e2e-dev-sandbox-n8n${line}`);
/** @type {Awaited<ReturnType<typeof prepareSandbox>>} */
let sb;
/** @type {{ url: string; logs(): string; stop(): Promise<void> }} */
let n8n;
/** @type {{ cookie: string }} */
let api;

before(async () => {
	rmSync(userFolder, { recursive: true, force: true });
	sb = await prepareSandbox({
		userFolder,
		as: 'installed',
		pack: false,
		skipBuild: process.env.E2E_SKIP_BUILD === '1',
		quiet: true,
	});
	n8n = await sb.start({ port: await freePort() });
	api = await ownerApiKey(n8n.url);
});

after(async () => {
	await n8n?.stop();
	await sb?.stop();
});

/**
 * Presses the Test button of the sandbox's stored credential of `type`, as the editor's dialog sends it.
 * @returns {Promise<{ status: 'OK' | 'Error'; message: string }>}
 */
async function press(type) {
	const { id, name } = CREDENTIAL_IDS[type];
	const data = /** @type {Record<string, unknown>} */ (sandboxCredentials(sb.sim))[type];
	const res = await fetch(`${n8n.url}/rest/credentials/test`, {
		method: 'POST',
		headers: {
			cookie: api.cookie,
			'browser-id': 'latam-fiscal-dev-scripts',
			'content-type': 'application/json',
		},
		body: JSON.stringify({ credentials: { id, name, type, data } }),
	});
	assert.equal(
		res.status,
		200,
		`the test route answered ${res.status}: ${await res.clone().text()}`,
	);
	return /** @type {{ data: { status: 'OK' | 'Error'; message: string } }} */ (await res.json())
		.data;
}

describe(`npm run dev's sandbox in n8n ${selectedVersion()}: the package as users install it`, () => {
	test('the package is in the user folder as npm installs it, and n8n loaded it under its package name', async () => {
		const packageDir = join(userFolder, '.n8n', 'nodes', 'node_modules', 'n8n-nodes-latam-fiscal');
		for (const file of ['package.json', 'dist/nodes/Receipts/Receipts.node.js'])
			assert.ok(existsSync(join(packageDir, file)), `${file} is installed`);
		assert.equal(sb.nodeType('receipts'), 'n8n-nodes-latam-fiscal.receipts');
	});

	for (const [type, ok] of [
		['receiptsApi', 'Connection successful: Receipts accepted the API key.'],
		['partnersApi', 'Connection successful: Partners accepted the access token.'],
		['extractionApi', 'Connection successful: Document Extraction accepted the API key.'],
	]) {
		test(`${type}: the sandbox's credential tests OK`, async () => {
			assert.deepEqual(await press(type), { status: 'OK', message: ok });
		});
	}
});
