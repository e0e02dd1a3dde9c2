import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A small HTTP server that hosts the service simulators side by side on one loopback port, each under its
 * own prefix (`/partners`, `/receipts`, `/extraction`): the base URL a credential uses is
 * `http://127.0.0.1:<port>/<service>`. It records every request so tests can assert what reached the
 * "service", and it injects the faults a network and a real service produce (see `FaultMode`), one by one
 * (`fail`) or at random (`chaos`), so tests, the bench and `npm run dev` can see how the nodes hold.
 */

export interface SimRequest {
	/** Sequence number of the request at this server (1, 2, …). */
	seq: number;
	service: string;
	method: string;
	/** Path below the service prefix, e.g. `/v1/products/abc`. */
	path: string;
	params: Record<string, string>;
	query: Record<string, string>;
	headers: IncomingHttpHeaders;
	raw: Buffer;
	/** Parsed JSON body, or undefined when the body is empty or not JSON. */
	body: unknown;
	/** True when a body was sent but could not be parsed as JSON. */
	badJson: boolean;
	at: number;
}

export interface SimResponse {
	status: number;
	body?: unknown;
	headers?: Record<string, string>;
	/** Raw bytes instead of JSON (downloads). */
	raw?: Buffer;
	/** Answer this many milliseconds late (fault `slow`). */
	lateMs?: number;
}

export type Handler = (req: SimRequest) => SimResponse | Promise<SimResponse>;

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
 */
export type FaultMode = 'reset' | 'throttle' | 'status' | 'drop-after' | 'error-after' | 'slow';

/** Faults after which the service has done the work although the client got no answer. */
export const PROCESSED_FAULTS: readonly FaultMode[] = ['drop-after', 'error-after', 'slow'];

export interface FaultMatch {
	service?: string;
	method?: string;
	/** Matches when the request path starts with this. */
	path?: string;
}

export interface Fault extends FaultMatch {
	/** Default: `status` when a status is given, else `reset` when `reset` is true. */
	mode?: FaultMode;
	status?: number;
	body?: unknown;
	headers?: Record<string, string>;
	/** Same as `mode: 'reset'`. */
	reset?: boolean;
	/** `throttle`: seconds in Retry-After (default 1). */
	retryAfterSeconds?: number;
	/** `slow`: how late the answer comes (default 2000 ms). */
	delayMs?: number;
	/** How many matching requests it affects. */
	times: number;
}

export interface ChaosOptions extends FaultMatch {
	/** Probability that a matching request gets a fault (0..1). */
	rate: number;
	modes: FaultMode[];
	/** Deterministic runs: a seed for the fault choice (default: a fixed seed). */
	seed?: number;
	retryAfterSeconds?: number;
	delayMs?: number;
}

/** A fault the server injected, for the test's accounting. */
export interface InjectedFault {
	request: SimRequest;
	mode: FaultMode;
}

interface Route {
	method: string;
	parts: string[];
	handler: Handler;
}

export interface ServiceSimulator {
	readonly prefix: string;
	register(router: RouteTable): void;
}

export class RouteTable {
	readonly routes: Route[] = [];

	add(method: string, pattern: string, handler: Handler): void {
		this.routes.push({ method, parts: pattern.split('/').filter(Boolean), handler });
	}

	match(method: string, path: string): { handler: Handler; params: Record<string, string> } | 'method' | undefined {
		const parts = path.split('/').filter(Boolean);
		let pathMatched = false;
		for (const route of this.routes) {
			if (route.parts.length !== parts.length) continue;
			const params: Record<string, string> = {};
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
	readonly requests: SimRequest[] = [];
	/** Every fault injected, in order. */
	readonly injected: InjectedFault[] = [];
	private readonly tables = new Map<string, RouteTable>();
	private readonly faults: Fault[] = [];
	private chaosOptions?: ChaosOptions & { next: () => number };
	private seq = 0;
	/** Requests being handled right now, and the most at once since the last `clear()`. */
	inFlight = 0;
	peakInFlight = 0;
	private server?: Server;
	private readonly extraServers: Server[] = [];
	/** Added to every answer, in milliseconds. */
	delayMs = 0;
	port = 0;

	constructor(services: ServiceSimulator[]) {
		for (const service of services) {
			const table = new RouteTable();
			service.register(table);
			this.tables.set(service.prefix, table);
		}
	}

	async start(port = 0, host = '127.0.0.1'): Promise<this> {
		this.server = this.createListener();
		this.server.keepAliveTimeout = 30000;
		await new Promise<void>((resolve) => this.server!.listen(port, host, resolve));
		this.port = (this.server.address() as AddressInfo).port;
		return this;
	}

	/**
	 * Serves the same simulators on another loopback port as well, and returns that origin
	 * (`http://127.0.0.1:<port>`): "another host" for what a real service serves from elsewhere (the receipts
	 * service's printable forms). A request keeps its `host` header, so tests can tell the origins apart.
	 */
	async addOrigin(port = 0): Promise<string> {
		const extra = this.createListener();
		await new Promise<void>((resolve) => extra.listen(port, '127.0.0.1', resolve));
		this.extraServers.push(extra);
		return `http://127.0.0.1:${(extra.address() as AddressInfo).port}`;
	}

	private createListener(): Server {
		return createServer((req, res) => {
			const chunks: Buffer[] = [];
			req.on('data', (c: Buffer) => chunks.push(c));
			req.on('end', () => {
				this.inFlight++;
				this.peakInFlight = Math.max(this.peakInFlight, this.inFlight);
				const answered = this.handle(req.method ?? 'GET', req.url ?? '/', req.headers, Buffer.concat(chunks)).finally(() => this.inFlight--);
				void answered.then(
					async (answer) => {
						if (answer === 'reset') {
							req.socket.destroy();
							return;
						}
						if (answer.lateMs) await new Promise((r) => setTimeout(r, answer.lateMs).unref());
						if (res.destroyed || req.socket.destroyed) return; // the client gave up waiting
						const headers: Record<string, string> = { ...(answer.headers ?? {}) };
						let payload: Buffer | undefined = answer.raw;
						if (!payload && answer.body !== undefined) {
							payload = Buffer.from(JSON.stringify(answer.body));
							headers['content-type'] ??= 'application/json';
						}
						res.writeHead(answer.status, headers);
						res.end(payload);
					},
					(error: Error) => {
						res.writeHead(500, { 'content-type': 'application/json' });
						res.end(JSON.stringify({ status: 'error', message: `simulator bug: ${error.message}`, code: 'simulator' }));
					},
				).catch(() => req.socket.destroy());
			});
		});
	}

	async stop(): Promise<void> {
		for (const server of [...this.extraServers.splice(0), ...(this.server ? [this.server] : [])]) {
			server.closeAllConnections();
			await new Promise<void>((resolve) => server.close(() => resolve()));
		}
		this.server = undefined;
	}

	url(service: string): string {
		return `http://127.0.0.1:${this.port}/${service}`;
	}

	/** Requests that reached a service (optionally one service). */
	received(service?: string): SimRequest[] {
		return service ? this.requests.filter((r) => r.service === service) : this.requests;
	}

	clear(): void {
		this.requests.length = 0;
		this.injected.length = 0;
		this.peakInFlight = 0;
		this.faults.length = 0;
		this.chaosOptions = undefined;
		this.delayMs = 0;
	}

	/** Makes the next `times` matching requests meet `fault` (see FaultMode). */
	fail(fault: Fault): void {
		this.faults.push({ ...fault });
	}

	/** From now on, each matching request meets one of `modes` with probability `rate` (seeded, repeatable). */
	chaos(options: ChaosOptions): void {
		this.chaosOptions = { ...options, next: seededRandom(options.seed ?? 20261122) };
	}

	/** Stops the random faults of `chaos` (queued `fail` faults stay). */
	calm(): void {
		this.chaosOptions = undefined;
	}

	private takeFault(req: SimRequest): Fault | undefined {
		const fault = this.faults.find((f) => f.times > 0 && matches(f, req));
		if (fault) {
			fault.times--;
			return fault;
		}
		const chaos = this.chaosOptions;
		if (chaos && matches(chaos, req) && chaos.modes.length && chaos.next() < chaos.rate) {
			const mode = chaos.modes[Math.floor(chaos.next() * chaos.modes.length)];
			return { mode, times: 1, retryAfterSeconds: chaos.retryAfterSeconds, delayMs: chaos.delayMs };
		}
		return undefined;
	}

	/**
	 * `/_control/chaos`: turns random faults on (PUT, body: ChaosOptions) or off (DELETE) while the server
	 * runs, e.g. in `npm run dev`; `GET /_control/faults` lists what was injected. Never used by the nodes.
	 */
	private control(method: string, path: string, body: unknown): SimResponse {
		if (path === '/chaos' && method === 'PUT') {
			const options = body as ChaosOptions;
			if (!options || typeof options.rate !== 'number' || !Array.isArray(options.modes)) return { status: 400, body: { message: 'PUT a JSON body { rate, modes, retryAfterSeconds?, delayMs?, service?, method?, path? }' } };
			this.chaos(options);
			return { status: 200, body: { chaos: options } };
		}
		if (path === '/chaos' && method === 'DELETE') {
			this.calm();
			return { status: 200, body: { chaos: null } };
		}
		if (path === '/faults' && method === 'GET') {
			const chaos = this.chaosOptions ? Object.fromEntries(Object.entries(this.chaosOptions).filter(([key]) => key !== 'next')) : null;
			return {
				status: 200,
				body: {
					chaos,
					injected: this.injected.map((f) => ({ seq: f.request.seq, at: new Date(f.request.at).toISOString(), service: f.request.service, method: f.request.method, path: f.request.path, mode: f.mode })),
				},
			};
		}
		return { status: 404, body: { message: 'control routes: PUT/DELETE /_control/chaos, GET /_control/faults' } };
	}

	private async handle(method: string, url: string, headers: IncomingHttpHeaders, raw: Buffer): Promise<SimResponse | 'reset'> {
		const parsed = new URL(url, 'http://sim');
		const [, prefix, ...rest] = parsed.pathname.split('/');
		const path = `/${rest.join('/')}`;
		if (prefix === '_control') {
			let body: unknown;
			try {
				body = raw.length ? JSON.parse(raw.toString('utf8')) : undefined;
			} catch {
				return { status: 400, body: { message: 'body is not JSON' } };
			}
			return this.control(method, path, body);
		}
		let body: unknown;
		let badJson = false;
		if (raw.length) {
			try {
				body = JSON.parse(raw.toString('utf8'));
			} catch {
				badJson = true;
			}
		}
		const req: SimRequest = {
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
		};
		this.requests.push(req);
		if (this.delayMs) await new Promise((r) => setTimeout(r, this.delayMs));
		const fault = this.takeFault(req);
		const mode: FaultMode | undefined = fault ? (fault.mode ?? (fault.status !== undefined ? 'status' : fault.reset ? 'reset' : 'status')) : undefined;
		if (fault && mode) this.injected.push({ request: req, mode });
		if (mode === 'reset') return 'reset';
		if (mode === 'throttle') {
			const seconds = fault?.retryAfterSeconds ?? 1;
			return { status: 429, headers: { 'retry-after': String(seconds) }, body: { status: 'error', message: 'Too many requests', code: 'rate_limited' } };
		}
		if (mode === 'status') {
			return { status: fault?.status ?? 500, body: fault?.body ?? { status: 'error', message: 'Injected failure', code: 'injected' }, headers: fault?.headers };
		}
		const answer = await this.route(req, prefix, method, path);
		if (mode === 'drop-after') return 'reset';
		if (mode === 'error-after') return { status: fault?.status ?? 502, body: { status: 'error', message: 'Bad gateway', code: 'injected' } };
		if (mode === 'slow') return { ...answer, lateMs: fault?.delayMs ?? 2000 };
		return answer;
	}

	private async route(req: SimRequest, prefix: string, method: string, path: string): Promise<SimResponse> {
		const table = this.tables.get(prefix);
		const found = table?.match(method, path);
		if (!found) return { status: 404, body: { status: 'error', message: `No route ${method} ${path}`, code: 'route_not_found' } };
		if (found === 'method') return { status: 405, body: { status: 'error', message: `Method ${method} not allowed on ${path}`, code: 'method_not_allowed' } };
		req.params = found.params;
		return await found.handler(req);
	}
}

function matches(m: FaultMatch, req: SimRequest): boolean {
	return (!m.service || m.service === req.service) && (!m.method || m.method === req.method) && (!m.path || req.path.startsWith(m.path));
}

/** mulberry32: a small seeded generator, so a chaos run can be repeated exactly. */
function seededRandom(seed: number): () => number {
	let a = seed >>> 0;
	return () => {
		a = (a + 0x6d2b79f5) >>> 0;
		let t = a;
		t = Math.imul(t ^ (t >>> 15), t | 1);
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	};
}
