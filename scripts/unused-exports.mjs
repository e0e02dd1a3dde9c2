// Lists the exports of the shipped code (nodes/, credentials/) that nothing outside their own file uses, and
// exits 1 when there is one (`npm run lint` runs it, so unused exports cannot grow back). An export nobody
// imports makes a reader look for users that do not exist; drop its `export` (or the code, when its own file
// does not use it either: `tsc`'s noUnusedLocals then says so).
//
// What counts as a user of an export, besides another file of nodes/ or credentials/:
// - n8n: the node and credential classes of package.json's `n8n` lists (n8n requires each file and takes
//   the class);
// - the tests (test/**/*.js): they import domain rules from nodes/ to check them directly, and load built
//   modules from dist/ by path (`built('nodes/…/X.node', 'X')`, `builtModule('nodes/…/router').resources`): a
//   module a test names by its path counts as used whole;
// - the benchmarks and scripts, which `require()` built modules of dist/ and destructure what they take.
// An `import * as ns` uses every export of its module (the routers' tables read the operation modules whole).
//
// It reads the program of tsconfig.test.json (the shipped TypeScript and the tests) with the TypeScript
// compiler's checker, so a name is matched by what it resolves to, not by its spelling.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const rel = (file) => relative(root, file).split('\\').join('/');
const shipped = (file) => /^(nodes|credentials)\//.test(rel(file)) && !file.endsWith('.d.ts');

const config = ts.getParsedCommandLineOfConfigFile(
	join(root, 'tsconfig.test.json'),
	{},
	{ ...ts.sys, onUnRecoverableConfigFileDiagnostic: (d) => fail(d.messageText) },
);
if (!config) throw new Error('tsconfig.test.json cannot be read');
const program = ts.createProgram({ rootNames: config.fileNames, options: config.options });
const checker = program.getTypeChecker();

/** @param {unknown} message @returns {never} */
function fail(message) {
	console.error(`unused-exports: ${String(message)}`);
	process.exit(2);
}

/** Every export of every shipped file: symbol → { file, name }. */
const exported = new Map();
/** The exports of each shipped file by its path without extension (`nodes/shared/xml`). */
const byModule = new Map();
for (const source of program.getSourceFiles()) {
	if (!shipped(source.fileName)) continue;
	const moduleSymbol = checker.getSymbolAtLocation(source);
	if (!moduleSymbol) continue;
	const symbols = checker.getExportsOfModule(moduleSymbol).map(original);
	byModule.set(rel(source.fileName).replace(/\.ts$/, ''), symbols);
	for (const symbol of symbols)
		exported.set(symbol, { file: rel(source.fileName), name: symbol.name });
}

/** The symbol an import or re-export finally names. */
function original(symbol) {
	return symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
}

const used = new Set();
const useModule = (path) => (byModule.get(path) ?? []).forEach((s) => used.add(s));

// n8n's entry points: the files package.json lists (dist/…js → …ts), their classes.
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
for (const file of [...manifest.n8n.nodes, ...manifest.n8n.credentials])
	useModule(file.replace(/^dist\//, '').replace(/\.js$/, ''));

// Every file of the program: identifiers that resolve to an export declared in another file; namespace imports.
for (const source of program.getSourceFiles()) {
	if (source.isDeclarationFile || source.fileName.includes('/node_modules/')) continue;
	const visit = (node) => {
		if (ts.isNamespaceImport(node) || ts.isNamespaceExport(node)) {
			const declaration = ts.isNamespaceImport(node) ? node.parent.parent : node.parent;
			const specifier =
				ts.isImportDeclaration(declaration) || ts.isExportDeclaration(declaration)
					? declaration.moduleSpecifier
					: undefined;
			const target = specifier && checker.getSymbolAtLocation(specifier);
			const file = target?.valueDeclaration?.getSourceFile?.();
			if (file && shipped(file.fileName)) useModule(rel(file.fileName).replace(/\.ts$/, ''));
		}
		if (ts.isIdentifier(node)) {
			const symbol = checker.getSymbolAtLocation(node);
			if (symbol) {
				const target = original(symbol);
				const where = exported.get(target);
				if (where && where.file !== rel(source.fileName)) used.add(target);
			}
		}
		// A module a test loads from dist/ by its path ('nodes/…/router'): used whole.
		if (ts.isStringLiteral(node) && /^(nodes|credentials)\/[\w/.-]+$/.test(node.text))
			useModule(node.text.replace(/\.(js|ts)$/, ''));
		ts.forEachChild(node, visit);
		// Types the JavaScript tests take in JSDoc (`@import { X } from '…'`, `import('…').X`).
		for (const doc of node.jsDoc ?? []) visit(doc);
	};
	visit(source);
}

// Benchmarks and scripts: `const { a, b } = require(… 'dist' … 'nodes/shared/xml.js')`.
const scriptFiles = (dir) =>
	readdirSync(join(root, dir), { withFileTypes: true, recursive: true })
		.filter((e) => e.isFile() && /\.(mjs|js)$/.test(e.name))
		.map((e) => join(e.parentPath ?? e.path, e.name));
for (const file of [...scriptFiles('bench'), ...scriptFiles('scripts')]) {
	const text = readFileSync(file, 'utf8');
	for (const [, names, argument] of text.matchAll(
		/const\s*\{([^}]*)\}\s*=\s*require\(([^()]*(?:\([^()]*\)[^()]*)*)\)/g,
	)) {
		const path = [...argument.matchAll(/'([^']*)'/g)]
			.map((m) => m[1])
			.join('/')
			.replace(/^(\.\.\/)*(dist\/)?/, '')
			.replace(/\.js$/, '');
		const symbols = byModule.get(path) ?? [];
		for (const name of names.split(',').map((n) => n.split(':')[0].trim()))
			symbols.filter((s) => s.name === name).forEach((s) => used.add(s));
	}
}

const unusedSymbols = [...exported].filter(([symbol]) => !used.has(symbol));
const unused = unusedSymbols.map(([, { file, name }]) => `${file}: ${name}`).sort();

// `--fix`: drop the `export` keyword of each such declaration (the one-word change; what is then unused in its
// own file too, `tsc`'s noUnusedLocals names, to be deleted by hand).
if (process.argv.includes('--fix') && unused.length) {
	/** file → positions of `export` keywords to drop */
	const edits = new Map();
	for (const [symbol] of unusedSymbols)
		for (const declaration of symbol.declarations ?? []) {
			const statement = ts.isVariableDeclaration(declaration)
				? declaration.parent.parent
				: declaration;
			const keyword = ts.canHaveModifiers(statement)
				? ts.getModifiers(statement)?.find((m) => m.kind === ts.SyntaxKind.ExportKeyword)
				: undefined;
			if (!keyword) continue;
			const file = statement.getSourceFile().fileName;
			edits.set(file, new Set([...(edits.get(file) ?? []), keyword.getStart()]));
		}
	for (const [file, starts] of edits) {
		let text = readFileSync(file, 'utf8');
		for (const start of [...starts].sort((a, b) => b - a))
			text = text.slice(0, start) + text.slice(start).replace(/^export\s+/, '');
		writeFileSync(file, text);
	}
	console.log(
		`unused-exports: dropped ${unused.length} export keyword(s); run the build to find dead code`,
	);
	process.exit(0);
}

if (unused.length) {
	console.error(
		`${unused.length} export(s) of nodes/ and credentials/ that no other file uses (drop the \`export\`, or the code):\n${unused.map((u) => `  ${u}`).join('\n')}`,
	);
	process.exit(1);
}
console.log('unused-exports: every export of nodes/ and credentials/ is used by another file');
