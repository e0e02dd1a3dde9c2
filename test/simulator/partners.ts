import { createHmac, randomUUID } from 'node:crypto';
import type { RouteTable, ServiceSimulator, SimRequest, SimResponse } from './server';

/**
 * Stateful simulator of the Partners service (the Mexican partners service's specification): token endpoint,
 * products (plans) with pagination and search, clients, subscriptions. Error bodies follow the spec's
 * shapes: Error {status, message, code}, ValidationError {status, message, errors, code},
 * token failure {error, error_description}.
 */

export interface Vigency {
	uuid: string;
	folios: number;
	price: string;
	expiration_period: string;
}

export interface Product {
	uuid: string;
	name: string;
	services: Record<string, unknown>;
	sales: number;
	expiration_type: number;
	status: string;
	vigencies: Vigency[];
	pdf_templates: string[];
}

export interface Client {
	uuid: string;
	status: string;
	client: Record<string, unknown>;
	tax_information: Record<string, unknown>;
	product: { uuid: string; vigency_uuid: string };
	suspension?: { message?: string; keep_folios?: boolean };
	credentials_sent: number;
	/** Suspension messages delivered to this client (the spec: "the optional message is delivered to the client"). */
	messages_delivered?: string[];
}

export interface Subscription {
	uuid: string;
	name: string;
	start_date: string;
	end_date: string;
	folios: number;
	status: string;
	client: { uuid: string; name: string; email: string; status: string };
	product: { uuid: string; name: string; status: string };
	vigency: string;
	folios_used: number;
}

const VIGENCIES = ['Mensual', 'Trimestral', 'Semestral', 'Anual', 'SP'];
const MONTHS: Record<string, number> = { Mensual: 1, Trimestral: 3, Semestral: 6, Anual: 12, SP: 1200 };

const unauthenticated: SimResponse = { status: 401, body: { status: 'error', message: 'Unauthenticated.', code: 'unauthenticated' } };
const notFound = (what: string, uuid: string): SimResponse => ({
	status: 404,
	body: { status: 'error', message: `${what} ${uuid} not found`, code: 'not_found' },
});
const invalid = (errors: Record<string, string[]>): SimResponse => ({
	status: 422,
	body: { status: 'error', message: 'The given data was invalid.', errors, code: 'validation_error' },
});
const ok = (data: unknown): SimResponse => ({ status: 200, body: { response: 'success', data } });

export class PartnersSimulator implements ServiceSimulator {
	readonly prefix = 'partners';
	clientId = 'partner-id';
	clientSecret = 'partner-secret';
	perPage = 15;
	tokenLifetimeSeconds = 3600;
	readonly products = new Map<string, Product>();
	readonly clients = new Map<string, Client>();
	readonly subscriptions = new Map<string, Subscription>();
	private readonly validTokens = new Map<string, number>();
	/** Requests each token has served. */
	private readonly tokenUses = new Map<string, number>();
	/** When set, a token stops working after it has served this many requests (a token expiring mid-run, again and again). */
	tokenMaxUses: number | undefined = undefined;
	private readonly signingKey = randomUUID();
	tokensIssued = 0;

	private expireCountdown?: number;

	/** Revokes every token issued so far: the next call with one gets 401. */
	expireTokens(): void {
		this.validTokens.clear();
	}

	/** Revokes every token once `n` more authenticated requests have been answered (a token expiring mid-run). */
	expireTokensAfter(n: number): void {
		this.expireCountdown = n;
	}

	/** Forgets the data (plans, clients, subscriptions); issued tokens stay valid. */
	reset(): void {
		this.products.clear();
		this.clients.clear();
		this.subscriptions.clear();
		this.tokensIssued = 0;
		this.tokenMaxUses = undefined;
	}

	/** Adds `count` plans directly (for pagination and benchmarks). */
	seedProducts(count: number, namePrefix = 'Plan'): Product[] {
		const created: Product[] = [];
		for (let i = 1; i <= count; i++) {
			created.push(this.createProduct({ name: `${namePrefix} ${i}`, services: { api: true }, vigencies: [{ folios: 100 * i, vigency: 'Mensual', price: 99 }] }));
		}
		return created;
	}

	createProduct(input: { name: string; services: Record<string, unknown>; vigencies: Array<{ folios: number; vigency: string; price: number }> }): Product {
		const product: Product = {
			uuid: randomUUID(),
			name: input.name,
			services: input.services,
			sales: 0,
			expiration_type: 1,
			status: 'active',
			vigencies: input.vigencies.map((v) => ({ uuid: randomUUID(), folios: v.folios, price: Number(v.price).toFixed(2), expiration_period: v.vigency })),
			pdf_templates: Array.isArray(input.services?.pdf_templates) ? (input.services.pdf_templates as string[]) : [],
		};
		this.products.set(product.uuid, product);
		return product;
	}

	private issueToken(): { token: string; expiresIn: number } {
		const enc = (o: unknown) => Buffer.from(JSON.stringify(o)).toString('base64url');
		const exp = Math.floor(Date.now() / 1000) + this.tokenLifetimeSeconds;
		const head = `${enc({ alg: 'HS256', typ: 'JWT' })}.${enc({ sub: this.clientId, exp, jti: randomUUID() })}`;
		const token = `${head}.${createHmac('sha256', this.signingKey).update(head).digest('base64url')}`;
		this.validTokens.set(token, exp * 1000);
		this.tokensIssued++;
		return { token, expiresIn: this.tokenLifetimeSeconds };
	}

	private authorized(req: SimRequest): boolean {
		const header = String(req.headers.authorization ?? '');
		const match = /^Bearer (.+)$/.exec(header);
		const expires = match ? this.validTokens.get(match[1]) : undefined;
		const uses = match ? (this.tokenUses.get(match[1]) ?? 0) : 0;
		const ok = expires !== undefined && expires > Date.now() && (this.tokenMaxUses === undefined || uses < this.tokenMaxUses);
		if (ok && match) this.tokenUses.set(match[1], uses + 1);
		if (ok && this.expireCountdown !== undefined && --this.expireCountdown <= 0) {
			this.expireCountdown = undefined;
			this.validTokens.clear();
		}
		return ok;
	}

	register(r: RouteTable): void {
		const guarded = (handler: (req: SimRequest) => SimResponse) => (req: SimRequest) => (this.authorized(req) ? handler(req) : unauthenticated);

		r.add('POST', '/v1/auth/token', (req) => {
			const b = (req.body ?? {}) as Record<string, unknown>;
			if (b.grant_type !== 'client_credentials') {
				return { status: 401, body: { error: 'unsupported_grant_type', error_description: 'grant_type must be client_credentials' } };
			}
			if (b.client_id !== this.clientId || b.client_secret !== this.clientSecret) {
				return { status: 401, body: { error: 'invalid_client', error_description: 'Client authentication failed' } };
			}
			const { token, expiresIn } = this.issueToken();
			return { status: 200, body: { token_type: 'Bearer', expires_in: expiresIn, access_token: token } };
		});

		r.add('GET', '/v1/products', guarded((req) => {
			const search = (req.query.search ?? '').toLowerCase();
			const all = [...this.products.values()].filter((p) => !search || p.name.toLowerCase().includes(search));
			const page = Math.max(1, Number(req.query.page ?? 1) || 1);
			const lastPage = Math.max(1, Math.ceil(all.length / this.perPage));
			const products = all.slice((page - 1) * this.perPage, page * this.perPage);
			return ok({ products, pagination: { currentPage: page, lastPage, perPage: this.perPage, total: all.length } });
		}));

		r.add('POST', '/v1/products', guarded((req) => {
			const errors = validateProduct(req.body);
			if (Object.keys(errors).length) return invalid(errors);
			return ok(this.createProduct(req.body as Parameters<PartnersSimulator['createProduct']>[0]));
		}));

		r.add('DELETE', '/v1/products', guarded((req) => {
			const uuids = (req.body as { uuids?: unknown })?.uuids;
			if (!Array.isArray(uuids) || uuids.length === 0) return invalid({ uuids: ['The uuids field is required.'] });
			const missing = uuids.find((u) => !this.products.has(String(u)));
			if (missing !== undefined) return notFound('Product', String(missing));
			for (const u of uuids) this.products.delete(String(u));
			return { status: 200, body: { response: 'success', message: `${uuids.length} product(s) deleted` } };
		}));

		r.add('GET', '/v1/products/:uuid', guarded((req) => {
			const product = this.products.get(req.params.uuid);
			return product ? ok(product) : notFound('Product', req.params.uuid);
		}));

		r.add('PATCH', '/v1/products/:uuid', guarded((req) => {
			const product = this.products.get(req.params.uuid);
			if (!product) return notFound('Product', req.params.uuid);
			const errors = validateProduct(req.body);
			if (Object.keys(errors).length) return invalid(errors);
			const updated = this.createProduct(req.body as Parameters<PartnersSimulator['createProduct']>[0]);
			this.products.delete(updated.uuid);
			const merged = { ...updated, uuid: product.uuid, status: product.status, sales: product.sales };
			this.products.set(product.uuid, merged);
			return ok(merged);
		}));

		r.add('POST', '/v1/products/:uuid/change-status', guarded((req) => {
			const product = this.products.get(req.params.uuid);
			if (!product) return notFound('Product', req.params.uuid);
			product.status = product.status === 'active' ? 'inactive' : 'active';
			return ok(product);
		}));

		r.add('GET', '/v1/clients', guarded(() => ok([...this.clients.values()].map(publicClient))));

		r.add('POST', '/v1/clients', guarded((req) => {
			const b = (req.body ?? {}) as Record<string, Record<string, unknown>>;
			const errors: Record<string, string[]> = {};
			for (const f of ['client.name', 'client.email', 'tax_information.tax_id', 'tax_information.legal_name', 'tax_information.postal_code', 'tax_information.invoice_use_key', 'tax_information.tax_regime', 'product.uuid', 'product.vigency_uuid']) {
				const [o, k] = f.split('.');
				if (typeof b[o]?.[k] !== 'string' || !(b[o][k] as string)) errors[f] = [`The ${f} field is required.`];
			}
			const product = this.products.get(String(b.product?.uuid));
			if (!errors['product.uuid'] && !product) errors['product.uuid'] = ['The selected product.uuid is invalid.'];
			const vigency = product?.vigencies.find((v) => v.uuid === b.product?.vigency_uuid);
			if (product && !errors['product.vigency_uuid'] && !vigency) errors['product.vigency_uuid'] = ['The selected product.vigency_uuid is invalid.'];
			if ([...this.clients.values()].some((c) => c.client.email === b.client?.email)) errors['client.email'] = ['The client.email has already been taken.'];
			if (Object.keys(errors).length) return invalid(errors);
			const client: Client = {
				uuid: randomUUID(),
				status: 'active',
				client: { ...b.client },
				tax_information: { ...b.tax_information },
				product: { uuid: product!.uuid, vigency_uuid: vigency!.uuid },
				credentials_sent: 1,
			};
			this.clients.set(client.uuid, client);
			this.subscribe(client, product!, vigency!);
			return ok(publicClient(client));
		}));

		r.add('PATCH', '/v1/clients/:uuid', guarded((req) => {
			const client = this.clients.get(req.params.uuid);
			if (!client) return notFound('Client', req.params.uuid);
			const b = (req.body ?? {}) as Record<string, Record<string, unknown>>;
			Object.assign(client.client, b.client ?? {});
			Object.assign(client.tax_information, b.tax_information ?? {});
			return ok(publicClient(client));
		}));

		const bulkApply = (apply: (client: Client, body: Record<string, unknown>) => void) => (req: SimRequest): SimResponse => {
			const body = (req.body ?? {}) as Record<string, unknown>;
			const uuids = body.uuids;
			if (!Array.isArray(uuids) || uuids.length === 0) return invalid({ uuids: ['The uuids field is required.'] });
			const missing = uuids.find((u) => !this.clients.has(String(u)));
			if (missing !== undefined) return notFound('Client', String(missing));
			for (const u of uuids) apply(this.clients.get(String(u))!, body);
			return { status: 200, body: { response: 'success', data: uuids.map((u) => publicClient(this.clients.get(String(u))!)) } };
		};
		const bulk = (apply: (client: Client, body: Record<string, unknown>) => void) => guarded(bulkApply(apply));

		r.add('POST', '/v1/clients/suspend', bulk((client, body) => {
			client.status = 'suspended';
			client.suspension = { message: body.message as string | undefined, keep_folios: body.keep_folios as boolean | undefined };
			if (typeof body.message === 'string' && body.message) client.messages_delivered = [...(client.messages_delivered ?? []), body.message];
		}));

		r.add('POST', '/v1/clients/reactivate', guarded((req) => {
			// The spec's condition: the client was suspended. Reactivating an active client is refused.
			const uuids = (req.body as { uuids?: unknown } | undefined)?.uuids;
			const active = Array.isArray(uuids) ? uuids.find((u) => this.clients.get(String(u))?.status === 'active') : undefined;
			if (active !== undefined) return { status: 409, body: { status: 'error', message: `Client ${String(active)} is not suspended`, code: 'not_suspended' } };
			return bulkApply((client) => {
				client.status = 'active';
				client.suspension = undefined;
			})(req);
		}));

		r.add('POST', '/v1/clients/:uuid/resend-credentials', guarded((req) => {
			const client = this.clients.get(req.params.uuid);
			if (!client) return notFound('Client', req.params.uuid);
			client.credentials_sent++;
			return { status: 200, body: { response: 'success', message: `Credentials sent to ${String(client.client.email)}` } };
		}));

		r.add('GET', '/v1/subscriptions', guarded(() => ok([...this.subscriptions.values()])));

		r.add('GET', '/v1/subscriptions/:uuid', guarded((req) => {
			const sub = this.subscriptions.get(req.params.uuid);
			return sub ? ok(sub) : notFound('Subscription', req.params.uuid);
		}));
	}

	private subscribe(client: Client, product: Product, vigency: Vigency): void {
		const start = new Date();
		const end = new Date(start);
		end.setUTCMonth(end.getUTCMonth() + (MONTHS[vigency.expiration_period] ?? 1));
		const sub: Subscription = {
			uuid: randomUUID(),
			name: `${product.name} ${vigency.expiration_period}`,
			start_date: start.toISOString(),
			end_date: end.toISOString(),
			folios: vigency.folios,
			status: 'active',
			client: { uuid: client.uuid, name: String(client.client.name), email: String(client.client.email), status: client.status },
			product: { uuid: product.uuid, name: product.name, status: product.status },
			vigency: vigency.expiration_period,
			folios_used: 0,
		};
		this.subscriptions.set(sub.uuid, sub);
	}
}

function publicClient(c: Client): Record<string, unknown> {
	return { uuid: c.uuid, status: c.status, ...c.client, tax_information: c.tax_information, product: c.product };
}

function validateProduct(body: unknown): Record<string, string[]> {
	const errors: Record<string, string[]> = {};
	const b = (body ?? {}) as Record<string, unknown>;
	if (typeof b.name !== 'string' || !b.name.trim()) errors.name = ['The name field is required.'];
	if (!b.services || typeof b.services !== 'object') errors.services = ['The services field is required.'];
	if (!Array.isArray(b.vigencies) || b.vigencies.length === 0) {
		errors.vigencies = ['The vigencies field is required.'];
	} else {
		b.vigencies.forEach((v: Record<string, unknown>, i: number) => {
			if (!Number.isInteger(v?.folios) || (v.folios as number) < 0) errors[`vigencies.${i}.folios`] = ['The folios must be an integer.'];
			if (!VIGENCIES.includes(v?.vigency as string)) errors[`vigencies.${i}.vigency`] = ['The selected vigency is invalid.'];
			if (typeof v?.price !== 'number' || v.price < 0) errors[`vigencies.${i}.price`] = ['The price must be a number.'];
		});
	}
	return errors;
}
