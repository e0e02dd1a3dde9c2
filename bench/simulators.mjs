// The service simulators for the benchmarks, in a process of their own, as a real service is: the bench's own
// work (spawning n8n, reading its output, sampling memory) then neither delays the simulators' answers nor takes
// their CPU, and the simulators' work never counts against the bench. The bench drives them through IPC:
//
//   const sim = await startSimulatorProcess();     // { credentials, addresses, port, get, set, call, stats, stop }
//   await sim.call('partners.seedProducts', 50, 'Bench');   // a method of the simulators of test/simulator/main.js
//   await sim.set('receipts.decideAfterMs', 10_000);        // a field
//   const issued = await sim.get('partners.tokensIssued');  // a value (structured clone: Maps, Buffers survive)
//   const stats = await sim.stats();  // counters (CPU time, connections, requests, bytes in and out) and how late its
//                                     // event loop ran since the last stats(): SimulatorStats below
//   await sim.stop();
//
// `node bench/simulators.mjs [port]` is the same as `node <test build>/test/simulator/main.js [port]` (the
// simulators alone, for your own n8n). Paths name fields below the object startSimulators returns
// (`server`, `partners`, `receipts`, `extraction`, `sri`, `sat`).
import { fork } from 'node:child_process';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { requireTestModule } from '../scripts/n8n/sandbox.mjs';

const SELF = fileURLToPath(import.meta.url);

/** The object a dotted path's last name belongs to, and that name. */
function locate(root, path) {
	const names = path.split('.');
	const key = /** @type {string} */ (names.pop());
	let owner = root;
	for (const name of names) {
		owner = owner?.[name];
		if (owner === undefined || owner === null) throw new Error(`no ${path} in the simulators`);
	}
	return { owner, key };
}

/**
 * Starts the simulators in a child process (Node `execPath`, this one's by default) on `port` (0: a free one).
 * @param {{ port?: number, execPath?: string }} [options]
 */
export async function startSimulatorProcess({ port = 0, execPath = process.execPath } = {}) {
	const child = fork(SELF, ['--child', String(port)], {
		execPath,
		serialization: 'advanced',
		stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
	});
	let nextId = 0;
	/** @type {Map<number, { resolve: (v: any) => void, reject: (e: Error) => void }>} */
	const pending = new Map();
	const ready = new Promise((resolve, reject) => {
		child.once('error', reject);
		child.once('exit', (code) => {
			const error = new Error(`the simulator process exited (${code})`);
			reject(error);
			for (const p of pending.values()) p.reject(error);
			pending.clear();
		});
		child.on('message', (/** @type {any} */ m) => {
			if (m.ready) return resolve(m.ready);
			const p = pending.get(m.id);
			if (!p) return;
			pending.delete(m.id);
			if (m.error) p.reject(new Error(`simulators: ${m.error}`));
			else p.resolve(m.result);
		});
	});
	/** @type {{ port: number, pid: number, credentials: Record<string, any>, addresses: Record<string, string> }} */
	const started = /** @type {any} */ (await ready);
	/** @returns {Promise<any>} */
	const ask = (message) =>
		new Promise((resolve, reject) => {
			const id = ++nextId;
			pending.set(id, { resolve, reject });
			child.send({ ...message, id });
		});
	return {
		...started,
		/** @param {string} path */
		get: (path) => ask({ op: 'get', path }),
		/** @param {string} path @param {unknown} value */
		set: (path, value) => ask({ op: 'set', path, value }),
		/** @param {string} path @param {...unknown} args */
		call: (path, ...args) => ask({ op: 'call', path, args }),
		/** @returns {Promise<SimulatorStats>} */
		stats: () => ask({ op: 'stats' }),
		stop: async () => {
			if (child.exitCode !== null) return;
			const exited = new Promise((resolve) => child.once('exit', resolve));
			child.kill('SIGTERM');
			await exited;
		},
	};
}

/** @typedef {Awaited<ReturnType<typeof startSimulatorProcess>>} SimulatorProcess */
/**
 * What the simulator process has done so far (counters), and how late its event loop ran since the last call.
 * @typedef {object} SimulatorStats
 * @property {number} cpuMs CPU time of the process.
 * @property {number} connections TCP connections accepted.
 * @property {number} requests HTTP requests received.
 * @property {number} bytesIn Bytes received (requests: headers and bodies).
 * @property {number} bytesOut Bytes sent (answers: headers and bodies).
 * @property {number} lagP99Ms 99th percentile of the event loop's delay.
 * @property {number} lagMaxMs Its largest delay.
 */

async function serve(port, ipc) {
	const { startSimulators } = requireTestModule('simulator/main');
	const sim = await startSimulators(port);
	let connections = 0;
	let requests = 0;
	// Bytes read and written on every connection: closed ones summed, open ones counted as far as they got.
	const closed = { bytesIn: 0, bytesOut: 0 };
	/** @type {Set<import('node:net').Socket>} */
	const open = new Set();
	// How late the simulators' event loop ran (a busy or starved process answers late), since the last stats().
	const lag = monitorEventLoopDelay({ resolution: 5 });
	lag.enable();
	for (const listener of [sim.server.server, ...sim.server.extraServers]) {
		listener?.on('connection', (socket) => {
			connections++;
			open.add(socket);
			socket.once('close', () => {
				closed.bytesIn += socket.bytesRead;
				closed.bytesOut += socket.bytesWritten;
				open.delete(socket);
			});
		});
		listener?.on('request', () => requests++);
	}
	if (!ipc) {
		console.log(`Service simulators on http://127.0.0.1:${sim.server.port}`);
		console.log(
			JSON.stringify({ credentials: sim.credentials, addresses: sim.addresses }, null, 2),
		);
		return;
	}
	process.on('message', async (/** @type {any} */ m) => {
		try {
			let result;
			if (m.op === 'stats') {
				const cpu = process.cpuUsage();
				const live = [...open];
				result = {
					cpuMs: (cpu.user + cpu.system) / 1000,
					connections,
					requests,
					bytesIn: live.reduce((n, socket) => n + socket.bytesRead, closed.bytesIn),
					bytesOut: live.reduce((n, socket) => n + socket.bytesWritten, closed.bytesOut),
					lagP99Ms: lag.percentile(99) / 1e6,
					lagMaxMs: lag.max / 1e6,
				};
				lag.reset();
			} else {
				const { owner, key } = locate(sim, m.path);
				if (m.op === 'get') result = owner[key];
				else if (m.op === 'set') owner[key] = m.value;
				else if (m.op === 'call') result = await owner[key](...m.args);
				else throw new Error(`unknown operation ${m.op}`);
			}
			process.send?.({ id: m.id, result });
		} catch (error) {
			process.send?.({ id: m.id, error: error instanceof Error ? error.message : String(error) });
		}
	});
	process.once('SIGTERM', () => void sim.server.stop().then(() => process.exit(0)));
	process.once('disconnect', () => process.exit(0)); // the bench is gone
	process.send?.({
		ready: {
			port: sim.server.port,
			pid: process.pid,
			credentials: sim.credentials,
			addresses: sim.addresses,
		},
	});
}

if (process.argv[1] === SELF) {
	const child = process.argv[2] === '--child';
	await serve(Number(process.argv[child ? 3 : 2] ?? (child ? 0 : 7401)), child);
}
