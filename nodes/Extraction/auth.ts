import type { ICredentialDataDecryptedObject } from 'n8n-workflow';

/**
 * The header that carries the Mexico API Key, as the credential's Auth Scheme says: `Authorization: Bearer
 * <key>` (what the Mexico API documents) or `x-api-key: <key>`. The credential's `authenticate` and its Test
 * button (methods/credentialTest.ts) both use it; it goes only to the Mexico address (transport.ts).
 */
export function extractionAuthHeaders(
	credentials: ICredentialDataDecryptedObject,
): Record<string, string> {
	const key = String(credentials.apiKey ?? '');
	return credentials.authScheme === 'xApiKey'
		? { 'x-api-key': key }
		: { Authorization: `Bearer ${key}` };
}
