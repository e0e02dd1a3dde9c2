import type { ICredentialDataDecryptedObject } from 'n8n-workflow';

/**
 * The header that carries the Receipts credential on every request: `X-Key`, the account API key (receipts
 * service, Authentication). The credential's `authenticate` and its Test button (methods/credentialTest.ts)
 * both use it. The certificate password (`X-Password`) is not here: only signing operations send it
 * (transport.ts).
 */
export function receiptsAuthHeaders(
	credentials: ICredentialDataDecryptedObject,
): Record<string, string> {
	return { 'X-Key': String(credentials.apiKey ?? '') };
}
