// End-to-end: the package as users install it. `npm pack` of the built package, the tarball installed with
// `npm install --legacy-peer-deps` into a fresh n8n user folder's .n8n/nodes (docs/install.md), n8n of the
// line N8N_LINE selects (1 or 2, default 2) started WITHOUT N8N_CUSTOM_EXTENSIONS, and the files of examples/
// imported as they are, straight from the folder, with credentials named the way the examples name them and
// pointing at the simulators. This is also the check that `files` and the `n8n` field of package.json
// ship what n8n needs. Run with `npm run test:e2e:installed` (`N8N_LINE=1 npm run test:e2e:installed` for 1.x).
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { nodeOutput, until, untilServed } from '../../scripts/n8n/executions.mjs';
import { lineOf, selectedVersion } from '../../scripts/n8n/install.mjs';
import { outsideRepoFor, repoRoot } from '../../scripts/n8n/sandbox.mjs';
import {
	BROWSER_ID,
	closeSuite,
	decidingAtFirstCheck,
	e2eSandbox,
	startSuiteN8n,
} from '../../scripts/n8n/suite.mjs';

const PACKAGE = 'n8n-nodes-latam-fiscal';
const NODES = [
	'partners',
	'receipts',
	'extraction',
	'sri',
	'sat',
	'receiptsTrigger',
	'extractionTrigger',
];
const TOOLS = ['partnersTool', 'receiptsTool', 'extractionTool', 'sriTool', 'satTool']; // usableAsTool: n8n adds an AI-tool variant
const CREDENTIALS = [
	'partnersApi',
	'receiptsApi',
	'extractionApi',
	'extractionWebhookApi',
	'satEfirmaApi',
];
const manifest = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8'));

const examplesDir = join(repoRoot, 'examples');
const examples = readdirSync(examplesDir)
	.filter((f) => f.endsWith('.json'))
	.sort()
	.map((file) => ({ file, workflow: JSON.parse(readFileSync(join(examplesDir, file), 'utf8')) }));
const isTrigger = (wf) =>
	wf.nodes.some((n) => n.type.startsWith(`${PACKAGE}.`) && /Trigger$/.test(n.type));
/** What a user replaces with their own data before an example runs (an extraction ID, receipt IDs, a password in n8n Variables, a folder). */
const PLACEHOLDER = /REPLACE_ME|REPLACE_WITH_|\$vars\.|\/home\/node\//;
const needsUserData = (wf) => PLACEHOLDER.test(JSON.stringify(wf));

/**
 * The credentials to create so that every reference in the examples resolves, derived from the examples: n8n keeps
 * one credential per ID, and on import resolves a reference by ID and type, else by name and type (`import:workflow`,
 * replaceInvalidCredentials, both lines). A type referenced under several names must own the ID they share; the
 * others are found by their one name.
 */
function credentialsForExamples() {
	/** @type {Map<string, { ids: Set<string>, names: Set<string> }>} */
	const refs = new Map();
	for (const { workflow } of examples) {
		for (const n of workflow.nodes) {
			for (const [type, ref] of Object.entries(n.credentials ?? {})) {
				const r = refs.get(type) ?? { ids: new Set(), names: new Set() };
				r.ids.add(ref.id);
				r.names.add(ref.name);
				refs.set(type, r);
			}
		}
	}
	const taken = new Set();
	/** @type {Record<string, { id: string, name: string }>} */
	const chosen = {};
	for (const [type, r] of [...refs].sort(([, a], [, b]) => b.names.size - a.names.size)) {
		const [id] = r.ids;
		if (r.ids.size === 1 && !taken.has(id)) chosen[type] = { id, name: [...r.names][0] };
		else if (r.names.size === 1) chosen[type] = { id: `latam-${type}`, name: [...r.names][0] };
		else
			throw new Error(
				`the examples reference ${type} credentials with IDs ${[...r.ids]} and names ${[...r.names]}: n8n can resolve only one of them`,
			);
		taken.add(chosen[type].id);
	}
	return chosen;
}

const line = lineOf(selectedVersion());
const userFolder = outsideRepoFor(`e2e-installed-n8n${line}`);
const credentials = credentialsForExamples();
let sb;
let n8n;
/** Example name → workflow ID n8n gave it on import. */
const ids = {};
/** Workflows as n8n stored them (the public API's list). */
let stored;
const exampleNamed = (file) => {
	const example = examples.find((e) => e.file === file);
	assert.ok(example, `no example ${file}`);
	return example.workflow.name;
};
const storedOf = (file) => stored.find((w) => w.name === exampleNamed(file));

before(async () => {
	sb = await e2eSandbox('e2e-installed', { userFolder, as: 'installed', credentials });
	await sb.cli(['import:workflow', '--separate', `--input=${examplesDir}`], { check: true });
	n8n = await startSuiteN8n(sb);
	const res = await fetch(`${n8n.url}/api/v1/workflows?limit=250`, { headers: n8n.api.headers });
	assert.equal(res.status, 200, await res.clone().text());
	stored =
		/** @type {{ data: Array<{ id: string, name: string, active: boolean, nodes: Array<{ name: string, type: string, webhookId?: string, credentials?: Record<string, { id: string, name: string }> }> }> }} */ (
			await res.json()
		).data;
	for (const wf of stored) ids[wf.name] = wf.id;
});

after(() => closeSuite(n8n, sb));

describe(`the packed package installed in n8n ${selectedVersion()}'s .n8n/nodes`, () => {
	test("npm installed the package alone: n8n-workflow is not installed beside it, so it can only be n8n's own", () => {
		const nodeModules = join(userFolder, '.n8n', 'nodes', 'node_modules');
		assert.deepEqual(
			readdirSync(nodeModules).filter((e) => !e.startsWith('.')),
			[PACKAGE],
		);
		const fromPackage = createRequire(join(nodeModules, PACKAGE, 'package.json'));
		assert.throws(() => fromPackage.resolve('n8n-workflow'), { code: 'MODULE_NOT_FOUND' });
	});

	test('every file the n8n field of package.json names was packed', () => {
		const installed = join(userFolder, '.n8n', 'nodes', 'node_modules', PACKAGE);
		const listed = [...manifest.n8n.nodes, ...manifest.n8n.credentials];
		assert.equal(listed.length, NODES.length + CREDENTIALS.length);
		for (const file of listed)
			assert.doesNotThrow(
				() => readFileSync(join(installed, file)),
				`${file} missing from the tarball`,
			);
	});

	test('n8n loads every node, the tool variants of the action nodes and nothing under CUSTOM', async () => {
		const names = await n8n.typeNames('nodes');
		for (const name of [...NODES, ...TOOLS])
			assert.ok(names.includes(`${PACKAGE}.${name}`), `${PACKAGE}.${name} not loaded`);
		assert.deepEqual(
			names.filter((n) => n.startsWith('CUSTOM.')),
			[],
		);
		// every node type of every example is known to n8n
		for (const { file: f, workflow } of examples) {
			for (const n of workflow.nodes)
				assert.ok(names.includes(n.type), `${f}: node type ${n.type} unknown to n8n`);
		}
	});

	test('every example imported unmodified, each credential reference resolved to the simulator credential of its type', () => {
		assert.equal(stored.length, examples.length);
		for (const { file, workflow } of examples) {
			const wf = stored.find((w) => w.name === workflow.name);
			assert.ok(wf, `${file} not imported`);
			assert.equal(wf.active, false, `${file}: imported inactive`);
			for (const n of wf.nodes) {
				for (const [type, ref] of Object.entries(n.credentials ?? {}))
					assert.equal(
						ref.id,
						credentials[type].id,
						`${file}, node "${n.name}": ${type} resolved to ${ref.id}`,
					);
			}
		}
	});

	test('the examples that need no data of the user run against the simulators', async () => {
		const runnable = examples.filter(
			({ workflow }) => !isTrigger(workflow) && !needsUserData(workflow),
		);
		assert.ok(runnable.length >= 3, `only ${runnable.length} examples ran`);
		for (const { file, workflow } of runnable) {
			sb.sim.server.clear();
			const run = await decidingAtFirstCheck(sb.sim, () => n8n.execute(ids[workflow.name]));
			assert.equal(
				run.data.resultData.error,
				undefined,
				`${file}: ${run.data.resultData.error?.message}`,
			);
			for (const n of workflow.nodes.filter((x) => x.type.startsWith(`${PACKAGE}.`))) {
				assert.ok(nodeOutput(run, n.name).length >= 1, `${file}: "${n.name}" produced no items`);
			}
			assert.ok(
				['partners', 'receipts', 'extraction'].some((s) => sb.sim.server.received(s).length > 0),
				`${file}: no request reached a simulator`,
			);
		}
	});
});

describe('the trigger examples, activated as imported, in a running n8n', () => {
	let port;
	const url = (file, path) => {
		const wf = storedOf(file);
		return `http://127.0.0.1:${port}/webhook/${wf.nodes.find((n) => /Trigger$/.test(n.type)).webhookId}/${path}`;
	};

	before(async () => {
		port = n8n.port;
		// Activated with the workflow's switch, as a user does (the public API).
		for (const { workflow } of examples.filter((e) => isTrigger(e.workflow))) {
			const answer = await n8n.activate(ids[workflow.name]);
			assert.equal(answer.status, 200, `activating ${workflow.name}: ${answer.text}`);
		}
		await untilServed(url('extraction-trigger-download-completed.json', 'extraction'));
		await untilServed(
			`${url('receipts-trigger-branch-on-authorization.json', 'receipts')}?event=receipt-issued`,
		);
		// 2.x activates after it answers: the Receipts Trigger subscribes its events a moment after its URL is served.
		await until(
			() =>
				sb.sim.receipts.subscriptions.filter((s) => s.webhook_url.startsWith(n8n.url)).length >= 2,
			'the Receipts Trigger example subscribing',
		);
	});

	test('n8n registers the five credential types of the package, their icons served from the package', async () => {
		const res = await fetch(`${n8n.url}/types/credentials.json`, {
			headers: { cookie: n8n.api.cookie, 'browser-id': BROWSER_ID },
		});
		assert.equal(res.status, 200);
		const types = /** @type {Array<{ name: string, iconUrl?: unknown, icon?: unknown }>} */ (
			await res.json()
		);
		for (const name of CREDENTIALS) {
			const type = types.find((t) => t.name === name);
			assert.ok(type, `${name} not registered`);
			assert.match(
				JSON.stringify(type.iconUrl ?? type.icon),
				new RegExp(`${PACKAGE}/dist/`),
				`${name}: icon not from the installed package`,
			);
		}
	});

	test('n8n runs the package though its database does not list it: Settings → Community nodes shows nothing', async () => {
		const res = await fetch(`${n8n.url}/rest/community-packages`, {
			headers: { cookie: n8n.api.cookie, 'browser-id': BROWSER_ID },
		});
		assert.equal(res.status, 200, await res.clone().text());
		assert.deepEqual(/** @type {{ data: unknown[] }} */ (await res.json()).data, []);
	});

	test('Receipts Trigger example: activation subscribed both events; a delivery starts one run that branches on the answer', async () => {
		const subs = sb.sim.receipts.subscriptions.filter((s) => s.webhook_url.startsWith(n8n.url));
		assert.deepEqual(subs.map((s) => s.event_name).sort(), ['issue-error', 'receipt-issued']);
		const wf = storedOf('receipts-trigger-branch-on-authorization.json').id;
		const receipt = sb.sim.receipts.seed('retention', {}, 'AUTORIZADO');
		const answers = await sb.sim.receipts.deliver('receipt-issued', receipt.id);
		assert.deepEqual(
			answers.map((a) => a.status),
			[200],
		);
		const [run] = await n8n.ex.settled(wf, { atLeast: 1 });
		const detail = await n8n.ex.get(run.id);
		assert.equal(detail.status, 'success');
		assert.equal(nodeOutput(detail, 'Authorized').length, 1, 'the authorized branch ran');
	});

	test('Extraction Trigger example: a signed delivery starts one run that downloads the XML; a forged one gets 401', async () => {
		const hook = url('extraction-trigger-download-completed.json', 'extraction');
		const secret = sb.sim.credentials.extractionWebhookApi.secret;
		const job = sb.sim.extraction.seedJob({ env: 'staging', status: 'COMPLETED', documents: 2 });
		const ok = await sb.sim.extraction.deliver(
			'extraction.completed',
			sb.sim.extraction.completedEventData(job),
			{ secret, url: hook },
		);
		assert.equal(ok.status, 200, ok.text);
		const forged = await sb.sim.extraction.deliver(
			'extraction.completed',
			sb.sim.extraction.completedEventData(job),
			{ secret: 'not-the-secret', url: hook },
		);
		assert.equal(forged.status, 401);
		const wf = storedOf('extraction-trigger-download-completed.json').id;
		const runs = await n8n.ex.settled(wf, { atLeast: 1 });
		assert.equal(runs.length, 1);
		const detail = await n8n.ex.get(runs[0].id);
		const files = nodeOutput(detail, 'Download all XML');
		assert.equal(files.length, 2);
		assert.ok(files.every((i) => i.binary?.data?.mimeType === 'application/xml'));
	});
});
