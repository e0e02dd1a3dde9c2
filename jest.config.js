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
	// Why: a worker's heap ends a run at 600-900 MB (each test file loads n8n-core afresh in its own module
	// registry; after a GC only 100-170 MB are live, the rest is garbage V8 has not collected yet), and Node then
	// takes about 500 ms to tear such a heap down after its last 'exit' listener (measured: the process was gone
	// 430-530 ms after Jest's end message) — longer than the 500 ms Jest waits before it kills the worker and prints
	// "A worker process has failed to exit gracefully". No handle was open (--detectOpenHandles finds none). Jest
	// replaces a worker whose heap passes this limit after a test file, so every worker ends small (gone in about
	// 60 ms).
	workerIdleMemoryLimit: '256MB',
	setupFiles: ['<rootDir>/test/harness/jest.setup.js'],
};
