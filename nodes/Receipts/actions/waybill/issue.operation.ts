import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';
import type { OperationResult } from '../../../shared/router';
import type { ReceiptsContext } from '../../transport';
import { issueProperties, issueReceipt } from '../common/issue';
import { readWaybillFields, waybillExample, waybillFields } from './fields';

export const description: INodeProperties[] = updateDisplayOptions({ show: { resource: ['waybill'], operation: ['issue'] } }, issueProperties(waybillExample, waybillFields));

export async function execute(this: IExecuteFunctions, ctx: ReceiptsContext, i: number): Promise<OperationResult> {
	return await issueReceipt.call(this, ctx, i, 'waybill', '/waybills/issue', readWaybillFields);
}
