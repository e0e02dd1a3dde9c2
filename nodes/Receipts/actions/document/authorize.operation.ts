import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';
import type { OperationResult } from '../../../shared/router';
import type { ReceiptsContext } from '../../transport';
import { readReceiptId, receiptIdField } from '../common/id';
import { finish, outputOptions, simplifyField, waitFields } from '../common/output';

export const description: INodeProperties[] = updateDisplayOptions({ show: { resource: ['document'], operation: ['authorize'] } }, [
	receiptIdField('ID of the receipt of any kind to sign and send for authorization'),
	...waitFields,
	simplifyField,
	outputOptions(),
]);

/** POST /edocs/{id}/issue: signs and sends any receipt kind (X-Password); never retried automatically. */
export async function execute(this: IExecuteFunctions, ctx: ReceiptsContext, i: number): Promise<OperationResult> {
	const id = readReceiptId.call(this, i);
	const answer = await ctx.api.sign({ method: 'POST', path: `/edocs/${encodeURIComponent(id)}/issue` }, i);
	return await finish.call(this, ctx, i, { id, ...answer }, { canWait: true });
}
