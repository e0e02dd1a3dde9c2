/** Tests run the built package (dist/) through n8n-core's engine; ts-jest only transpiles the test files
 *  (type-checking is done once by `npm run typecheck`, which keeps each test file fast). */
module.exports = {
	testEnvironment: 'node',
	roots: ['<rootDir>/test'],
	testMatch: ['**/*.test.ts'],
	transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.test.json' }] },
	testTimeout: 30000,
	maxWorkers: 2,
	setupFiles: ['<rootDir>/test/harness/jest.setup.ts'],
};
