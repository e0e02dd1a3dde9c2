import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';
import type { Deferred, OperationResult } from '../../../shared/router';
import type { ReceiptsContext } from '../../transport';
import { issueFromXmlProperties, issueXml } from '../common/issue';
import { readXml } from '../common/xml';

export const description: INodeProperties[] = updateDisplayOptions({ show: { resource: ['retention'], operation: ['issueFromXml'] } }, issueFromXmlProperties);

/** Checks the item before any item of the batch is sent (see shared/router.ts). */
export async function validate(this: IExecuteFunctions, _ctx: ReceiptsContext, i: number): Promise<void> {
	await readXml.call(this, i);
}

export async function execute(this: IExecuteFunctions, ctx: ReceiptsContext, i: number): Promise<OperationResult | Deferred> {
	return await issueXml.call(this, ctx, i, '/retentions/issue/xml', 'retention');
}
