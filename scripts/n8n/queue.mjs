// What n8n's queue mode needs besides n8n: a PostgreSQL database and a Redis server, both throw-away, on
// loopback, on free ports, started and stopped by the caller (the queue-mode e2e suite). Uses Debian's
// `postgresql` and `redis-server` packages (`.ci/run` installs them when missing).
//
//   const pg = await startPostgres();   // { port, user, password, database, query(sql), json(sql), stop() }
//   const redis = await startRedis();   // { port, stop() }
//   const env = queueEnv({ pg, redis });  // for every n8n process: main, workers, webhook processes, CLI calls
//   ...
//   await redis.stop(); await pg.stop();   // also killed (SIGKILL) if this process exits first
//
// Why it looks like this:
// - initdb refuses to run as root; when we are root the server runs as the `postgres` OS user that Debian's
//   package creates (node's spawn with uid/gid), with its data folder owned by that user.
// - The server runs in the foreground as our child (not `pg_ctl start`, which detaches it), so boot.mjs's process
//   tracking kills it with us; the data folder is a fresh temporary folder, removed on stop.
// - Durability is switched off (fsync, synchronous_commit, full_page_writes): the data is thrown away anyway.
import { execFile, execFileSync } from 'node:child_process';
import {
	chownSync,
	existsSync,
	mkdirSync,
	mkdtempSync,
	readdirSync,
	rmSync,
	writeFileSync,
} from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { freePort, spawnTracked } from './boot.mjs';

const run = promisify(execFile);
const POSTGRES_ROOT = '/usr/lib/postgresql';

const throwAwayDirs = new Set();
process.on('exit', () => {
	for (const dir of throwAwayDirs) rmSync(dir, { recursive: true, force: true });
});

/** The newest `/usr/lib/postgresql/<version>/bin` holding initdb and postgres (Debian's layout). */
export function postgresBinDir() {
	const versions = existsSync(POSTGRES_ROOT)
		? readdirSync(POSTGRES_ROOT)
				.filter((v) => /^\d+$/.test(v))
				.sort((a, b) => Number(b) - Number(a))
		: [];
	for (const v of versions) {
		const bin = join(POSTGRES_ROOT, v, 'bin');
		if (existsSync(join(bin, 'initdb')) && existsSync(join(bin, 'postgres'))) return bin;
	}
	throw new Error(
		`PostgreSQL server binaries not found in ${POSTGRES_ROOT}/<version>/bin: install Debian's postgresql package (apt-get install postgresql)`,
	);
}

/** The OS user the database server runs as: ourselves, or `postgres` when we are root. */
function serverUser() {
	if (process.getuid?.() !== 0) return {};
	try {
		const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
		const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
		return { uid, gid };
	} catch {
		throw new Error(
			"running as root, and there is no `postgres` OS user to run PostgreSQL as (Debian's postgresql package creates it)",
		);
	}
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Collects a child's output (the last 20 000 characters) for error messages. */
function keepLogs(child) {
	let logs = '';
	const keep = (c) => {
		logs = (logs + c).slice(-20_000);
	};
	child.stdout.on('data', keep);
	child.stderr.on('data', keep);
	return () => logs;
}

/** @param {import('node:child_process').ChildProcess} child */
function exitWatch(child) {
	/** @type {{ info: { code: number | null, signal: NodeJS.Signals | null } | null, exited?: Promise<unknown> }} */
	const state = { info: null };
	state.exited = new Promise((r) =>
		child.once('exit', (code, signal) => {
			state.info = { code, signal };
			r(state.info);
		}),
	);
	return state;
}

async function stopChild(child, state, signal, timeoutMs = 15_000) {
	if (state.info) return;
	child.kill(signal);
	const killer = setTimeout(() => {
		try {
			process.kill(-child.pid, 'SIGKILL');
		} catch {
			/* gone */
		}
	}, timeoutMs);
	await state.exited;
	clearTimeout(killer);
}

/**
 * A new PostgreSQL cluster on 127.0.0.1:<free port> with a database `n8n` owned by user `n8n` (password
 * authentication over TCP). Resolves once it accepts connections (~3 s).
 */
export async function startPostgres({ timeoutMs = 60_000 } = {}) {
	const bin = postgresBinDir();
	const owner = serverUser();
	const root = mkdtempSync(join(tmpdir(), 'latam-fiscal-pg-'));
	throwAwayDirs.add(root);
	const data = join(root, 'data');
	mkdirSync(data, { mode: 0o700 });
	const user = 'n8n';
	const password = 'throw-away-queue-e2e';
	const database = 'n8n';
	const pwfile = join(root, 'pwfile');
	writeFileSync(pwfile, `${password}\n`, { mode: 0o600 });
	if (owner.uid !== undefined)
		for (const p of [root, data, pwfile]) chownSync(p, owner.uid, owner.gid);
	const asOwner = { ...owner, cwd: root, env: { ...process.env, LC_ALL: 'C' } };

	await run(
		join(bin, 'initdb'),
		[
			'-D',
			data,
			'-U',
			user,
			`--pwfile=${pwfile}`,
			'--auth-local=trust',
			'--auth-host=scram-sha-256',
			'-E',
			'UTF8',
			'--no-locale',
			'--no-sync',
		],
		asOwner,
	).catch((e) => {
		throw new Error(`initdb failed: ${e.message}\n${e.stdout ?? ''}${e.stderr ?? ''}`);
	});

	const port = await freePort();
	const child = spawnTracked(
		join(bin, 'postgres'),
		[
			'-D',
			data,
			'-p',
			String(port),
			'-c',
			'listen_addresses=127.0.0.1',
			'-c',
			`unix_socket_directories=${root}`,
			'-c',
			'fsync=off',
			'-c',
			'synchronous_commit=off',
			'-c',
			'full_page_writes=off',
			'-c',
			'max_connections=200',
		],
		asOwner,
	);
	const logs = keepLogs(child);
	const state = exitWatch(child);
	const env = { ...process.env, PGPASSWORD: password, PGCONNECT_TIMEOUT: '5' };
	const psql = (db, sql) =>
		run(
			join(bin, 'psql'),
			[
				'-X',
				'-q',
				'-A',
				'-t',
				'-v',
				'ON_ERROR_STOP=1',
				'-h',
				'127.0.0.1',
				'-p',
				String(port),
				'-U',
				user,
				'-d',
				db,
				'-c',
				sql,
			],
			{ env, maxBuffer: 64 * 1024 * 1024 },
		);

	const stop = async () => {
		await stopChild(child, state, 'SIGINT'); // fast shutdown
		rmSync(root, { recursive: true, force: true });
		throwAwayDirs.delete(root);
	};

	const deadline = Date.now() + timeoutMs;
	for (;;) {
		if (state.info)
			throw new Error(`postgres exited (${JSON.stringify(state.info)}). Logs:\n${logs()}`);
		const ok = await psql('postgres', 'select 1').then(
			() => true,
			() => false,
		);
		if (ok) break;
		if (Date.now() > deadline) {
			await stop();
			throw new Error(
				`postgres did not accept connections on 127.0.0.1:${port} within ${timeoutMs} ms. Logs:\n${logs()}`,
			);
		}
		await sleep(200);
	}
	await psql('postgres', `CREATE DATABASE ${database} OWNER ${user}`);

	return {
		port,
		user,
		password,
		database,
		logs,
		/** Runs SQL in the n8n database; resolves with psql's unaligned output. */
		query: async (sql) => (await psql(database, sql)).stdout,
		/** Rows of a SELECT as objects (column names as keys). */
		json: async (sql) =>
			JSON.parse(
				(
					await psql(database, `select coalesce(json_agg(t), '[]'::json) from (${sql}) t`)
				).stdout.trim(),
			),
		stop,
	};
}

/** Sends PING over RESP and resolves true on +PONG. */
function redisPing(port) {
	return new Promise((resolvePing) => {
		const socket = connect({ host: '127.0.0.1', port });
		let answer = '';
		const done = (ok) => {
			socket.destroy();
			resolvePing(ok);
		};
		socket.setTimeout(1000, () => done(false));
		socket.on('error', () => done(false));
		socket.on('connect', () => socket.write('PING\r\n'));
		socket.on('data', (c) => {
			answer += c;
			if (answer.includes('\r\n')) done(answer.startsWith('+PONG'));
		});
	});
}

/** A Redis server on 127.0.0.1:<free port>, memory only (no snapshots, no append-only file). */
export async function startRedis({ timeoutMs = 30_000 } = {}) {
	let server;
	try {
		server = execFileSync('sh', ['-c', 'command -v redis-server'], { encoding: 'utf8' }).trim();
	} catch {
		throw new Error(
			"redis-server not found on PATH: install Debian's redis-server package (apt-get install redis-server)",
		);
	}
	const dir = mkdtempSync(join(tmpdir(), 'latam-fiscal-redis-'));
	throwAwayDirs.add(dir);
	const port = await freePort();
	const child = spawnTracked(
		server,
		[
			'--bind',
			'127.0.0.1',
			'--port',
			String(port),
			'--save',
			'',
			'--appendonly',
			'no',
			'--dir',
			dir,
			'--daemonize',
			'no',
		],
		{ cwd: dir },
	);
	const logs = keepLogs(child);
	const state = exitWatch(child);
	const stop = async () => {
		await stopChild(child, state, 'SIGTERM');
		rmSync(dir, { recursive: true, force: true });
		throwAwayDirs.delete(dir);
	};
	const deadline = Date.now() + timeoutMs;
	while (!(await redisPing(port))) {
		if (state.info)
			throw new Error(`redis-server exited (${JSON.stringify(state.info)}). Logs:\n${logs()}`);
		if (Date.now() > deadline) {
			await stop();
			throw new Error(
				`redis-server did not answer PING on 127.0.0.1:${port} within ${timeoutMs} ms. Logs:\n${logs()}`,
			);
		}
		await sleep(100);
	}
	return { port, logs, stop };
}

/**
 * The environment every n8n process of one queue-mode installation shares (n8n docs, hosting/scaling/queue-mode):
 * queue mode with Redis, PostgreSQL as the database, and manual (editor) runs offloaded to the workers too.
 * boot.mjs gives every process the same N8N_ENCRYPTION_KEY.
 */
export function queueEnv({ pg, redis }) {
	return {
		EXECUTIONS_MODE: 'queue',
		QUEUE_BULL_REDIS_HOST: '127.0.0.1',
		QUEUE_BULL_REDIS_PORT: String(redis.port),
		DB_TYPE: 'postgresdb',
		DB_POSTGRESDB_HOST: '127.0.0.1',
		DB_POSTGRESDB_PORT: String(pg.port),
		DB_POSTGRESDB_DATABASE: pg.database,
		DB_POSTGRESDB_USER: pg.user,
		DB_POSTGRESDB_PASSWORD: pg.password,
		OFFLOAD_MANUAL_EXECUTIONS_TO_WORKERS: 'true',
	};
}
