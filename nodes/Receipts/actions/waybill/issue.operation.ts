import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';
import type { Deferred, OperationResult } from '../../../shared/router';
import type { ReceiptsContext } from '../../transport';
import { issueProperties, issueReceipt, prepareReceipt } from '../common/issue';
import { readWaybillFields, waybillExample, waybillFields } from './fields';

export const description: INodeProperties[] = updateDisplayOptions({ show: { resource: ['waybill'], operation: ['issue'] } }, issueProperties(waybillExample, waybillFields));

/** Checks the item before any item of the batch is sent (see shared/router.ts). */
export function validate(this: IExecuteFunctions, _ctx: ReceiptsContext, i: number): void {
	prepareReceipt.call(this, i, 'waybill', readWaybillFields);
}

export async function execute(this: IExecuteFunctions, ctx: ReceiptsContext, i: number): Promise<OperationResult | Deferred> {
	return await issueReceipt.call(this, ctx, i, 'waybill', '/waybills/issue', readWaybillFields);
}
