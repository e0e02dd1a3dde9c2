/** @import { ICredentialDataDecryptedObject, ICredentialType, ICredentials, ICredentialsExpressionResolveValues, IHttpRequestHelper, IHttpRequestOptions, INode, INodeCredentialsDetails, INodeProperties, IRequestOptionsSimplified, IWorkflowExecuteAdditionalData, WorkflowExecuteMode } from 'n8n-workflow' */
import { Expression, ICredentialsHelper } from 'n8n-workflow';

/**
 * Resolves a credential expression (`={{$credentials.x}}`, `=Bearer {{…}}`) with n8n's own expression engine.
 * @returns {unknown}
 */
export function resolveCredentialValue(value, credentials) {
	if (typeof value !== 'string' || !value.startsWith('=')) return value;
	return Expression.resolveWithoutWorkflow(value.slice(1), { $credentials: credentials });
}

/** @returns {unknown} */
function resolveDeep(value, credentials) {
	if (Array.isArray(value)) return value.map((v) => resolveDeep(v, credentials));
	if (value && typeof value === 'object') {
		// Keys are resolved too, as n8n's server does (a header's name may be an expression).
		return Object.fromEntries(
			Object.entries(value).map(([k, v]) => [
				String(resolveCredentialValue(k, credentials)),
				resolveDeep(v, credentials),
			]),
		);
	}
	return resolveCredentialValue(value, credentials);
}

/**
 * The credentials side of n8n's server, for tests: stores credential data per type (the "database"),
 * fills property defaults like n8n does on decryption, applies a credential class's generic `authenticate`
 * and runs its `preAuthentication` exactly when n8n does: when the expirable field is empty, and again
 * when a request answered 401 (`credentialsExpired`). Refreshed tokens are written back to the store.
 */
export class TestCredentialsHelper extends ICredentialsHelper {
	/**
	 * How many times each credential type was read (decrypted), as n8n reads it from its database each time.
	 * @type {Map<string, number>}
	 */
	reads = new Map();

	/** Stored credential data by type name. */
	store = /** @type {Map<string, ICredentialDataDecryptedObject>} */ (new Map());
	/** How often preAuthentication actually ran (a token was fetched). */
	preAuthRuns = 0;
	types = /** @type {Map<string, ICredentialType>} */ (new Map());

	constructor(types) {
		super();
		for (const t of types) this.types.set(t.name, t);
	}

	set(type, data) {
		this.store.set(type, { ...data });
	}

	/**
	 * The stored data of a credential type (what n8n keeps in its database, tokens included).
	 * @returns {ICredentialDataDecryptedObject}
	 */
	get(type) {
		const data = this.store.get(type);
		if (!data) throw new Error(`No credentials of type ${type} in the test store`);
		return { ...data };
	}

	/** @returns {ICredentialType} */
	type(name) {
		const t = this.types.get(name);
		if (!t) throw new Error(`unknown credential type ${name}`);
		return t;
	}

	/** @returns {ICredentialDataDecryptedObject} */
	withDefaults(typeName, data) {
		/** @type {ICredentialDataDecryptedObject} */
		const out = {};
		for (const p of this.type(typeName).properties) {
			if (p.type === 'notice') continue;
			out[p.name] =
				data[p.name] ?? /** @type {ICredentialDataDecryptedObject[string]} */ (p.default);
		}
		return { ...out, ...data };
	}

	/** @returns {string[]} */
	getParentTypes() {
		return [];
	}

	/** @returns {boolean} */
	isCredentialUsableByNode() {
		return true;
	}

	/** @returns {INodeProperties[]} */
	getCredentialsProperties(type) {
		return this.type(type).properties;
	}

	/** @returns {Promise<ICredentialDataDecryptedObject>} */
	async getDecrypted(
		_additionalData,
		_nodeCredentials,
		type,
		_mode,
		_executeData,
		_raw,
		_expressionResolveValues,
	) {
		this.reads.set(type, (this.reads.get(type) ?? 0) + 1);
		const data = this.store.get(type);
		if (!data) throw new Error(`No credentials of type ${type} in the test store`);
		return this.withDefaults(type, structuredClone(data));
	}

	/** @returns {Promise<ICredentials>} */
	/** @returns {Promise<any>} */
	async getCredentials() {
		throw new Error('getCredentials is not used by node execution');
	}

	/** @returns {Promise<IHttpRequestOptions>} */
	async authenticate(credentials, typeName, requestOptions) {
		const auth = this.type(typeName).authenticate;
		const options = /** @type {IHttpRequestOptions} */ (requestOptions);
		if (!auth) return options;
		if (typeof auth === 'function') return await auth(credentials, options);
		const props =
			/** @type {{ headers?: Record<string, string>; qs?: Record<string, string>; body?: Record<string, string>; auth?: { username: string; password: string }; }} */ (
				resolveDeep(auth.properties, credentials)
			);
		if (props.headers) options.headers = { ...(options.headers ?? {}), ...props.headers };
		if (props.qs) options.qs = { ...(options.qs ?? {}), ...props.qs };
		if (props.body) options.body = { .../** @type {object} */ (options.body ?? {}), ...props.body };
		if (props.auth) options.auth = props.auth;
		return options;
	}

	/** @returns {Promise<ICredentialDataDecryptedObject | undefined>} */
	async preAuthentication(helpers, credentials, typeName, _node, credentialsExpired) {
		const type = this.type(typeName);
		const expirable = type.properties.find(
			(p) => p.type === 'hidden' && p.typeOptions?.expirable === true,
		);
		if (!expirable || typeof type.preAuthentication !== 'function') return undefined;
		if (credentials[expirable.name] !== '' && !credentialsExpired) return undefined;
		const output = await type.preAuthentication.call(helpers, credentials);
		this.preAuthRuns++;
		if (output[expirable.name] === undefined) return undefined;
		const stored = this.store.get(typeName) ?? {};
		this.store.set(typeName, {
			...stored,
			.../** @type {ICredentialDataDecryptedObject} */ (output),
		});
		return Object.assign(credentials, /** @type {ICredentialDataDecryptedObject} */ (output));
	}

	async runPreAuthentication(helpers, credentials, typeName) {
		const type = this.type(typeName);
		if (typeof type.preAuthentication !== 'function') return undefined;
		return /** @type {ICredentialDataDecryptedObject} */ (
			await type.preAuthentication.call(helpers, credentials)
		);
	}

	async updateCredentials(_details, type, data) {
		this.store.set(type, { ...data });
	}

	async updateCredentialsOauthTokenData() {}
}
