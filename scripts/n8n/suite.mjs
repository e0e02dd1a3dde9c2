// One real n8n per end-to-end suite (one test file): its workflows and credentials imported up front, n8n started
// once, and every workflow run through n8n's REST API (what the editor's "Execute workflow" sends) instead of one
// `n8n execute` per workflow, which boots a whole n8n each time (~4 s; a start is ~5 s, once per file).
//
// A new e2e suite, test/e2e/<name>.test.mjs (`npm run test:e2e` runs every file of the folder; add it to
// `test:e2e:n8n1` in package.json too when it should run on n8n 1.x):
//
//   import { after, before, test } from 'node:test';
//   import { nodeOutput } from '../../scripts/n8n/executions.mjs';
//   import { closeSuite, e2eSandbox, startSuiteN8n } from '../../scripts/n8n/suite.mjs';
//   import { node, rowsWorkflow } from '../../scripts/n8n/workflow.mjs';
//
//   let sb, n8n;
//   before(async () => {
//     sb = await e2eSandbox('e2e-mine');        // simulators, the package, credentials pointing at the simulators
//     await sb.importWorkflows([                // EVERY workflow of the file, in one import
//       rowsWorkflow('e2eMineIssue', 2, '{ seq: 10 + i }', node('Target', 'n8n-nodes-latam-fiscal.receipts', {...},
//         { credentials: { receiptsApi: { id: 'x', name: 'x' } } })),   // any reference: the sandbox's credential
//     ]);
//     n8n = await startSuiteN8n(sb);            // the one n8n of the file, with an API key
//   });
//   after(() => closeSuite(n8n, sb));
//
//   test('…', async () => {
//     sb.sim.server.clear();                    // the simulators run in this process: set them up, read what they got
//     const run = await n8n.execute('e2eMineIssue');          // runs it, waits for the end, the stored execution
//     assert.equal(run.data.resultData.error, undefined);
//     assert.equal(nodeOutput(run, 'Target').length, 2);
//   });
//
// Workflow IDs are chosen by hand (at most 16 characters); a workflow runs from its Manual Trigger. Triggers:
// `n8n.activate(id)` (the public API, as the editor's switch), deliveries to `n8n.url`, runs read with `n8n.ex`
// (./executions.mjs). Other secrets or more credentials: e2eSandbox(name, { adjustCredentials }) (sandbox.mjs).
// `n8n.restart()` only where a test proves what survives a restart. When the suite ends it prints what n8n cost it.
import { rmSync } from 'node:fs';
import { basename } from 'node:path';
import { freePort, n8nUsage } from './boot.mjs';
import { executionsClient } from './executions.mjs';
import { lineOf, selectedVersion } from './install.mjs';
import { apiActivation, ownerApiKey, prepareSandbox, userFolderFor } from './sandbox.mjs';

/** The `browser-id` header boot.mjs createApiKey bound the session cookie to: every /rest call sends it. */
export const BROWSER_ID = 'latam-fiscal-dev-scripts';

/**
 * prepareSandbox (./sandbox.mjs) in a fresh user folder named for `name` and the n8n line (userFolderFor: the
 * same file on 1.x and 2.x can run side by side), quiet, built unless E2E_SKIP_BUILD=1 (CI builds once for every
 * file). `options` go to prepareSandbox and win.
 * @param {string} name
 * @param {Partial<Parameters<typeof prepareSandbox>[0]>} [options]
 */
export async function e2eSandbox(name, options = {}) {
	const userFolder = options.userFolder ?? userFolderFor(`${name}-n8n${lineOf(selectedVersion())}`);
	rmSync(userFolder, { recursive: true, force: true });
	return await prepareSandbox({
		userFolder,
		skipBuild: process.env.E2E_SKIP_BUILD === '1',
		quiet: true,
		...options,
	});
}

/**
 * n8n's internal REST API (/rest/...) with the owner's session cookie (boot.mjs createApiKey), as the editor calls
 * it: `rest(method, path, body?)` resolves with the answer's `data` and rejects on an error status.
 * @param {string} url
 * @param {string} cookie
 */
export function restClient(url, cookie) {
	return async (method, path, body) => {
		const res = await fetch(url + path, {
			method,
			headers: { cookie, 'browser-id': BROWSER_ID, 'content-type': 'application/json' },
			body: body === undefined ? undefined : JSON.stringify(body),
		});
		const text = await res.text();
		if (!res.ok)
			throw new Error(`${method} ${path} answered ${res.status}: ${text.slice(0, 2000)}`);
		return JSON.parse(text).data;
	};
}

/**
 * Runs workflow `id` from its Manual Trigger as the editor's "Execute workflow" does (POST /rest/workflows/:id/run:
 * 1.x wants the workflow in the body; 2.x reads it from its database and ignores it), waits for the end and
 * resolves with the execution n8n stored, data included (`run.data.resultData`: `runData`, `error`), failed or not.
 * In queue mode with OFFLOAD_MANUAL_EXECUTIONS_TO_WORKERS a worker runs it.
 * @param {{ rest: ReturnType<typeof restClient>, ex: ReturnType<typeof executionsClient> }} n8n
 * @param {string} id
 * @param {{ timeoutMs?: number }} [options]
 */
export async function executeWorkflow({ rest, ex }, id, { timeoutMs = 300_000 } = {}) {
	const workflowData = await rest('GET', `/rest/workflows/${id}`);
	const start = workflowData.nodes.find((n) => n.type === 'n8n-nodes-base.manualTrigger');
	if (!start) throw new Error(`workflow ${id} has no Manual Trigger to run from`);
	const started = await rest('POST', `/rest/workflows/${id}/run`, {
		workflowData,
		triggerToStartFrom: { name: start.name },
	});
	if (!started?.executionId)
		throw new Error(`workflow ${id} did not start: ${JSON.stringify(started)}`);
	return await ex.finished(started.executionId, { timeoutMs });
}

/**
 * Starts the suite's n8n on a free port (`WEBHOOK_URL` pointing at it, so triggers register reachable URLs) and
 * gets an API key. `env` adds to the sandbox's environment for this process.
 * @param {Awaited<ReturnType<typeof prepareSandbox>>} sb
 * @param {{ env?: Record<string, string> }} [options]
 */
export async function startSuiteN8n(sb, { env = {} } = {}) {
	const port = await freePort();
	const processEnv = { WEBHOOK_URL: `http://127.0.0.1:${port}/`, ...env };
	let current = await sb.start({ port, env: processEnv });
	let earlierLogs = '';
	const url = current.url;
	const api = await ownerApiKey(url);
	const ex = executionsClient(url, api.headers);
	const rest = restClient(url, api.cookie);
	/** The public API's switch of a workflow: activate/deactivate on 1.x, publish/unpublish on 2.x. */
	const toggle = async (id, on) => {
		const action = apiActivation(sb.line)[on ? 'on' : 'off'];
		const res = await fetch(`${url}/api/v1/workflows/${id}/${action}`, {
			method: 'POST',
			headers: { ...api.headers, 'content-type': 'application/json' },
			body: '{}',
		});
		return { status: res.status, text: await res.text() };
	};

	return {
		url,
		port,
		/** `{ apiKey, cookie, headers }`: `headers` for the public API (/api/v1), `cookie` for /rest with BROWSER_ID. */
		api,
		/** Reads executions (./executions.mjs executionsClient). */
		ex,
		/** n8n's internal REST API with the owner's session (restClient). */
		rest,
		/** The running n8n process (boot.mjs startN8n). */
		get process() {
			return current;
		},
		/** Everything n8n logged since the suite started it, restarts included. */
		logs: () => earlierLogs + current.logs(),
		/**
		 * Runs workflow `id` and resolves with the execution n8n stored (executeWorkflow).
		 * @param {string} id
		 * @param {{ timeoutMs?: number }} [options]
		 */
		execute: (id, options) => executeWorkflow({ rest, ex }, id, options),
		/**
		 * The names of the node or credential types n8n loaded: what it serves the editor at /types/<kind>.json.
		 * @param {'nodes' | 'credentials'} kind
		 * @returns {Promise<string[]>}
		 */
		async typeNames(kind) {
			const res = await fetch(`${url}/types/${kind}.json`, {
				headers: { cookie: api.cookie, 'browser-id': BROWSER_ID },
			});
			if (!res.ok) throw new Error(`/types/${kind}.json answered ${res.status}`);
			const types = /** @type {import('./boot.mjs').LoadedTypes} */ (await res.json());
			return (Array.isArray(types) ? types : Object.values(types)).map((t) => t.name);
		},
		/** Activates a workflow through the public API; resolves with n8n's answer `{ status, text }`. */
		activate: (id) => toggle(id, true),
		/** Deactivates it the same way. */
		deactivate: (id) => toggle(id, false),
		/** Stops n8n and starts it again on the same port and database (same API key). */
		async restart() {
			await current.stop();
			earlierLogs += current.logs();
			current = await sb.start({ port, env: processEnv });
		},
		stop: () => current.stop(),
	};
}

/**
 * Runs `run()` while the simulated services decide at the first status check: a new receipt goes straight to
 * AUTORIZADO (unless the SRI's uniqueness rules return it at once), a new extraction job is COMPLETED. For the
 * examples, whose waits keep the default Poll Interval (Receipts 5 s, Extraction 15 s, each check 1.5 times later
 * than the one before): they still wait, once, instead of three checks (~24 s) or two (~38 s) per run. Waits over
 * several checks are proven in real n8n with short intervals (e2eExtraction in e2e.test.mjs, the invoices and
 * trusted-issuing suites) and, with the default intervals, on the engine tests' fake clock.
 * @template T
 * @param {import('./sandbox.mjs').Simulators} sim
 * @param {() => Promise<T>} run
 * @returns {Promise<T>}
 */
export async function decidingAtFirstCheck(sim, run) {
	const { receipts, extraction } = sim;
	const saved = { plan: receipts.defaultPlan, schedule: extraction.defaultSchedule };
	receipts.defaultPlan = ['AUTORIZADO'];
	extraction.defaultSchedule = { ...saved.schedule, checks: 0 };
	try {
		return await run();
	} finally {
		receipts.defaultPlan = saved.plan;
		extraction.defaultSchedule = saved.schedule;
	}
}

/**
 * Stops the suite's n8n and simulators (either may be missing when `before` failed) and prints what n8n cost the
 * suite (printN8nUsage).
 * @param {{ stop(): Promise<void> } | undefined} n8n
 * @param {{ stop(): Promise<void> } | undefined} sb
 */
export async function closeSuite(n8n, sb) {
	await n8n?.stop();
	await sb?.stop();
	printN8nUsage();
}

/**
 * Prints how long this suite (this process) has taken and what n8n cost it: start-ups (until /healthz answered) and
 * CLI calls, with their time.
 */
export function printN8nUsage() {
	const { starts, cliCalls } = n8nUsage();
	const seconds = (list) => (list.reduce((a, b) => a + b.ms, 0) / 1000).toFixed(1);
	console.log(
		`${basename(process.argv[1] ?? 'this suite')}: ${process.uptime().toFixed(0)} s; n8n: ${starts.length} start-up(s) (${seconds(starts)} s), ${cliCalls.length} CLI call(s) (${seconds(cliCalls)} s: ${cliCalls.map((c) => c.command).join(', ')})`,
	);
}
