// Lint: the community-nodes rules n8n's own scanner enforces, on the shipped code (nodes/, credentials/,
// package.json), plus n8n-nodes-base's node/credential rules as `n8n-node lint` applies them.
// Tests, the simulator and scripts run on a developer machine, not inside n8n, so they get TypeScript's
// recommended rules only (they may use process, timers and Node's http module).
import tseslint from 'typescript-eslint';
import { n8nCommunityNodesPlugin } from '@n8n/eslint-plugin-community-nodes';
import n8nNodesBase from 'eslint-plugin-n8n-nodes-base';

const shipped = ['nodes/**/*.ts', 'credentials/**/*.ts'];

export default tseslint.config(
	{ ignores: ['dist/**', '.build/**', '.cache/**', '.n8n-dev/**', 'node_modules/**', 'coverage/**', '**/*.js', '**/*.mjs'] },
	...tseslint.configs.recommended.map((c) => ({ ...c, files: ['**/*.ts'] })),
	{
		files: ['**/*.ts'],
		rules: {
			'@typescript-eslint/no-explicit-any': 'error',
			'@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
		},
	},
	{ ...n8nCommunityNodesPlugin.configs.recommended, files: [...shipped, 'package.json'] },
	{ plugins: { 'n8n-nodes-base': n8nNodesBase } },
	{ files: ['package.json'], languageOptions: { parser: tseslint.parser }, rules: { ...n8nNodesBase.configs.community.rules } },
	{
		files: ['credentials/**/*.ts'],
		rules: {
			...n8nNodesBase.configs.credentials.rules,
			'n8n-nodes-base/cred-class-field-documentation-url-miscased': 'off',
			'n8n-nodes-base/cred-class-field-type-options-password-missing': 'off',
		},
	},
	{
		files: ['nodes/**/*.ts'],
		rules: {
			...n8nNodesBase.configs.nodes.rules,
			'n8n-nodes-base/node-class-description-inputs-wrong-regular-node': 'off',
			'n8n-nodes-base/node-class-description-outputs-wrong': 'off',
			'n8n-nodes-base/node-param-type-options-max-value-present': 'off',
		},
	},
	{ files: shipped, rules: { 'no-console': 'error' } },
);
