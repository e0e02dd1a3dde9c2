import { readdirSync, readFileSync } from 'node:fs';
import { createServer, get, request } from 'node:http';
import { connect, createServer as createTcpServer } from 'node:net';
import { join } from 'node:path';
/** @import { AddressInfo, Server as TcpServer } from 'node:net' */
/** @import { Server } from 'node:http' */
import { clock } from '../../nodes/shared/clock';
import { withFakeClock } from '../harness/clock';

/**
 * The fake clock of the engine tests (test/harness/clock.js) measures the code's time, not the machine's: bytes
 * that take real time to travel (a loaded machine) take no fake time, so a fake deadline cannot pass while an
 * answer is on its way; and a server that answers late on the fake clock is waited for in fake time. A request's
 * idle timeout (`request.setTimeout`, which n8n's HTTP helper arms with a request's `timeout`) runs on the same
 * fake clock.
 */

const realSetTimeout = globalThis.setTimeout;

/** @type {Server} */
let server;
/** @type {TcpServer} */
let wire;
let url = '';
let slowUrl = '';
/** How late the server answers, on the (fake) clock. */
let lateMs = 0;
/** The server sends its answer one byte every this many milliseconds of the (fake) clock (0: at once). */
let dripMs = 0;
/** How late the slow wire delivers each chunk, in real time. */
let wireDelayMs = 300;

const listen = async (/** @type {Server | TcpServer} */ s) => {
	await /** @type {Promise<void>} */ (new Promise((resolve) => s.listen(0, '127.0.0.1', resolve)));
	return /** @type {AddressInfo} */ (s.address()).port;
};

beforeAll(async () => {
	server = createServer((req, res) => {
		// A POST is answered once its whole body has arrived.
		if (req.method === 'POST') return void req.resume().on('end', () => res.end('answer'));
		if (dripMs) {
			const bytes = [...'answer'];
			res.write(/** @type {string} */ (bytes.shift()));
			const timer = setInterval(() => {
				if (bytes.length) res.write(/** @type {string} */ (bytes.shift()));
				else {
					clearInterval(timer);
					res.end();
				}
			}, dripMs);
		} else if (lateMs) setTimeout(() => res.end('answer'), lateMs);
		else res.end('answer');
	});
	const port = await listen(server);
	url = `http://127.0.0.1:${port}/`;
	// A slow wire in front of it: every chunk, either way, `wireDelayMs` of real time late.
	wire = createTcpServer((socket) => {
		const upstream = connect(port, '127.0.0.1');
		const late = (/** @type {() => void} */ deliver) => realSetTimeout(deliver, wireDelayMs);
		socket.on('data', (chunk) => late(() => upstream.write(chunk)));
		upstream.on('data', (chunk) => late(() => socket.write(chunk)));
		// A close travels as late as the bytes before it.
		socket.on('close', () => late(() => upstream.destroy()));
		upstream.on('close', () => late(() => socket.end()));
	});
	slowUrl = `http://127.0.0.1:${await listen(wire)}/`;
});
afterAll(async () => {
	await new Promise((resolve) => wire.close(resolve));
	// The late answer of the second test was due on a fake clock that is gone: its connection is still open.
	server.closeAllConnections();
	await new Promise((resolve) => server.close(resolve));
});

/** A request raced against a deadline on the (fake) clock, as the package's client does. */
const requestWithin = (deadlineMs, address = url) =>
	new Promise((resolve) => {
		const timer = setTimeout(() => resolve('deadline'), deadlineMs);
		get(address, { agent: false }, (res) => {
			let body = '';
			res.on('data', (chunk) => (body += chunk));
			res.on('end', () => {
				clearTimeout(timer);
				resolve(body);
			});
		}).on('error', () => resolve('no answer'));
	});

/** A request with an idle timeout, as n8n's HTTP helper sends one with a `timeout`. */
const requestIdle = (idleMs, address = url) =>
	new Promise((resolve) => {
		const request = get(address, { agent: false }, (res) => {
			let body = '';
			res.on('data', (chunk) => (body += chunk));
			res.on('end', () => resolve(body));
		});
		request.setTimeout(idleMs, () => {
			request.destroy();
			resolve('idle timeout');
		});
		request.on('error', () => resolve('no answer'));
	});

beforeEach(() => {
	lateMs = 0;
	dripMs = 0;
	wireDelayMs = 300;
});

test('a request and its answer that each take 300 ms of real time on the wire take no fake time: a 5 s fake deadline does not pass', async () => {
	lateMs = 0;
	const { result, elapsedMs } = await withFakeClock(() => requestWithin(5000, slowUrl));
	expect(result).toBe('answer');
	expect(elapsedMs).toBeLessThan(5000);
});

test('an idle timer of the HTTP client (real time) does not cut an exchange that takes no fake time', async () => {
	lateMs = 0;
	const { result } = await withFakeClock(
		() =>
			new Promise((resolve) => {
				const req = get(slowUrl, { agent: false }, (res) => {
					let body = '';
					res.on('data', (chunk) => (body += chunk));
					res.on('end', () => resolve(body));
				}).on('error', (error) => resolve(error.message));
				// As n8n's helper sets its `timeout` (axios: ClientRequest#setTimeout); the wire takes 600 ms and more.
				req.setTimeout(200, () => req.destroy(new Error('cut by the idle timer')));
			}),
	);
	expect(result).toBe('answer');
});

test('a request body that arrives 300 ms of real time after its headers takes no fake time: the server has not begun to answer', async () => {
	lateMs = 0;
	const { result, elapsedMs } = await withFakeClock(
		() =>
			new Promise((resolve) => {
				const timer = setTimeout(() => resolve('deadline'), 5000);
				const req = request(url, { method: 'POST', agent: false }, (res) => {
					let body = '';
					res.on('data', (chunk) => (body += chunk));
					res.on('end', () => {
						clearTimeout(timer);
						resolve(body);
					});
				}).on('error', () => resolve('no answer'));
				req.flushHeaders();
				realSetTimeout(() => req.end('body'), 300);
			}),
	);
	expect(result).toBe('answer');
	expect(elapsedMs).toBeLessThan(5000);
});

test('a server that answers late on the clock is waited for in fake time, and the deadline passes first when it should', async () => {
	lateMs = 60_000;
	const slow = await withFakeClock(() => requestWithin(5000));
	expect(slow.result).toBe('deadline');
	expect(slow.elapsedMs).toBeGreaterThanOrEqual(5000);
	const inTime = await withFakeClock(() => requestWithin(120_000));
	expect(inTime.result).toBe('answer');
	expect(inTime.elapsedMs).toBeGreaterThanOrEqual(60_000);
});

describe("the package's one clock (nodes/shared/clock.ts)", () => {
	/** Every TypeScript file of the shipped code, with its path from the repository's root. */
	const shipped = () => {
		const root = join(__dirname, '..', '..');
		return ['nodes', 'credentials'].flatMap((dir) =>
			readdirSync(join(root, dir), { recursive: true, encoding: 'utf8' })
				.filter((file) => file.endsWith('.ts'))
				.map((file) => ({
					path: `${dir}/${file}`,
					text: readFileSync(join(root, dir, file), 'utf8'),
				})),
		);
	};

	test('is the only source of time of the shipped code: no other file reads the clock or sleeps', () => {
		const readsTime = [
			/\bDate\.now\(/,
			/new Date\(\s*\)/,
			/\bperformance\.now\(/,
			/\bsetTimeout\(/,
			/\bsetInterval\(/,
			/import\s*{[^}]*\bsleep(WithAbort)?\b[^}]*}\s*from\s*'n8n-workflow'/,
		];
		const files = shipped();
		expect(files.length).toBeGreaterThan(50);
		const offenders = files
			.filter((file) => file.path !== 'nodes/shared/clock.ts')
			.flatMap((file) =>
				readsTime.filter((rule) => rule.test(file.text)).map((rule) => `${file.path}: ${rule}`),
			);
		expect(offenders).toEqual([]);
	});

	test('the fake clock of the tests drives it: its time, its sleeps, and a sleep cut by its signal leaves no timer', async () => {
		const { result } = await withFakeClock(async () => {
			const start = clock.now();
			expect(start).toBe(Date.now());
			await clock.sleep(90_000);
			const slept = clock.now() - start;
			const stop = new AbortController();
			const cut = clock.sleep(3_600_000, stop.signal).then(
				() => 'slept',
				() => 'cut',
			);
			const timers = jest.getTimerCount();
			stop.abort();
			return { slept, cut: await cut, timers, left: jest.getTimerCount() };
		});
		expect(result.slept).toBeGreaterThanOrEqual(90_000);
		expect(result.cut).toBe('cut');
		expect(result.left).toBe(result.timers - 1);
	});

	test("on n8n 1.x, whose sleep ignores a signal, it takes n8n's sleepWithAbort for a sleep that can be cut", async () => {
		const calls = /** @type {string[]} */ ([]);
		/** @type {import('../../nodes/shared/clock').Clock | undefined} */
		let oneX;
		jest.isolateModules(() => {
			jest.doMock('n8n-workflow', () => ({
				sleep: async () => void calls.push('sleep'),
				sleepWithAbort: async () => void calls.push('sleepWithAbort'),
			}));
			oneX = require('../../nodes/shared/clock').clock;
		});
		jest.dontMock('n8n-workflow');
		await oneX?.sleep(1);
		await oneX?.sleep(1, new AbortController().signal);
		expect(calls).toEqual(['sleep', 'sleepWithAbort']);
	});
});

test('a request idle timeout counts fake time, not real time: an answer 1.4 s of real time away arrives within an idle timeout of 1 s', async () => {
	wireDelayMs = 700;
	const { result, elapsedMs } = await withFakeClock(() => requestIdle(1000, slowUrl));
	expect(result).toBe('answer');
	expect(elapsedMs).toBeLessThan(1000);
});

test('a request idle timeout fires after that much fake time without a byte, and every byte restarts it', async () => {
	lateMs = 60_000;
	const silent = await withFakeClock(() => requestIdle(5000));
	expect(silent.result).toBe('idle timeout');
	expect(silent.elapsedMs).toBeGreaterThanOrEqual(5000);
	expect(silent.elapsedMs).toBeLessThan(60_000);
	// One byte every 400 ms for 2.4 s: never 1 s without a byte.
	lateMs = 0;
	dripMs = 400;
	const dripped = await withFakeClock(() => requestIdle(1000));
	expect(dripped.result).toBe('answer');
	expect(dripped.elapsedMs).toBeGreaterThanOrEqual(2000);
});
