import type {
	ICredentialDataDecryptedObject,
	ICredentialType,
	ICredentials,
	ICredentialsExpressionResolveValues,
	IHttpRequestHelper,
	IHttpRequestOptions,
	INode,
	INodeCredentialsDetails,
	INodeProperties,
	IRequestOptionsSimplified,
	IWorkflowExecuteAdditionalData,
	WorkflowExecuteMode,
} from 'n8n-workflow';
import { Expression, ICredentialsHelper } from 'n8n-workflow';

/** Resolves a credential expression (`={{$credentials.x}}`, `=Bearer {{…}}`) with n8n's own expression engine. */
export function resolveCredentialValue(value: unknown, credentials: ICredentialDataDecryptedObject): unknown {
	if (typeof value !== 'string' || !value.startsWith('=')) return value;
	return Expression.resolveWithoutWorkflow(value.slice(1), { $credentials: credentials });
}

function resolveDeep(value: unknown, credentials: ICredentialDataDecryptedObject): unknown {
	if (Array.isArray(value)) return value.map((v) => resolveDeep(v, credentials));
	if (value && typeof value === 'object') {
		// Keys are resolved too, as n8n's server does (a header's name may be an expression).
		return Object.fromEntries(Object.entries(value).map(([k, v]) => [String(resolveCredentialValue(k, credentials)), resolveDeep(v, credentials)]));
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
	/** Stored credential data by type name. */
	readonly store = new Map<string, ICredentialDataDecryptedObject>();
	/** How often preAuthentication actually ran (a token was fetched). */
	preAuthRuns = 0;
	readonly types = new Map<string, ICredentialType>();

	constructor(types: ICredentialType[]) {
		super();
		for (const t of types) this.types.set(t.name, t);
	}

	set(type: string, data: ICredentialDataDecryptedObject): void {
		this.store.set(type, { ...data });
	}

	/** The stored data of a credential type (what n8n keeps in its database, tokens included). */
	get(type: string): ICredentialDataDecryptedObject {
		const data = this.store.get(type);
		if (!data) throw new Error(`No credentials of type ${type} in the test store`);
		return { ...data };
	}

	private type(name: string): ICredentialType {
		const t = this.types.get(name);
		if (!t) throw new Error(`unknown credential type ${name}`);
		return t;
	}

	private withDefaults(typeName: string, data: ICredentialDataDecryptedObject): ICredentialDataDecryptedObject {
		const out: ICredentialDataDecryptedObject = {};
		for (const p of this.type(typeName).properties) {
			if (p.type === 'notice') continue;
			out[p.name] = data[p.name] ?? (p.default as ICredentialDataDecryptedObject[string]);
		}
		return { ...out, ...data };
	}

	getParentTypes(): string[] {
		return [];
	}

	isCredentialUsableByNode(): boolean {
		return true;
	}

	getCredentialsProperties(type: string): INodeProperties[] {
		return this.type(type).properties;
	}

	async getDecrypted(
		_additionalData: IWorkflowExecuteAdditionalData,
		_nodeCredentials: INodeCredentialsDetails,
		type: string,
		_mode?: WorkflowExecuteMode,
		_executeData?: unknown,
		_raw?: boolean,
		_expressionResolveValues?: ICredentialsExpressionResolveValues,
	): Promise<ICredentialDataDecryptedObject> {
		const data = this.store.get(type);
		if (!data) throw new Error(`No credentials of type ${type} in the test store`);
		return this.withDefaults(type, structuredClone(data));
	}

	async getCredentials(): Promise<ICredentials> {
		throw new Error('getCredentials is not used by node execution');
	}

	async authenticate(
		credentials: ICredentialDataDecryptedObject,
		typeName: string,
		requestOptions: IHttpRequestOptions | IRequestOptionsSimplified,
	): Promise<IHttpRequestOptions> {
		const auth = this.type(typeName).authenticate;
		const options = requestOptions as IHttpRequestOptions;
		if (!auth) return options;
		if (typeof auth === 'function') return await auth(credentials, options);
		const props = resolveDeep(auth.properties, credentials) as {
			headers?: Record<string, string>;
			qs?: Record<string, string>;
			body?: Record<string, string>;
			auth?: { username: string; password: string };
		};
		if (props.headers) options.headers = { ...(options.headers ?? {}), ...props.headers };
		if (props.qs) options.qs = { ...(options.qs ?? {}), ...props.qs };
		if (props.body) options.body = { ...((options.body as object) ?? {}), ...props.body };
		if (props.auth) options.auth = props.auth;
		return options;
	}

	async preAuthentication(
		helpers: IHttpRequestHelper,
		credentials: ICredentialDataDecryptedObject,
		typeName: string,
		_node: INode,
		credentialsExpired: boolean,
	): Promise<ICredentialDataDecryptedObject | undefined> {
		const type = this.type(typeName);
		const expirable = type.properties.find((p) => p.type === 'hidden' && p.typeOptions?.expirable === true);
		if (!expirable || typeof type.preAuthentication !== 'function') return undefined;
		if (credentials[expirable.name] !== '' && !credentialsExpired) return undefined;
		const output = await type.preAuthentication.call(helpers, credentials);
		this.preAuthRuns++;
		if (output[expirable.name] === undefined) return undefined;
		const stored = this.store.get(typeName) ?? {};
		this.store.set(typeName, { ...stored, ...(output as ICredentialDataDecryptedObject) });
		return Object.assign(credentials, output as ICredentialDataDecryptedObject);
	}

	async runPreAuthentication(helpers: IHttpRequestHelper, credentials: ICredentialDataDecryptedObject, typeName: string) {
		const type = this.type(typeName);
		if (typeof type.preAuthentication !== 'function') return undefined;
		return (await type.preAuthentication.call(helpers, credentials)) as ICredentialDataDecryptedObject;
	}

	async updateCredentials(_details: INodeCredentialsDetails, type: string, data: ICredentialDataDecryptedObject): Promise<void> {
		this.store.set(type, { ...data });
	}

	async updateCredentialsOauthTokenData(): Promise<void> {}

	/**
	 * Runs a credential's test request the way n8n's "Test" button does: preAuthentication always (the
	 * credential is being tested), then `authenticate`, then the request built from `test.request`.
	 * Returns the HTTP status and parsed body.
	 */
	async testCredential(typeName: string, data: ICredentialDataDecryptedObject, helpers: IHttpRequestHelper): Promise<{ status: number; body: unknown }> {
		const type = this.type(typeName);
		const credentials = this.withDefaults(typeName, { ...data });
		if (typeof type.preAuthentication === 'function') Object.assign(credentials, await type.preAuthentication.call(helpers, credentials));
		const request = resolveDeep(type.test?.request ?? {}, credentials) as IHttpRequestOptions & { baseURL?: string };
		const options = await this.authenticate(credentials, typeName, {
			...request,
			url: `${request.baseURL ?? ''}${request.url ?? ''}`,
			method: request.method ?? 'GET',
		});
		const qs = options.qs ? `?${new URLSearchParams(options.qs as Record<string, string>)}` : '';
		const response = await fetch(`${options.url}${qs}`, {
			method: options.method,
			headers: options.headers as Record<string, string>,
		});
		const text = await response.text();
		let body: unknown = text;
		try {
			body = JSON.parse(text);
		} catch {
			// keep text
		}
		return { status: response.status, body };
	}
}
