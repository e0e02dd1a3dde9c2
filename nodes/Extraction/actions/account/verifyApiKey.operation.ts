import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';
import type { OperationResult } from '../../../shared/router';
import { verifyKey, type ExtractionContext } from '../../transport';

export const kind = 'read';

export const description: INodeProperties[] = updateDisplayOptions(
	{ show: { resource: ['account'], operation: ['verifyApiKey'] } },
	[
		{
			displayName:
				'Checks the API key of the credential: organization, permissions and the plan rate limit',
			name: 'verifyNotice',
			type: 'notice',
			default: '',
		},
	],
);

/** GET /v1/auth/verify: `valid`, `organization`, `permissions`, `rateLimit` (plan, requestsPerHour, remaining). */
export async function execute(
	this: IExecuteFunctions,
	ctx: ExtractionContext,
	i: number,
): Promise<OperationResult> {
	return await verifyKey(ctx, i);
}
