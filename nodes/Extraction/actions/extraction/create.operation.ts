import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';
import { Deferred, type OperationResult } from '../../../shared/router';
import { attachRecovery, mayHaveBeenProcessed, recoveryOf, reword } from '../../../shared/errors';
import { jobIdIn, normalizeRecord } from '../../domain/names';
import { path } from '../../../shared/path';
import type { ExtractionContext } from '../../transport';
import { pollIntervalOption, waitFields } from '../common.descriptions';
import { afterWait, readCompletionSettings } from './completion';
import { extractionInputFields, readExtractionInput } from './extractionInput';

export const description: INodeProperties[] = updateDisplayOptions(
	{ show: { resource: ['extraction'], operation: ['create'] } },
	[
		...extractionInputFields,
		...waitFields('create'),
		{
			displayName: 'Options',
			name: 'options',
			type: 'collection',
			placeholder: 'Add Option',
			default: {},
			options: [pollIntervalOption],
		},
	],
);

/** Checks every item before the first job is created (see shared/router.ts): nothing is sent when one is wrong. */
export function validate(this: IExecuteFunctions, _ctx: ExtractionContext, i: number): void {
	readExtractionInput.call(this, i);
	readCompletionSettings.call(this, i, 'create');
}

/**
 * POST /v1/extractions (not idempotent: never re-sent after it may have reached the service). Once the job
 * exists, every later failure of the item carries its publicId (see shared/created.ts): creating it again
 * would start a second extraction and spend the hourly creation budget. With Wait for Completion the item
 * returns a Deferred result: the router creates every job of the run first, then follows them together (as
 * Receipts follows a batch), so one slow job does not hold back the next creation.
 */
export async function execute(
	this: IExecuteFunctions,
	ctx: ExtractionContext,
	i: number,
): Promise<OperationResult | Deferred> {
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
	const job =
		created.data &&
		typeof created.data === 'object' &&
		!Array.isArray(created.data) &&
		!created.publicId
			? (created.data as IDataObject)
			: created;
	const publicId = jobIdIn(job);
	if (publicId)
		ctx.created?.record(i, { publicId }, typeof job.status === 'string' ? job.status : undefined);
	const { wait } = settings;
	if (!wait) return warnings.length ? { ...job, warnings } : job;

	if (!publicId) {
		throw new NodeOperationError(
			this.getNode(),
			`The extraction was created but the answer has no publicId to wait for`,
			{
				itemIndex: i,
				description: `Answer: ${JSON.stringify(job).slice(0, 500)}. Do not run this item again (it would create a second extraction); find the job in the dashboard.`,
			},
		);
	}
	return new Deferred(async () => {
		try {
			return await afterWait.call(this, ctx, publicId, i, { ...settings, wait }, job, {
				created: true,
				warnings,
			});
		} catch (error) {
			// A FAILED job's error details may quote what the SAT was sent: the router scrubs every error with the
			// client's secrets. A FAILED job's error already names the job.
			const namesJob = recoveryOf(error)?.publicId === publicId;
			if (!namesJob) reword(error, `Extraction ${publicId} exists, but following it failed: `);
			throw attachRecovery(error, {
				extraction_exists: true,
				publicId,
				instruction: `This extraction exists: do not create it again; follow it with Extraction → Get (publicId ${publicId}).`,
			});
		}
	});
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
