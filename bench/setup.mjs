// The ground every section of the bench stands on: a sandbox n8n user folder (scripts/n8n/sandbox.mjs) whose
// credentials point at the service simulators running in a process of their own (./simulators.mjs), plus a Header
// Auth credential holding a Partners bearer token, for n8n's HTTP Request node.
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CREDENTIAL_IDS, prepareSandbox, userFolderFor } from '../scripts/n8n/sandbox.mjs';
import { startSimulatorProcess } from './simulators.mjs';

/** The Header Auth credential of the HTTP Request node's cases. */
export const HEADER_AUTH = Object.freeze({ id: 'benchHeaderAuth', name: 'Bench header auth' });

/**
 * A fresh user folder `name` (built package, credentials imported), the simulator process, and the bearer token
 * the Header Auth credential holds. Stop the simulator process (`sim.stop()`) when done.
 * @param {string} name
 */
export async function benchSandbox(name) {
	const userFolder = userFolderFor(name);
	rmSync(userFolder, { recursive: true, force: true });
	const sb = await prepareSandbox({ userFolder, quiet: true });
	// prepareSandbox starts the simulators in this process, as the e2e suites need them. The bench measures against
	// simulators in a process of their own (BENCHMARKS.md, "Method", says why): those in this process are stopped,
	// and every credential is imported again with the values of the simulator process.
	await sb.sim.server.stop();
	const sim = await startSimulatorProcess();
	const partners = sim.credentials.partnersApi;
	const answer = /** @type {{ access_token: string }} */ (
		await (
			await fetch(`${partners.baseUrl}/v1/auth/token`, {
				method: 'POST',
				headers: { 'content-type': 'application/json', 'F-Sandbox-Mode': 'true' },
				body: JSON.stringify({
					grant_type: 'client_credentials',
					client_id: partners.clientId,
					client_secret: partners.clientSecret,
				}),
			})
		).json()
	);
	const token = answer.access_token;
	const file = join(userFolder, 'bench-credentials.json');
	writeFileSync(
		file,
		JSON.stringify([
			...Object.entries(sim.credentials).map(([type, data]) => ({
				...CREDENTIAL_IDS[type],
				type,
				data,
			})),
			{
				...HEADER_AUTH,
				type: 'httpHeaderAuth',
				data: { name: 'Authorization', value: `Bearer ${token}` },
			},
		]),
	);
	await sb.cli(['import:credentials', `--input=${file}`], { check: true });
	return { sb, sim, token };
}

/**
 * Runs one section of BENCHMARKS.md alone (`node bench/<section>.mjs`): a fresh sandbox `name`, the section given
 * its sandbox, simulators, a log on stderr and BENCH_RUNS runs (3 by default); its markdown printed.
 * @param {string} name
 * @param {(o: { sb: any, sim: any, log: (m: string) => void, runs: number }) => Promise<string>} section
 */
export async function runSectionAlone(name, section) {
	const { sb, sim } = await benchSandbox(name);
	try {
		process.stdout.write(
			await section({
				sb,
				sim,
				log: (m) => process.stderr.write(`[bench] ${m}\n`),
				runs: Number(process.env.BENCH_RUNS ?? 3),
			}),
		);
	} finally {
		await sim.stop();
	}
}
