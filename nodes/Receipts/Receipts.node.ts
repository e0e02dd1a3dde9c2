import type {
	IExecuteFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';
import * as document from './actions/document/Document.resource';
import { kindDescription } from './actions/receiptKinds';
import { outputsExpression } from '../shared/outputs';
import { DECISION_OUTPUTS } from './actions/outputs';
import { router } from './actions/router';
import * as webhook from './actions/webhook/Webhook.resource';
import { credentialTest } from './methods/credentialTest';
import {
	getDocumentTypes,
	getDocumentTypesOrNone,
	getIdTypes,
	getIdTypesOrInferred,
	getSalesTaxRates,
	getWithholdingRates,
} from './methods/loadOptions';
import { RECEIPTS_DESCRIPTION } from './description';

/**
 * Receipts (Ecuador): invoices, credit and debit notes, retentions, waybills, purchase settlements; any receipt's
 * authorization, e-mail and files; webhooks. Which code runs for each resource and operation: actions/router.ts
 * (the receipt kinds: the table of actions/receiptKinds.ts); dropdowns in methods/.
 */
export class Receipts implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Receipts (Ecuador)',
		name: 'receipts',
		icon: { light: 'file:receipts.svg', dark: 'file:receipts.dark.svg' },
		group: ['transform'],
		// Version 2: the bookkeeper's Fields form (amounts computed, Issue Date on the form, identification type
		// inferred; actions/common/fields/) and Wait for Final State on by default (actions/common/wait.ts);
		// workflows saved with version 1 keep their defaults, so they send what they sent. Version 3: authorized
		// and not-authorized receipts leave by different outputs (actions/outputs.ts); saved workflows keep one.
		version: [1, 2, 3],
		defaultVersion: 3,
		subtitle: '={{$parameter["operation"] + ": " + $parameter["resource"]}}',
		description: RECEIPTS_DESCRIPTION,
		defaults: { name: 'Receipts (Ecuador)' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: outputsExpression(DECISION_OUTPUTS),
		credentials: [{ name: 'receiptsApi', required: true, testedBy: 'receiptsApiTest' }],
		properties: [
			{
				displayName: 'Resource',
				name: 'resource',
				type: 'options',
				noDataExpression: true,
				options: [
					{ name: 'ATS Retention', value: 'atsRetention' },
					{ name: 'Credit Note', value: 'creditNote' },
					{ name: 'Debit Note', value: 'debitNote' },
					{
						name: 'Document',
						value: 'document',
						description: 'Any receipt kind, by ID (/edocs): authorize, get, e-mail, download',
					},
					{ name: 'Invoice', value: 'invoice' },
					{ name: 'Purchase Settlement', value: 'purchaseSettlement' },
					{ name: 'Retention', value: 'retention' },
					{ name: 'Waybill', value: 'waybill' },
					{ name: 'Webhook', value: 'webhook' },
				],
				default: 'retention',
			},
			...kindDescription('atsRetention'),
			...kindDescription('creditNote'),
			...kindDescription('debitNote'),
			...document.description,
			...kindDescription('invoice'),
			...kindDescription('purchaseSettlement'),
			...kindDescription('retention'),
			...kindDescription('waybill'),
			...webhook.description,
		],
	};

	methods = {
		credentialTest,
		loadOptions: {
			getIdTypes,
			getIdTypesOrInferred,
			getDocumentTypes,
			getDocumentTypesOrNone,
			getSalesTaxRates,
			getWithholdingRates,
		},
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await router.call(this);
	}
}
