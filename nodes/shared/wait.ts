import type { IDisplayOptions, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { clock, type Clock } from './clock';
import { factsOf } from './errors';
import { numberOption } from './options';

/**
 * The one wait rule of the package: after a request that starts something the service finishes later, the
 * node can follow it until it is final. Receipts' **Wait for Final State** follows a receipt until the tax
 * authority decides; Extraction's **Wait for Completion** follows a job until it is COMPLETED or FAILED. Both
 * are this rule:
 * - the same fields: **Timeout (Seconds)** (`waitTimeout`) and **Options → Poll Interval (Seconds)**
 *   (`options.pollInterval`); each service gives their defaults and its words;
 * - the answer of the request that started it is the first state: when it is final, nothing is checked;
 * - the first check comes Poll Interval after the wait starts, each later one 1.5 times later, up to 30 s (or
 *   up to Poll Interval, when that is longer); no check starts or outlives the deadline;
 * - a check that fails for a reason that may pass (404: the service does not show the new thing yet; 429, a
 *   5xx or the network, after the client's own retries) does not end the wait; a refused key (401/403) ends it
 *   at once; when the deadline comes after a failed check, that failure is the outcome (`lastCheckFailure`);
 * - when the deadline passes first, the thing exists and is not lost: the caller outputs it in its last state,
 *   marked `wait_timed_out: true`, with a warning that says how to follow it (`timedOutWarning`).
 * What each service configures: its toggle (named for what is awaited), the defaults, how one check is made
 * and paced (Receipts: Parallel Status Checks; Extraction: 100 status checks per minute), and which states are
 * final and which are failures (`isFinal`, which throws for a failure such as a refused signature or a FAILED job).
 */

/** Each check waits this many times longer than the one before… */
const GROWTH = 1.5;
/** …up to this long (or up to the first interval, when that is longer). */
const MAX_INTERVAL_MS = 30_000;

/** What a service says about one of its wait fields: its default and its words. */
interface WaitFieldWords {
	default: number;
	description: string;
}

/** **Timeout (Seconds)**, shown under the service's toggle: its name, label and range are the same in every node. */
export function waitTimeoutProperty({
	default: seconds,
	description,
	displayOptions,
}: WaitFieldWords & { displayOptions: IDisplayOptions }): INodeProperties {
	return {
		displayName: 'Timeout (Seconds)',
		name: 'waitTimeout',
		type: 'number',
		typeOptions: { minValue: 0, maxValue: 86400 },
		default: seconds,
		description,
		displayOptions,
	};
}

/** **Options → Poll Interval (Seconds)**: its name, label and range are the same in every node. */
export function pollIntervalProperty({
	default: seconds,
	description,
}: WaitFieldWords): INodeProperties {
	return {
		displayName: 'Poll Interval (Seconds)',
		name: 'pollInterval',
		type: 'number',
		typeOptions: { minValue: 0.01, maxValue: 3600, numberPrecision: 2 },
		default: seconds,
		description,
	};
}

/** How the interval grows, for the option's description: one sentence in every node. */
export const POLL_INTERVAL_RULE =
	'seconds before the first check; each later check waits 1.5 times longer, up to 30 seconds (or Poll Interval, when longer)';

export interface WaitSettings {
	/** How long the wait may take, from its start. */
	timeoutMs: number;
	/** The first interval (Poll Interval). */
	firstMs: number;
}

/**
 * Fields an earlier version of a node saved under other names (Extraction before the one wait rule: `timeout`
 * and a `pollInterval` of its own, not in Options), kept in the node's description as hidden parameters:
 * n8n drops a saved parameter its description does not list before the node runs (n8n-workflow 2.41,
 * `Workflow` → `NodeHelpers.getNodeParameters`). `label` names the old field in an error about its value.
 */
interface LegacyWaitFields {
	timeout?: { name: string; label: string };
	pollInterval?: { name: string; label: string };
}

/**
 * The wait settings of item `i`, read by the package's rule for number options (options.ts): a value that is not
 * a number in range stops the item before anything is sent. A workflow saved with the legacy names keeps its
 * values: the field the form shows wins once it is changed from its default (Timeout) or added (Poll Interval in
 * Options); until then the saved old value is used.
 */
export function readWaitTimes(
	this: IExecuteFunctions,
	i: number,
	fields: { timeout: INodeProperties; pollInterval: INodeProperties },
	legacy: LegacyWaitFields = {},
): WaitSettings {
	const saved = (old: { name: string } | undefined) => {
		if (!old) return false;
		const value: unknown = this.getNodeParameter(old.name, i, '');
		return value !== '' && value !== undefined && value !== null;
	};
	const asLegacy = (field: INodeProperties, old: { name: string; label: string }, now: string) => ({
		...field,
		name: old.name,
		displayName: `${old.label} (a field of an earlier version of this node; set ${now} instead)`,
	});

	const timeoutChanged =
		this.getNodeParameter(fields.timeout.name, i, fields.timeout.default) !==
		fields.timeout.default;
	const timeout =
		!timeoutChanged && legacy.timeout && saved(legacy.timeout)
			? numberOption.call(
					this,
					asLegacy(fields.timeout, legacy.timeout, fields.timeout.displayName),
					i,
				)
			: numberOption.call(this, fields.timeout, i);

	const options = this.getNodeParameter('options', i, {});
	const intervalAdded =
		typeof options === 'object' && options !== null && fields.pollInterval.name in options;
	const interval =
		!intervalAdded && legacy.pollInterval && saved(legacy.pollInterval)
			? numberOption.call(
					this,
					asLegacy(
						fields.pollInterval,
						legacy.pollInterval,
						`Options → ${fields.pollInterval.displayName}`,
					),
					i,
				)
			: numberOption.call(this, fields.pollInterval, i, { inOptions: true });

	return { timeoutMs: timeout * 1000, firstMs: interval * 1000 };
}

/**
 * How a wait takes a status check that failed:
 * - `ends`: a refused key (401/403) does not pass by waiting, so the wait ends at once;
 * - `counts`: whether it is the wait's last failure, reported if the deadline comes; not when the check was
 *   cut short by the deadline with no answer at all, which is the wait timing out, not a failure of its own.
 */
function failedCheck(error: unknown): { ends: boolean; counts: boolean } {
	const { status, cutByDeadline } = factsOf(error);
	const ends = status === 401 || status === 403;
	return { ends, counts: ends || !cutByDeadline };
}

/**
 * The failure a wait ends with: a 404 that lasted until the deadline is explained (the service had not made
 * what it just created visible yet, `GET <path>` says not found).
 */
function lastCheckFailure<E>(error: E, path: string, what: string): E {
	const e = error as { description?: string | null };
	if (factsOf(error).status === 404)
		e.description = `GET ${path} still answered 404 (not found) when the wait ended: the service had not made the new ${what} visible yet.`;
	return error;
}

/** What a service tells the loop about the thing it follows. */
interface Follow<S> {
	settings: WaitSettings;
	/** The state known when the wait starts: the answer of the request that started it, or a first read. */
	first: S;
	/**
	 * One status check, bounded by `deadline` (epoch milliseconds): the new state, or undefined when no check
	 * could be made before the deadline (a pacing slot came too late). Errors are failed checks (`failedCheck`).
	 */
	check(deadline: number): Promise<S | undefined>;
	/** The state after a check (default: what the check read). Receipts: the first answer merged with the read. */
	merge?(state: S, read: S): S;
	/** Whether `state` ends the wait. Throws for a state that is a failure (a refused signature, a FAILED job). */
	isFinal(state: S): boolean;
	/** For the message of a check that failed until the deadline: the path checked and what is awaited ("receipt"). */
	path: string;
	what: string;
	/** Where the time comes from (default: the package's one clock, clock.ts). */
	clock?: Clock;
}

/**
 * How a wait ended: the thing is final; the deadline passed first (`timed-out`, its last state); or a check
 * failed in a way that ends the wait (`check-failed`: a refused key at once, or the last failure when the
 * deadline came), with the last state known. A final state that is a failure is thrown by `isFinal`.
 */
type Followed<S> =
	| { outcome: 'final'; state: S }
	| { outcome: 'timed-out'; state: S }
	| { outcome: 'check-failed'; state: S; error: unknown };

/** Follows one thing until it is final or the deadline passes (the rule above). */
export async function followUntilFinal<S>(f: Follow<S>): Promise<Followed<S>> {
	const time = f.clock ?? clock;
	const deadline = time.now() + f.settings.timeoutMs;
	let state = f.first;
	if (f.isFinal(state)) return { outcome: 'final', state };
	let delay = f.settings.firstMs;
	const cap = Math.max(delay, MAX_INTERVAL_MS);
	let lastError: unknown;
	for (;;) {
		const remaining = deadline - time.now();
		if (remaining <= 0) break;
		await time.sleep(Math.min(delay, remaining));
		delay = Math.min(cap, delay * GROWTH);
		if (time.now() >= deadline) break;
		let next: S | undefined;
		try {
			next = await f.check(deadline);
		} catch (error) {
			const failed = failedCheck(error);
			if (failed.ends) return { outcome: 'check-failed', state, error };
			if (failed.counts) lastError = error;
			continue;
		}
		if (next === undefined) break;
		lastError = undefined;
		state = f.merge ? f.merge(state, next) : next;
		if (f.isFinal(state)) return { outcome: 'final', state };
	}
	if (lastError !== undefined)
		return { outcome: 'check-failed', state, error: lastCheckFailure(lastError, f.path, f.what) };
	return { outcome: 'timed-out', state };
}

/** The first words of the warning a timed-out item carries, e.g. "Wait for Final State timed out after 120 s in state CREADO." */
export function timedOutWarning(toggle: string, settings: WaitSettings, state: string): string {
	return `${toggle} timed out after ${Math.round(settings.timeoutMs / 1000)} s in state ${state}.`;
}
