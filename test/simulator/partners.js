import { createHmac, randomUUID } from 'node:crypto';
/** @import { RouteTable, ServiceSimulator, SimRequest, SimResponse } from './server' */

/**
 * Stateful simulator of the Partners service (the Mexican partners service's specification): token endpoint,
 * products (plans) with pagination and search, clients, subscriptions. Error bodies follow the spec's
 * shapes: Error {status, message, code}, ValidationError {status, message, errors, code},
 * token failure {error, error_description}.
 * @typedef {object} Vigency
 * @property {string} uuid
 * @property {number} folios
 * @property {string} price
 * @property {string} expiration_period
 */

/**
 * @typedef {object} Product
 * @property {string} uuid
 * @property {string} name
 * @property {Record<string, unknown>} services
 * @property {number} sales
 * @property {number} expiration_type
 * @property {string} status
 * @property {Vigency[]} vigencies
 * @property {string[]} pdf_templates
 */

/**
 * @typedef {object} Client
 * @property {string} uuid
 * @property {string} status
 * @property {Record<string, unknown>} client
 * @property {Record<string, unknown>} tax_information
 * @property {{ uuid: string; vigency_uuid: string }} product
 * @property {{ message?: string; keep_folios?: boolean }} [suspension]
 * @property {number} credentials_sent
 * @property {string[]} [messages_delivered] Suspension messages delivered to this client (the spec: "the optional message is delivered to the client").
 */

/**
 * @typedef {object} Subscription
 * @property {string} uuid
 * @property {string} name
 * @property {string} start_date
 * @property {string} end_date
 * @property {number} folios
 * @property {string} status
 * @property {{ uuid: string; name: string; email: string; status: string }} client
 * @property {{ uuid: string; name: string; status: string }} product
 * @property {string} vigency
 * @property {number} folios_used
 */

const VIGENCIES = ['Mensual', 'Trimestral', 'Semestral', 'Anual', 'SP'];
/** @type {Record<string, number>} */
const MONTHS = { Mensual: 1, Trimestral: 3, Semestral: 6, Anual: 12, SP: 1200 };

/** @type {SimResponse} */
const unauthenticated = {
	status: 401,
	body: { status: 'error', message: 'Unauthenticated.', code: 'unauthenticated' },
};
/** @returns {SimResponse} */
const notFound = (what, uuid) => ({
	status: 404,
	body: { status: 'error', message: `${what} ${uuid} not found`, code: 'not_found' },
});
/** @returns {SimResponse} */
const invalid = (errors) => ({
	status: 422,
	body: {
		status: 'error',
		message: 'The given data was invalid.',
		errors,
		code: 'validation_error',
	},
});
/** @returns {SimResponse} */
const ok = (data) => ({ status: 200, body: { response: 'success', data } });

export class PartnersSimulator {
	prefix = 'partners';
	clientId = 'partner-id';
	clientSecret = 'partner-secret';
	perPage = 15;
	tokenLifetimeSeconds = 3600;
	products = /** @type {Map<string, Product>} */ (new Map());
	clients = /** @type {Map<string, Client>} */ (new Map());
	subscriptions = /** @type {Map<string, Subscription>} */ (new Map());
	validTokens = /** @type {Map<string, number>} */ (new Map());
	/** Requests each token has served. */
	tokenUses = /** @type {Map<string, number>} */ (new Map());
	/**
	 * When set, a token stops working after it has served this many requests (a token expiring mid-run, again and again).
	 * @type {number | undefined}
	 */
	tokenMaxUses = undefined;
	signingKey = randomUUID();
	tokensIssued = 0;

	/** @type {number | undefined} */
	expireCountdown;

	/**
	 * When set, `GET /v1/products` plays a service (or a proxy) that never stops: every page asked is answered
	 * with 15 plans padded to about this many bytes in all, and there is always a next page.
	 * @type {number | undefined}
	 */
	endlessPagesOf = undefined;

	/** Revokes every token issued so far: the next call with one gets 401. */
	expireTokens() {
		this.validTokens.clear();
	}

	/** Revokes every token once `n` more authenticated requests have been answered (a token expiring mid-run). */
	expireTokensAfter(n) {
		this.expireCountdown = n;
	}

	/**
	 * Page `page` of a plan list that never ends, about `bytes` long.
	 * @returns {Record<string, unknown>}
	 */
	endlessPage(page, bytes) {
		const filler = 'x'.repeat(Math.ceil(bytes / this.perPage));
		const products = Array.from({ length: this.perPage }, (_, n) => ({
			uuid: `endless-${page}-${n}`,
			name: `Plan ${page}.${n}`,
			status: 'active',
			description: filler,
		}));
		return {
			products,
			pagination: { currentPage: page, lastPage: page + 1, perPage: this.perPage, total: Infinity },
		};
	}

	/** Forgets the data (plans, clients, subscriptions); issued tokens stay valid. */
	reset() {
		this.products.clear();
		this.clients.clear();
		this.subscriptions.clear();
		this.tokensIssued = 0;
		this.tokenMaxUses = undefined;
		this.endlessPagesOf = undefined;
	}

	/**
	 * Adds `count` plans directly (for pagination and benchmarks).
	 * @returns {Product[]}
	 */
	seedProducts(count, namePrefix = 'Plan') {
		/** @type {Product[]} */
		const created = [];
		for (let i = 1; i <= count; i++) {
			created.push(
				this.createProduct({
					name: `${namePrefix} ${i}`,
					services: { api: true },
					vigencies: [{ folios: 100 * i, vigency: 'Mensual', price: 99 }],
				}),
			);
		}
		return created;
	}

	/** @returns {Product} */
	createProduct(input) {
		/** @type {Product} */
		const product = {
			uuid: randomUUID(),
			name: input.name,
			services: input.services,
			sales: 0,
			expiration_type: 1,
			status: 'active',
			vigencies: input.vigencies.map((v) => ({
				uuid: randomUUID(),
				folios: v.folios,
				price: Number(v.price).toFixed(2),
				expiration_period: v.vigency,
			})),
			pdf_templates: Array.isArray(input.services?.pdf_templates)
				? /** @type {string[]} */ (input.services.pdf_templates)
				: [],
		};
		this.products.set(product.uuid, product);
		return product;
	}

	/** @returns {{ token: string; expiresIn: number }} */
	issueToken() {
		const enc = (o) => Buffer.from(JSON.stringify(o)).toString('base64url');
		const exp = Math.floor(Date.now() / 1000) + this.tokenLifetimeSeconds;
		const head = `${enc({ alg: 'HS256', typ: 'JWT' })}.${enc({ sub: this.clientId, exp, jti: randomUUID() })}`;
		const token = `${head}.${createHmac('sha256', this.signingKey).update(head).digest('base64url')}`;
		this.validTokens.set(token, exp * 1000);
		this.tokensIssued++;
		return { token, expiresIn: this.tokenLifetimeSeconds };
	}

	/** @returns {boolean} */
	authorized(req) {
		const header = String(req.headers.authorization ?? '');
		const match = /^Bearer (.+)$/.exec(header);
		const expires = match ? this.validTokens.get(match[1]) : undefined;
		const uses = match ? (this.tokenUses.get(match[1]) ?? 0) : 0;
		const ok =
			expires !== undefined &&
			expires > Date.now() &&
			(this.tokenMaxUses === undefined || uses < this.tokenMaxUses);
		if (ok && match) this.tokenUses.set(match[1], uses + 1);
		if (ok && this.expireCountdown !== undefined && --this.expireCountdown <= 0) {
			this.expireCountdown = undefined;
			this.validTokens.clear();
		}
		return ok;
	}

	register(r) {
		const guarded = (handler) => (req) => (this.authorized(req) ? handler(req) : unauthenticated);

		r.add('POST', '/v1/auth/token', (req) => {
			const b = /** @type {Record<string, unknown>} */ (req.body ?? {});
			if (b.grant_type !== 'client_credentials') {
				return {
					status: 401,
					body: {
						error: 'unsupported_grant_type',
						error_description: 'grant_type must be client_credentials',
					},
				};
			}
			if (b.client_id !== this.clientId || b.client_secret !== this.clientSecret) {
				return {
					status: 401,
					body: { error: 'invalid_client', error_description: 'Client authentication failed' },
				};
			}
			const { token, expiresIn } = this.issueToken();
			return {
				status: 200,
				body: { token_type: 'Bearer', expires_in: expiresIn, access_token: token },
			};
		});

		r.add(
			'GET',
			'/v1/products',
			guarded((req) => {
				const search = (req.query.search ?? '').toLowerCase();
				const all = [...this.products.values()].filter(
					(p) => !search || p.name.toLowerCase().includes(search),
				);
				const page = Math.max(1, Number(req.query.page ?? 1) || 1);
				if (this.endlessPagesOf !== undefined)
					return ok(this.endlessPage(page, this.endlessPagesOf));
				const lastPage = Math.max(1, Math.ceil(all.length / this.perPage));
				const products = all.slice((page - 1) * this.perPage, page * this.perPage);
				return ok({
					products,
					pagination: { currentPage: page, lastPage, perPage: this.perPage, total: all.length },
				});
			}),
		);

		r.add(
			'POST',
			'/v1/products',
			guarded((req) => {
				const errors = validateProduct(req.body);
				if (Object.keys(errors).length) return invalid(errors);
				return ok(
					this.createProduct(
						/** @type {Parameters<PartnersSimulator['createProduct']>[0]} */ (req.body),
					),
				);
			}),
		);

		r.add(
			'DELETE',
			'/v1/products',
			guarded((req) => {
				const uuids = /** @type {{ uuids?: unknown }} */ (req.body)?.uuids;
				if (!Array.isArray(uuids) || uuids.length === 0)
					return invalid({ uuids: ['The uuids field is required.'] });
				const missing = uuids.find((u) => !this.products.has(String(u)));
				if (missing !== undefined) return notFound('Product', String(missing));
				for (const u of uuids) this.products.delete(String(u));
				return {
					status: 200,
					body: { response: 'success', message: `${uuids.length} product(s) deleted` },
				};
			}),
		);

		r.add(
			'GET',
			'/v1/products/:uuid',
			guarded((req) => {
				const product = this.products.get(req.params.uuid);
				return product ? ok(product) : notFound('Product', req.params.uuid);
			}),
		);

		r.add(
			'PATCH',
			'/v1/products/:uuid',
			guarded((req) => {
				const product = this.products.get(req.params.uuid);
				if (!product) return notFound('Product', req.params.uuid);
				const errors = validateProduct(req.body);
				if (Object.keys(errors).length) return invalid(errors);
				const updated = this.createProduct(
					/** @type {Parameters<PartnersSimulator['createProduct']>[0]} */ (req.body),
				);
				this.products.delete(updated.uuid);
				const merged = {
					...updated,
					uuid: product.uuid,
					status: product.status,
					sales: product.sales,
				};
				this.products.set(product.uuid, merged);
				return ok(merged);
			}),
		);

		r.add(
			'POST',
			'/v1/products/:uuid/change-status',
			guarded((req) => {
				const product = this.products.get(req.params.uuid);
				if (!product) return notFound('Product', req.params.uuid);
				product.status = product.status === 'active' ? 'inactive' : 'active';
				return ok(product);
			}),
		);

		r.add(
			'GET',
			'/v1/clients',
			guarded(() => ok([...this.clients.values()].map(publicClient))),
		);

		r.add(
			'POST',
			'/v1/clients',
			guarded((req) => {
				const b = /** @type {Record<string, Record<string, unknown>>} */ (req.body ?? {});
				/** @type {Record<string, string[]>} */
				const errors = {};
				for (const f of [
					'client.name',
					'client.email',
					'tax_information.tax_id',
					'tax_information.legal_name',
					'tax_information.postal_code',
					'tax_information.invoice_use_key',
					'tax_information.tax_regime',
					'product.uuid',
					'product.vigency_uuid',
				]) {
					const [o, k] = f.split('.');
					if (typeof b[o]?.[k] !== 'string' || !(/** @type {string} */ (b[o][k])))
						errors[f] = [`The ${f} field is required.`];
				}
				const product = this.products.get(String(b.product?.uuid));
				if (!errors['product.uuid'] && !product)
					errors['product.uuid'] = ['The selected product.uuid is invalid.'];
				const vigency = product?.vigencies.find((v) => v.uuid === b.product?.vigency_uuid);
				if (product && !errors['product.vigency_uuid'] && !vigency)
					errors['product.vigency_uuid'] = ['The selected product.vigency_uuid is invalid.'];
				if ([...this.clients.values()].some((c) => c.client.email === b.client?.email))
					errors['client.email'] = ['The client.email has already been taken.'];
				if (Object.keys(errors).length) return invalid(errors);
				/** @type {Client} */
				const client = {
					uuid: randomUUID(),
					status: 'active',
					client: { ...b.client },
					tax_information: { ...b.tax_information },
					product: {
						uuid: /** @type {NonNullable<typeof product>} */ (product).uuid,
						vigency_uuid: /** @type {NonNullable<typeof vigency>} */ (vigency).uuid,
					},
					credentials_sent: 1,
				};
				this.clients.set(client.uuid, client);
				this.subscribe(
					client,
					/** @type {NonNullable<typeof product>} */ (product),
					/** @type {NonNullable<typeof vigency>} */ (vigency),
				);
				return ok(publicClient(client));
			}),
		);

		r.add(
			'PATCH',
			'/v1/clients/:uuid',
			guarded((req) => {
				const client = this.clients.get(req.params.uuid);
				if (!client) return notFound('Client', req.params.uuid);
				const b = /** @type {Record<string, Record<string, unknown>>} */ (req.body ?? {});
				Object.assign(client.client, b.client ?? {});
				Object.assign(client.tax_information, b.tax_information ?? {});
				return ok(publicClient(client));
			}),
		);

		const bulkApply = (apply) => (req) => {
			const body = /** @type {Record<string, unknown>} */ (req.body ?? {});
			const uuids = body.uuids;
			if (!Array.isArray(uuids) || uuids.length === 0)
				return invalid({ uuids: ['The uuids field is required.'] });
			const missing = uuids.find((u) => !this.clients.has(String(u)));
			if (missing !== undefined) return notFound('Client', String(missing));
			for (const u of uuids) apply(/** @type {any} */ (this.clients.get(String(u))), body);
			return {
				status: 200,
				body: {
					response: 'success',
					data: uuids.map((u) => publicClient(/** @type {any} */ (this.clients.get(String(u))))),
				},
			};
		};
		const bulk = (apply) => guarded(bulkApply(apply));

		r.add(
			'POST',
			'/v1/clients/suspend',
			bulk((client, body) => {
				client.status = 'suspended';
				client.suspension = {
					message: /** @type {string | undefined} */ (body.message),
					keep_folios: /** @type {boolean | undefined} */ (body.keep_folios),
				};
				if (typeof body.message === 'string' && body.message)
					client.messages_delivered = [...(client.messages_delivered ?? []), body.message];
			}),
		);

		r.add(
			'POST',
			'/v1/clients/reactivate',
			guarded((req) => {
				// The spec's condition: the client was suspended. Reactivating an active client is refused.
				const uuids = /** @type {{ uuids?: unknown } | undefined} */ (req.body)?.uuids;
				const active = Array.isArray(uuids)
					? uuids.find((u) => this.clients.get(String(u))?.status === 'active')
					: undefined;
				if (active !== undefined)
					return {
						status: 409,
						body: {
							status: 'error',
							message: `Client ${String(active)} is not suspended`,
							code: 'not_suspended',
						},
					};
				return bulkApply((client) => {
					client.status = 'active';
					client.suspension = undefined;
				})(req);
			}),
		);

		r.add(
			'POST',
			'/v1/clients/:uuid/resend-credentials',
			guarded((req) => {
				const client = this.clients.get(req.params.uuid);
				if (!client) return notFound('Client', req.params.uuid);
				client.credentials_sent++;
				return {
					status: 200,
					body: {
						response: 'success',
						message: `Credentials sent to ${String(client.client.email)}`,
					},
				};
			}),
		);

		r.add(
			'GET',
			'/v1/subscriptions',
			guarded(() => ok([...this.subscriptions.values()])),
		);

		r.add(
			'GET',
			'/v1/subscriptions/:uuid',
			guarded((req) => {
				const sub = this.subscriptions.get(req.params.uuid);
				return sub ? ok(sub) : notFound('Subscription', req.params.uuid);
			}),
		);
	}

	subscribe(client, product, vigency) {
		const start = new Date();
		const end = new Date(start);
		end.setUTCMonth(end.getUTCMonth() + (MONTHS[vigency.expiration_period] ?? 1));
		/** @type {Subscription} */
		const sub = {
			uuid: randomUUID(),
			name: `${product.name} ${vigency.expiration_period}`,
			start_date: start.toISOString(),
			end_date: end.toISOString(),
			folios: vigency.folios,
			status: 'active',
			client: {
				uuid: client.uuid,
				name: String(client.client.name),
				email: String(client.client.email),
				status: client.status,
			},
			product: { uuid: product.uuid, name: product.name, status: product.status },
			vigency: vigency.expiration_period,
			folios_used: 0,
		};
		this.subscriptions.set(sub.uuid, sub);
	}
}

/** @returns {Record<string, unknown>} */
function publicClient(c) {
	return {
		uuid: c.uuid,
		status: c.status,
		...c.client,
		tax_information: c.tax_information,
		product: c.product,
	};
}

/** @returns {Record<string, string[]>} */
function validateProduct(body) {
	/** @type {Record<string, string[]>} */
	const errors = {};
	const b = /** @type {Record<string, unknown>} */ (body ?? {});
	if (typeof b.name !== 'string' || !b.name.trim()) errors.name = ['The name field is required.'];
	if (!b.services || typeof b.services !== 'object')
		errors.services = ['The services field is required.'];
	if (!Array.isArray(b.vigencies) || b.vigencies.length === 0) {
		errors.vigencies = ['The vigencies field is required.'];
	} else {
		b.vigencies.forEach((v, i) => {
			if (!Number.isInteger(v?.folios) || /** @type {number} */ (v.folios) < 0)
				errors[`vigencies.${i}.folios`] = ['The folios must be an integer.'];
			if (!VIGENCIES.includes(/** @type {string} */ (v?.vigency)))
				errors[`vigencies.${i}.vigency`] = ['The selected vigency is invalid.'];
			if (typeof v?.price !== 'number' || v.price < 0)
				errors[`vigencies.${i}.price`] = ['The price must be a number.'];
		});
	}
	return errors;
}
