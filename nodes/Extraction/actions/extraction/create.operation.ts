import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';
import type { OperationResult } from '../../../shared/router';
import { jobIdIn, normalizeRecord } from '../../domain/names';
import { redact } from '../../domain/secrets';
import { scrubError, type ExtractionContext } from '../../transport';
import { waitFields } from '../common.descriptions';
import { downloadAllDocuments, readCompletionSettings, waitForJob } from './completion';
import { extractionInputFields, readExtractionInput } from './extractionInput';

export const description: INodeProperties[] = updateDisplayOptions({ show: { resource: ['extraction'], operation: ['create'] } }, [
	...extractionInputFields,
	...waitFields('create'),
]);

/** POST /v1/extractions (not idempotent: never re-sent after it may have reached the service). */
export async function execute(this: IExecuteFunctions, ctx: ExtractionContext, i: number): Promise<OperationResult> {
	const { body, secrets, warnings } = readExtractionInput.call(this, i);
	const settings = readCompletionSettings.call(this, i, 'create');
	const answer = await ctx.api.request({ method: 'POST', path: '/v1/extractions', body, idempotent: false }, i, { secrets });
	// The answer's shape is not shown beyond `publicId`: tolerate a `data` wrapper and the beta name.
	const created = redact(normalizeRecord(answer ?? {}), secrets) as IDataObject;
	const job = created.data && typeof created.data === 'object' && !Array.isArray(created.data) && !created.publicId ? (created.data as IDataObject) : created;
	const withWarnings = (o: IDataObject) => (warnings.length ? { ...o, warnings } : o);
	if (!settings.wait) return withWarnings(job);

	const publicId = jobIdIn(job);
	if (!publicId) {
		throw new NodeOperationError(this.getNode(), `[item ${i}] The extraction was created but the answer has no publicId to wait for`, {
			itemIndex: i,
			description: `Answer: ${JSON.stringify(job).slice(0, 500)}. Do not run this item again (it would create a second extraction); find the job in the dashboard.`,
		});
	}
	try {
		const final = await waitForJob.call(this, ctx, publicId, i, settings);
		if (settings.downloadAll) return await downloadAllDocuments.call(this, ctx, redact(final, secrets), publicId, i, settings);
		return withWarnings(redact(final, secrets));
	} catch (error) {
		// A FAILED job's error details may quote what the SAT was sent.
		throw scrubError(error, secrets);
	}
}
