import { Container } from '@n8n/di';
import { SSHClientsManager } from 'n8n-core/dist/execution-engine/ssh-clients-manager';

/**
 * n8n shuts n8n-core's services down when it stops (its shutdown service); a test file is an n8n that stops when
 * the file ends. n8n-core's SSH clients manager, made with the first node execution context of a file, keeps a
 * 60-second interval and a process exit listener until it is shut down: left running, they hold the file's whole
 * module registry in memory (about 11 MB a file: over 500 MB in each Jest worker by the end of the suite, whose
 * exit then outlasts Jest's 500 ms — "a worker process has failed to exit gracefully"). So every test file that
 * runs n8n-core (every one imports engine.js) shuts it down when it ends. n8n-core 2.41.1: the manager is not exported
 * from the package's index, hence the path.
 */
if (typeof afterAll === 'function') {
	// Jest only: the e2e suites (node:test) load the harness for its helpers and end their processes themselves.
	afterAll(() => {
		Container.get(SSHClientsManager).onShutdown();
	});
}
