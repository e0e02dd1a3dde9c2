import type { ICredentialType, INodeProperties, Icon } from 'n8n-workflow';

/**
 * The secret the document-extraction service signs its webhook deliveries with (HMAC-SHA256, set in the
 * service's dashboard next to the endpoint URL). Used only by the Extraction Trigger to verify deliveries;
 * nothing is sent anywhere with it. It is tested offline by the Extraction Trigger node (`testedBy`):
 * there is no remote endpoint that could confirm a webhook secret, only a signed delivery can.
 */
export class ExtractionWebhookApi implements ICredentialType {
	name = 'extractionWebhookApi';

	displayName = 'Document Extraction (Mexico, Ecuador) Webhook API';

	icon: Icon = {
		light: 'file:icons/extractionWebhook.svg',
		dark: 'file:icons/extractionWebhook.dark.svg',
	};

	documentationUrl =
		'https://github.com/n8n-nodes-latam-fiscal/n8n-nodes-latam-fiscal/blob/main/docs/triggers.md#document-extraction-mexico-ecuador-trigger';

	properties: INodeProperties[] = [
		{
			displayName:
				"Paste the same secret here and in the extraction dashboard's webhook settings. Deliveries without a valid signature over this secret are refused.",
			name: 'notice',
			type: 'notice',
			default: '',
		},
		{
			displayName: 'Webhook Secret',
			name: 'secret',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			required: true,
			description:
				'The signing secret configured for the webhook endpoint in the extraction dashboard',
		},
	];
}
