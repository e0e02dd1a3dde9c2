import type { IAuthenticateGeneric, ICredentialTestRequest, ICredentialType, INodeProperties, Icon } from 'n8n-workflow';

/**
 * Receipts (Ecuador) credential. `X-Key` (the account API key) goes on every request through the generic
 * `authenticate`. The signing certificate's password is NOT sent here: the Receipts node adds it as
 * `X-Password` only on the operations that sign or subscribe (see nodes/Receipts/transport.ts).
 *
 * Credential test: the service has no list or ping endpoint, so the test asks for a receipt that cannot
 * exist (`GET /edocs/<probe id>`). A 404 means the service is reachable and accepted the key; 401/403
 * mean the key was refused. n8n reports every non-2xx answer of a test as a failure, and its `rules` can
 * only replace the message of such a failure (they cannot turn a 404 into success), so the 404 rule
 * gives a message that says the key was accepted.
 */
export const CREDENTIAL_PROBE_ID = 'n8n-credential-test-0000000000000000';

export class ReceiptsApi implements ICredentialType {
	name = 'receiptsApi';

	displayName = 'Receipts (Ecuador) API';

	icon: Icon = { light: 'file:icons/receipts.svg', dark: 'file:icons/receipts.dark.svg' };

	documentationUrl = 'https://github.com/n8n-nodes-latam-fiscal/n8n-nodes-latam-fiscal#receipts-ecuador';

	properties: INodeProperties[] = [
		{
			displayName: 'Base URL',
			name: 'baseUrl',
			type: 'string',
			default: '',
			required: true,
			placeholder: 'https://receipts.example.com',
			description: 'Address of the receipts service (test and production accounts may use different addresses)',
		},
		{
			displayName: 'API Key',
			name: 'apiKey',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			required: true,
			description: 'Account API key, sent as the X-Key header on every request',
		},
		{
			displayName: 'Certificate Password',
			name: 'certificatePassword',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			description:
				'Password of the signing certificate, sent as the X-Password header only on operations that sign or subscribe (issue, issue from XML, reissue, authorize, webhook subscribe). Leave empty if you only read receipts.',
		},
	];

	authenticate: IAuthenticateGeneric = {
		type: 'generic',
		properties: {
			headers: {
				'X-Key': '={{$credentials.apiKey}}',
			},
		},
	};

	test: ICredentialTestRequest = {
		request: {
			baseURL: '={{$credentials.baseUrl.replace(/\\/+$/, "")}}',
			url: `/edocs/${CREDENTIAL_PROBE_ID}`,
			method: 'GET',
		},
		rules: [
			{
				type: 'responseCode',
				properties: {
					value: 404,
					message:
						'Service reachable and API key accepted. (The test asks for a receipt that does not exist, so the expected answer is 404 "not found"; n8n shows every non-2xx answer as a failed test.)',
				},
			},
			{ type: 'responseCode', properties: { value: 401, message: 'The Receipts service refused the API key (HTTP 401). Check the API Key.' } },
			{ type: 'responseCode', properties: { value: 403, message: 'The Receipts service refused the API key (HTTP 403). Check the API Key.' } },
		],
	};
}
