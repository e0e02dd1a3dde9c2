import type { IAuthenticate, ICredentialType, INodeProperties, Icon } from 'n8n-workflow';
import { receiptsAuthHeaders } from '../nodes/Receipts/auth';
import { CREDENTIAL_ISSUER } from '../nodes/Receipts/domain/labels';

/**
 * Receipts (Ecuador) credential. `X-Key` (the account API key) goes on every request through the generic
 * `authenticate`. The signing certificate's password is NOT sent here: the Receipts node adds it as
 * `X-Password` only on the operations that sign (see nodes/Receipts/transport.ts). The Access Key Secret is
 * never sent: it keys the reproducible access key (nodes/shared/sri/accessKey.ts).
 *
 * Credential test (nodes/Receipts/methods/credentialTest.ts): `GET /catalog/id-types`, the identification-type
 * catalog, a plain read authenticated by `X-Key` (receipts service's public documentation, Catálogo).
 */
export class ReceiptsApi implements ICredentialType {
	name = 'receiptsApi';

	displayName = 'Receipts (Ecuador) API';

	icon: Icon = { light: 'file:icons/receipts.svg', dark: 'file:icons/receipts.dark.svg' };

	documentationUrl =
		'https://github.com/n8n-nodes-latam-fiscal/n8n-nodes-latam-fiscal/blob/main/docs/receipts.md#credential-receipts-ecuador-api';

	properties: INodeProperties[] = [
		{
			displayName: 'Base URL',
			name: 'baseUrl',
			type: 'string',
			default: '',
			required: true,
			placeholder: 'https://receipts.example.com',
			description:
				'Address of the receipts service (test and production accounts may use different addresses)',
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
				'Password of the signing certificate, sent as the X-Password header only on operations that sign (issue, issue from XML, reissue, authorize). Leave empty if you only read receipts or subscribe to notifications.',
		},
		{
			displayName: 'Access Key Secret',
			name: 'accessKeySecret',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			description:
				"Only for Options → Access Key → Reproducible: a long random text (at least 16 characters) that keys the numeric code of the access keys the node builds, so nobody can compute a receipt's access key from its public data. Never sent anywhere. Fill it in once and keep it: changing it changes the keys, and a re-run would no longer carry the same key.",
		},
		{
			displayName:
				'Issuer (Emisor): enter your company once here and every Issue, Reissue and Preview uses it. Every receipt needs its RUC, Legal Name, Establishment Code and Emission Point, from here or from the node. A value given in the node, or in a JSON body, overrides the one saved here.',
			name: 'issuerNotice',
			type: 'notice',
			default: '',
		},
		{
			displayName: CREDENTIAL_ISSUER.ruc,
			name: 'issuerRuc',
			type: 'string',
			default: '',
			placeholder: 'e.g. 1792146739001',
			description: '13 digits (emisor.ruc)',
		},
		{
			displayName: CREDENTIAL_ISSUER.razon_social,
			name: 'issuerLegalName',
			type: 'string',
			default: '',
			description: 'emisor.razon_social',
		},
		{
			displayName: 'Trade Name (Nombre Comercial)',
			name: 'issuerTradeName',
			type: 'string',
			default: '',
			description: 'emisor.nombre_comercial',
		},
		{
			displayName: 'Main Address (Dirección Matriz)',
			name: 'issuerAddress',
			type: 'string',
			default: '',
			description: 'emisor.direccion',
		},
		{
			displayName: CREDENTIAL_ISSUER.codigo,
			name: 'issuerEstablishment',
			type: 'string',
			default: '',
			placeholder: 'e.g. 001',
			description: 'emisor.establecimiento.codigo',
		},
		{
			displayName: CREDENTIAL_ISSUER.punto_emision,
			name: 'issuerEmissionPoint',
			type: 'string',
			default: '',
			placeholder: 'e.g. 001',
			description: 'emisor.establecimiento.punto_emision',
		},
		{
			displayName: 'Establishment Address (Dirección Establecimiento)',
			name: 'issuerEstablishmentAddress',
			type: 'string',
			default: '',
			description: 'emisor.establecimiento.direccion',
		},
		{
			displayName: 'Keeps Accounting (Obligado a Llevar Contabilidad)',
			name: 'issuerKeepsAccounting',
			type: 'options',
			options: [
				{ name: 'Not Set', value: '' },
				{ name: 'No', value: 'no' },
				{ name: 'Yes', value: 'yes' },
			],
			default: '',
			description: 'emisor.obligado_contabilidad',
		},
		{
			displayName: 'Special Taxpayer Number (Contribuyente Especial)',
			name: 'issuerSpecialTaxpayer',
			type: 'string',
			default: '',
			description: 'emisor.contribuyente_especial; leave empty if you are not one',
		},
		{
			displayName: 'Regime (Régimen)',
			name: 'issuerRegime',
			type: 'string',
			default: '',
			placeholder: 'e.g. CONTRIBUYENTE RÉGIMEN RIMPE',
			description:
				'emisor.regimen_rimpe, as the SRI names your regime; leave empty if none applies',
		},
	];

	// A function, not n8n's generic form with {{ }} expressions: n8n 2.x evaluates each such expression in an
	// isolated VM, which cost about 0.4 ms per expression on every request (measured with a CPU profile of
	// `npm run bench`'s sequential Plan Update: most of its gap to the HTTP Request node). Same headers.
	authenticate: IAuthenticate = async (credentials, requestOptions) => ({
		...requestOptions,
		headers: { ...requestOptions.headers, ...receiptsAuthHeaders(credentials) },
	});

	// No `test` request: n8n would run it outside the package's client (it followed a redirect to another host
	// with the X-Key and read answers of any size). The Receipts node and trigger test it (`testedBy`,
	// nodes/Receipts/methods/credentialTest.ts).
}
