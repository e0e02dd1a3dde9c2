/** Tests run the built package (dist/) through n8n-core's engine. They are JavaScript (ES module syntax) and
 *  ts-jest turns them, and the few TypeScript domain modules they import from nodes/, into CommonJS for Jest
 *  (transpile only; `npm run typecheck` checks types once for the whole suite). */
module.exports = {
	testEnvironment: 'node',
	roots: ['<rootDir>/test'],
	testMatch: ['**/*.test.js'],
	transform: { '^.+\\.[jt]s$': ['ts-jest', { tsconfig: 'tsconfig.test.json' }] },
	testTimeout: 30000,
	maxWorkers: 2,
	setupFiles: ['<rootDir>/test/harness/jest.setup.js'],
};
