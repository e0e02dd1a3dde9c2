import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';
import type { OperationResult } from '../../../shared/router';
import type { ReceiptsContext } from '../../transport';
import { issueProperties, issueReceipt } from '../common/issue';
import { atsRetentionExample, atsRetentionFields, readAtsRetentionFields } from './fields';

export const description: INodeProperties[] = updateDisplayOptions(
	{ show: { resource: ['atsRetention'], operation: ['issue'] } },
	issueProperties(atsRetentionExample, atsRetentionFields),
);

export async function execute(this: IExecuteFunctions, ctx: ReceiptsContext, i: number): Promise<OperationResult> {
	return await issueReceipt.call(this, ctx, i, 'atsRetention', '/ats-retentions/issue', readAtsRetentionFields);
}
