import { fetchToken, partnersAuthHeaders } from '../nodes/Partners/token';
import type {
	IAuthenticate,
	ICredentialDataDecryptedObject,
	ICredentialType,
	IHttpRequestHelper,
	INodeProperties,
	Icon,
} from 'n8n-workflow';

/**
 * Partners (Mexico) credential: client-credentials token fetched by `preAuthentication` into the hidden,
 * expirable `accessToken` field. n8n fetches it when the field is empty and stores it with the credential, so
 * one token serves many items and executions. After a 401 the package's client (not n8n) empties the field
 * once, so that a single new token serves every request in flight (nodes/shared/transport.ts). `F-Sandbox-Mode` goes on every request,
 * the token request included.
 */
export class PartnersApi implements ICredentialType {
	name = 'partnersApi';

	displayName = 'Partners (Mexico) API';

	icon: Icon = { light: 'file:icons/partners.svg', dark: 'file:icons/partners.dark.svg' };

	documentationUrl =
		'https://github.com/n8n-nodes-latam-fiscal/n8n-nodes-latam-fiscal/blob/main/docs/partners.md#credential-partners-mexico-api';

	properties: INodeProperties[] = [
		{
			displayName: 'Base URL',
			name: 'baseUrl',
			type: 'string',
			default: '',
			required: true,
			placeholder: 'https://partners.example.com',
			description:
				'Address of the partners service, without a trailing /v1. Production and sandbox share it.',
		},
		{
			displayName: 'Client ID',
			name: 'clientId',
			type: 'string',
			default: '',
			required: true,
		},
		{
			displayName: 'Client Secret',
			name: 'clientSecret',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			required: true,
		},
		{
			displayName: 'Sandbox',
			name: 'sandbox',
			type: 'boolean',
			default: false,
			description: 'Whether every request runs in sandbox mode (header F-Sandbox-Mode: true)',
		},
		{
			displayName: 'Access Token',
			name: 'accessToken',
			type: 'hidden',
			typeOptions: { expirable: true, password: true },
			default: '',
		},
	];

	/**
	 * POST /v1/auth/token through the package's request primitive: no redirect followed (the client secret never
	 * leaves for another address), a deadline, a size cap, and no empty token stored (nodes/Partners/token.ts).
	 */
	async preAuthentication(this: IHttpRequestHelper, credentials: ICredentialDataDecryptedObject) {
		return {
			accessToken: await fetchToken(
				async (options) => await this.helpers.httpRequest(options),
				credentials,
			),
		};
	}

	// A function, not n8n's generic form with {{ }} expressions: n8n 2.x evaluates each such expression in an
	// isolated VM, which cost about 0.4 ms per expression on every request (measured with a CPU profile of
	// `npm run bench`'s sequential Plan Update: most of its gap to the HTTP Request node). Same headers.
	authenticate: IAuthenticate = async (credentials, requestOptions) => ({
		...requestOptions,
		headers: { ...requestOptions.headers, ...partnersAuthHeaders(credentials) },
	});

	// No `test` request: n8n would run it outside the package's client (it followed redirects with the token and
	// read answers of any size). The Partners node tests it (`testedBy`, nodes/Partners/methods/credentialTest.ts).
}
