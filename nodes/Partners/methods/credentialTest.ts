import type {
	ICredentialsDecrypted,
	ICredentialTestFunctions,
	INodeCredentialTestResult,
} from 'n8n-workflow';
import { testCredential } from '../../shared/credentialTest';
import { path } from '../../shared/path';
import { fetchToken, partnersAuthHeaders } from '../token';
import { partnersService } from '../transport';

/**
 * The Partners credential's Test button (`testedBy: 'partnersApiTest'`): a token request, then the first page of
 * the plans (`GET /v1/products?page=1`) with it, both under the package's rules (shared/credentialTest.ts).
 */
export const credentialTest = {
	async partnersApiTest(
		this: ICredentialTestFunctions,
		credential: ICredentialsDecrypted,
	): Promise<INodeCredentialTestResult> {
		return await testCredential(this.helpers, credential, {
			service: partnersService,
			path: path`/v1/products`,
			query: { page: 1 },
			headers: async (data, send, deadline) =>
				partnersAuthHeaders({ ...data, accessToken: await fetchToken(send, data, deadline) }),
		});
	},
};
