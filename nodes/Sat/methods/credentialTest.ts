import type {
	ICredentialsDecrypted,
	ICredentialTestFunctions,
	INodeCredentialTestResult,
} from 'n8n-workflow';
import { clock } from '../../shared/clock';
import { scrubText } from '../../shared/redact';
import { efirmaProblem, efirmaSecrets, readEfirma, type Efirma } from '../domain/efirma';

/**
 * The SAT e.firma (FIEL) credential's Test button (`testedBy: 'satEfirmaTest'`): reads the key with the password,
 * checks that key and certificate belong together, that the certificate is in force today and that it is an
 * e.firma, not a CSD (domain/efirma.ts) — without calling the SAT (its authentication would not tell more: it
 * gives a token even to a certificate the other services then refuse). Says the RFC and the expiry date when it
 * passes, what is wrong and what to do when not; never the key or the password.
 */
export const credentialTest = {
	async satEfirmaTest(
		this: ICredentialTestFunctions,
		credential: ICredentialsDecrypted,
	): Promise<INodeCredentialTestResult> {
		const data = credential.data ?? {};
		const read = readEfirma(data, clock.now());
		const problem = efirmaProblem(read);
		if (problem)
			return {
				status: 'Error',
				message: scrubText(
					`${problem.field} ${problem.problem}. ${problem.fix}`,
					efirmaSecrets(data),
				),
			};
		const efirma = read as Efirma;
		return {
			status: 'OK',
			message: `e.firma of RFC ${efirma.rfc} (${efirma.holder}), certificate ${efirma.certificateNumber}, valid until ${efirma.validTo.toISOString().slice(0, 10)}: the key opens with the password and belongs to the certificate. Nothing was sent to the SAT.`,
		};
	},
};
