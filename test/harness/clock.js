import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { ClientRequest } from 'node:http';
/** @import { IncomingMessage, ServerResponse } from 'node:http' */
/** @import { Socket } from 'node:net' */

/** The real timer, taken before any test fakes the global one: used to wait for the sockets while fake time stands still. */
const realSetTimeout = globalThis.setTimeout;
const realWait = (ms) => new Promise((resolve) => realSetTimeout(resolve, ms));

/**
 * HTTP exchanges of this process that are on the wire: a request the client started that no server has
 * received yet, or an answer a server began that the client has not received yet. Fake time stands still
 * while there is one, so an exchange takes no fake time however loaded the machine is: the time a test
 * measures is the time the code and the simulators asked for (their sleeps, deadlines, a late answer), never
 * the machine's speed. A server still preparing its answer (a late or slow answer, waiting on the fake clock)
 * is not on the wire.
 */
class Wire {
	/** @type {Set<ClientRequest>} */
	requests = new Set();
	/** @type {Map<ServerResponse, IncomingMessage>} */
	preparing = new Map();

	onClientStart = (/** @type {any} */ message) => {
		const request = /** @type {ClientRequest} */ (message.request);
		this.requests.add(request);
		request.once('close', () => this.requests.delete(request));
	};

	onClientDone = (/** @type {any} */ message) => {
		this.requests.delete(message.request);
	};

	onServerStart = (/** @type {any} */ message) => {
		const response = /** @type {ServerResponse} */ (message.response);
		this.preparing.set(response, message.request);
		response.once('close', () => this.preparing.delete(response));
	};

	/**
	 * How many exchanges are on the wire now. A server starts on a request's headers, and its body may still be
	 * on its way (written apart from them, late on a loaded machine; Node publishes the client's start only once
	 * the whole request is written): until the whole request has arrived, the exchange is on the wire, not the
	 * server preparing its answer.
	 */
	busy() {
		let preparing = 0;
		let arriving = 0;
		for (const [response, request] of this.preparing) {
			if (response.headersSent || response.destroyed) this.preparing.delete(response);
			else if (request.complete) preparing++;
			else arriving++;
		}
		return Math.max(0, this.requests.size - preparing) + arriving;
	}

	listen() {
		subscribe('http.client.request.start', this.onClientStart);
		subscribe('http.client.response.finish', this.onClientDone);
		subscribe('http.client.request.error', this.onClientDone);
		subscribe('http.server.request.start', this.onServerStart);
	}

	close() {
		unsubscribe('http.client.request.start', this.onClientStart);
		unsubscribe('http.client.response.finish', this.onClientDone);
		unsubscribe('http.client.request.error', this.onClientDone);
		unsubscribe('http.server.request.start', this.onServerStart);
	}
}

/**
 * The idle timeout of a client request (`request.setTimeout`) on the fake clock. n8n's HTTP helper (axios) arms
 * one with a request's `timeout`, and Node runs it as a socket timer that Jest's fake timers do not replace: it
 * would count real time while the fake clock stands still for an exchange on the wire, so on a loaded machine it
 * cut a request whose answer was on its way after 0 ms of fake time, and the service did the work for nobody.
 * Here it fires after `msecs` of fake time in which no byte arrived on the request's socket, as Node's does in
 * real time; no socket timer of Node's is armed.
 */
class IdleTimeouts {
	original = ClientRequest.prototype.setTimeout;
	/** @type {WeakMap<ClientRequest, () => void>} */
	stops = new WeakMap();

	install() {
		const stops = this.stops;
		ClientRequest.prototype.setTimeout = function (msecs, callback) {
			if (callback) this.once('timeout', callback);
			const previous = stops.get(this);
			if (previous) {
				previous();
				this.removeListener('close', previous);
				stops.delete(this);
			}
			if (!(msecs > 0) || this.destroyed) return this;
			/** @type {Socket | undefined} */
			let socket;
			const timer = setTimeout(() => this.emit('timeout'), msecs);
			const onData = () => timer.refresh();
			const watch = (/** @type {Socket} */ s) => {
				socket = s;
				s.on('data', onData);
			};
			const stop = () => {
				clearTimeout(timer);
				socket?.removeListener('data', onData);
				this.removeListener('socket', watch);
			};
			stops.set(this, stop);
			if (this.socket) watch(this.socket);
			else this.once('socket', watch);
			this.once('close', stop);
			return this;
		};
	}

	restore() {
		ClientRequest.prototype.setTimeout = this.original;
	}
}

/**
 * A fake clock for engine tests where time matters: `setTimeout` and `Date` are Jest's fake timers while `run`
 * executes, and so is the package's one clock (nodes/shared/clock.ts: `Date.now()` and n8n's `sleep`); the clock
 * is moved forward step by step until the run ends, so a test of a 60-second deadline takes milliseconds, and no
 * timed bound depends on the machine's speed: while an HTTP exchange is on the wire (see Wire) the clock stands
 * still and the test waits for the sockets in real time. Sockets, `nextTick` and `setImmediate` stay real: the
 * simulators and n8n's HTTP helper talk over real connections (their idle timers run on this
 * clock too: see IdleTimeouts); the simulators' own timers (a dripping answer, a late one) and their clocks (`at` of each request,
 * job and receipt ages) run on the same fake clock.
 * @template T
 * @param {() => Promise<T>} run
 * @param {{ stepMs?: number; maxMs?: number }} [opts] How far to move the clock at a time, and at most in all.
 * @returns {Promise<{ result: T; elapsedMs: number }>} The run's result and the fake time it took.
 */
export async function withFakeClock(run, { stepMs = 100, maxMs = 30 * 60 * 1000 } = {}) {
	const wire = new Wire();
	wire.listen();
	jest.useFakeTimers({
		doNotFake: ['nextTick', 'setImmediate', 'queueMicrotask', 'hrtime', 'performance'],
	});
	const idle = new IdleTimeouts();
	idle.install();
	const started = Date.now();
	let done = false;
	try {
		const running = run().finally(() => (done = true));
		let heldSince = 0;
		while (!done && Date.now() - started < maxMs) {
			if (wire.busy()) {
				// Real time for the sockets; a socket that never delivers is a broken test, said plainly.
				heldSince ||= performance.now();
				if (performance.now() - heldSince > 20_000)
					throw new Error(
						`an HTTP exchange stayed on the wire for 20 s of real time (${wire.busy()} open)`,
					);
				await realWait(1);
				continue;
			}
			heldSince = 0;
			await jest.advanceTimersByTimeAsync(stepMs);
			// Lets the sockets deliver what the timers just wrote.
			await new Promise((resolve) => setImmediate(resolve));
		}
		if (!done) throw new Error(`the run did not end within ${maxMs} ms of fake time`);
		const result = await running;
		return { result, elapsedMs: Date.now() - started };
	} finally {
		idle.restore();
		jest.useRealTimers();
		wire.close();
	}
}
