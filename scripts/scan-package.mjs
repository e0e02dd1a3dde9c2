// Runs n8n's community-package scanner (@n8n/scan-community-package) the way n8n vets a published package:
// once over the sources (package.json, nodes/, credentials/) and once over the packed tarball's content.
// Exits non-zero with the scanner's report when either leg fails.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
	analyzePackage,
	SOURCE_FILE_PATTERNS,
} from '@n8n/scan-community-package/scanner/scanner.mjs';

const root = process.cwd();
const work = mkdtempSync(join(tmpdir(), 'scan-'));
try {
	// npm prints the tarball's name last; split() returns at least one element, so pop() returns a string.
	const out = /** @type {string} */ (
		execFileSync('npm', ['pack', '--silent', '--pack-destination', work], {
			cwd: root,
			encoding: 'utf8',
		})
			.trim()
			.split('\n')
			.pop()
	);
	execFileSync('tar', ['-xzf', join(work, out), '-C', work]);
	const legs = [
		['sources', await analyzePackage(root, SOURCE_FILE_PATTERNS)],
		['packed package', await analyzePackage(join(work, 'package'), ['**/*.js', 'package.json'])],
	];
	let failed = false;
	for (const [name, result] of legs) {
		console.log(
			`scan ${name}: ${result.passed ? 'passed' : 'FAILED'}${result.message ? ` (${result.message})` : ''}`,
		);
		if (!result.passed) {
			failed = true;
			if (result.details) console.log(result.details);
		}
	}
	process.exitCode = failed ? 1 : 0;
} finally {
	rmSync(work, { recursive: true, force: true });
}
