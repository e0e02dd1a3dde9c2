import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';
import type { OperationResult } from '../../../shared/router';
import type { ReceiptsContext } from '../../transport';
import { issueProperties, issueReceipt } from '../common/issue';
import { readSettlementFields, settlementExample, settlementFields } from './fields';

export const description: INodeProperties[] = updateDisplayOptions(
	{ show: { resource: ['purchaseSettlement'], operation: ['issue'] } },
	issueProperties(settlementExample(false), settlementFields(false)),
);

export async function execute(this: IExecuteFunctions, ctx: ReceiptsContext, i: number): Promise<OperationResult> {
	return await issueReceipt.call(this, ctx, i, 'purchaseSettlement', '/purchase-settlements/issue', readSettlementFields(false));
}
