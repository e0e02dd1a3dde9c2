import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';
import type { Deferred, OperationResult } from '../../../shared/router';
import type { ReceiptsContext } from '../../transport';
import { issueProperties, issueReceipt, prepareReceipt } from '../common/issue';
import { readSettlementFields, settlementExample, settlementFields } from './fields';

export const description: INodeProperties[] = updateDisplayOptions(
	{ show: { resource: ['purchaseSettlement'], operation: ['issue'] } },
	issueProperties(settlementExample(false), settlementFields(false)),
);

/** Checks the item before any item of the batch is sent (see shared/router.ts). */
export function validate(this: IExecuteFunctions, _ctx: ReceiptsContext, i: number): void {
	prepareReceipt.call(this, i, 'purchaseSettlement', readSettlementFields(false));
}

export async function execute(this: IExecuteFunctions, ctx: ReceiptsContext, i: number): Promise<OperationResult | Deferred> {
	return await issueReceipt.call(this, ctx, i, 'purchaseSettlement', '/purchase-settlements/issue', readSettlementFields(false));
}
