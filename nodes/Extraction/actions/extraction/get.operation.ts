import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';
import { concurrencyOption, type OperationResult } from '../../../shared/router';
import { readJob, type ExtractionContext } from '../../transport';
import { extractionIdField, pollIntervalOption, waitFields } from '../common.descriptions';
import {
	afterWait,
	downloadAllDocuments,
	readCompletionSettings,
	resolveJobId,
} from './completion';

export const kind = 'read';

export const description: INodeProperties[] = updateDisplayOptions(
	{ show: { resource: ['extraction'], operation: ['get'] } },
	[
		extractionIdField,
		...waitFields('get'),
		{
			displayName: 'Options',
			name: 'options',
			type: 'collection',
			placeholder: 'Add Option',
			default: {},
			options: [concurrencyOption, pollIntervalOption],
		},
	],
);

/**
 * GET /v1/extractions/{publicId}: the job's progress; optionally waits for the end (shared/wait.ts) and
 * downloads everything. A read: up to Options → Parallel Requests items are read, followed and downloaded at a time.
 */
export async function execute(
	this: IExecuteFunctions,
	ctx: ExtractionContext,
	i: number,
): Promise<OperationResult> {
	const publicId = resolveJobId.call(this, i);
	const settings = readCompletionSettings.call(this, i, 'get');
	const first = await readJob(ctx, publicId, i);
	// Without a deadline a status check always happens: 'deadline' cannot come back here.
	const job = first === 'deadline' ? {} : first;
	const { wait } = settings;
	if (wait)
		return await afterWait.call(this, ctx, publicId, i, { ...settings, wait }, job, {
			created: false,
			warnings: [],
		});
	if (settings.downloadAll)
		return await downloadAllDocuments.call(this, ctx, job, publicId, i, settings);
	return job;
}
