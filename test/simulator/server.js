import { createServer } from 'node:http';
import { performance } from 'node:perf_hooks';
import { spellingsOf } from './spellings';
/** @import { IncomingHttpHeaders, Server } from 'node:http' */
/** @import { AddressInfo } from 'node:net' */

/**
 * A small HTTP server that hosts the service simulators side by side on one loopback port, each under its
 * own prefix (`/partners`, `/receipts`, `/extraction`): the base URL a credential uses is
 * `http://127.0.0.1:<port>/<service>`. It records every request so tests can assert what reached the
 * "service", and it injects the faults a network and a real service produce (see `FaultMode`), one by one
 * (`fail`) or at random (`chaos`), so tests, the bench and `npm run dev` can see how the nodes hold. Besides
 * those faults it plays a hostile network and service: a redirect to another origin (a second port of this
 * server, `addOrigin`), an answer dripped one byte at a time, an oversized answer, a refusal that echoes the
 * request's secrets, pages that never advance.
 * @typedef {object} SimRequest
 * @property {number} seq Sequence number of the request at this server (1, 2, …).
 * @property {string} service
 * @property {string} method
 * @property {string} path Path below the service prefix, e.g. `/v1/products/abc`.
 * @property {Record<string, string>} params
 * @property {Record<string, string>} query
 * @property {IncomingHttpHeaders} headers
 * @property {Buffer} raw
 * @property {unknown} body Parsed JSON body, or undefined when the body is empty or not JSON.
 * @property {boolean} badJson True when a body was sent but could not be parsed as JSON.
 * @property {number} at
 * @property {string} origin The origin (`http://127.0.0.1:<port>`) of the listener that received it.
 */

/**
 * @typedef {object} SimResponse
 * @property {number} status
 * @property {unknown} [body]
 * @property {Record<string, string>} [headers]
 * @property {Buffer} [raw] Raw bytes instead of JSON (downloads).
 * @property {number} [lateMs] Answer this many milliseconds late (fault `slow`).
 * @property {number} [dripMs] Send the answer one byte every this many milliseconds (fault `drip`).
 * @property {{ bytes: number; head: Buffer; declareLength: boolean }} [stream] Stream an answer of this many bytes (fault `oversize`).
 * @property {number} [seq] The request it answers (for the accounting of drips and streams).
 */

/**
 * How far a dripped or streamed answer got before it ended: the client closing the connection early is what
 * a deadline or a size cap looks like from the service's side.
 * @typedef {object} Delivery
 * @property {number} seq
 * @property {'drip' | 'oversize'} mode
 * @property {number} total Bytes the answer would have had.
 * @property {number} sent Bytes written before it ended.
 * @property {boolean} closedEarly The client closed the connection before the answer was complete.
 * @property {number} at When it started.
 * @property {number} [endedAt]
 */

/**
 * @typedef {(req: SimRequest) => SimResponse | Promise<SimResponse>} Handler
 */

/**
 * What can go wrong between a client and a service, and when. Only `reset` and `throttle` (and `status`,
 * an answer that refuses without processing) leave the service untouched; the others happen after the
 * service did the work, so the client cannot know whether it was done:
 * - `reset`: the connection is reset before the service processes the request;
 * - `throttle`: 429 with `Retry-After` (rate limited: not processed);
 * - `status`: the given status and body, not processed (e.g. a 503 from a gateway in front of the service);
 * - `drop-after`: the service processes the request, then the connection drops before the answer;
 * - `error-after`: the service processes the request, then a 5xx replaces its answer;
 * - `slow`: the service processes the request and answers after `delayMs` (later than the client waits).
 * The hostile ones:
 * - `redirect`: answers `status` (default 307) with a Location on another origin (`to`, default the first
 *   `addOrigin`), same path and query; the service does nothing;
 * - `drip`: the service processes the request, then its answer is sent one byte every `intervalMs` (default
 *   400 ms): a client whose timeout is an idle timer never stops waiting;
 * - `oversize`: the service processes the request, then an answer of `bytes` bytes (default 300 MB) is streamed
 *   instead of its own (`as`: `json`, the default, or `pdf`), with a Content-Length unless `declareLength` is
 *   false; never held in memory;
 * - `echo-secrets`: a refusal (`status`, default 401) whose body repeats every credential header and every
 *   text of the request body in every spelling of ./spellings.js, as values and as keys, and as a validation
 *   error listing the headers' values (`as: 'text'`: an HTML page instead of JSON);
 * - `ignore-page`: the service answers as if no `page` were asked (always the first page);
 * - `repeat-page`: the service answers the first page's items but claims the page asked (`currentPage`).
 */

/**
 * @typedef {'reset' | 'throttle' | 'status' | 'drop-after' | 'error-after' | 'slow' | 'redirect' | 'drip' | 'oversize' | 'echo-secrets' | 'ignore-page' | 'repeat-page'} FaultMode
 */

/**
 * Faults after which the service has done the work although the client got no answer.
 * @type {readonly FaultMode[]}
 */
export const PROCESSED_FAULTS = ['drop-after', 'error-after', 'slow'];

/**
 * @typedef {object} FaultMatch
 * @property {string} [service]
 * @property {string} [method]
 * @property {string} [path] Matches when the request path starts with this.
 */

/**
 * @typedef {object} FaultFields
 * @property {FaultMode} [mode] Default: `status` when a status is given, else `reset` when `reset` is true.
 * @property {number} [status]
 * @property {unknown} [body]
 * @property {string} [raw] `status`: this text as the body instead of JSON (an HTML page, say).
 * @property {Record<string, string>} [headers]
 * @property {boolean} [reset] Same as `mode: 'reset'`.
 * @property {number} [retryAfterSeconds] `throttle`: seconds in Retry-After (default 1).
 * @property {number} [delayMs] `slow`: how late the answer comes (default 2000 ms).
 * @property {string} [to] `redirect`: the origin redirected to (default: the first `addOrigin`).
 * @property {string} [location] `redirect`: the exact Location instead.
 * @property {number} [intervalMs] `drip`: milliseconds between two bytes (default 400).
 * @property {number} [bytes] `oversize`: size of the answer (default 300 MB).
 * @property {boolean} [declareLength] `oversize`: send a Content-Length (default true).
 * @property {'json' | 'pdf' | 'text'} [as] `oversize`: what the answer looks like; `echo-secrets`: `text` for an HTML page.
 * @property {number} times How many matching requests it affects.
 * @property {number} [skip] How many matching requests pass untouched before it starts (default 0).
 */

/** @typedef {FaultMatch & FaultFields} Fault */

/**
 * @typedef {object} ChaosOptionsFields
 * @property {number} rate Probability that a matching request gets a fault (0..1).
 * @property {FaultMode[]} modes
 * @property {number} [seed] Deterministic runs: a seed for the fault choice (default: a fixed seed).
 * @property {number} [retryAfterSeconds]
 * @property {number} [delayMs]
 * @property {number} [intervalMs]
 * @property {number} [bytes]
 * @property {string} [to]
 */

/** @typedef {FaultMatch & ChaosOptionsFields} ChaosOptions */

/**
 * A fault the server injected, for the test's accounting.
 * @typedef {object} InjectedFault
 * @property {SimRequest} request
 * @property {FaultMode} mode
 */

/**
 * @typedef {object} Route
 * @property {string} method
 * @property {string[]} parts
 * @property {Handler} handler
 */

/**
 * @typedef {object} ServiceSimulator
 * @property {string} prefix
 * @property {(router: RouteTable) => void} register
 */

export class RouteTable {
	/** @type {Route[]} */
	routes = [];

	add(method, pattern, handler) {
		this.routes.push({ method, parts: pattern.split('/').filter(Boolean), handler });
	}

	/** @returns {{ handler: Handler; params: Record<string, string> } | 'method' | undefined} */
	match(method, path) {
		const parts = path.split('/').filter(Boolean);
		let pathMatched = false;
		for (const route of this.routes) {
			if (route.parts.length !== parts.length) continue;
			/** @type {Record<string, string>} */
			const params = {};
			const ok = route.parts.every((p, i) => {
				if (p.startsWith(':')) {
					params[p.slice(1)] = decodeURIComponent(parts[i]);
					return true;
				}
				return p === parts[i];
			});
			if (!ok) continue;
			pathMatched = true;
			if (route.method === method) return { handler: route.handler, params };
		}
		return pathMatched ? 'method' : undefined;
	}
}

export class SimulatorServer {
	/** @type {SimRequest[]} */
	requests = [];
	/**
	 * Every fault injected, in order.
	 * @type {InjectedFault[]}
	 */
	injected = [];
	tables = /** @type {Map<string, RouteTable>} */ (new Map());
	/** @type {Fault[]} */
	faults = [];
	/** @type {ChaosOptions & { next: () => number } | undefined} */
	chaosOptions;
	seq = 0;
	/** Requests being handled right now, and the most at once since the last `clear()`. */
	inFlight = 0;
	peakInFlight = 0;
	/** @type {Server | undefined} */
	server;
	/** @type {Server[]} */
	extraServers = [];
	/**
	 * Every answer leaves this many milliseconds after its request arrived (0: as soon as it is ready). The
	 * simulator's own work is counted in it, as a real service's latency counts the service's: a service that answers
	 * in 20 ms answers 20 ms after the question, not 20 ms plus whatever its simulator spent on it.
	 */
	delayMs = 0;
	port = 0;
	/**
	 * Origins of the other ports (`addOrigin`), in order.
	 * @type {string[]}
	 */
	origins = [];
	/**
	 * Every dripped or oversized answer, and how far it got.
	 * @type {Delivery[]}
	 */
	deliveries = [];
	/**
	 * Settles when each of `deliveries` has ended (the connection closed or the answer was complete).
	 * @type {Promise<void>[]}
	 */
	deliveryEnds = [];

	constructor(services) {
		for (const service of services) {
			const table = new RouteTable();
			service.register(table);
			this.tables.set(service.prefix, table);
		}
	}

	/** @returns {Promise<this>} */
	async start(port = 0, host = '127.0.0.1') {
		this.server = this.createListener();
		this.server.keepAliveTimeout = 30000;
		await /** @type {Promise<void>} */ (
			new Promise((resolve) =>
				/** @type {NonNullable<typeof this.server>} */ (this.server).listen(port, host, resolve),
			)
		);
		this.port = /** @type {AddressInfo} */ (this.server.address()).port;
		return this;
	}

	/**
	 * Serves the same simulators on another loopback port as well, and returns that origin
	 * (`http://127.0.0.1:<port>`): "another host" for what a real service serves from elsewhere (the receipts
	 * service's printable forms). A request keeps its `host` header, so tests can tell the origins apart.
	 * @returns {Promise<string>}
	 */
	async addOrigin(port = 0) {
		const extra = this.createListener();
		await /** @type {Promise<void>} */ (
			new Promise((resolve) => extra.listen(port, '127.0.0.1', resolve))
		);
		this.extraServers.push(extra);
		const origin = `http://127.0.0.1:${/** @type {AddressInfo} */ (extra.address()).port}`;
		this.origins.push(origin);
		return origin;
	}

	/**
	 * Requests that arrived at `origin` (one of `addOrigin`'s), optionally of one service.
	 * @returns {SimRequest[]}
	 */
	receivedAt(origin, service) {
		return this.received(service).filter((r) => r.origin === origin);
	}

	/** @returns {Server} */
	createListener() {
		return createServer((req, res) => {
			const arrivedAt = performance.now();
			/** @type {Buffer[]} */
			const chunks = [];
			req.on('data', (c) => chunks.push(c));
			req.on('end', () => {
				this.inFlight++;
				this.peakInFlight = Math.max(this.peakInFlight, this.inFlight);
				const origin = `http://127.0.0.1:${req.socket.localPort}`;
				const answered = this.handle(
					req.method ?? 'GET',
					req.url ?? '/',
					req.headers,
					Buffer.concat(chunks),
					origin,
					arrivedAt,
				).finally(() => this.inFlight--);
				void answered
					.then(
						async (answer) => {
							if (answer === 'reset') {
								req.socket.destroy();
								return;
							}
							if (answer.lateMs) await new Promise((r) => setTimeout(r, answer.lateMs).unref());
							if (res.destroyed || req.socket.destroyed) return; // the client gave up waiting
							/** @type {Record<string, string>} */
							const headers = { ...(answer.headers ?? {}) };
							/** @type {Buffer | undefined} */
							let payload = answer.raw;
							if (!payload && answer.body !== undefined) {
								payload = Buffer.from(JSON.stringify(answer.body));
								headers['content-type'] ??= 'application/json';
							}
							if (answer.dripMs) return this.drip(res, answer, headers, payload ?? Buffer.alloc(0));
							if (answer.stream) return this.stream(res, answer, headers);
							res.writeHead(answer.status, headers);
							res.end(payload);
						},
						(error) => {
							res.writeHead(500, { 'content-type': 'application/json' });
							res.end(
								JSON.stringify({
									status: 'error',
									message: `simulator bug: ${error.message}`,
									code: 'simulator',
								}),
							);
						},
					)
					.catch(() => req.socket.destroy());
			});
		});
	}

	/**
	 * Records `delivery` and how it ends: `closedEarly` when the connection closes before every byte was written.
	 * @param {import('node:http').ServerResponse} res
	 * @param {Delivery} delivery
	 */
	track(res, delivery) {
		this.deliveries.push(delivery);
		this.deliveryEnds.push(
			new Promise((resolve) =>
				res.on('close', () => {
					delivery.closedEarly = delivery.sent < delivery.total;
					delivery.endedAt ??= Date.now();
					resolve();
				}),
			),
		);
	}

	/**
	 * Resolves once every dripped or oversized answer so far has ended; their `closedEarly` is then final.
	 * @returns {Promise<Delivery[]>}
	 */
	async delivered() {
		await Promise.all(this.deliveryEnds);
		return this.deliveries;
	}

	/**
	 * Sends `payload` one byte every `answer.dripMs` milliseconds, stopping when the client closes.
	 * @param {import('node:http').ServerResponse} res
	 * @param {SimResponse} answer
	 * @param {Record<string, string>} headers
	 * @param {Buffer} payload
	 */
	drip(res, answer, headers, payload) {
		/** @type {Delivery} */
		const delivery = {
			seq: answer.seq ?? 0,
			mode: 'drip',
			total: payload.length,
			sent: 0,
			closedEarly: false,
			at: Date.now(),
		};
		this.track(res, delivery);
		res.writeHead(answer.status, headers); // no Content-Length: chunked, as a streaming service sends it
		const next = () => {
			if (res.destroyed) return;
			if (delivery.sent >= payload.length) {
				delivery.endedAt = Date.now();
				res.end();
				return;
			}
			res.write(payload.subarray(delivery.sent, delivery.sent + 1));
			delivery.sent++;
			setTimeout(next, answer.dripMs).unref();
		};
		next();
	}

	/**
	 * Streams an answer of `answer.stream.bytes` bytes (its head, then filler), honouring back-pressure and
	 * stopping when the client closes: never held in memory.
	 * @param {import('node:http').ServerResponse} res
	 * @param {SimResponse} answer
	 * @param {Record<string, string>} headers
	 */
	stream(res, answer, headers) {
		const spec = /** @type {NonNullable<SimResponse['stream']>} */ (answer.stream);
		/** @type {Delivery} */
		const delivery = {
			seq: answer.seq ?? 0,
			mode: 'oversize',
			total: spec.bytes,
			sent: 0,
			closedEarly: false,
			at: Date.now(),
		};
		this.track(res, delivery);
		res.writeHead(answer.status, {
			...headers,
			...(spec.declareLength ? { 'content-length': String(spec.bytes) } : {}),
		});
		const filler = Buffer.alloc(64 * 1024, 0x20);
		const pump = () => {
			while (!res.destroyed && delivery.sent < spec.bytes) {
				const chunk = delivery.sent === 0 ? spec.head : filler;
				const part = chunk.subarray(0, Math.min(chunk.length, spec.bytes - delivery.sent));
				delivery.sent += part.length;
				if (!res.write(part)) return void res.once('drain', pump);
			}
			if (!res.destroyed) {
				delivery.endedAt = Date.now();
				res.end();
			}
		};
		pump();
	}

	async stop() {
		for (const server of [...this.extraServers.splice(0), ...(this.server ? [this.server] : [])]) {
			server.closeAllConnections();
			await /** @type {Promise<void>} */ (new Promise((resolve) => server.close(() => resolve())));
		}
		this.server = undefined;
	}

	/** @returns {string} */
	url(service) {
		return `http://127.0.0.1:${this.port}/${service}`;
	}

	/**
	 * Requests that reached a service (optionally one service).
	 * @returns {SimRequest[]}
	 */
	received(service) {
		return service ? this.requests.filter((r) => r.service === service) : this.requests;
	}

	clear() {
		this.requests.length = 0;
		this.injected.length = 0;
		this.peakInFlight = 0;
		this.faults.length = 0;
		this.chaosOptions = undefined;
		this.delayMs = 0;
		this.deliveries.length = 0;
		this.deliveryEnds.length = 0;
	}

	/** Makes the next `times` matching requests meet `fault` (see FaultMode). */
	fail(fault) {
		this.faults.push({ ...fault });
	}

	/** From now on, each matching request meets one of `modes` with probability `rate` (seeded, repeatable). */
	chaos(options) {
		this.chaosOptions = { ...options, next: seededRandom(options.seed ?? 20261122) };
	}

	/** Stops the random faults of `chaos` (queued `fail` faults stay). */
	calm() {
		this.chaosOptions = undefined;
	}

	/** @returns {Fault | undefined} */
	takeFault(req) {
		const fault = this.faults.find((f) => f.times > 0 && matches(f, req));
		if (fault?.skip) {
			fault.skip--;
		} else if (fault) {
			fault.times--;
			return fault;
		}
		const chaos = this.chaosOptions;
		if (chaos && matches(chaos, req) && chaos.modes.length && chaos.next() < chaos.rate) {
			const mode = chaos.modes[Math.floor(chaos.next() * chaos.modes.length)];
			return {
				mode,
				times: 1,
				retryAfterSeconds: chaos.retryAfterSeconds,
				delayMs: chaos.delayMs,
				intervalMs: chaos.intervalMs,
				bytes: chaos.bytes,
				to: chaos.to,
			};
		}
		return undefined;
	}

	/**
	 * `/_control/chaos`: turns random faults on (PUT, body: ChaosOptions) or off (DELETE) while the server
	 * runs, e.g. in `npm run dev`; `POST /_control/fail` (body: Fault) queues one fault, hostile ones included;
	 * `GET /_control/faults` lists what was injected. Never used by the nodes.
	 * @returns {SimResponse}
	 */
	control(method, path, body) {
		if (path === '/fail' && method === 'POST') {
			const fault = /** @type {Fault} */ (body);
			if (!fault || typeof fault.mode !== 'string' || typeof fault.times !== 'number')
				return {
					status: 400,
					body: {
						message:
							'POST a JSON body { mode, times, service?, method?, path?, status?, to?, intervalMs?, bytes?, declareLength?, as? }',
					},
				};
			this.fail(fault);
			return { status: 200, body: { queued: fault } };
		}
		if (path === '/chaos' && method === 'PUT') {
			const options = /** @type {ChaosOptions} */ (body);
			if (!options || typeof options.rate !== 'number' || !Array.isArray(options.modes))
				return {
					status: 400,
					body: {
						message:
							'PUT a JSON body { rate, modes, retryAfterSeconds?, delayMs?, service?, method?, path? }',
					},
				};
			this.chaos(options);
			return { status: 200, body: { chaos: options } };
		}
		if (path === '/chaos' && method === 'DELETE') {
			this.calm();
			return { status: 200, body: { chaos: null } };
		}
		if (path === '/faults' && method === 'GET') {
			const chaos = this.chaosOptions
				? Object.fromEntries(Object.entries(this.chaosOptions).filter(([key]) => key !== 'next'))
				: null;
			return {
				status: 200,
				body: {
					chaos,
					injected: this.injected.map((f) => ({
						seq: f.request.seq,
						at: new Date(f.request.at).toISOString(),
						service: f.request.service,
						method: f.request.method,
						path: f.request.path,
						mode: f.mode,
					})),
				},
			};
		}
		return {
			status: 404,
			body: { message: 'control routes: PUT/DELETE /_control/chaos, GET /_control/faults' },
		};
	}

	/**
	 * The answer to a request that arrived at `arrivedAt` (performance.now()), once `delayMs` have passed since.
	 * @returns {Promise<SimResponse | 'reset'>}
	 */
	async handle(
		method,
		url,
		headers,
		raw,
		origin = `http://127.0.0.1:${this.port}`,
		arrivedAt = performance.now(),
	) {
		const answer = await this.answer(method, url, headers, raw, origin);
		const left = arrivedAt + this.delayMs - performance.now();
		// The control paths are the test's, not the service's: never late.
		if (left > 0 && !url.startsWith('/_control/')) await new Promise((r) => setTimeout(r, left));
		return answer;
	}

	/** @returns {Promise<SimResponse | 'reset'>} */
	async answer(method, url, headers, raw, origin) {
		const parsed = new URL(url, 'http://sim');
		const [, prefix, ...rest] = parsed.pathname.split('/');
		const path = `/${rest.join('/')}`;
		if (prefix === '_control') {
			/** @type {unknown} */
			let body;
			try {
				body = raw.length ? JSON.parse(raw.toString('utf8')) : undefined;
			} catch {
				return { status: 400, body: { message: 'body is not JSON' } };
			}
			return this.control(method, path, body);
		}
		/** @type {unknown} */
		let body;
		let badJson = false;
		if (raw.length) {
			try {
				body = JSON.parse(raw.toString('utf8'));
			} catch {
				badJson = true;
			}
		}
		/** @type {SimRequest} */
		const req = {
			seq: ++this.seq,
			service: prefix,
			method,
			path,
			params: {},
			query: Object.fromEntries(parsed.searchParams),
			headers,
			raw,
			body,
			badJson,
			at: Date.now(),
			origin,
		};
		this.requests.push(req);
		const fault = this.takeFault(req);
		/** @type {FaultMode | undefined} */
		const mode = fault
			? (fault.mode ?? (fault.status !== undefined ? 'status' : fault.reset ? 'reset' : 'status'))
			: undefined;
		if (fault && mode) this.injected.push({ request: req, mode });
		if (mode === 'reset') return 'reset';
		if (mode === 'throttle') {
			const seconds = fault?.retryAfterSeconds ?? 1;
			return {
				status: 429,
				headers: { 'retry-after': String(seconds) },
				body: { status: 'error', message: 'Too many requests', code: 'rate_limited' },
			};
		}
		if (mode === 'status') {
			if (fault?.raw !== undefined)
				return { status: fault.status ?? 500, raw: Buffer.from(fault.raw), headers: fault.headers };
			return {
				status: fault?.status ?? 500,
				body: fault?.body ?? { status: 'error', message: 'Injected failure', code: 'injected' },
				headers: fault?.headers,
			};
		}
		if (mode === 'redirect') {
			const to = fault?.to ?? this.origins[0];
			if (!fault?.location && !to)
				throw new Error('redirect: no other origin (call addOrigin first, or give `to`)');
			return {
				status: fault?.status ?? 307,
				headers: { location: fault?.location ?? `${to}${url}` },
				body: { status: 'error', message: 'Moved', code: 'redirect' },
			};
		}
		if (mode === 'echo-secrets')
			return echoSecrets(req, fault?.status ?? 401, fault?.as === 'text');
		if (mode === 'ignore-page' || mode === 'repeat-page') {
			// The service ignores the page asked and answers its first; `repeat-page` also claims the page asked.
			const asked = req.query.page;
			req.query = { ...req.query };
			delete req.query.page;
			const answer = await this.route(req, prefix, method, path);
			if (mode === 'repeat-page' && asked !== undefined) claimPage(answer.body, Number(asked));
			return answer;
		}
		const answer = await this.route(req, prefix, method, path);
		if (mode === 'drop-after') return 'reset';
		if (mode === 'error-after')
			return {
				status: fault?.status ?? 502,
				body: { status: 'error', message: 'Bad gateway', code: 'injected' },
			};
		if (mode === 'slow') return { ...answer, lateMs: fault?.delayMs ?? 2000 };
		if (mode === 'drip') return { ...answer, seq: req.seq, dripMs: fault?.intervalMs ?? 400 };
		if (mode === 'oversize') {
			const as = fault?.as ?? 'json';
			const head = Buffer.from(
				as === 'pdf' ? '%PDF-1.4\n' : as === 'text' ? '<!DOCTYPE html><html><body>' : '{"data":"',
			);
			const type =
				as === 'pdf' ? 'application/pdf' : as === 'text' ? 'text/html' : 'application/json';
			return {
				status: answer.status,
				seq: req.seq,
				headers: { 'content-type': type },
				stream: {
					bytes: fault?.bytes ?? 300 * 1024 * 1024,
					head,
					declareLength: fault?.declareLength ?? true,
				},
			};
		}
		return answer;
	}

	/** @returns {Promise<SimResponse>} */
	async route(req, prefix, method, path) {
		const table = this.tables.get(prefix);
		const found = table?.match(method, path);
		if (!found)
			return {
				status: 404,
				body: { status: 'error', message: `No route ${method} ${path}`, code: 'route_not_found' },
			};
		if (found === 'method')
			return {
				status: 405,
				body: {
					status: 'error',
					message: `Method ${method} not allowed on ${path}`,
					code: 'method_not_allowed',
				},
			};
		req.params = found.params;
		return await found.handler(req);
	}
}

/** Request headers that carry credentials, in the spellings of the three services. */
const CREDENTIAL_HEADERS = ['x-key', 'x-password', 'authorization', 'x-api-key'];

/**
 * Every secret-looking value a request carried: its credential headers (a bearer token without its scheme
 * too) and every text in its body.
 * @returns {string[]}
 */
export function carriedValues(req) {
	/** @type {string[]} */
	const values = [];
	for (const name of CREDENTIAL_HEADERS) {
		const value = req.headers[name];
		if (typeof value === 'string' && value) values.push(value, value.replace(/^Bearer\s+/i, ''));
	}
	const walk = (v) => {
		if (typeof v === 'string' && v) values.push(v);
		else if (Array.isArray(v)) v.forEach(walk);
		else if (v && typeof v === 'object') Object.values(v).forEach(walk);
	};
	walk(req.body);
	return [...new Set(values)];
}

/**
 * A refusal that repeats what the request carried, in every spelling services write (./spellings.js: raw,
 * JSON-escaped the ways JavaScript, PHP, Python, Go and .NET write it, URL- and form-encoded in either case of
 * hex, HTML references named, decimal and hex, base64 of the value and of a Basic-like `user:value`), also as
 * object keys, and as a validation error that lists each credential header with its value.
 * @returns {SimResponse}
 */
function echoSecrets(req, status, asText) {
	const values = carriedValues(req);
	const spelled = values.map(spellingsOf);
	if (asText) {
		const lines = spelled.flatMap((forms) => Object.entries(forms).map(([k, v]) => `${k}: ${v}`));
		return {
			status,
			headers: { 'content-type': 'text/html' },
			raw: Buffer.from(
				`<html><body>Refused: ${values.join(' ')}<br>${lines.join('<br>')}<br>retry at /login?next=${values.map(encodeURIComponent).join('&')}</body></html>`,
			),
		};
	}
	return {
		status,
		body: {
			status: 'error',
			message: `Refused: ${values.join(' ')}`,
			error: 'invalid_client',
			error_description: `Client credentials {"sent":"${spelled.map((f) => f.json).join(' ')}"} not accepted`,
			detail: `see /login?next=${spelled.map((f) => f.url).join('&')}`,
			code: 'echo',
			// every spelling of every value, and each value as a key
			spellings: spelled,
			received: Object.fromEntries(values.map((v) => [v, 'refused'])),
			// a validation error listing the headers it checked, with their values
			errors: CREDENTIAL_HEADERS.filter((name) => typeof req.headers[name] === 'string').map(
				(name) => ({
					loc: ['header', name],
					input: req.headers[name],
					msg: `Value error, ${name}: ${spellingsOf(String(req.headers[name])).python} is not a valid key`,
				}),
			),
		},
	};
}

/** Makes a page answer claim to be page `page` (`currentPage`, wherever the answer keeps its pagination). */
function claimPage(body, page) {
	if (!body || typeof body !== 'object') return;
	const b = /** @type {Record<string, any>} */ (body);
	for (const pagination of [b.data?.pagination, b.pagination]) {
		if (pagination && typeof pagination === 'object') pagination.currentPage = page;
	}
}

/** @returns {boolean} */
function matches(m, req) {
	return (
		(!m.service || m.service === req.service) &&
		(!m.method || m.method === req.method) &&
		(!m.path || req.path.startsWith(m.path))
	);
}

/**
 * mulberry32: a small seeded generator, so a chaos run can be repeated exactly.
 * @returns {() => number}
 */
export function seededRandom(seed) {
	let a = seed >>> 0;
	return () => {
		a = (a + 0x6d2b79f5) >>> 0;
		let t = a;
		t = Math.imul(t ^ (t >>> 15), t | 1);
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	};
}
