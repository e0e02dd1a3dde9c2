import type {
	ICredentialsDecrypted,
	ICredentialTestFunctions,
	INodeCredentialTestResult,
} from 'n8n-workflow';
import { testCredential } from '../../shared/credentialTest';
import { path } from '../../shared/path';
import { extractionAuthHeaders } from '../auth';
import { extractionService } from '../transport';

/**
 * The Document Extraction credential's Test button (`testedBy: 'extractionApiTest'`): `GET /v1/auth/verify` on
 * the Mexico API of the chosen Environment (a staging key with Production, or the reverse, is refused before
 * anything is sent), under the package's rules (shared/credentialTest.ts). The Ecuador API documents no request
 * that checks a key without doing something: its fields are checked when Taxpayer → Register runs.
 */
export const credentialTest = {
	async extractionApiTest(
		this: ICredentialTestFunctions,
		credential: ICredentialsDecrypted,
	): Promise<INodeCredentialTestResult> {
		return await testCredential(this.helpers, credential, {
			service: extractionService,
			path: path`/v1/auth/verify`,
			headers: async (data) => extractionAuthHeaders(data),
		});
	},
};
