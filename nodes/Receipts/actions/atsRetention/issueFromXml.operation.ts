import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';
import type { OperationResult } from '../../../shared/router';
import type { ReceiptsContext } from '../../transport';
import { issueFromXmlProperties, issueXml } from '../common/issue';

export const description: INodeProperties[] = updateDisplayOptions({ show: { resource: ['atsRetention'], operation: ['issueFromXml'] } }, issueFromXmlProperties);

export async function execute(this: IExecuteFunctions, ctx: ReceiptsContext, i: number): Promise<OperationResult> {
	return await issueXml.call(this, ctx, i, '/ats-retentions/issue/xml');
}
