import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';
import type { OperationResult } from '../../../shared/router';
import type { ReceiptsContext } from '../../transport';
import { issueProperties, issueReceipt } from '../common/issue';
import { readSettlementFields, settlementExample, settlementFields } from './fields';

/** Same path as Issue; `reembolso` is required and item taxes are of the no-object-of-tax kind. */
export const description: INodeProperties[] = updateDisplayOptions(
	{ show: { resource: ['purchaseSettlement'], operation: ['issueWithReimbursement'] } },
	issueProperties(settlementExample(true), settlementFields(true)),
);

export async function execute(this: IExecuteFunctions, ctx: ReceiptsContext, i: number): Promise<OperationResult> {
	return await issueReceipt.call(this, ctx, i, 'purchaseSettlementReimbursement', '/purchase-settlements/issue', readSettlementFields(true));
}
