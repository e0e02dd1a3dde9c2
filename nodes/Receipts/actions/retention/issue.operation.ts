import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';
import type { Deferred, OperationResult } from '../../../shared/router';
import type { ReceiptsContext } from '../../transport';
import { issueProperties, issueReceipt, prepareReceipt } from '../common/issue';
import { readRetentionFields, retentionExample, retentionFields } from './fields';

export const description: INodeProperties[] = updateDisplayOptions({ show: { resource: ['retention'], operation: ['issue'] } }, issueProperties(retentionExample, retentionFields));

/** Checks the item before any item of the batch is sent (see shared/router.ts). */
export function validate(this: IExecuteFunctions, _ctx: ReceiptsContext, i: number): void {
	prepareReceipt.call(this, i, 'retention', readRetentionFields);
}

export async function execute(this: IExecuteFunctions, ctx: ReceiptsContext, i: number): Promise<OperationResult | Deferred> {
	return await issueReceipt.call(this, ctx, i, 'retention', '/retentions/issue', readRetentionFields);
}
