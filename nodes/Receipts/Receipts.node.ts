import type { IExecuteFunctions, INodeExecutionData, INodeType, INodeTypeDescription } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';
import * as atsRetention from './actions/atsRetention/AtsRetention.resource';
import * as document from './actions/document/Document.resource';
import * as purchaseSettlement from './actions/purchaseSettlement/PurchaseSettlement.resource';
import * as retention from './actions/retention/Retention.resource';
import { router } from './actions/router';
import * as waybill from './actions/waybill/Waybill.resource';
import * as webhook from './actions/webhook/Webhook.resource';

/** Receipts (Ecuador): retentions, waybills, purchase settlements, authorization, webhooks. Operations live in actions/<resource>/. */
export class Receipts implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Receipts (Ecuador)',
		name: 'receipts',
		icon: { light: 'file:receipts.svg', dark: 'file:receipts.dark.svg' },
		group: ['transform'],
		version: 1,
		subtitle: '={{$parameter["operation"] + ": " + $parameter["resource"]}}',
		description: 'Issue Ecuadorian electronic receipts (retentions, waybills, purchase settlements) and follow their SRI authorization',
		defaults: { name: 'Receipts (Ecuador)' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'receiptsApi', required: true }],
		properties: [
			{
				displayName: 'Resource',
				name: 'resource',
				type: 'options',
				noDataExpression: true,
				options: [
					{ name: 'ATS Retention', value: 'atsRetention' },
					{ name: 'Document', value: 'document', description: 'Any receipt kind, by ID (/edocs)' },
					{ name: 'Purchase Settlement', value: 'purchaseSettlement' },
					{ name: 'Retention', value: 'retention' },
					{ name: 'Waybill', value: 'waybill' },
					{ name: 'Webhook', value: 'webhook' },
				],
				default: 'retention',
			},
			...atsRetention.description,
			...document.description,
			...purchaseSettlement.description,
			...retention.description,
			...waybill.description,
			...webhook.description,
		],
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await router.call(this);
	}
}
