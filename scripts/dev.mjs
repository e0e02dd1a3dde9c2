#!/usr/bin/env node
// `npm run dev`: builds the package, starts the simulators of the three services on loopback, and a real n8n
// (pinned, installed into .cache/ on first run) with this package loaded the way users install it (in the user
// folder's .n8n/nodes, laid out by copying the build: a rebuild is a restart of this script, no pack or install),
// credentials pointing at the simulators and the example workflows imported (trigger examples active). Installed,
// every credential's Test button works, as for a user; n8n never offers it to a custom extension
// (N8N_CUSTOM_EXTENSIONS, `n8n-node dev`). Ctrl-C stops everything.
//
//   npm run dev                      # everything; editor at http://127.0.0.1:5678
//   npm run dev -- --no-n8n          # only the simulators, for your own n8n (prints the credential values)
//   npm run dev -- --port 5679 --sim-port 7402
//   npm run dev -- --faults 0.2          # 20 % of the simulators' answers fail the way networks and services do
//                                        # (see test/simulator/server.js, FaultMode); switch them at run time with
//                                        # PUT/DELETE http://127.0.0.1:7401/_control/chaos, list them with GET /_control/faults
//   npm run dev -- --faults 0.2 --modes redirect,drip,oversize,echo-secrets,ignore-page
//                                        # the hostile ones instead (a redirect to another port, one byte every
//                                        # 400 ms, a 300 MB answer, refusals that repeat the secrets they got,
//                                        # pages that never advance); one at a time: POST /_control/fail {mode, times, …}
import { parseArgs } from 'node:util';
import { DEV_OWNER } from './n8n/boot.mjs';
import {
	build,
	fillPlaceholders,
	loadExamples,
	outsideRepoFor,
	ownerApiKey,
	prepareSandbox,
	requireTestModule,
	SANDBOX_ISSUER,
	sandboxCredentials,
	withSandboxCredentials,
} from './n8n/sandbox.mjs';

const { values: args } = parseArgs({
	options: {
		'no-n8n': { type: 'boolean', default: false },
		port: { type: 'string', default: '5678' },
		'sim-port': { type: 'string', default: '7401' },
		faults: { type: 'string' },
		modes: { type: 'string', default: 'reset,throttle,drop-after,error-after,slow' },
		'slow-ms': { type: 'string', default: '61000' },
	},
});

/** `--faults <rate>`: every kind of fault, on every service, with that probability. */
function startFaults(server) {
	if (args.faults === undefined) return '';
	const rate = Number(args.faults);
	if (!(rate > 0 && rate <= 1))
		throw new Error(`--faults takes a rate between 0 and 1, got ${args.faults}`);
	const delayMs = Number(args['slow-ms']);
	const modes = args.modes
		.split(',')
		.map((m) => m.trim())
		.filter(Boolean);
	server.chaos({ rate, modes, retryAfterSeconds: 2, delayMs, seed: Date.now() });
	return `\n  faults (${modes.join(', ')}): ${Math.round(rate * 100)} % of simulator answers fail (slow answers come after ${delayMs} ms: lower a node's Request Timeout to see them sooner); GET ${server.url('_control')}/faults lists them`;
}

async function main() {
	if (args['no-n8n']) {
		build();
		const { startSimulators } = requireTestModule('simulator/main');
		const sim = await startSimulators(Number(args['sim-port']));
		sim.receipts.decideAsDocumented(); // receipts decided 3–5 s after the issue, as the real service documents
		const faults = startFaults(sim.server);
		console.log(
			`\nService simulators on http://127.0.0.1:${sim.server.port} (Ctrl-C to stop)${faults}`,
		);
		console.log(
			'Create these credentials in your n8n:\n' + JSON.stringify(sandboxCredentials(sim), null, 2),
		);
		console.log(
			'Nodes without a credential: set their Options → Service Address to\n' +
				JSON.stringify(sim.addresses, null, 2),
		);
		process.once('SIGINT', () => sim.server.stop().then(() => process.exit(0)));
		return;
	}

	console.log(
		'Building the package and preparing n8n (the first run installs Node 24 and n8n, about 3 GB: 5–7 minutes)…',
	);
	const sandbox = await prepareSandbox({
		// Outside the repository: the installed package must find n8n's n8n-workflow, not this repository's.
		userFolder: outsideRepoFor('dev'),
		simulatorPort: Number(args['sim-port']),
		as: 'installed',
		pack: false,
	});
	sandbox.sim.receipts.autoDeliver = true; // authorized/returned receipts notify the Receipts Trigger by themselves
	sandbox.sim.receipts.decideAsDocumented(); // decided 3–5 s after the issue, as the real service documents
	const faults = startFaults(sandbox.sim.server);
	const examples = loadExamples();
	await sandbox.importWorkflows(
		examples.map((e) =>
			fillPlaceholders(withSandboxCredentials(e.workflow), sandbox.sim, sandbox.opts.userFolder),
		),
	);
	await sandbox.activate(examples.filter((x) => x.trigger).map((e) => e.workflow.id));

	const port = Number(args.port);
	const n8n = await sandbox.start({ port, env: { WEBHOOK_URL: `http://127.0.0.1:${port}/` } });
	await ownerApiKey(n8n.url); // creates the owner account on the first run, so the editor opens with a login

	let stopping = false;
	const stop = async () => {
		if (stopping) return;
		stopping = true;
		console.log('\nStopping n8n and the simulators…');
		await n8n.stop();
		await sandbox.stop();
		process.exit(0);
	};
	process.on('SIGINT', stop);
	process.on('SIGTERM', stop);
	n8n.child.once('exit', () => {
		if (!stopping) {
			console.error('n8n exited. Last log lines:\n' + n8n.logs().slice(-3000));
			void sandbox.stop().then(() => process.exit(1));
		}
	});

	console.log(`
n8n is running: ${n8n.url}
  log in with ${DEV_OWNER.email} / ${DEV_OWNER.password}
  the package is installed as users install it, in ${sandbox.opts.userFolder}/.n8n/nodes (every credential's Test button works)
  credentials: Partners, Receipts and Extraction (staging) point at the simulators on http://127.0.0.1:${sandbox.sim.server.port};
    Receipts issues as ${SANDBOX_ISSUER.issuerLegalName} (RUC ${SANDBOX_ISSUER.issuerRuc}, ${SANDBOX_ISSUER.issuerEstablishment}-${SANDBOX_ISSUER.issuerEmissionPoint}), its receipts decided 3–5 s after the issue
  Read/Write Files From Disk may use only ${sandbox.filesFolder} (N8N_RESTRICT_FILE_ACCESS_TO)
  SRI (Ecuador) and SAT (Mexico) nodes of the examples ask their simulators (Options → Service Address
    ${JSON.stringify(sandbox.sim.addresses)}); an SRI access key's digits 40–47 choose its answer
    (test/simulator/sri.js, SCENARIOS, 10000001 authorized); a key of any other code is unknown to it, as to the SRI
  example workflows: ${examples.map((e) => `${e.workflow.name}${e.trigger ? ' (active)' : ''}`).join('; ')}${faults}
Ctrl-C stops n8n and the simulators.`);
}

await main();
