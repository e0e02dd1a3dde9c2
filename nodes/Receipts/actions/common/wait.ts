import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';
import { path } from '../../../shared/path';
import { Deferred, type OperationResult } from '../../../shared/router';
import { clock } from '../../../shared/clock';
import {
	followUntilFinal,
	pollIntervalProperty,
	POLL_INTERVAL_RULE,
	readWaitTimes,
	timedOutWarning,
	waitTimeoutProperty,
	type WaitSettings,
} from '../../../shared/wait';
import { advisories, outcomeOf, signingFailure, stateOf } from '../../domain/outcome';
import type { ReceiptsContext } from '../../transport';
import { present } from './output';
import { afterCreated, followUp, signingFailed, type IssuedIds } from './recovery';

/**
 * Wait for Final State, for a whole batch at once. Issuing stays one item after another; each item that
 * needs to wait returns a Deferred result, and the router settles them all together once every item was
 * sent: the receipts are followed side by side, their status checks bounded by `ctx.checks`
 * (Options → Parallel Status Checks), so 100 receipts take about one authorization cycle, not 100.
 */

/**
 * Wait for Final State is on by default from version 2 of the node: an Issue that outputs CREADO reads as a
 * failure to the person who issued it, while the authority's answer usually comes within seconds. n8n saves
 * only the parameters that differ from their defaults, so a workflow saved with version 1 and the field left
 * off has no value stored: it keeps version 1, whose default stays off, and runs as it always did. New nodes
 * get version 2 (Receipts.node.ts). docs/receipts.md, "Wait for Final State: on by default".
 */
const WAIT_BY_DEFAULT_FROM_VERSION = 2;

export type { WaitSettings };

const waitForFinalState: INodeProperties = {
	displayName: 'Wait for Final State',
	name: 'waitForFinalState',
	type: 'boolean',
	default: true,
	description:
		'Whether to follow the receipt until the tax authority decides (AUTORIZADO, NO AUTORIZADO, DEVUELTO or ERROR), signing fails, or the timeout passes, and output the final receipt with the reason and next step of a rejection. All items of a run are followed together.',
};

/** "Wait for Final State" and its timeout: on Issue, Issue From XML, Reissue and Authorize (shared/wait.ts: the one wait rule). */
const waitTimeoutField = waitTimeoutProperty({
	default: 120,
	displayOptions: { show: { waitForFinalState: [true] } },
	description:
		'How long to wait at most (up to a day). When it passes, the receipt is output in its last state with wait_timed_out set to true.',
});

/** "Wait for Final State" (off in version 1, on from version 2) and its timeout: on Issue, Issue From XML, Reissue and Authorize. */
export const waitFields: INodeProperties[] = [
	{
		...waitForFinalState,
		default: false,
		displayOptions: { show: { '@version': [{ _cnd: { lt: WAIT_BY_DEFAULT_FROM_VERSION } }] } },
	},
	{
		...waitForFinalState,
		displayOptions: { show: { '@version': [{ _cnd: { gte: WAIT_BY_DEFAULT_FROM_VERSION } }] } },
	},
	waitTimeoutField,
];

/** Advanced option: first poll interval, growing by half after each poll (fractions allowed). */
export const pollIntervalOption = pollIntervalProperty({
	default: 5,
	description: `Wait for Final State: ${POLL_INTERVAL_RULE}`,
});

/** Advanced option: how many status checks of one run may be in flight together. */
export const parallelChecksOption: INodeProperties = {
	displayName: 'Parallel Status Checks',
	name: 'parallelChecks',
	type: 'number',
	typeOptions: { minValue: 1, maxValue: 20, numberPrecision: 0 },
	default: 10,
	description:
		'Wait for Final State: how many receipts of this run are checked at the same time (read once per execution, from the first item). Issuing itself is always one receipt after another. Lower it if the service answers with rate-limit errors.',
};

/**
 * Wait for Final State of item `i`, or undefined when it is off. Read before the item is sent, so that a
 * Timeout or Poll Interval that is not a number in range stops the item with nothing sent.
 */
export function readWaitSettings(this: IExecuteFunctions, i: number): WaitSettings | undefined {
	if (
		!this.getNodeParameter(
			'waitForFinalState',
			i,
			this.getNode().typeVersion >= WAIT_BY_DEFAULT_FROM_VERSION,
		)
	)
		return undefined;
	return readWaitTimes.call(this, i, {
		timeout: waitTimeoutField,
		pollInterval: pollIntervalOption,
	});
}

/**
 * What a Receipts operation that issues or signs does with the service's answer for item `i`: records what
 * was issued (`record`: Issue and Issue From XML), stops at once on a signing failure, and either outputs
 * the receipt or — with Wait for Final State (`wait`, read before sending), when the answer is not final
 * yet — follows it as part of the batch.
 */
export async function afterIssue(
	this: IExecuteFunctions,
	ctx: ReceiptsContext,
	i: number,
	answer: IDataObject,
	wait: WaitSettings | undefined,
	opts: { warnings?: string[]; record?: boolean } = {},
): Promise<OperationResult | Deferred> {
	const ids: IssuedIds = {
		id:
			typeof answer.id === 'string' || typeof answer.id === 'number'
				? String(answer.id)
				: undefined,
		clave_acceso: typeof answer.clave_acceso === 'string' ? answer.clave_acceso : undefined,
	};
	if (opts.record && (ids.id || ids.clave_acceso))
		ctx.created.record(i, { ...ids }, stateOf(answer) || undefined);
	const warnings = opts.warnings ?? [];
	const failure = signingFailure(answer);
	if (failure) throw signingFailed(this.getNode(), i, ids, failure);

	if (!wait || outcomeOf(answer) === 'final')
		return present.call(this, i, answer, [...warnings, ...advisories(answer)]);
	const id = ids.id;
	if (!id) {
		throw afterCreated(
			new NodeOperationError(
				this.getNode(),
				`the service's answer carries no receipt id, so its final state cannot be awaited`,
				{ itemIndex: i },
			),
			ids,
		);
	}
	return new Deferred(async () => {
		const { doc, timedOut } = await follow.call(this, ctx, i, { ...ids, id }, answer, wait);
		const out: IDataObject = { ...answer, ...doc };
		const notes = [...warnings, ...advisories(doc)];
		if (timedOut) {
			out.wait_timed_out = true;
			const state = stateOf(out) || 'unknown';
			notes.push(
				`${timedOutWarning('Wait for Final State', wait, state)} ${followUp(ids)}` +
					(state === 'CREADO'
						? ' A receipt that stays CREADO was not signed: check the Certificate Password of the credential and the issue-error notification.'
						: ''),
			);
		}
		return present.call(this, i, out, notes);
	});
}

/**
 * Follows the receipt with GET /edocs/{id} by the one wait rule (shared/wait.ts), its checks bounded by
 * Options → Parallel Status Checks. A signing failure seen on a check ends the wait at once; a check failure
 * that ends the wait (a refused key, or the last failure when the deadline came) fails the item with the
 * receipt's identifiers.
 */
async function follow(
	this: IExecuteFunctions,
	ctx: ReceiptsContext,
	i: number,
	ids: IssuedIds & { id: string },
	first: IDataObject,
	wait: WaitSettings,
): Promise<{ doc: IDataObject; timedOut: boolean }> {
	const followed = await followUntilFinal<IDataObject>({
		settings: wait,
		first,
		// A slot may come free only after the deadline: then there is no check to make.
		check: async (deadline) =>
			await ctx.checks.run(async () =>
				clock.now() < deadline
					? await ctx.api.read(path`/edocs/${ids.id}`, i, { deadline })
					: undefined,
			),
		isFinal: (doc) => {
			const failure = signingFailure(doc);
			if (failure) throw signingFailed(this.getNode(), i, ids, failure);
			return outcomeOf(doc) === 'final';
		},
		merge: (doc, polled) => {
			const merged = { ...doc, ...polled };
			ctx.created.setState(i, stateOf(merged) || undefined);
			return merged;
		},
		path: `/edocs/${ids.id}`,
		what: 'receipt',
	});
	if (followed.outcome === 'check-failed')
		throw afterCreated(followed.error, ids, stateOf(followed.state) || undefined);
	return { doc: followed.state, timedOut: followed.outcome === 'timed-out' };
}
