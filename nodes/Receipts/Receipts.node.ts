import type {
	IExecuteFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';
import * as atsRetention from './actions/atsRetention/AtsRetention.resource';
import * as creditNote from './actions/creditNote/CreditNote.resource';
import * as debitNote from './actions/debitNote/DebitNote.resource';
import * as document from './actions/document/Document.resource';
import * as invoice from './actions/invoice/Invoice.resource';
import * as purchaseSettlement from './actions/purchaseSettlement/PurchaseSettlement.resource';
import * as retention from './actions/retention/Retention.resource';
import { router } from './actions/router';
import { credentialTest } from './methods/credentialTest';
import {
	getDocumentTypes,
	getIdTypes,
	getSalesTaxRates,
	getWithholdingRates,
} from './methods/loadOptions';
import * as waybill from './actions/waybill/Waybill.resource';
import * as webhook from './actions/webhook/Webhook.resource';
import { RECEIPTS_DESCRIPTION } from './description';

/**
 * Receipts (Ecuador): invoices, credit and debit notes, retentions, waybills, purchase settlements; any receipt's
 * authorization, e-mail and files; webhooks. Operations live in actions/<resource>/, dropdowns in methods/.
 */
export class Receipts implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Receipts (Ecuador)',
		name: 'receipts',
		icon: { light: 'file:receipts.svg', dark: 'file:receipts.dark.svg' },
		group: ['transform'],
		// Version 2: the bookkeeper's Fields form (amounts computed, Issue Date on the form, identification type
		// inferred; actions/common/fields.ts) and Wait for Final State on by default (actions/common/wait.ts);
		// workflows saved with version 1 keep their defaults, so they send what they sent.
		version: [1, 2],
		defaultVersion: 2,
		subtitle: '={{$parameter["operation"] + ": " + $parameter["resource"]}}',
		description: RECEIPTS_DESCRIPTION,
		defaults: { name: 'Receipts (Ecuador)' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
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
			...atsRetention.description,
			...creditNote.description,
			...debitNote.description,
			...document.description,
			...invoice.description,
			...purchaseSettlement.description,
			...retention.description,
			...waybill.description,
			...webhook.description,
		],
	};

	methods = {
		credentialTest,
		loadOptions: { getIdTypes, getDocumentTypes, getSalesTaxRates, getWithholdingRates },
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await router.call(this);
	}
}
