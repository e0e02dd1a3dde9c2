import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * n8n's verification guidelines for community nodes (docs.n8n.io, Creating nodes → Reference → "Community node
 * verification guidelines"), the part a tool can check on this repository and on what ships (dist/, built by
 * `npm test` before Jest runs). n8n-node's strict lint and n8n's package scanner check the code itself; the
 * checklist in CONTRIBUTING.md says which rule is met where.
 */
const root = join(__dirname, '..', '..');
const read = (path) => readFileSync(join(root, path), 'utf8');
const manifest = JSON.parse(read('package.json'));

/** Every .js file under a folder. */
const jsFiles = (dir) =>
	readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
		e.isDirectory()
			? jsFiles(join(dir, e.name))
			: e.name.endsWith('.js')
				? [join(dir, e.name)]
				: [],
	);

describe("n8n's verification rules that a tool can check", () => {
	test('a community package by name and keyword, its nodes and credentials listed in the n8n field', () => {
		expect(manifest.name).toMatch(/^(@[a-z0-9-]+\/)?n8n-nodes-[a-z0-9-]+$/);
		expect(manifest.keywords).toContain('n8n-community-node-package');
		expect(manifest.n8n.nodes.length).toBeGreaterThan(0);
		expect(manifest.n8n.credentials.length).toBeGreaterThan(0);
	});

	test('what ships is what n8n loads: every file the n8n field names is under files; no main that would not ship', () => {
		// n8n loads a community package through its n8n field, not through main; a main naming a file the package does
		// not contain would only mislead (n8n's own template has none).
		const shipped = (file) => manifest.files.some((f) => file === f || file.startsWith(`${f}/`));
		for (const file of [...manifest.n8n.nodes, ...manifest.n8n.credentials])
			expect([file, shipped(file)]).toEqual([file, true]);
		if (manifest.main !== undefined)
			expect([manifest.main, shipped(manifest.main)]).toEqual([manifest.main, true]);
	});

	test('licence: MIT, in package.json and in the LICENSE file that ships', () => {
		expect(manifest.license).toBe('MIT');
		expect(read('LICENSE')).toMatch(/^MIT License\n/);
	});

	test('no runtime dependencies: none declared, n8n-workflow only as a peer, and the built code requires nothing else', () => {
		for (const field of [
			'dependencies',
			'optionalDependencies',
			'bundleDependencies',
			'bundledDependencies',
		]) {
			expect([field, manifest[field] ?? {}]).toEqual([field, {}]);
		}
		expect(manifest.peerDependencies).toEqual({ 'n8n-workflow': '*' });
		const required = new Set();
		for (const file of jsFiles(join(root, 'dist'))) {
			for (const [, id] of readFileSync(file, 'utf8').matchAll(
				/\brequire\(\s*["']([^"']+)["']\s*\)/g,
			))
				if (!id.startsWith('.')) required.add(id);
		}
		// n8n-workflow comes from n8n itself; node:crypto is Node's (the one built-in n8n's lint allows).
		expect([...required].sort()).toEqual(['n8n-workflow', 'node:crypto']);
	});

	test('package source: the repository and the homepage are the same public GitHub repository', () => {
		const [, repo] =
			/^git\+https:\/\/github\.com\/([\w.-]+\/[\w.-]+?)\.git$/.exec(manifest.repository.url) ?? [];
		expect(repo).toBeDefined();
		expect(manifest.homepage).toBe(`https://github.com/${repo}#readme`);
	});

	test('published from a GitHub Actions workflow, with npm provenance, after the checks of npm test', () => {
		const release = read('.github/workflows/release.yml');
		expect(release).toMatch(/^on:\n {2}push:\n {4}tags: \[/m); // a pushed version tag starts it
		expect(release).toMatch(/^permissions:\n(?: {2}.*\n)* {2}id-token: write\b/m); // the OIDC token npm signs provenance with
		const steps = release
			.split('\n')
			.filter((l) => /^\s+- run: /.test(l))
			.map((l) => l.replace(/^\s+- run: /, '').trim());
		const publish = steps.findIndex((s) => /^npm publish\b/.test(s));
		expect(steps[publish]).toMatch(/ --provenance\b/);
		expect(steps.indexOf('npm test')).toBeGreaterThanOrEqual(0);
		expect(steps.indexOf('npm test')).toBeLessThan(publish);
	});

	test("npm test runs n8n's strict lint and n8n's package scanner", () => {
		expect(manifest.n8n.strict).toBe(true); // n8n-node lint then accepts nothing but n8n's own ESLint configuration
		expect(read('eslint.config.mjs')).toBe(
			"import { config } from '@n8n/node-cli/eslint';\n\nexport default config;\n",
		);
		expect(manifest.scripts.lint).toMatch(/^n8n-node lint && /);
		expect(manifest.scripts.test).toMatch(/^npm run lint && .*node scripts\/scan-package\.mjs$/);
	});
});
