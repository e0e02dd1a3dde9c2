import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';
import type { OperationResult } from '../../../shared/router';
import { attachRecovery, mayHaveBeenProcessed, recoveryOf, reword } from '../../../shared/errors';
import { jobIdIn, normalizeRecord } from '../../domain/names';
import { path } from '../../../shared/path';
import type { ExtractionContext } from '../../transport';
import { waitFields } from '../common.descriptions';
import { downloadAllDocuments, readCompletionSettings, waitForJob } from './completion';
import { extractionInputFields, readExtractionInput } from './extractionInput';

export const description: INodeProperties[] = updateDisplayOptions({ show: { resource: ['extraction'], operation: ['create'] } }, [
	...extractionInputFields,
	...waitFields('create'),
]);

/** Checks every item before the first job is created (see shared/router.ts): nothing is sent when one is wrong. */
export function validate(this: IExecuteFunctions, _ctx: ExtractionContext, i: number): void {
	readExtractionInput.call(this, i);
	readCompletionSettings.call(this, i, 'create');
}

/**
 * POST /v1/extractions (not idempotent: never re-sent after it may have reached the service). Once the job
 * exists, every later failure of the item carries its publicId (see shared/created.ts): creating it again
 * would start a second extraction and spend the hourly creation budget.
 */
export async function execute(this: IExecuteFunctions, ctx: ExtractionContext, i: number): Promise<OperationResult> {
	const { body, secrets, warnings } = readExtractionInput.call(this, i);
	const settings = readCompletionSettings.call(this, i, 'create');
	// The SAT password and FIEL key material never come back in an output or an error (the client cuts them out).
	ctx.api.keepSecret(...secrets);
	let answer: IDataObject;
	try {
		answer = await ctx.api.write(path`/v1/extractions`, i, { body });
	} catch (error) {
		throw lostCreateAnswer(error);
	}
	// The answer's shape is not shown beyond `publicId`: tolerate a `data` wrapper and the beta name.
	const created = normalizeRecord(answer);
	const job = created.data && typeof created.data === 'object' && !Array.isArray(created.data) && !created.publicId ? (created.data as IDataObject) : created;
	const publicId = jobIdIn(job);
	if (publicId) ctx.created?.record(i, { publicId }, typeof job.status === 'string' ? job.status : undefined);
	const withWarnings = (o: IDataObject) => (warnings.length ? { ...o, warnings } : o);
	if (!settings.wait) return withWarnings(job);

	if (!publicId) {
		throw new NodeOperationError(this.getNode(), `The extraction was created but the answer has no publicId to wait for`, {
			itemIndex: i,
			description: `Answer: ${JSON.stringify(job).slice(0, 500)}. Do not run this item again (it would create a second extraction); find the job in the dashboard.`,
		});
	}
	try {
		const final = await waitForJob.call(this, ctx, publicId, i, settings);
		ctx.created?.setState(i, typeof final.status === 'string' ? final.status : undefined);
		if (settings.downloadAll) return await downloadAllDocuments.call(this, ctx, final, publicId, i, settings);
		return withWarnings(final);
	} catch (error) {
		// A FAILED job's error details may quote what the SAT was sent: the router scrubs every error with the
		// client's secrets. The wait's own errors ("Extraction <id> did not finish", "… FAILED") already name the job.
		const namesJob = recoveryOf(error)?.publicId === publicId;
		if (!namesJob) reword(error, `Extraction ${publicId} exists, but following it failed: `);
		throw attachRecovery(error, {
			extraction_exists: true,
			publicId,
			instruction: `This extraction exists: do not create it again; follow it with Extraction → Get (publicId ${publicId}).`,
		});
	}
}

/** A create whose answer was lost (5xx, broken connection, timeout) may have started a job: say so. */
function lostCreateAnswer(error: unknown): unknown {
	if (!mayHaveBeenProcessed(error)) return error;
	const instruction =
		'The extraction may have been created: the answer was lost. Check the jobs in the extraction dashboard (or wait for its extraction.completed webhook) before running this item again; a second run would start a second extraction.';
	if (error instanceof Error) {
		const e = error as Error & { description?: string | null };
		e.description = `${instruction}${e.description ? `\n${e.description}` : ''}`;
	}
	return attachRecovery(error, { extraction_may_exist: true, instruction });
}
