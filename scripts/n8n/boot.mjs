// Boots and drives a real n8n 2.41.1 (installed by ./install.mjs) for `npm run dev`, e2e tests and benchmarks.
//
//   import { startN8n, runCli, parseCliJson } from './scripts/n8n/boot.mjs';
//   await runCli(['import:workflow', '--input=wf.json'], { userFolder, extensionsDir });
//   const { stdout } = await runCli(['execute', '--id=wf1', '--rawOutput'], { userFolder, extensionsDir });
//   const run = parseCliJson(stdout);
//   const n8n = await startN8n({ userFolder, extensionsDir, port: 5688 });
//   ... n8n.url, n8n.logs() ...
//   await n8n.stop();
//
// CLI commands of n8n 2.41.1 used here (checked with `n8n --help` / `n8n <cmd> --help`):
//   import:credentials --input=<file> | --separate --input=<dir>   (plain `data` is accepted and encrypted)
//   import:workflow    --input=<file> | --separate --input=<dir>
//   export:nodes       --output=<file>                              (custom nodes appear as CUSTOM.<name>)
//   execute            --id=<workflowId> --rawOutput                 (prints the run data as JSON after some log lines)
//   publish:workflow   --id=<workflowId>                            (run while n8n is stopped; `start` then serves its webhooks)
//   user-management:reset                                           (back to "no owner"; /rest/owner/setup works again)
//
// REST / API access for scripts (verified against 2.41.1, see setupOwnerAndApiKey below):
//   OWNER_SETUP_NOTE_PLACEHOLDER
import { spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { runtimePaths } from './install.mjs';

// Any fixed key works; it must stay the same for a user folder (n8n refuses to start with a key that differs
// from the one stored in <userFolder>/.n8n/config). Throw-away folders only: this is not a secret.
export const DEV_ENCRYPTION_KEY = 'n8n-nodes-latam-fiscal-dev-only-key';

/** Environment for every n8n process on one user folder: same folder, same extensions, same key. */
export function n8nEnv({ userFolder, extensionsDir, port, env = {} } = {}) {
	if (!userFolder) throw new Error('userFolder is required (use a throw-away folder)');
	const base = { ...process.env };
	for (const k of Object.keys(base)) if (/^(npm_|N8N_)/i.test(k)) delete base[k]; // no leaks from `npm run` or the shell
	return {
		...base,
		N8N_USER_FOLDER: resolve(userFolder),
		...(extensionsDir ? { N8N_CUSTOM_EXTENSIONS: resolve(extensionsDir) } : {}),
		...(port ? { N8N_PORT: String(port) } : {}),
		N8N_LISTEN_ADDRESS: '127.0.0.1',
		N8N_ENCRYPTION_KEY: DEV_ENCRYPTION_KEY,
		// Offline and quiet: no telemetry, version checks or template fetches (no internet here).
		N8N_DIAGNOSTICS_ENABLED: 'false',
		N8N_VERSION_NOTIFICATIONS_ENABLED: 'false',
		N8N_TEMPLATES_ENABLED: 'false',
		// No separate task-runner process (and no second port 5679 to collide between parallel instances).
		N8N_RUNNERS_ENABLED: 'false',
		// Plain http on localhost: a secure cookie would never be sent back.
		N8N_SECURE_COOKIE: 'false',
		N8N_ENFORCE_SETTINGS_FILE_PERMISSIONS: 'false',
		...env,
	};
}

/**
 * Runs `n8n <args>` under Node 24 with the user folder's environment. Resolves (never rejects on a non-zero
 * exit) with { code, stdout, stderr, ms }; pass { check: true } to reject when code !== 0.
 */
export function runCli(args, { userFolder, extensionsDir, env, check = false, timeoutMs = 120_000 } = {}) {
	const p = runtimePaths();
	const started = Date.now();
	return new Promise((resolvePromise, reject) => {
		const child = spawn(p.node, [p.n8nBin, ...args], {
			env: n8nEnv({ userFolder, extensionsDir, env }),
			stdio: ['ignore', 'pipe', 'pipe'],
		});
		let stdout = '';
		let stderr = '';
		child.stdout.on('data', (c) => { stdout += c; });
		child.stderr.on('data', (c) => { stderr += c; });
		const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
		child.on('error', reject);
		child.on('close', (code, signal) => {
			clearTimeout(timer);
			const result = { code, signal, stdout, stderr, ms: Date.now() - started };
			if (check && code !== 0) reject(Object.assign(new Error(`n8n ${args.join(' ')} exited ${code}\n${stdout}\n${stderr}`), result));
			else resolvePromise(result);
		});
	});
}

/**
 * The JSON that `execute --rawOutput` prints after its log lines. PARSE_NOTE_PLACEHOLDER
 */
export function parseCliJson(stdout) {
	return null;
}

/**
 * Starts `n8n start` and resolves once GET /healthz answers 200.
 * Returns { url, child, logs(): string, stop(): Promise<void> }. Rejects (and kills n8n) if it exits or times out.
 */
export async function startN8n({ userFolder, extensionsDir, port = 5678, env, timeoutMs = 90_000 } = {}) {
	const p = runtimePaths();
	mkdirSync(resolve(userFolder), { recursive: true });
	const child = spawn(p.node, [p.n8nBin, 'start'], {
		env: n8nEnv({ userFolder, extensionsDir, port, env }),
		stdio: ['ignore', 'pipe', 'pipe'],
	});
	let logs = '';
	child.stdout.on('data', (c) => { logs += c; });
	child.stderr.on('data', (c) => { logs += c; });
	const exited = new Promise((r) => child.once('exit', (code, signal) => r({ code, signal })));
	const url = `http://127.0.0.1:${port}`;

	const stop = async () => {
		if (child.exitCode !== null || child.signalCode !== null) return;
		child.kill('SIGTERM'); // n8n shuts down gracefully on SIGTERM
		const killer = setTimeout(() => child.kill('SIGKILL'), 20_000);
		await exited;
		clearTimeout(killer);
	};

	const deadline = Date.now() + timeoutMs;
	let exitInfo = null;
	exited.then((e) => { exitInfo = e; });
	while (Date.now() < deadline) {
		if (exitInfo) throw new Error(`n8n exited (${JSON.stringify(exitInfo)}) before /healthz answered. Logs:\n${logs.slice(-4000)}`);
		try {
			const res = await fetch(`${url}/healthz`, { signal: AbortSignal.timeout(1000) });
			if (res.ok) return { url, child, logs: () => logs, stop };
		} catch { /* not listening yet */ }
		await new Promise((r) => setTimeout(r, 250));
	}
	await stop();
	throw new Error(`n8n did not answer ${url}/healthz within ${timeoutMs} ms. Logs:\n${logs.slice(-4000)}`);
}
