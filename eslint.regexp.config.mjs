// Regular expressions of the shipped code (nodes/, credentials/ and the built dist/) that could take more than
// linear time on a hostile input: a service's error page, an XML from a stranger, a value an AI agent typed.
// n8n's strict lint (eslint.config.mjs, n8n's template, run by `n8n-node lint`) stays as it is; this second run
// adds eslint-plugin-regexp's two rules for super-linear patterns, at error, and nothing else.
import { config as n8nConfig } from '@n8n/node-cli/eslint';
import regexp from 'eslint-plugin-regexp';

// The TypeScript parser n8n's own configuration uses, so both runs read the sources alike.
const typescript = n8nConfig.find(
	(entry) => entry.languageOptions?.parser && entry.files?.includes('**/*.ts'),
);
const parser = typescript?.languageOptions?.parser;
if (!parser) throw new Error("n8n's ESLint configuration no longer names a TypeScript parser");

const rules = {
	'regexp/no-super-linear-move': 'error',
	'regexp/no-super-linear-backtracking': 'error',
};

export default [
	{ ignores: ['node_modules/**', 'test/**', 'scripts/**', 'bench/**'] },
	{
		files: ['nodes/**/*.ts', 'credentials/**/*.ts'],
		languageOptions: { parser, sourceType: 'module' },
		plugins: { regexp },
		rules,
	},
	{
		files: ['dist/**/*.js'],
		languageOptions: { ecmaVersion: 2024, sourceType: 'commonjs' },
		plugins: { regexp },
		rules,
	},
];
