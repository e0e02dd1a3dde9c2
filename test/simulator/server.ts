import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A small HTTP server that hosts the service simulators side by side on one loopback port, each under its
 * own prefix (`/partners`, `/receipts`, `/extraction`): the base URL a credential uses is
 * `http://127.0.0.1:<port>/<service>`. It records every request so tests can assert what reached the
 * "service", and it can be told to fail or slow down.
 */

export interface SimRequest {
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
}

export type Handler = (req: SimRequest) => SimResponse | Promise<SimResponse>;

export interface Fault {
	service?: string;
	method?: string;
	/** Matches when the request path starts with this. */
	path?: string;
	status?: number;
	body?: unknown;
	headers?: Record<string, string>;
	/** Drop the connection instead of answering. */
	reset?: boolean;
	/** How many matching requests it affects. */
	times: number;
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
	private readonly tables = new Map<string, RouteTable>();
	private readonly faults: Fault[] = [];
	private server?: Server;
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
		this.server = createServer((req, res) => {
			const chunks: Buffer[] = [];
			req.on('data', (c: Buffer) => chunks.push(c));
			req.on('end', () => {
				void this.handle(req.method ?? 'GET', req.url ?? '/', req.headers, Buffer.concat(chunks)).then(
					(answer) => {
						if (answer === 'reset') {
							req.socket.destroy();
							return;
						}
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
				);
			});
		});
		this.server.keepAliveTimeout = 30000;
		await new Promise<void>((resolve) => this.server!.listen(port, host, resolve));
		this.port = (this.server.address() as AddressInfo).port;
		return this;
	}

	async stop(): Promise<void> {
		if (!this.server) return;
		this.server.closeAllConnections();
		await new Promise<void>((resolve) => this.server!.close(() => resolve()));
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
		this.faults.length = 0;
		this.delayMs = 0;
	}

	/** Makes the next `times` matching requests fail (recorded, but never reach the service's logic). */
	fail(fault: Fault): void {
		this.faults.push({ ...fault });
	}

	private takeFault(req: SimRequest): Fault | undefined {
		const fault = this.faults.find(
			(f) =>
				f.times > 0 &&
				(!f.service || f.service === req.service) &&
				(!f.method || f.method === req.method) &&
				(!f.path || req.path.startsWith(f.path)),
		);
		if (fault) fault.times--;
		return fault;
	}

	private async handle(method: string, url: string, headers: IncomingHttpHeaders, raw: Buffer): Promise<SimResponse | 'reset'> {
		const parsed = new URL(url, 'http://sim');
		const [, prefix, ...rest] = parsed.pathname.split('/');
		const path = `/${rest.join('/')}`;
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
		if (fault) {
			if (fault.reset) return 'reset';
			return { status: fault.status ?? 500, body: fault.body ?? { status: 'error', message: 'Injected failure', code: 'injected' }, headers: fault.headers };
		}
		const table = this.tables.get(prefix);
		const found = table?.match(method, path);
		if (!found) return { status: 404, body: { status: 'error', message: `No route ${method} ${path}`, code: 'route_not_found' } };
		if (found === 'method') return { status: 405, body: { status: 'error', message: `Method ${method} not allowed on ${path}`, code: 'method_not_allowed' } };
		req.params = found.params;
		return await found.handler(req);
	}
}
