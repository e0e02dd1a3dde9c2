// Lint for the code that never ships: tests, simulators, the test harness, scripts and benchmarks. It is all
// JavaScript that runs on a developer's machine or in CI (Node's network, files, timers and process are fine
// here), so ESLint's recommended rules for Node apply, not the rules for community nodes. The shipped
// TypeScript (nodes/, credentials/) is linted by `n8n-node lint` with n8n's own configuration
// (eslint.config.mjs, kept exactly as n8n's template).
import js from '@eslint/js';
import globals from 'globals';

export default [
	{
		ignores: ['dist/**', '.build/**', '.cache/**', '.n8n-dev/**', 'node_modules/**', 'coverage/**'],
	},
	js.configs.recommended,
	{
		files: ['**/*.{js,mjs}'],
		languageOptions: {
			ecmaVersion: 2024,
			sourceType: 'module',
			globals: { ...globals.node },
		},
		rules: {
			'no-unused-vars': ['error', { argsIgnorePattern: '^_', caughtErrors: 'none' }],
		},
	},
	{ files: ['test/**/*.js'], languageOptions: { globals: { ...globals.jest } } },
	// CommonJS files read by tools (gulp, jest) and the benchmark's test-only trigger and caller.
	{
		files: [
			'gulpfile.js',
			'jest.config.js',
			'bench/trivial-trigger/**/*.js',
			'bench/trivial-caller/**/*.js',
		],
		languageOptions: { sourceType: 'commonjs' },
	},
];
