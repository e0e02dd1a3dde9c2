// A real n8n with this package loaded, the service simulators running, and credentials + example workflows
// imported: the common ground of `npm run dev`, the end-to-end tests and the benchmarks.
//
//   const sb = await prepareSandbox({ userFolder: userFolderFor('dev'), simulatorPort: 7401 });
//   // sb.sim: { server, partners, receipts, extraction, credentials } (test/simulator/main.ts, compiled)
//   await sb.importWorkflows([...workflow objects using n8n-nodes-latam-fiscal.<node> types...]);
//   await sb.activate(['wf1']);    // trigger workflows: active once n8n starts (publish on 2.x, activate on 1.x)
//   const n8n = await sb.start();  // boot.mjs startN8n
//
// An e2e suite uses it through ./suite.mjs (one n8n per test file, workflows run through its REST API).
//
// Which n8n: N8N_LINE=1|2 (see install.mjs); `sb.line` tells a test which one it runs on.
// Queue mode (./queue.mjs): pass `env: queueEnv({ pg, redis })` so every CLI call and process uses the shared
// database and queue, then `sb.start()` (main), `sb.start({ command: 'worker' })`, `sb.start({ command: 'webhook' })`.
//
// Two ways to load the package:
// - `as: 'extension'` (default): N8N_CUSTOM_EXTENSIONS points at a copy of dist/ outside the repository, so its node
//   types are named `CUSTOM.<node>` inside n8n; workflows written for a community install
//   (`n8n-nodes-latam-fiscal.<node>`) are rewritten on import and their credentials get fixed IDs (CREDENTIAL_IDS).
// - `as: 'installed'`: the packed package is installed into the user folder's .n8n/nodes the way users install it
//   (see installPackage; `pack: false` lays the same files out by copying them, as `npm run dev` does), n8n starts
//   without N8N_CUSTOM_EXTENSIONS, and workflows are imported unmodified. Only an installed package gets its
//   credentials' Test buttons: n8n looks a node's credential test up (`testedBy`) for installed packages only.
// Either way the package's `require('n8n-workflow')` reaches n8n's own copy, as in a user's n8n: nothing of this
// repository's node_modules is on its resolution path (hence the copy, and user folders outside the repository
// for installs).
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
	cpSync,
	existsSync,
	mkdirSync,
	mkdtempSync,
	readdirSync,
	readFileSync,
	renameSync,
	rmSync,
	writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createApiKey, runCli, startN8n } from './boot.mjs';
import { install } from './install.mjs';

export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const require = createRequire(import.meta.url);

/** @typedef {import('./boot.mjs').N8nFolders} N8nFolders */
/** @typedef {import('./boot.mjs').RunCliOptions} RunCliOptions */
/** @typedef {import('./boot.mjs').StartOptions} StartOptions */

/** Credential type → the ID and name it gets in the sandbox; example workflows use these. */
export const CREDENTIAL_IDS = Object.freeze({
	partnersApi: { id: 'latamPartnersSim', name: 'Partners (simulator)' },
	receiptsApi: { id: 'latamReceiptsSim', name: 'Receipts (simulator)' },
	extractionApi: { id: 'latamExtractionSim', name: 'Extraction staging (simulator)' },
	extractionWebhookApi: {
		id: 'latamExtractionHook',
		name: 'Extraction webhook secret (simulator)',
	},
	satEfirmaApi: { id: 'latamSatEfirmaSim', name: 'SAT e.firma (test, simulator)' },
});

const PACKAGE_PREFIX = 'n8n-nodes-latam-fiscal.';

/**
 * The company the sandbox's Receipts credential issues as (its Issuer fields), so that an invoice issued in
 * `npm run dev` carries a real-looking issuer, as the receipts need one: a RUC whose check digit is right
 * (a private company's, modulo 11: nodes/shared/sri/ruc.ts), its legal name, establishment 001, emission
 * point 001. A node's own Issuer fields still win.
 */
export const SANDBOX_ISSUER = Object.freeze({
	issuerRuc: '1792146739001',
	issuerLegalName: 'Distribuidora Andina S.A.',
	issuerEstablishment: '001',
	issuerEmissionPoint: '001',
});

/** The credential values of the sandbox: the simulators' (test/simulator/main.js), the Receipts one with SANDBOX_ISSUER. */
export const sandboxCredentials = (sim) => ({
	...sim.credentials,
	receiptsApi: { ...sim.credentials.receiptsApi, ...SANDBOX_ISSUER },
});

/**
 * Where the test code (simulators, harness, request bodies) is compiled to CommonJS for the scripts that
 * run it outside Jest (`npm run dev`, the e2e tests, the benchmarks): a cache below node_modules, which no
 * linter or package ever looks at.
 */
export const testBuildDir = join(
	repoRoot,
	'node_modules',
	'.cache',
	'n8n-nodes-latam-fiscal',
	'test-build',
);

/**
 * A throw-away n8n user folder (database, settings, n8n's own copy of its editor) for `name`: beside the test
 * build, below node_modules, where linters and the package never look (n8n puts thousands of files there).
 */
export const userFolderFor = (name) =>
	join(repoRoot, 'node_modules', '.cache', 'n8n-nodes-latam-fiscal', 'n8n-users', name);

/**
 * A throw-away folder outside this repository, for what n8n must load as a user's n8n would: a module there
 * resolves `n8n-workflow` through n8n's own paths, not through this repository's node_modules (n8n-workflow is
 * a devDependency here, of the 2.x line). One folder per checkout, so worktrees side by side do not collide.
 */
export const outsideRepoFor = (name) =>
	join(
		tmpdir(),
		'n8n-nodes-latam-fiscal',
		createHash('sha256').update(repoRoot).digest('hex').slice(0, 10),
		name,
	);

/**
 * The compiled form of a module of test/ (e.g. 'simulator/main'), as `require` loads it. The simulators' module
 * is typed from its source; the others (e.g. 'receipts/setup') are written for Jest and are not checked with
 * Node's types, so they stay untyped here.
 * @overload
 * @param {'simulator/main'} path
 * @returns {typeof import('../../test/simulator/main.js')}
 */
/**
 * @overload
 * @param {string} path
 * @returns {any}
 */
/** @param {string} path */
export function requireTestModule(path) {
	return require(join(testBuildDir, 'test', `${path}.js`));
}

/**
 * Builds the package (dist/) and the test code (testBuildDir); only the test code with `testCodeOnly` (CI, where
 * `npm test` has just built dist/).
 */
export function build({ quiet = false, testCodeOnly = false } = {}) {
	const stdio = quiet ? 'ignore' : 'inherit';
	if (!testCodeOnly) execFileSync('npm', ['run', 'build', '--silent'], { cwd: repoRoot, stdio });
	execFileSync('npx', ['tsc', '-p', 'tsconfig.test.json', '--outDir', testBuildDir], {
		cwd: repoRoot,
		stdio,
	});
}

/**
 * Rewrites a workflow written for a community install so it runs with the package loaded as a custom extension:
 * its node types, and its references to this package's credentials, which point at the sandbox's (CREDENTIAL_IDS)
 * unless they name one of `keep` (credential IDs a suite imported besides the sandbox's).
 * @param {{ nodes: Array<{ type: string, credentials?: Record<string, { id: string, name: string }> }> }} workflow
 * @param {Iterable<string>} [keep]
 */
export function forCustomExtension(workflow, keep = []) {
	const copy = withSandboxCredentials(workflow, keep);
	for (const node of copy.nodes)
		if (node.type.startsWith(PACKAGE_PREFIX))
			node.type = `CUSTOM.${node.type.slice(PACKAGE_PREFIX.length)}`;
	return copy;
}

/**
 * A copy of a workflow whose references to this package's credentials point at the sandbox's (CREDENTIAL_IDS),
 * unless they name one of `keep`: the examples name credentials as a user's n8n would ("1", "Receipts (Ecuador)
 * account").
 * @template {{ nodes: Array<{ credentials?: Record<string, { id: string, name: string }> }> }} W
 * @param {W} workflow
 * @param {Iterable<string>} [keep]
 * @returns {W}
 */
export function withSandboxCredentials(workflow, keep = []) {
	const kept = new Set(keep);
	const copy = structuredClone(workflow);
	for (const node of copy.nodes) {
		const refs = node.credentials ?? {};
		for (const [type, ref] of Object.entries(refs))
			if (CREDENTIAL_IDS[type] && !kept.has(ref.id)) refs[type] = { ...CREDENTIAL_IDS[type] };
	}
	return copy;
}

/** What `npm pack` makes the tarball of: package.json's `files` (dist/) and the files npm always adds, sorted. */
function packedFiles() {
	return [
		...['package.json', 'README.md', 'LICENSE', 'CHANGELOG.md'].filter((f) =>
			existsSync(join(repoRoot, f)),
		),
		...readdirSync(join(repoRoot, 'dist'), { recursive: true, withFileTypes: true })
			.filter((e) => e.isFile())
			.map((e) => relative(repoRoot, join(e.parentPath, e.name))),
	].sort();
}

/** The packed files (packedFiles), fingerprinted: the same fingerprint, the same package. */
function packageFingerprint() {
	const hash = createHash('sha256');
	const files = packedFiles();
	for (const f of files)
		hash
			.update(`${f}\0`)
			.update(readFileSync(join(repoRoot, f)))
			.update('\0');
	return hash.digest('hex');
}

/**
 * Packs the built package (`npm pack`, what npm publishes) and installs the tarball into `<userFolder>/.n8n/nodes`
 * the way docs/install.md tells users to: a bare package.json there, then `npm install --legacy-peer-deps <tarball>`,
 * which installs the package alone (a plain install would also pull the n8n-workflow peer and compile native
 * modules). That install is made once per build of the package (about 15 s; a fingerprint of what is packed
 * names it) in a folder outside the repository and copied into each user folder that asks for it (both n8n lines).
 * Returns the tarball's file name and the installed package's folder.
 */
export async function installPackage(userFolder, { quiet = false, pack = true } = {}) {
	if (!pack) return layOut(userFolder);
	const fingerprint = packageFingerprint();
	const made = outsideRepoFor(`installed-package-${fingerprint.slice(0, 16)}`);
	await madeOnce(made, (dir) => {
		// The installs of earlier builds are of no more use.
		for (const old of readdirSync(dirname(made)))
			if (/^installed-package-[0-9a-f]{16}$/.test(old) && old !== basename(made))
				rmSync(join(dirname(made), old), { recursive: true, force: true });
		const tarball = packAndInstall(join(dir, 'nodes'), { quiet });
		writeFileSync(join(dir, 'tarball.json'), JSON.stringify({ fingerprint, tarball }));
	});
	const nodesDir = join(userFolder, '.n8n', 'nodes');
	rmSync(nodesDir, { recursive: true, force: true });
	cpSync(join(made, 'nodes'), nodesDir, { recursive: true });
	return {
		tarball: /** @type {{ tarball: string }} */ (
			JSON.parse(readFileSync(join(made, 'tarball.json'), 'utf8'))
		).tarball,
		packageDir: join(nodesDir, 'node_modules', PACKAGE_PREFIX.slice(0, -1)),
	};
}

/**
 * The package laid out in `<userFolder>/.n8n/nodes` as `npm install` leaves it (installPackage) — the packed files
 * (packedFiles) in `node_modules/n8n-nodes-latam-fiscal`, and the folder's package.json naming it — by copying
 * them, in a fraction of a second instead of a pack and an install: `npm run dev`'s rebuild loop. The package has
 * no dependencies, so the two give n8n the same folder to load.
 */
function layOut(userFolder) {
	const nodesDir = join(userFolder, '.n8n', 'nodes');
	const name = PACKAGE_PREFIX.slice(0, -1);
	const packageDir = join(nodesDir, 'node_modules', name);
	rmSync(nodesDir, { recursive: true, force: true });
	for (const f of packedFiles()) {
		mkdirSync(dirname(join(packageDir, f)), { recursive: true });
		cpSync(join(repoRoot, f), join(packageDir, f));
	}
	const { version } = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8'));
	writeFileSync(
		join(nodesDir, 'package.json'),
		JSON.stringify(
			{ name: 'installed-nodes', private: true, dependencies: { [name]: version } },
			null,
			2,
		) + '\n',
	);
	return { tarball: undefined, packageDir };
}

/**
 * Makes folder `dir` with `make(folder)` unless it exists: into a folder of its own first, then renamed into place, so
 * that a suite running at the same time (the other n8n line) never reads a half-made one; when one made it first,
 * that one is kept.
 * @param {string} dir
 * @param {(folder: string) => unknown} make
 */
async function madeOnce(dir, make) {
	if (existsSync(dir)) return;
	const fresh = `${dir}-${process.pid}`;
	rmSync(fresh, { recursive: true, force: true });
	mkdirSync(fresh, { recursive: true });
	try {
		await make(fresh);
		renameSync(fresh, dir);
	} catch (error) {
		rmSync(fresh, { recursive: true, force: true });
		if (!existsSync(dir)) throw error;
	}
}

/** `npm pack`, then the tarball installed into `nodesDir` as a user installs it; returns the tarball's name. */
function packAndInstall(nodesDir, { quiet = false } = {}) {
	const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^npm_/i.test(k))); // nothing from `npm run`
	/** @type {import('node:child_process').IOType[]} */
	const stdio = ['ignore', 'pipe', quiet ? 'pipe' : 'inherit'];
	const packDir = mkdtempSync(join(tmpdir(), 'latam-fiscal-pack-'));
	try {
		// npm prints the tarball's name last; split() returns at least one element, so pop() returns a string.
		const tarball = /** @type {string} */ (
			execFileSync('npm', ['pack', '--silent', '--pack-destination', packDir], {
				cwd: repoRoot,
				env,
				stdio,
				encoding: 'utf8',
			})
				.trim()
				.split('\n')
				.pop()
		);
		mkdirSync(nodesDir, { recursive: true });
		writeFileSync(
			join(nodesDir, 'package.json'),
			JSON.stringify({ name: 'installed-nodes', private: true }, null, 2) + '\n',
		);
		execFileSync(
			'npm',
			['install', '--legacy-peer-deps', '--no-audit', '--no-fund', join(packDir, tarball)],
			{ cwd: nodesDir, env, stdio },
		);
		return tarball;
	} finally {
		rmSync(packDir, { recursive: true, force: true });
	}
}

/**
 * n8n saves a workflow's static data (where a trigger keeps what its activation set up, e.g. the Receipts
 * Trigger's token hashes) only when the workflow's ID is short enough: at most 16 characters on 1.x, 21 on 2.x
 * (`isWorkflowIdValid`), silently otherwise. IDs chosen by hand keep to 16 so they work on both lines.
 */
export const MAX_WORKFLOW_ID = 16;
export const isPortableWorkflowId = (id) =>
	typeof id === 'string' && id.length > 0 && id.length <= MAX_WORKFLOW_ID;

/** Activating a workflow through the public API: `POST /api/v1/workflows/{id}/<on|off>` on each line. */
export const apiActivation = (line) =>
	line === 1 ? { on: 'activate', off: 'deactivate' } : { on: 'publish', off: 'unpublish' };

/** The simulators of a sandbox (test/simulator/main.js, compiled). */
/** @typedef {Awaited<ReturnType<typeof import('../../test/simulator/main.js').startSimulators>>} Simulators */

/**
 * A credential as `n8n import:credentials` reads it (plain `data`, which n8n encrypts).
 * @typedef {{ id?: string, name?: string, type: string, data: Record<string, unknown> }} CredentialImport
 */

/**
 * The sandbox of the header. `userFolder` is resolved against the repository's root and must be outside it for
 * `as: 'installed'`; `simulatorPort` 0 picks a free port; `env` goes to every CLI call and n8n process;
 * `credentials` names the ID and name each imported credential gets (`{}`: n8n picks them);
 * `adjustCredentials` changes the list imported (one credential per type of the simulators) before it is
 * imported, in the same one CLI call: other secrets, or more credentials. Workflows keep their references to the
 * IDs it adds (see forCustomExtension).
 * @param {object} options
 * @param {string} options.userFolder
 * @param {number} [options.simulatorPort]
 * @param {boolean} [options.skipBuild]
 * @param {boolean} [options.quiet]
 * @param {Record<string, string | undefined>} [options.env]
 * @param {'extension' | 'installed'} [options.as]
 * @param {boolean} [options.pack] `as: 'installed'`: false lays the built package out as npm installs it instead of
 *   packing and installing it (installPackage; `npm run dev`)
 * @param {Record<string, { id: string, name: string }>} [options.credentials]
 * @param {(list: CredentialImport[], sim: Simulators) => CredentialImport[] | Promise<CredentialImport[]>} [options.adjustCredentials]
 */
export async function prepareSandbox({
	userFolder,
	simulatorPort = 0,
	skipBuild = false,
	quiet = false,
	env: sharedEnv = {},
	as = 'extension',
	pack = true,
	credentials: credentialRefs = CREDENTIAL_IDS,
	adjustCredentials = (list) => list,
}) {
	if (!['extension', 'installed'].includes(as))
		throw new Error(`prepareSandbox: as must be 'extension' or 'installed', got ${as}`);
	if (!skipBuild) build({ quiet });
	const { line, version } = await install();
	userFolder = resolve(repoRoot, userFolder);
	if (as === 'installed' && !relative(repoRoot, userFolder).startsWith('..')) {
		throw new Error(
			`an installed package needs a user folder outside the repository (outsideRepoFor), not ${userFolder}`,
		);
	}
	mkdirSync(userFolder, { recursive: true });
	let extensionsDir;
	if (as === 'installed') await installPackage(userFolder, { quiet, pack });
	else {
		extensionsDir = outsideRepoFor(`extension-${basename(userFolder)}`);
		rmSync(extensionsDir, { recursive: true, force: true });
		cpSync(join(repoRoot, 'dist'), extensionsDir, { recursive: true });
	}
	const { startSimulators } = requireTestModule('simulator/main');
	const sim = await startSimulators(simulatorPort);
	// File nodes in the examples write below the user folder, which n8n must be told it may touch.
	const filesFolder = join(userFolder, '.n8n-files');
	mkdirSync(filesFolder, { recursive: true });
	const env = { N8N_RESTRICT_FILE_ACCESS_TO: filesFolder, ...sharedEnv };
	const opts = { userFolder, extensionsDir, env };

	if ((sharedEnv.DB_TYPE ?? process.env.DB_TYPE ?? 'sqlite') === 'sqlite')
		await seedMigratedDatabase(userFolder, version);

	const credentialsFile = join(userFolder, 'sandbox-credentials.json');
	const credentials = await adjustCredentials(
		Object.entries(sandboxCredentials(sim)).map(([type, data]) => ({
			...credentialRefs[type],
			type,
			data,
		})),
		sim,
	);
	writeFileSync(credentialsFile, JSON.stringify(credentials, null, 2));
	await runCli(['import:credentials', `--input=${credentialsFile}`], { ...opts, check: true });
	const defaultIds = new Set(Object.values(CREDENTIAL_IDS).map((c) => c.id));
	const addedIds = credentials.flatMap((c) => (c.id && !defaultIds.has(c.id) ? [c.id] : []));

	const importWorkflows = async (workflows) => {
		if (!workflows.length) return;
		const tooLong = workflows
			.filter((wf) => wf.id !== undefined && !isPortableWorkflowId(wf.id))
			.map((wf) => wf.id);
		if (tooLong.length)
			throw new Error(
				`workflow IDs of more than ${MAX_WORKFLOW_ID} characters: ${tooLong.join(', ')} (n8n 1.x then never saves their static data)`,
			);
		const dir = join(userFolder, 'sandbox-workflows');
		rmSync(dir, { recursive: true, force: true });
		mkdirSync(dir, { recursive: true });
		const prepare = as === 'extension' ? (wf) => forCustomExtension(wf, addedIds) : (wf) => wf;
		workflows.forEach((wf, n) =>
			writeFileSync(join(dir, `${String(n).padStart(3, '0')}.json`), JSON.stringify(prepare(wf))),
		);
		await runCli(['import:workflow', '--separate', `--input=${dir}`], { ...opts, check: true });
	};
	/**
	 * `n8n <args>` on this sandbox's folders (boot.mjs runCli), unless `extra` names others; `extra.env` adds to the
	 * sandbox's environment.
	 * @param {string[]} args
	 * @param {Partial<N8nFolders> & RunCliOptions} [extra]
	 */
	const cli = (args, extra = {}) =>
		runCli(args, { ...opts, ...extra, env: { ...env, ...(extra.env ?? {}) } });

	return {
		sim,
		opts,
		line,
		version,
		/** The only folder n8n's Read/Write Files From Disk may use here (N8N_RESTRICT_FILE_ACCESS_TO). */
		filesFolder,
		/** The name n8n gives a node of this package ('partners' → 'CUSTOM.partners' or 'n8n-nodes-latam-fiscal.partners'). */
		nodeType: (name) => (as === 'extension' ? 'CUSTOM.' : PACKAGE_PREFIX) + name,
		importWorkflows,
		cli,
		/**
		 * Makes imported workflows active from the next start, while this user folder's n8n is stopped: 2.x publishes
		 * them (`publish:workflow`); 1.x has no publishing and sets them active (`update:workflow --active=true`).
		 */
		activate: async (ids) => {
			for (const id of ids) {
				const args =
					line === 1
						? ['update:workflow', `--id=${id}`, '--active=true']
						: ['publish:workflow', `--id=${id}`];
				await cli(args, { check: true });
			}
		},
		/**
		 * `n8n start` (default), or `{ command: 'worker' | 'webhook' }` in queue mode; see boot.mjs startN8n.
		 * @param {Partial<N8nFolders> & StartOptions} [extra]
		 */
		start: async (extra = {}) => {
			const n8n = await startN8n({ ...opts, ...extra, env: { ...env, ...(extra.env ?? {}) } });
			if (n8n.command === 'start') await untilReady(n8n.url);
			return n8n;
		},
		stop: () => sim.server.stop(),
	};
}

/** The files of an n8n user folder that hold its SQLite database and its settings (`.n8n/`). */
const DATABASE_FILES = ['config', 'database.sqlite', 'database.sqlite-wal', 'database.sqlite-shm'];

/**
 * Gives a new user folder a database n8n `version` has already migrated, so that its first CLI call does not run
 * every migration again (3–5 s for each e2e file and line). The migrated database is made once per version, by
 * `n8n list:workflow` (which does nothing else) in a folder of its own below node_modules, and copied; a folder
 * that has a database keeps it. SQLite only: queue mode's PostgreSQL is new for each run.
 * @param {string} userFolder
 * @param {string} version
 */
async function seedMigratedDatabase(userFolder, version) {
	const target = join(userFolder, '.n8n');
	if (existsSync(join(target, 'database.sqlite'))) return;
	const template = join(
		repoRoot,
		'node_modules',
		'.cache',
		'n8n-nodes-latam-fiscal',
		`n8n-database-${version}`,
	);
	await madeOnce(template, (dir) => runCli(['list:workflow'], { userFolder: dir, check: true }));
	mkdirSync(target, { recursive: true });
	for (const file of DATABASE_FILES)
		if (existsSync(join(template, '.n8n', file)))
			cpSync(join(template, '.n8n', file), join(target, file));
}

/**
 * Nodes without a credential (SRI (Ecuador), SAT (Mexico)) ask their service at Options → Service Address, empty in the examples
 * (the real service): in the sandbox, their simulator's address. A copy; the workflow is not changed.
 */
function withServiceAddresses(workflow, sim) {
	const copy = structuredClone(workflow);
	for (const node of copy.nodes) {
		const service = node.type.slice(node.type.lastIndexOf('.') + 1);
		const address =
			sim.addresses?.[`${service}:${node.parameters?.resource}`] ?? sim.addresses?.[service];
		// Read XML and Read Received List send nothing: they have no Service Address.
		const reads =
			node.parameters?.operation === 'readXml' || node.parameters?.resource === 'receivedList';
		if (!address || reads) continue;
		node.parameters ??= {};
		node.parameters.options = { ...(node.parameters.options ?? {}) };
		node.parameters.options.serviceAddress ||= address;
	}
	return copy;
}

/**
 * The workflows of examples/, with stable IDs derived from their file names (short enough for n8n to save their
 * static data, MAX_WORKFLOW_ID); `trigger` says which activate (a trigger other than the manual one).
 */
export function loadExamples() {
	const dir = join(repoRoot, 'examples');
	return readdirSync(dir)
		.filter((f) => f.endsWith('.json'))
		.sort()
		.map((file) => {
			const workflow = JSON.parse(readFileSync(join(dir, file), 'utf8'));
			workflow.id = `ex${createHash('sha256')
				.update(file)
				.digest('hex')
				.slice(0, MAX_WORKFLOW_ID - 2)}`;
			return {
				file,
				workflow,
				trigger: workflow.nodes.some(
					(n) => /Trigger$/.test(n.type) && !n.type.endsWith('manualTrigger'),
				),
			};
		});
}

/**
 * Makes the examples runnable against the simulators: a few examples carry placeholders a user replaces
 * with their own data (an extraction ID, receipt IDs, a SAT password kept in n8n variables, a folder; the folder of
 * received SRI receipts is filled with last month's, the ones the SRI simulator holds, the folder of the SRI's lists
 * of received receipts with last month's, and the folder of last month's received CFDIs with the ones the SAT
 * simulator knows; the ATS's Tax Support, which the examples leave Not Chosen Yet, with 01).
 * In the sandbox they are filled with demo data seeded in the simulators, and the nodes without a credential ask
 * their simulator (withServiceAddresses); the files are not changed.
 */
export function fillPlaceholders(workflow, sim, userFolder) {
	let text = JSON.stringify(withServiceAddresses(workflow, sim));
	if (text.includes('ext_REPLACE_ME')) {
		const job = sim.extraction.seedJob({ env: 'staging', status: 'COMPLETED', documents: 2 });
		text = text.replaceAll('ext_REPLACE_ME', job.publicId);
	}
	for (const n of [1, 2]) {
		if (text.includes(`REPLACE_WITH_RECEIPT_ID_${n}`))
			text = text.replaceAll(`REPLACE_WITH_RECEIPT_ID_${n}`, sim.receipts.seed('retention').id);
	}
	if (text.includes('/home/node/sri/')) {
		// Last month's received receipts, one file each, as a bookkeeper keeps them (the SRI simulator holds them).
		const received = join(userFolder, '.n8n-files', 'sri', 'received');
		rmSync(received, { recursive: true, force: true });
		mkdirSync(received, { recursive: true });
		for (const r of sim.sriMonth.receipts) writeFileSync(join(received, r.fileName), r.file);
	}
	if (text.includes('/home/node/sri/received-list/')) {
		// Last month's list of the receipts issued to the sandbox's company, as SRI en línea downloads it (the SRI
		// simulator holds every receipt it lists but one).
		const folder = join(userFolder, '.n8n-files', 'sri', 'received-list');
		rmSync(folder, { recursive: true, force: true });
		mkdirSync(folder, { recursive: true });
		const list = sim.sriMonth.receivedList;
		writeFileSync(join(folder, list.fileName), list.bytes);
	}
	// Last month's received CFDIs (the DIOT example reads them), which the SAT's simulator knows.
	if (text.includes('/home/node/cfdi/recibidos/')) {
		const { lastPeriod, receivedMonth } = requireTestModule('simulator/received');
		const files = receivedMonth(lastPeriod());
		const folder = join(userFolder, '.n8n-files', 'cfdi', 'recibidos');
		mkdirSync(folder, { recursive: true });
		for (const f of files) writeFileSync(join(folder, f.fileName), f.xml);
		sim.sat.know(files);
	}
	// The taxpayer's SAT password (CIEC), a field the user fills in the examples: the sandbox's, which its Extraction
	// simulator takes.
	if (text.includes('"satPassword": ""') || text.includes('"satPassword":""')) {
		const copy = JSON.parse(text);
		for (const node of copy.nodes)
			if (node.parameters?.satPassword === '')
				node.parameters.satPassword = 'sandbox-ciec-password';
		text = JSON.stringify(copy);
	}
	// The ATS examples ship with Tax Support Not Chosen Yet (only the bookkeeper knows what a purchase is for, and
	// the run stops until one is chosen): the sandbox's company chooses 01, so that they run as they are.
	if (text.includes('"monthlyAnnex"')) {
		const copy = JSON.parse(text);
		for (const node of copy.nodes)
			if (node.parameters?.resource === 'monthlyAnnex' && !node.parameters.taxSupport)
				node.parameters.taxSupport = '01';
		text = JSON.stringify(copy);
	}
	// A Wait node waits seconds here, not minutes: the simulators decide in seconds what the services take minutes for.
	if (text.includes('"n8n-nodes-base.wait"')) {
		const copy = JSON.parse(text);
		for (const node of copy.nodes)
			if (node.type === 'n8n-nodes-base.wait' && node.parameters?.resume === 'timeInterval')
				Object.assign(node.parameters, { amount: 5, unit: 'seconds' });
		text = JSON.stringify(copy);
	}
	// The folders the examples' file nodes use (/home/node/<folder>/) become folders of the sandbox's file folder,
	// the only one n8n may read and write here (N8N_RESTRICT_FILE_ACCESS_TO).
	text = text.replace(/\/home\/node\/([A-Za-z0-9_-]+)\//g, (_, name) => {
		const folder = join(userFolder, '.n8n-files', name);
		mkdirSync(folder, { recursive: true });
		return `${folder}/`;
	});
	return JSON.parse(text);
}

/**
 * /healthz answers before n8n's routes are mounted: wait for the REST API (settings answer 200) and the public
 * API (a request without a key answers 401 in JSON; before it is mounted, the editor's HTML or a 404 answers).
 */
async function untilReady(url, timeoutMs = 60_000) {
	const deadline = Date.now() + timeoutMs;
	const mounted = async () => {
		const settings = await fetch(`${url}/rest/settings`).catch(() => undefined);
		if (!settings?.ok) return false;
		const api = await fetch(`${url}/api/v1/workflows`).catch(() => undefined);
		return api?.status === 401 && /json/.test(api.headers.get('content-type') ?? '');
	};
	while (Date.now() < deadline) {
		if (await mounted()) return;
		await new Promise((r) => setTimeout(r, 250));
	}
	throw new Error(`n8n at ${url} did not mount its REST and public APIs within ${timeoutMs} ms`);
}

/**
 * createApiKey, retried while n8n is still mounting its owner/login routes (they answer 404, or the editor's
 * HTML instead of JSON, until then).
 */
export async function ownerApiKey(url, timeoutMs = 60_000) {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		try {
			return await createApiKey(url);
		} catch (error) {
			if (
				!(error instanceof Error) ||
				!/ 404 |not JSON/.test(error.message) ||
				Date.now() > deadline
			)
				throw error;
			await new Promise((r) => setTimeout(r, 500));
		}
	}
}

export const isBuilt = () =>
	existsSync(join(repoRoot, 'dist', 'nodes')) &&
	existsSync(join(testBuildDir, 'test', 'simulator', 'main.js'));
