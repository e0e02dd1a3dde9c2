import type { RouterContext } from '../shared/router';
import type { IDataObject } from 'n8n-workflow';
import type { RequestContext, ServiceDefinition } from '../shared/transport';
import { bodyMessage, fieldErrorLines, ServiceClient } from '../shared/transport';

/** Partners service: base URL from the credential; errors as the spec shapes them (Error, ValidationError, token failure). */
export const partnersService: ServiceDefinition = {
	name: 'Partners',
	credentialType: 'partnersApi',
	// The credential's preAuthentication fills it; a 401 fetches one new token for all requests in flight.
	tokenField: 'accessToken',
	baseUrl: (credentials) => String(credentials.baseUrl ?? ''),
	describeError(status, body) {
		const b = (body ?? {}) as IDataObject;
		const said = bodyMessage(body);
		const code = typeof b.code === 'string' && b.code ? ` [${b.code}]` : '';
		if (status === 401 && (b.error !== undefined || b.error_description !== undefined)) {
			return {
				message: `Partners refused the credential: ${said ?? 'invalid client'}`,
				description: 'Check the Client ID and Client Secret of the Partners credential, and the Sandbox switch (sandbox and production keys differ).',
			};
		}
		if (status === 401) {
			return { message: `Partners: not authenticated${said ? ` (${said})` : ''}${code}`, description: 'The token was refused even after fetching a new one. Check the Partners credential.' };
		}
		if (status === 404) {
			return { message: `Partners: ${said ?? 'not found'}${code}`, description: 'Check the ID: it may belong to the other mode (sandbox/production) or have been deleted.' };
		}
		if (status === 422) {
			const lines = fieldErrorLines(b.errors);
			return {
				message: `Partners rejected the data: ${lines[0] ?? said ?? 'validation failed'}${code}`,
				description: `${said ?? 'Validation failed'}${lines.length ? `:\n- ${lines.join('\n- ')}` : ''}\nCorrect the fields listed and run again.`,
			};
		}
		if (status === 429) return { message: `Partners: too many requests${code}`, description: 'The service is rate limiting. Lower "Parallel Requests" or wait before running again.' };
		return { message: `Partners answered ${status}: ${said ?? 'unexpected error'}${code}`, description: status >= 500 ? 'The service had a problem; reads were retried. Try again later.' : undefined };
	},
};

export interface PartnersContext extends RouterContext {
	api: ServiceClient;
}

export const partnersClient = (ctx: RequestContext) => new ServiceClient(ctx, partnersService);

/** Answer of `GET /v1/products`: one page of plans and where it sits. */
export interface ProductPage {
	data?: { products?: IDataObject[]; pagination?: { currentPage?: number; lastPage?: number } };
}

/** Lists of the client and subscription endpoints have no documented shape: take the first list found. */
export function listIn(body: unknown, keys: string[] = []): IDataObject[] {
	if (Array.isArray(body)) return body as IDataObject[];
	const b = (body ?? {}) as IDataObject;
	if (Array.isArray(b.data)) return b.data as IDataObject[];
	const data = (b.data ?? {}) as IDataObject;
	for (const key of keys) {
		if (Array.isArray(data[key])) return data[key] as IDataObject[];
		if (Array.isArray(b[key])) return b[key] as IDataObject[];
	}
	return [b];
}

/** `{response, data: X}` → X; any other shape is passed through whole. */
export function unwrap(body: unknown): IDataObject {
	const b = (body ?? {}) as IDataObject;
	return b.data && typeof b.data === 'object' && !Array.isArray(b.data) ? (b.data as IDataObject) : b;
}
