import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';
import type { Deferred, OperationResult } from '../../../shared/router';
import type { ReceiptsContext } from '../../transport';
import { issueProperties, issueReceipt, prepareReceipt } from '../common/issue';
import { readSettlementFields, settlementExample, settlementFields } from './fields';

/** Same path as Issue; `reembolso` is required and item taxes are of the no-object-of-tax kind. */
export const description: INodeProperties[] = updateDisplayOptions(
	{ show: { resource: ['purchaseSettlement'], operation: ['issueWithReimbursement'] } },
	issueProperties(settlementExample(true), settlementFields(true)),
);

/** Checks the item before any item of the batch is sent (see shared/router.ts). */
export function validate(this: IExecuteFunctions, _ctx: ReceiptsContext, i: number): void {
	prepareReceipt.call(this, i, 'purchaseSettlementReimbursement', readSettlementFields(true));
}

export async function execute(this: IExecuteFunctions, ctx: ReceiptsContext, i: number): Promise<OperationResult | Deferred> {
	return await issueReceipt.call(this, ctx, i, 'purchaseSettlementReimbursement', '/purchase-settlements/issue', readSettlementFields(true));
}
