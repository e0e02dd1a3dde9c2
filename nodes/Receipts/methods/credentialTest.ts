import type {
	ICredentialsDecrypted,
	ICredentialTestFunctions,
	INodeCredentialTestResult,
} from 'n8n-workflow';
import { testCredential } from '../../shared/credentialTest';
import { path } from '../../shared/path';
import { receiptsAuthHeaders } from '../auth';
import { receiptsService } from '../transport';

/**
 * The Receipts credential's Test button (`testedBy: 'receiptsApiTest'`, on the Receipts node and the Receipts
 * Trigger): `GET /catalog/id-types`, a plain read authenticated by X-Key (receipts service's public
 * documentation, Catálogo), under the package's rules (shared/credentialTest.ts). The certificate password is
 * not tested: only signing uses it, and no request checks it without signing something.
 */
export const credentialTest = {
	async receiptsApiTest(
		this: ICredentialTestFunctions,
		credential: ICredentialsDecrypted,
	): Promise<INodeCredentialTestResult> {
		return await testCredential(this.helpers, credential, {
			service: receiptsService,
			path: path`/catalog/id-types`,
			headers: async (data) => receiptsAuthHeaders(data),
		});
	},
};
