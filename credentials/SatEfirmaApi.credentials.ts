import type { ICredentialType, INodeProperties, Icon } from 'n8n-workflow';

/**
 * SAT e.firma (FIEL): the taxpayer's advanced electronic signature, as the SAT issues it — a certificate (`.cer`),
 * its private key (`.key`, encrypted) and the key's password. The SAT (Mexico) node signs its calls to the SAT's
 * bulk download service with it (nodes/Sat/domain/bulk/signing.ts); it is never sent: only the certificate (public)
 * and signatures made with the key travel. The node hands the key and the password to the package's scrubber, so
 * neither appears in any output, error or log (nor the SAT's token).
 *
 * Credential test (nodes/Sat/methods/credentialTest.ts): the key opened with the password, key and certificate
 * matched, the certificate's dates, e.firma and not CSD — offline.
 */
export class SatEfirmaApi implements ICredentialType {
	name = 'satEfirmaApi';

	displayName = 'SAT e.firma (FIEL) API';

	icon: Icon = { light: 'file:icons/satEfirma.svg', dark: 'file:icons/satEfirma.dark.svg' };

	documentationUrl =
		'https://github.com/n8n-nodes-latam-fiscal/n8n-nodes-latam-fiscal/blob/main/docs/sat.md#credential-sat-efirma-fiel';

	properties: INodeProperties[] = [
		{
			displayName:
				'The e.firma\'s two files as text: on Linux `base64 -w0 file.cer`, on macOS `base64 -i file.cer`, in Windows PowerShell `[Convert]::ToBase64String([IO.File]::ReadAllBytes("file.cer"))` (the same for the .key). PEM is accepted too. The key and the password are never sent: only signatures made with them.',
			name: 'notice',
			type: 'notice',
			default: '',
		},
		{
			displayName: 'Certificate (.cer)',
			name: 'publicCertificate',
			type: 'string',
			typeOptions: { rows: 4 },
			default: '',
			required: true,
			placeholder: 'e.g. MIIGBDCCA+ygAwIBAgIUMzAwMDEwMDAwMDA1MDAwMDM0MTUw…',
			description:
				"The e.firma's .cer file: its contents in base64 (what `base64` prints for it) or PEM (-----BEGIN CERTIFICATE-----)",
		},
		{
			displayName: 'Private Key (.key)',
			name: 'privateKey',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			required: true,
			description:
				"The e.firma's .key file: its contents in base64 (the SAT's file is an encrypted PKCS#8 key, binary) or PEM (-----BEGIN ENCRYPTED PRIVATE KEY-----)",
		},
		{
			displayName: 'Key Password',
			name: 'keyPassword',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			required: true,
			description:
				"The password of the .key file (the e.firma's, set when it was issued; not the CIEC)",
		},
	];
}
