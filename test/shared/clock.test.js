import { createServer, get } from 'node:http';
import { connect, createServer as createTcpServer } from 'node:net';
/** @import { AddressInfo, Server as TcpServer } from 'node:net' */
/** @import { Server } from 'node:http' */
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
	server = createServer((_req, res) => {
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

test('a server that answers late on the clock is waited for in fake time, and the deadline passes first when it should', async () => {
	lateMs = 60_000;
	const slow = await withFakeClock(() => requestWithin(5000));
	expect(slow.result).toBe('deadline');
	expect(slow.elapsedMs).toBeGreaterThanOrEqual(5000);
	const inTime = await withFakeClock(() => requestWithin(120_000));
	expect(inTime.result).toBe('answer');
	expect(inTime.elapsedMs).toBeGreaterThanOrEqual(60_000);
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
