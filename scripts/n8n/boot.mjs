// Boots and drives a real n8n (installed by ./install.mjs: 2.41.1, or 1.123.81 with N8N_LINE=1) for `npm run dev`,
// e2e tests and benchmarks.
//
//   import { startN8n, runCli, parseCliJson, createApiKey } from './scripts/n8n/boot.mjs';
//   const o = { userFolder: '/tmp/x/user', extensionsDir: '/tmp/x/ext' };   // throw-away folders
//   await runCli(['import:workflow', '--input=wf.json'], { ...o, check: true });
//   const run = parseCliJson((await runCli(['execute', '--id=wf1', '--rawOutput'], o)).stdout);
//   const n8n = await startN8n(o);             // { url, logs(), stop() }; a free port unless `port` is given
//   const worker = await startN8n({ ...o, command: 'worker', env: queueEnv });  // queue mode: see ./queue.mjs
//   const { headers } = await createApiKey(n8n.url);
//   await fetch(`${n8n.url}/api/v1/executions?workflowId=wf1&includeData=true`, { headers });
//   await n8n.stop();
//
// CLI commands of n8n 2.41.1 used here (checked with `n8n --help` / `n8n <cmd> --help`):
//   import:credentials --input=<file> | --separate --input=<dir>   (plain `data` is accepted and encrypted)
//   import:workflow    --input=<file> | --separate --input=<dir>   (imported workflows are inactive)
//   export:nodes       --output=<file>                              (custom nodes appear as CUSTOM.<name>)
//   execute            --id=<workflowId> --rawOutput                (run data as JSON among log lines: parseCliJson)
//   publish:workflow   --id=<workflowId>                            (makes it active; run while this user folder's
//                                                                    n8n is stopped, `start` then serves its webhooks)
//   1.x has the same commands except publish:workflow: `update:workflow --id=<id> --active=true` instead
//   (sandbox.mjs `activate` picks the right one).
//   user-management:reset                                           (back to "no owner": /rest/owner/setup works again)
//   Every CLI call starts a full n8n (DB, node loading): ~3 s each, plus ~5 s of migrations on a new user folder
//   (sandbox.mjs gives new folders an already migrated database). The e2e suites therefore import once and run
//   workflows through one running n8n (./suite.mjs); `n8nUsage()` counts what a process spent on start-ups and CLI calls.
//
// REST / API access for scripts: see createApiKey at the bottom. In short, on a running instance:
//   POST /rest/owner/setup {email, firstName, lastName, password}  (no auth; only while no owner exists)
//     or POST /rest/login {emailOrLdapLoginId, password}           -> Set-Cookie: n8n-auth=...
//   GET  /rest/api-keys/scopes (cookie)                             -> every scope the owner may grant
//   POST /rest/api-keys {label, scopes, expiresAt: null} (cookie)   -> data.rawApiKey (shown once)
//   GET  /api/v1/executions?workflowId=<id>&includeData=true  with header X-N8N-API-KEY
//   GET  /api/v1/executions/<id>?includeData=true             (data.resultData.runData.<node>[0].data.main[0])
// The public API is on by default. A webhook answers "Workflow was started" before the run is stored:
// poll the executions list until the expected one shows up with a final status.
import { spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { createServer } from 'node:net';
import { dirname, resolve } from 'node:path';
import { runtimePaths } from './install.mjs';

// Any fixed key works; it must stay the same for a user folder (n8n refuses to start with a key that differs
// from the one stored in <userFolder>/.n8n/config). Throw-away folders only: this is not a secret.
export const DEV_ENCRYPTION_KEY = 'n8n-nodes-latam-fiscal-dev-only-key';

/**
 * A TCP port that is free right now on 127.0.0.1 (the OS picks it).
 * @returns {Promise<number>}
 */
export function freePort() {
	return new Promise((resolvePromise, reject) => {
		const srv = createServer();
		srv.unref();
		srv.on('error', reject);
		srv.listen(0, '127.0.0.1', () => {
			const { port } = /** @type {import('node:net').AddressInfo} */ (srv.address()); // a TCP server's address
			srv.close(() => resolvePromise(port));
		});
	});
}

/**
 * Where every n8n process and CLI call on one user folder runs: its throw-away user folder (database, settings,
 * keys), the folder of custom extensions it loads, if any, and more environment variables (they win).
 * @typedef {object} N8nFolders
 * @property {string} userFolder
 * @property {string} [extensionsDir]
 * @property {Record<string, string | undefined>} [env]
 */

/**
 * Environment for every n8n process on one user folder: same folder, same extensions, same key.
 * @param {Partial<N8nFolders> & { port?: number, brokerPort?: number }} [options] userFolder is required
 */
export function n8nEnv({ userFolder, extensionsDir, port, brokerPort, env = {} } = {}) {
	if (!userFolder) throw new Error('userFolder is required (use a throw-away folder)');
	const { node, line } = runtimePaths();
	const base = { ...process.env };
	for (const k of Object.keys(base)) if (/^(npm_|N8N_)/i.test(k)) delete base[k]; // no leaks from `npm run` or the shell
	return {
		...base,
		// n8n spawns its JS task runner as plain `node` from PATH: without this it would run on Node 20.
		PATH: `${dirname(node)}:${process.env.PATH}`,
		N8N_USER_FOLDER: resolve(userFolder),
		...(extensionsDir ? { N8N_CUSTOM_EXTENSIONS: resolve(extensionsDir) } : {}),
		...(port ? { N8N_PORT: String(port) } : {}),
		N8N_LISTEN_ADDRESS: '127.0.0.1',
		N8N_ENCRYPTION_KEY: DEV_ENCRYPTION_KEY,
		// Offline and quiet: no telemetry, version checks or template fetches (no internet here).
		N8N_DIAGNOSTICS_ENABLED: 'false',
		N8N_VERSION_NOTIFICATIONS_ENABLED: 'false',
		N8N_TEMPLATES_ENABLED: 'false',
		// The MCP registry module (2.x) fetches api.n8n.io at start-up and logs a stack trace when offline; 1.x has
		// no such module and refuses to start when told to disable an unknown one.
		...(line === 2 ? { N8N_DISABLED_MODULES: 'mcp-registry' } : {}),
		// n8n 2.x always starts a task broker + JS runner child (N8N_RUNNERS_ENABLED is deprecated and ignored),
		// and the broker listens on 5679 by default: each process gets its own port so instances and CLI calls
		// can run side by side. No Python runner (it only logs an error when its venv is missing).
		...(brokerPort ? { N8N_RUNNERS_BROKER_PORT: String(brokerPort) } : {}),
		N8N_PYTHON_ENABLED: 'false',
		// Plain http on localhost: a secure cookie would never be sent back.
		N8N_SECURE_COOKIE: 'false',
		N8N_ENFORCE_SETTINGS_FILE_PERMISSIONS: 'false',
		...env,
	};
}

// Each child (an n8n with its task runner, a database server) runs in its own process group, so one kill reaches
// all of it. Groups still alive when this process exits or is interrupted are killed: an orphaned n8n keeps its
// ports and its SQLite file, an orphaned database server its data folder.
const liveGroups = new Set();
const killGroup = (pid, sig) => {
	try {
		process.kill(-pid, sig);
	} catch {
		/* already gone */
	}
};
function onParentSignal(sig) {
	for (const pid of liveGroups) killGroup(pid, 'SIGKILL');
	process.exit(128 + ({ SIGINT: 2, SIGTERM: 15, SIGHUP: 1 }[sig] ?? 1));
}
let cleanupInstalled = false;
function track(child) {
	if (!cleanupInstalled) {
		cleanupInstalled = true;
		process.on('exit', () => {
			for (const pid of liveGroups) killGroup(pid, 'SIGKILL');
		});
		// Only when nobody else handles these (a handler of ours would otherwise replace the default exit).
		for (const s of ['SIGINT', 'SIGTERM', 'SIGHUP'])
			if (process.listenerCount(s) === 0) process.once(s, onParentSignal);
	}
	liveGroups.add(child.pid);
	child.once('exit', () => {
		killGroup(child.pid, 'SIGKILL');
		liveGroups.delete(child.pid);
	}); // the runner too
}

/**
 * Spawns a long-running child in its own process group, killed with this process if still alive then
 * (see above). Same arguments as child_process.spawn; stdio is ignore/pipe/pipe.
 */
export function spawnTracked(cmd, args, options = {}) {
	const child = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'], ...options, detached: true });
	track(child);
	return child;
}

/**
 * What this process asked of n8n: every start-up (until it answered) and every CLI call, with their time.
 * @type {{ starts: Array<{ command: string, ms: number }>, cliCalls: Array<{ command: string, ms: number }> }}
 */
const usage = { starts: [], cliCalls: [] };
/**
 * Start-ups and CLI calls of n8n made by this process so far, each `{ command, ms }` (a copy).
 * @returns {{ starts: Array<{ command: string, ms: number }>, cliCalls: Array<{ command: string, ms: number }> }}
 */
export const n8nUsage = () => structuredClone(usage);

function spawnN8n(args, envOpts) {
	const p = runtimePaths();
	return spawnTracked(p.node, [p.n8nBin, ...args], { env: n8nEnv(envOpts) });
}

/**
 * How runCli runs a command: `check` rejects on a non-zero exit; after `timeoutMs` n8n is killed.
 * @typedef {{ check?: boolean, timeoutMs?: number }} RunCliOptions
 */

/**
 * Runs `n8n <args>` under Node 24 with the user folder's environment. Resolves (never rejects on a non-zero
 * exit) with { code, signal, stdout, stderr, ms }; pass { check: true } to reject when code !== 0.
 * Logs go to stdout, stderr stays empty; a failed `execute` exits 1 and still prints the run JSON.
 * @param {string[]} args
 * @param {N8nFolders & RunCliOptions} options
 * @returns {Promise<{ code: number | null, signal: NodeJS.Signals | null, stdout: string, stderr: string, ms: number }>}
 */
export async function runCli(
	args,
	{ userFolder, extensionsDir, env, check = false, timeoutMs = 120_000 },
) {
	const brokerPort = await freePort();
	const started = Date.now();
	return await new Promise((resolvePromise, reject) => {
		const child = spawnN8n(args, { userFolder, extensionsDir, brokerPort, env });
		let stdout = '';
		let stderr = '';
		child.stdout.on('data', (c) => {
			stdout += c;
		});
		child.stderr.on('data', (c) => {
			stderr += c;
		});
		const timer = setTimeout(() => killGroup(child.pid, 'SIGKILL'), timeoutMs);
		child.on('error', reject);
		child.on('close', (code, signal) => {
			clearTimeout(timer);
			const result = { code, signal, stdout, stderr, ms: Date.now() - started };
			usage.cliCalls.push({ command: args[0], ms: result.ms });
			if (check && code !== 0)
				reject(
					Object.assign(
						new Error(`n8n ${args.join(' ')} exited ${code ?? signal}\n${stdout}\n${stderr}`),
						result,
					),
				);
			else resolvePromise(result);
		});
	});
}

/**
 * The run object that `execute --rawOutput` prints. Even with --rawOutput, stdout starts with log lines
 * ("n8n Task Broker ready…", "[license SDK] …") and, when the run fails (exit code 1), the JSON sits between
 * "Execution was NOT successful… ====" and trailing error lines. n8n prints it with JSON.stringify(x, null, 2),
 * so the object is the first line that is exactly "{" up to the first line that is exactly "}".
 * Returns the parsed object (check .status === 'success' and .data.resultData.error) or throws.
 */
export function parseCliJson(stdout) {
	const lines = stdout.split('\n');
	const start = lines.indexOf('{');
	const end = start < 0 ? -1 : lines.indexOf('}', start);
	if (end < 0) throw new Error(`no JSON object in n8n output:\n${stdout.slice(-2000)}`);
	return JSON.parse(lines.slice(start, end + 1).join('\n'));
}

/**
 * Which n8n process startN8n starts, on which port (a free one when not given), and how long it may take to answer.
 * @typedef {{ command?: 'start' | 'worker' | 'webhook', port?: number, timeoutMs?: number }} StartOptions
 */

/**
 * Starts one n8n process and resolves once it answers its health check. `command` is n8n's: 'start' (the main
 * process: editor, REST and public API, activation; in queue mode it enqueues executions), or, in queue mode
 * (see ./queue.mjs), 'worker' (runs the enqueued executions) or 'webhook' (serves production /webhook/* and
 * enqueues the runs they start). 'start' and 'webhook' listen on `port`; a worker only serves its health check,
 * which is switched on here (QUEUE_HEALTH_CHECK_*) on `port`.
 * Ready means: GET /healthz answers 200 for 'start' (~3–4 s on an existing user folder; published webhooks
 * register a few seconds later, REST routes too: see sandbox.mjs), GET /healthz/readiness for the others
 * (a worker is then taking jobs, a webhook process serving).
 * Returns { command, url, port, child, logs(): string, stop(): Promise<void> }. Rejects (and kills n8n) if it
 * exits or times out.
 * @param {N8nFolders & StartOptions} options
 */
export async function startN8n({
	command = 'start',
	userFolder,
	extensionsDir,
	port,
	env,
	timeoutMs = 90_000,
}) {
	if (!['start', 'worker', 'webhook'].includes(command))
		throw new Error(`unknown n8n command ${command}`);
	port ??= await freePort();
	let brokerPort = await freePort();
	while (brokerPort === port) brokerPort = await freePort();
	mkdirSync(resolve(userFolder), { recursive: true });
	const workerEnv =
		command === 'worker'
			? {
					QUEUE_HEALTH_CHECK_ACTIVE: 'true',
					QUEUE_HEALTH_CHECK_PORT: String(port),
					N8N_WORKER_SERVER_ADDRESS: '127.0.0.1',
				}
			: {};
	const child = spawnN8n([command], {
		userFolder,
		extensionsDir,
		port: command === 'worker' ? undefined : port,
		brokerPort,
		env: { ...workerEnv, ...env },
	});
	let logs = '';
	child.stdout.on('data', (c) => {
		logs += c;
	});
	child.stderr.on('data', (c) => {
		logs += c;
	});
	let exitInfo = null;
	const exited = new Promise((r) =>
		child.once('exit', (code, signal) => {
			exitInfo = { code, signal };
			r(exitInfo);
		}),
	);
	const url = `http://127.0.0.1:${port}`;
	const healthPath = command === 'start' ? '/healthz' : '/healthz/readiness';

	const stop = async () => {
		if (exitInfo) return;
		child.kill('SIGTERM'); // graceful: n8n stops its runner and closes the database (~0.3 s; a worker waits for its jobs)
		const killer = setTimeout(() => killGroup(child.pid, 'SIGKILL'), 20_000);
		await exited;
		clearTimeout(killer);
	};

	const started = Date.now();
	const deadline = started + timeoutMs;
	while (Date.now() < deadline) {
		if (exitInfo)
			throw new Error(
				`n8n ${command} exited (${JSON.stringify(exitInfo)}) before ${healthPath} answered. Logs:\n${logs.slice(-4000)}`,
			);
		try {
			const res = await fetch(`${url}${healthPath}`, { signal: AbortSignal.timeout(1000) });
			if (res.ok) {
				usage.starts.push({ command, ms: Date.now() - started });
				return { command, url, port, child, logs: () => logs, stop };
			}
		} catch {
			/* not listening yet */
		}
		await new Promise((r) => setTimeout(r, 250));
	}
	await stop();
	throw new Error(
		`n8n ${command} did not answer ${url}${healthPath} within ${timeoutMs} ms. Logs:\n${logs.slice(-4000)}`,
	);
}

/**
 * What a running n8n serves at /types/nodes.json and /types/credentials.json (with the session cookie): the node or
 * credential types it loaded, as far as scripts read them. A list; the e2e tests also accept them keyed by name.
 * @typedef {Array<{ name: string }> | Record<string, { name: string }>} LoadedTypes
 */

// Dev-only owner of every throw-away instance (password rules: 8–64 chars, a digit, an uppercase letter).
export const DEV_OWNER = Object.freeze({
	email: 'owner@example.com',
	firstName: 'Dev',
	lastName: 'Owner',
	password: 'Dev-owner-1',
});

/**
 * An API key for n8n's public API on a running instance, e.g. to read executions after webhook deliveries.
 * On a fresh user folder it creates the owner (POST /rest/owner/setup, open without auth only while no owner
 * exists); afterwards it logs in (POST /rest/login) with the same credentials. Both answer with an `n8n-auth`
 * cookie, which is bound to the `browser-id` header sent when it was issued, so every /rest call sends the
 * same one. With the cookie: GET /rest/api-keys/scopes, then POST /rest/api-keys returns the raw key once.
 * A new key per call (labels are timestamped). Returns { apiKey, cookie, headers } where `headers` is ready
 * for fetch against /api/v1/... .
 */
export async function createApiKey(url, owner = DEV_OWNER) {
	const base = { 'content-type': 'application/json', 'browser-id': 'latam-fiscal-dev-scripts' };
	const call = async (path, init = {}) => {
		const res = await fetch(url + path, { ...init, headers: { ...base, ...init.headers } });
		const text = await res.text();
		try {
			return { res, body: JSON.parse(text) };
		} catch {
			// a route not mounted yet answers with the editor's HTML
			throw new Error(
				`${path} answered ${res.status} with a body that is not JSON (n8n still starting?)`,
			);
		}
	};
	let r = await call('/rest/owner/setup', { method: 'POST', body: JSON.stringify(owner) });
	if (r.res.status === 400 && /already setup/i.test(r.body?.message ?? '')) {
		r = await call('/rest/login', {
			method: 'POST',
			body: JSON.stringify({ emailOrLdapLoginId: owner.email, password: owner.password }),
		});
	}
	if (!r.res.ok)
		throw new Error(`owner setup/login failed: ${r.res.status} ${JSON.stringify(r.body)}`);
	const cookie = r.res.headers
		.getSetCookie()
		.map((c) => c.split(';')[0])
		.join('; ');
	const scopes = (await call('/rest/api-keys/scopes', { headers: { cookie } })).body?.data;
	r = await call('/rest/api-keys', {
		method: 'POST',
		headers: { cookie },
		body: JSON.stringify({ label: `dev-scripts-${Date.now()}`, scopes, expiresAt: null }),
	});
	if (!r.res.ok)
		throw new Error(`creating an API key failed: ${r.res.status} ${JSON.stringify(r.body)}`);
	const apiKey = r.body.data.rawApiKey;
	return { apiKey, cookie, headers: { 'X-N8N-API-KEY': apiKey, accept: 'application/json' } };
}
