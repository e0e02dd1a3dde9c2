import type { IAuthenticate, ICredentialType, INodeProperties, Icon } from 'n8n-workflow';
import { extractionAuthHeaders } from '../nodes/Extraction/auth';

/**
 * Document Extraction credential. The service has two APIs with addresses and keys of their own: the Mexico API
 * (extraction jobs, downloads, the key check) and the Ecuador API (Taxpayer → Register). One Environment for
 * both; each environment has its own addresses and keys (staging keys start with `staging_`).
 *
 * `authenticate` attaches the Mexico API Key, in the header the chosen scheme names (`Authorization: Bearer
 * <key>` or `x-api-key: <key>`; the header name itself is an expression, which n8n resolves like the value), and
 * the node's client uses it only for the Mexico address. The Ecuador API Key and Organization ID are attached by
 * the node's client (`x-api-key`, `x-organization-id`), only to the Ecuador address (nodes/Extraction/transport.ts).
 * The Ecuador fields are optional: a credential without them serves every operation but Register, which then
 * says which field to fill and sends nothing. The node refuses a staging key with Production (and the reverse)
 * before sending anything. The webhook signing secret is a separate credential (`extractionWebhookApi`) used by
 * the trigger.
 */
export class ExtractionApi implements ICredentialType {
	name = 'extractionApi';

	displayName = 'Document Extraction (Mexico, Ecuador) API';

	icon: Icon = { light: 'file:icons/extraction.svg', dark: 'file:icons/extraction.dark.svg' };

	documentationUrl =
		'https://github.com/n8n-nodes-latam-fiscal/n8n-nodes-latam-fiscal/blob/main/docs/extraction.md#credential-document-extraction-mexico-ecuador-api';

	properties: INodeProperties[] = [
		{
			displayName: 'Environment',
			name: 'environment',
			type: 'options',
			options: [
				{ name: 'Production', value: 'production' },
				{ name: 'Staging', value: 'staging' },
			],
			default: 'production',
			description:
				'Each environment has its own addresses and its own API keys, for Mexico and for Ecuador',
		},
		{
			displayName: 'Mexico Production Base URL',
			name: 'productionBaseUrl',
			type: 'string',
			default: '',
			required: true,
			placeholder: 'https://api.extraction.example.com',
			description:
				'Address of the Mexico API (extractions, downloads, key check) in production, without /v1',
			displayOptions: { show: { environment: ['production'] } },
		},
		{
			displayName: 'Mexico Staging Base URL',
			name: 'stagingBaseUrl',
			type: 'string',
			default: '',
			required: true,
			placeholder: 'https://staging-api.extraction.example.com',
			description:
				'Address of the Mexico API (extractions, downloads, key check) in staging, without /v1',
			displayOptions: { show: { environment: ['staging'] } },
		},
		{
			displayName: 'Mexico API Key',
			name: 'apiKey',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			required: true,
			description:
				'The key of the Mexico API, created in its dashboard with its permissions and shown once. Staging keys start with "staging_". Never sent to the Ecuador address.',
		},
		{
			displayName: 'Mexico Auth Scheme',
			name: 'authScheme',
			type: 'options',
			options: [
				{
					name: 'Authorization: Bearer',
					value: 'bearer',
					description: 'Header Authorization: Bearer &lt;key&gt;',
				},
				{ name: 'X-Api-Key', value: 'xApiKey', description: 'Header x-api-key: &lt;key&gt;' },
			],
			default: 'bearer',
			description:
				'Which header carries the Mexico API Key. The Mexico API documents Bearer; keep it unless the service asks otherwise.',
		},
		{
			displayName: 'Ecuador Production Base URL',
			name: 'ecuadorProductionBaseUrl',
			type: 'string',
			default: '',
			placeholder: 'https://api.ec.extraction.example.com',
			description:
				'Needed only for Taxpayer → Register. Address of the Ecuador API in production: it is not the Mexico address.',
			displayOptions: { show: { environment: ['production'] } },
		},
		{
			displayName: 'Ecuador Staging Base URL',
			name: 'ecuadorStagingBaseUrl',
			type: 'string',
			default: '',
			placeholder: 'https://staging-api.ec.extraction.example.com',
			description:
				'Needed only for Taxpayer → Register. Address of the Ecuador API in staging: it is not the Mexico address.',
			displayOptions: { show: { environment: ['staging'] } },
		},
		{
			displayName: 'Ecuador API Key',
			name: 'ecuadorApiKey',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			description:
				'Needed only for Taxpayer → Register. The key of the Ecuador API, from the Ecuador dashboard (not the Mexico API Key); sent as x-api-key, only to the Ecuador address. Staging keys start with "staging_".',
		},
		{
			displayName: 'Ecuador Organization ID',
			name: 'ecuadorOrganizationId',
			type: 'string',
			default: '',
			placeholder: 'e.g. 3f2b8c1e-9a4d-4f60-b7e2-5c1d0a9e8f34',
			description:
				"Needed only for Taxpayer → Register. Your organization's ID, shown with the key in the Ecuador dashboard; sent as x-organization-id, only to the Ecuador address.",
		},
	];

	// A function, not n8n's generic form with {{ }} expressions: n8n 2.x evaluates each such expression in an
	// isolated VM, which cost about 0.4 ms per expression on every request (measured with a CPU profile of
	// `npm run bench`'s sequential Plan Update: most of its gap to the HTTP Request node). Same headers.
	authenticate: IAuthenticate = async (credentials, requestOptions) => ({
		...requestOptions,
		headers: { ...requestOptions.headers, ...extractionAuthHeaders(credentials) },
	});

	// No `test` request: n8n would run it outside the package's client (it followed a redirect to another host
	// with the key and read answers of any size). The Extraction node tests the Mexico API with GET
	// /v1/auth/verify (`testedBy`, nodes/Extraction/methods/credentialTest.ts): the Ecuador API documents no
	// request that checks a key without doing something.
}
