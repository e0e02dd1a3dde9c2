import { randomUUID } from 'node:crypto';
/** @import { RouteTable, SimRequest, SimResponse } from './server' */

/**
 * The Ecuador API of the extraction service: `POST /taxpayers` ("registers a taxpayer (Ecuador side)", spec:
 * Endpoints). The real service gives it an address of its own, not the Mexico API's (spec: "The Mexican
 * extraction API names its own production and staging addresses"; its public documentation: the Ecuador API
 * has its own staging host), so it has a prefix of its own, `/extraction-ec`, and tests serve it from another
 * origin than the Mexico API (`server.addOrigin()`): base URLs `<origin>/extraction-ec/prod` and
 * `<origin>/extraction-ec/staging` (see `baseUrl`).
 *
 * Authentication as the Ecuador API's public documentation shows it: `x-api-key: <key>` on every request, and
 * `x-organization-id: <the organization's ID>` (required by its newer pages; `requireOrganizationId`). Its keys
 * are its own: the Mexico API's keys are unknown here, and a request in the Mexico API's scheme
 * (`Authorization: Bearer`) is refused with 401, whatever else it carries. Each environment has its own keys;
 * staging keys start with `staging_` (spec: Environments).
 *
 * Assumptions where the spec and the documentation are silent (the node makes the same ones): the answer of a
 * registration is the record with an `id`, 201; error bodies are `{ error: { code, message } }`.
 */

/**
 * @typedef {'prod' | 'staging'} Env
 */

/**
 * @typedef {object} EcuadorKey
 * @property {string} key
 * @property {Env} env
 * @property {string} organizationId
 */

/** @returns {SimResponse} */
const err = (status, code, message) => ({ status, body: { error: { code, message } } });

export class EcuadorExtractionSimulator {
	prefix = 'extraction-ec';
	keys = /** @type {Map<string, EcuadorKey>} */ (new Map());
	/** @type {Array<Record<string, unknown>>} */
	taxpayers = [];
	/** Whether a request without `x-organization-id` is refused (the newer pages require it). */
	requireOrganizationId = true;
	/** A careless service that echoes the registered record, passwords included (to test redaction). */
	echoSecrets = false;

	prodKey = 'ec_live_5Tg8Wq2Zr7Np1Kd4';
	stagingKey = 'staging_ec_9Lb3Vx6Hc0Mf2Sj8';
	organizationId = '7c1e6f2a-4b8d-4e3a-9f05-2d6b8a1c3e47';

	constructor() {
		this.reset();
	}

	reset() {
		this.keys.clear();
		this.taxpayers.length = 0;
		this.requireOrganizationId = true;
		this.echoSecrets = false;
		this.addKey(this.prodKey, { env: 'prod' });
		this.addKey(this.stagingKey, { env: 'staging' });
	}

	/**
	 * The base URL of an environment, given the address of this prefix on the origin that serves it.
	 * @returns {string}
	 */
	static baseUrl(serviceUrl, env) {
		return `${serviceUrl}/${env}`;
	}

	/** @returns {EcuadorKey} */
	addKey(key, opts) {
		/** @type {EcuadorKey} */
		const record = {
			key,
			env: opts.env,
			organizationId: opts.organizationId ?? this.organizationId,
		};
		this.keys.set(key, record);
		return record;
	}

	/**
	 * The key a request presents, or the refusal.
	 * @param {SimRequest} req
	 * @returns {EcuadorKey | SimResponse}
	 */
	authenticate(req, env) {
		if (env !== 'prod' && env !== 'staging') return err(404, 'NOT_FOUND', `No environment ${env}`);
		if (req.headers.authorization !== undefined)
			return err(
				401,
				'UNAUTHORIZED',
				'This API does not take an Authorization header: send the API key in x-api-key',
			);
		const presented = req.headers['x-api-key'];
		if (typeof presented !== 'string' || !presented)
			return err(401, 'UNAUTHORIZED', 'Missing x-api-key header');
		const key = this.keys.get(presented);
		if (!key || key.env !== env) return err(401, 'INVALID_API_KEY', 'Invalid API key');
		const organization = req.headers['x-organization-id'];
		if (organization === undefined && this.requireOrganizationId)
			return err(401, 'UNAUTHORIZED', 'Missing x-organization-id header');
		if (organization !== undefined && organization !== key.organizationId)
			return err(403, 'FORBIDDEN', 'The API key does not belong to this organization');
		return key;
	}

	/** @param {RouteTable} r */
	register(r) {
		r.add('POST', '/:env/taxpayers', (req) => {
			const key = this.authenticate(req, req.params.env);
			if (!('key' in key)) return key;
			const b = /** @type {Record<string, unknown>} */ (req.body ?? {});
			if (!Object.keys(b).length) return err(400, 'VALIDATION_ERROR', 'Body is required');
			const record = { id: `tp_${randomUUID().slice(0, 8)}`, status: 'REGISTERED', ...b };
			this.taxpayers.push(record);
			const shown = this.echoSecrets
				? record
				: Object.fromEntries(Object.entries(record).filter(([k]) => !/password|key/i.test(k)));
			return { status: 201, body: shown };
		});
	}
}
