import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';
import type { OperationResult } from '../../../shared/router';
import type { ReceiptsContext } from '../../transport';
import { getProperties, getReceipt } from '../common/get';

export const kind = 'read';

export const description: INodeProperties[] = updateDisplayOptions({ show: { resource: ['waybill'], operation: ['get'] } }, getProperties('waybill'));

export async function execute(this: IExecuteFunctions, ctx: ReceiptsContext, i: number): Promise<OperationResult> {
	return await getReceipt.call(this, ctx, i, '/waybills');
}
