import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { route, type ResourceMap } from '../../shared/router';
import { receiptsClient, type ReceiptsContext } from '../transport';
import * as atsRetention from './atsRetention/AtsRetention.resource';
import * as document from './document/Document.resource';
import * as purchaseSettlement from './purchaseSettlement/PurchaseSettlement.resource';
import * as retention from './retention/Retention.resource';
import * as waybill from './waybill/Waybill.resource';
import * as webhook from './webhook/Webhook.resource';

const resources = { atsRetention, retention, waybill, purchaseSettlement, document, webhook } as unknown as ResourceMap<ReceiptsContext>;

export async function router(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	return await route.call(this, resources, () => ({ api: receiptsClient(this) }));
}
