import type { IAuthenticateGeneric, ICredentialTestRequest, ICredentialType, INodeProperties, Icon } from 'n8n-workflow';

/**
 * Document Extraction credential: one API key per environment (staging keys start with `staging_`),
 * sent on every request in the header the chosen scheme names: `Authorization: Bearer <key>` or
 * `x-api-key: <key>`. The header name itself is an expression, which n8n resolves like the value. The node
 * refuses a staging key with Production (and the reverse) before sending anything. The webhook signing
 * secret is a separate credential (`extractionWebhookApi`) used by the trigger.
 */
export class ExtractionApi implements ICredentialType {
	name = 'extractionApi';

	displayName = 'Document Extraction (Mexico, Ecuador) API';

	icon: Icon = { light: 'file:icons/extraction.svg', dark: 'file:icons/extraction.dark.svg' };

	documentationUrl = 'https://github.com/n8n-nodes-latam-fiscal/n8n-nodes-latam-fiscal#tax-document-extraction';

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
			description: 'Each environment has its own address and its own API keys',
		},
		{
			displayName: 'Production Base URL',
			name: 'productionBaseUrl',
			type: 'string',
			default: '',
			required: true,
			placeholder: 'https://api.extraction.example.com',
			description: 'Address of the production API, without /v1',
			displayOptions: { show: { environment: ['production'] } },
		},
		{
			displayName: 'Staging Base URL',
			name: 'stagingBaseUrl',
			type: 'string',
			default: '',
			required: true,
			placeholder: 'https://staging-api.extraction.example.com',
			description: 'Address of the staging API, without /v1',
			displayOptions: { show: { environment: ['staging'] } },
		},
		{
			displayName: 'API Key',
			name: 'apiKey',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			required: true,
			description: 'Created in the dashboard with its permissions and shown once. Staging keys start with "staging_".',
		},
		{
			displayName: 'Auth Scheme',
			name: 'authScheme',
			type: 'options',
			options: [
				{ name: 'Authorization: Bearer', value: 'bearer', description: 'Header Authorization: Bearer &lt;key&gt;' },
				{ name: 'X-Api-Key', value: 'xApiKey', description: 'Header x-api-key: &lt;key&gt;' },
			],
			default: 'bearer',
			description: 'Which header carries the key; the service documents both',
		},
	];

	authenticate: IAuthenticateGeneric = {
		type: 'generic',
		properties: {
			headers: {
				'={{$credentials.authScheme === "xApiKey" ? "x-api-key" : "Authorization"}}':
					'={{$credentials.authScheme === "xApiKey" ? $credentials.apiKey : "Bearer " + $credentials.apiKey}}',
			},
		},
	};

	test: ICredentialTestRequest = {
		request: {
			baseURL: '={{($credentials.environment === "staging" ? $credentials.stagingBaseUrl : $credentials.productionBaseUrl).replace(/\\/+$/, "")}}',
			url: '/v1/auth/verify',
		},
	};
}
