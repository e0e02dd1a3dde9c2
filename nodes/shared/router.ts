import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
	INodePropertyCollection,
	NodeParameterValueType,
} from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';
import { FEWER_INPUT_ITEMS, KeptBudget } from './budget';
import { clock } from './clock';
import type { CreatedLedger } from './created';
import { addFacts, factsOf, itemLabel, recoveryOf, withoutTags } from './errors';
import { numberOption } from './options';
import { Semaphore } from './rateLimit';
import type { RequestGate } from './transport';

/** What an operation returns for one input item: one or many JSON objects, or ready-made items (binary). */
export type OperationResult = IDataObject | IDataObject[] | INodeExecutionData[] | undefined;

/**
 * A result finished later, after every item has been sent: e.g. waiting for the tax authority's decision.
 * The router settles all deferred results of an execution together, once the item loop is done, so a batch
 * waits about as long as its slowest item instead of the sum of all waits. Output order and pairing are
 * kept.
 */
export class Deferred {
	constructor(readonly settle: () => Promise<OperationResult>) {}
}

/** What every operation of the item loop has (see ReadModule, WriteModule). */
interface OperationCommon<Ctx> {
	description: INodeProperties[];
	/**
	 * Runs item `itemIndex`. `checked`: what `validate` returned for this item when the items were checked
	 * before the first request (see `validate`), so that what is sent is exactly what was checked, checked
	 * once; undefined when they were not (Continue On Fail, or a read): the operation checks the item itself,
	 * and a bad item becomes its own error item.
	 */
	execute(
		this: IExecuteFunctions,
		ctx: Ctx,
		itemIndex: number,
		checked?: unknown,
	): Promise<OperationResult | Deferred>;
	/**
	 * True when the items' own work (reading parameters, building the request, reading the answer into the
	 * output) should run while other items' requests are in flight: still at most Parallel Requests requests in
	 * flight, but twice as many items under way, so a run waits for the service and little else (the public
	 * services' checks, issuing). An item not yet sent when the run stops is not sent; one already in flight
	 * finishes, so a run stopped by its memory budget may have read up to Parallel Requests answers more.
	 */
	overlaps?: true;
	/**
	 * The operation's own Parallel Requests option (same name, `parallelRequests`, in Options), when its
	 * default or bounds differ from `concurrencyOption`'s (the SRI asks not to be stressed: default 2).
	 */
	parallelOption?: INodeProperties;
	/**
	 * How to ask this operation for less, in the error of a run that would keep more memory than it may
	 * (budget.ts); default: fewer input items per run.
	 */
	narrow?: string;
}

/**
 * An operation that changes nothing at the service (a GET, a question to the SRI or the SAT, a file read, a
 * preview): it may run for several items at once (Options → Parallel Requests, bounded, output order kept), and
 * a bad item fails alone, when its turn comes.
 */
export interface ReadModule<Ctx> extends OperationCommon<Ctx> {
	kind: 'read';
	validate?: never;
}

/**
 * An operation that sends something that changes something (creates, updates, deletes, signs, subscribes,
 * sends an e-mail). `validate` is required: when Continue On Fail is off, every item is checked with it before
 * the first request is sent, so one bad row stops the whole batch with nothing sent, instead of half a batch
 * issued (a write without it does not compile).
 * `write` (the default): runs one item at a time, in order.
 * `parallelWrite`: a write the user may send for several items at once (Options → Parallel Requests, see
 *   `parallelWritesOption`): a failure stops new items from starting while the ones already sent finish, so
 *   that what they created is known (and listed) before the node stops.
 */
export interface WriteModule<Ctx> extends OperationCommon<Ctx> {
	kind?: 'write' | 'parallelWrite';
	/**
	 * Checks item `itemIndex` without sending anything, with every problem of the item in one error (a
	 * `Checker`, validate.ts). What it returns (e.g. the body it checked) is handed to `execute` for the same
	 * item, so what is sent is what was checked.
	 */
	validate(this: IExecuteFunctions, ctx: Ctx, itemIndex: number): unknown;
}

/** One operation of the item loop: a read, or a write that is checked for every item before the first is sent. */
export type OperationModule<Ctx> = ReadModule<Ctx> | WriteModule<Ctx>;

/**
 * An operation that turns every input item of a run into one output (n8n's aggregate pattern, as the Aggregate
 * and Convert to File nodes do): the monthly declarations, built from the month's documents. It reads the items
 * itself (`this.getInputData()`, per-item parameters with their index) and names the items its errors are about;
 * the router pairs what it outputs with every input item, scrubs it and counts it against the run's memory
 * budget. A failure is the run's: with Continue On Fail, one error item paired with every input item.
 */
export interface AggregateModule<Ctx> {
	description: INodeProperties[];
	kind: 'aggregate';
	execute(this: IExecuteFunctions, ctx: Ctx): Promise<OperationResult>;
	/** How to ask for less when the run would keep more memory than it may (budget.ts). */
	narrow?: string;
}

/**
 * Resolves once the event loop has polled for I/O at least once. The place an answer frees goes to a request
 * waiting for it, which n8n's HTTP helper sends on a new connection: the request reaches the wire only when the
 * event loop polls that connection, after whatever runs meanwhile. Waiting here, the item that got the answer
 * reads it (and its worker prepares the next item: n8n evaluates each expression in an isolate, about a
 * millisecond each) after that, while the next request is in flight, instead of before it leaves. Two turns of
 * n8n's sleep (the package's only timer): the event loop polls between any two. Measured (`npm run bench`, the
 * public services): 300 SAT checks at Parallel Requests 2 took 3.67 s instead of 5.99 s (the latency floor: 3 s).
 */
async function untilPolled(): Promise<void> {
	await clock.sleep(0);
	await clock.sleep(0);
}

/** Refused by the gate: the run stopped before this item's request had its place, so it was not sent. */
class NotSent extends Error {}

/**
 * At most `limit` requests in flight, first come first served; a request whose place comes once `stopping()`
 * (an item of the run failed) is not sent (NotSent), and the place of a request that failed is held until its
 * failure is known.
 */
class Gate implements RequestGate {
	private readonly places: Semaphore;

	constructor(
		limit: number,
		private readonly stopping: () => boolean,
	) {
		this.places = new Semaphore(limit);
	}

	async run<T>(send: () => Promise<T>): Promise<T> {
		let handedOn = false;
		const answer = await new Promise<T>((resolve, reject) => {
			void this.places.run(async () => {
				if (this.stopping()) return reject(new NotSent('not sent: the run stopped'));
				let sent: T;
				try {
					sent = await send();
				} catch (error) {
					reject(error);
					// A failed request may stop the run: its place is held until the failure has reached the router
					// (it travels in microtasks, and a timer's turn comes after them), so no item is sent after it.
					if (this.places.waiting > 0) await clock.sleep(0);
					return;
				}
				handedOn = this.places.waiting > 0;
				resolve(sent);
			});
		});
		if (handedOn) await untilPolled();
		return answer;
	}
}

/** What the router reads from an execution's context, besides passing it to the operations. */
export interface RouterContext {
	/** What this execution created: listed in an error that stops the node. */
	created?: CreatedLedger;
	/**
	 * True when the first request of a run may fetch a token that the others then use (Partners): the first
	 * item then runs alone before the others start, so that one token serves them all.
	 */
	fetchesToken?: boolean;
	/**
	 * The execution's service client: its scrubber, which knows every secret of the run (the credential's, the
	 * tokens obtained, secrets given as data), is applied to every item and error the node emits.
	 */
	api?: {
		scrub<T>(value: T): T;
		keepSecret(...values: unknown[]): void;
		/** Bounds the requests in flight (see `route`); undefined lifts the bound. */
		throttle?(gate: RequestGate | undefined): void;
	};
	/**
	 * The memory this run keeps (budget.ts), set by the router: an operation that accumulates (pages, files)
	 * counts what it keeps as it reads, the router counts every item's result as it leaves.
	 */
	kept?: KeptBudget;
}

/**
 * A node's operations by resource, typed from the node's map of resource → operation names (the
 * `node.type.ts` of n8n's Airtable v2 node): an operation the map names without a module, or a module whose
 * `execute` does not fit the node's context, is a compile error.
 */
export type OperationTable<M extends Record<string, string>, Ctx> = {
	[R in keyof M]: { [O in M[R]]: OperationModule<Ctx> | AggregateModule<Ctx> };
};

/**
 * The paths of the parameters the node's form types as passwords (`typeOptions.password`), in every operation of
 * `resources`, through collections and fixed collections (e.g. `['satPassword']`,
 * `['secretFields', 'field', 'value']`): what a user typed there is a secret given as data.
 */
function passwordPaths(
	resources: Record<
		string,
		Record<string, { description: INodeProperties[] } | undefined> | undefined
	>,
): string[][] {
	const known = PASSWORD_PATHS.get(resources);
	if (known) return known;
	const paths: string[][] = [];
	const walk = (properties: INodeProperties[], prefix: string[]) => {
		for (const property of properties) {
			const at = [...prefix, property.name];
			if (property.typeOptions?.password) paths.push(at);
			if (property.type === 'collection' && Array.isArray(property.options))
				walk(property.options as INodeProperties[], at);
			if (property.type === 'fixedCollection' && Array.isArray(property.options))
				for (const group of property.options as INodePropertyCollection[])
					walk(group.values ?? [], [...at, group.name]);
		}
	};
	// A resource's module also exports its own `description` (the operation selector) beside its operations.
	for (const operations of Object.values(resources))
		for (const operation of Object.values(operations ?? {}))
			if (Array.isArray(operation?.description)) walk(operation.description, []);
	PASSWORD_PATHS.set(resources, paths);
	return paths;
}

const PASSWORD_PATHS = new WeakMap<object, string[][]>();

/** The texts typed at `paths` of a node's parameters (through lists), leaving out expressions (`={{ … }}`). */
function typedAt(parameters: unknown, paths: string[][]): string[] {
	const found: string[] = [];
	const visit = (value: unknown, rest: string[]) => {
		if (Array.isArray(value)) return value.forEach((v) => visit(v, rest));
		if (rest.length === 0) {
			if (typeof value === 'string' && value !== '' && !value.startsWith('=')) found.push(value);
			return;
		}
		if (value && typeof value === 'object')
			visit((value as Record<string, NodeParameterValueType>)[rest[0]], rest.slice(1));
	};
	for (const at of paths) visit(parameters, at);
	return found;
}

/** The "Parallel Requests" option offered on read operations; the router reads it from the first item. */
export const concurrencyOption: INodeProperties = {
	displayName: 'Parallel Requests',
	name: 'parallelRequests',
	type: 'number',
	typeOptions: { minValue: 1, maxValue: 20, numberPrecision: 0 },
	default: 5,
	description:
		'How many items to request at the same time (read once per execution, from the first item). Output order always matches input order. Lower it if the service answers with rate-limit errors.',
};

/**
 * The "Parallel Requests" option of operations that write (`kind: 'parallelWrite'`): how many items are sent
 * at the same time. The guarantees of one-at-a-time writing hold (see `route`); only the waiting overlaps.
 */
export const parallelWritesOption: INodeProperties = {
	...concurrencyOption,
	description:
		'How many items are sent to the service at the same time. Every item is checked before the first is sent, a request that may have been processed is never sent again, and the output keeps the input order. 1 sends one after another.',
};

/**
 * Options → Parallel Requests, read once per execution (from the first item), as the form describes it (see
 * numberOption); read also for one item, so that a wrong value is reported the first time.
 */
function parallelRequests(
	this: IExecuteFunctions,
	itemCount: number,
	property: INodeProperties = concurrencyOption,
): number {
	return itemCount ? numberOption.call(this, property, 0, { inOptions: true, once: true }) : 1;
}

function isItemList(value: OperationResult): value is INodeExecutionData[] {
	return (
		Array.isArray(value) &&
		value.length > 0 &&
		value.every((v) => v && typeof v === 'object' && 'json' in v && typeof v.json === 'object')
	);
}

/** The items of one result, each paired with its input item and with its JSON passed through `scrub`. */
function toItems(
	result: OperationResult,
	itemIndex: number,
	scrub: <T>(value: T) => T,
): INodeExecutionData[] {
	if (result === undefined) return [];
	if (isItemList(result))
		return result.map((item) => ({
			...item,
			json: scrub(item.json),
			pairedItem: { item: itemIndex },
		}));
	const list = Array.isArray(result) ? result : [result];
	return list.map((json) => ({
		json: scrub(json as IDataObject),
		pairedItem: { item: itemIndex },
	}));
}

/**
 * The error of item `itemIndex` as n8n shows it: its message starts with `[item N]` (counted from 1, as a person
 * counts the items the editor shows; the one place that names the item, see itemLabel), n8n's context carries the
 * index (from 0, n8n's Item Index), and an error that stops the node lists what the execution created.
 */
function forItem(
	this: IExecuteFunctions,
	error: unknown,
	itemIndex: number,
	created?: CreatedLedger,
	notRun: number[] = [],
): Error & { description?: string | null } {
	let nodeError: Error & { context?: IDataObject; description?: string | null };
	if (error instanceof Error && 'node' in error) {
		nodeError = error as Error & { context?: IDataObject };
		nodeError.context = { ...(nodeError.context ?? {}), itemIndex };
	} else {
		nodeError = new NodeOperationError(
			this.getNode(),
			error instanceof Error ? error.message : String(error),
			{ itemIndex },
		);
	}
	if (factsOf(nodeError).item === undefined) {
		nodeError.message = `${itemLabel(itemIndex)} ${nodeError.message}`;
		shown(nodeError);
		addFacts(nodeError, { item: itemIndex });
	}
	const notes = [
		created?.describe(),
		notRun.length
			? `Not run (the node stopped at this failure): ${itemRanges(notRun)}.`
			: undefined,
	].filter(Boolean);
	if (notes.length)
		nodeError.description = [nodeError.description, ...notes].filter(Boolean).join('\n\n');
	return nodeError;
}

/**
 * `error` with its message and description as the editor can show them: element names quoted, not written as tags
 * (errors.ts withoutTags). Every error the router emits goes through here.
 */
function shown<E extends Error & { description?: string | null }>(error: E): E {
	error.message = withoutTags(error.message);
	if (error.description) error.description = withoutTags(error.description);
	return error;
}

/** Item indexes (n8n's, from 0) as messages name them (from 1), in ranges: `items 6–10, 13`. */
function itemRanges(indexes: number[]): string {
	const ranges: string[] = [];
	for (let k = 0; k < indexes.length; ) {
		let end = k;
		while (end + 1 < indexes.length && indexes[end + 1] === indexes[end] + 1) end++;
		// Counted as a person counts the items the editor shows, from 1 (errors.ts itemLabel).
		const [from, to] = [indexes[k] + 1, indexes[end] + 1];
		ranges.push(from === to ? `${from}` : `${from}–${to}`);
		k = end + 1;
	}
	return `${indexes.length === 1 ? 'item' : 'items'} ${ranges.join(', ')}`;
}

/** How a node's router asks `route` to treat its items. */
interface RouteOptions {
	/**
	 * An item whose input could not be read (its failure carries `notRead`, errors.ts) becomes an item — the error,
	 * `item_index`, the fields that name the input and the input item's files — instead of stopping the node, with
	 * or without Continue On Fail: the node sends it to its Not Read output (shared/outputs.ts).
	 */
	notReadAsItems?: boolean;
}

/**
 * The one item loop of every action node: picks the operation by resource/operation, runs it per item,
 * pairs every output item with its input, and turns a failure into an error item when "Continue On Fail"
 * is set (with the identifiers of anything the item created, see created.ts). Reads, and writes declared
 * `parallelWrite`, may run several items at once (Options → Parallel Requests); other writes run strictly in
 * order. Every write runs only after every item passed `validate`, and is handed what `validate` returned for
 * it (so an item is checked once and sent as checked). Deferred results are settled together once every item
 * has run.
 */
export async function route<Ctx extends RouterContext, M extends Record<string, string>>(
	this: IExecuteFunctions,
	resources: OperationTable<M, Ctx>,
	makeContext: () => Ctx,
	options: RouteOptions = {},
): Promise<INodeExecutionData[][]> {
	const items = this.getInputData();
	const resource = this.getNodeParameter('resource', 0) as string;
	const operation = this.getNodeParameter('operation', 0) as string;
	// The parameters are strings from the workflow: an unknown pair is reported below, not trusted.
	const table = resources as Record<
		string,
		Record<string, OperationModule<Ctx> | AggregateModule<Ctx> | undefined> | undefined
	>;
	const op =
		Object.hasOwn(table, resource) && Object.hasOwn(table[resource] ?? {}, operation)
			? table[resource]?.[operation]
			: undefined;
	if (!op) {
		throw new NodeOperationError(
			this.getNode(),
			`The operation "${operation}" of resource "${resource}" is not supported`,
			{
				description:
					'Pick the resource and operation again in the node: this workflow may come from a newer version of the node.',
			},
		);
	}
	const ctx = makeContext();
	// A password typed in the node's form (not an expression) is a secret given as data: cut out of every output
	// and error from the start, also out of the copy of the node's parameters that n8n attaches to an error,
	// even when the item fails before the operation hands it to the client.
	ctx.api?.keepSecret(...typedAt(this.getNode().parameters, passwordPaths(table)));
	const kept = new KeptBudget(this.getNode());
	ctx.kept = kept;
	// Every item and every error leaves through the client's scrubber (redact.ts), whatever built it.
	const scrub = <T>(value: T): T => (ctx.api ? ctx.api.scrub(value) : value);
	// ...and is counted against the memory the run may keep, before the next item is read.
	const keep = (result: OperationResult, i: number): INodeExecutionData[] => {
		const out = toItems(result, i, scrub);
		kept.settle(i, out, this.getNode().name, op.narrow ?? FEWER_INPUT_ITEMS);
		return out;
	};
	const named = (error: unknown, i: number, created?: CreatedLedger, notRun?: number[]) =>
		scrub(forItem.call(this, error, i, created, notRun));
	const continueOnFail = this.continueOnFail();
	const results: INodeExecutionData[][] = new Array(items.length);
	const deferred: Array<{ i: number; result: Deferred }> = [];

	if (op.kind === 'aggregate') return [await aggregate.call(this, op, ctx, kept, scrub)];

	// What each item's check returned, handed to its execute: the item is checked once, and sent as checked.
	const checked: unknown[] = [];
	if (op.kind !== 'read' && !continueOnFail) {
		for (let i = 0; i < items.length; i++) {
			try {
				checked[i] = await op.validate.call(this, ctx, i);
			} catch (error) {
				throw named(error, i);
			}
		}
	}

	/**
	 * Item `i`'s failure as its item: `{ error }` (with what exists despite it), the shape n8n's "Continue (using
	 * error output)" recognises; an input that could not be read, as a Not Read item (RouteOptions), also says
	 * which input it was and keeps the input item's files, so the Not Read output can save or forward them. An
	 * error that names the item's input (`about`: its `file_name`) says it too: beside `error` with "Continue
	 * (regular output)", as every other item of the node says it; under `details` with "Continue (using error
	 * output)", since n8n moves an item to the error output only when its JSON holds nothing but `error`, `message`
	 * and `details` (an item's own `error` would move it too, but n8n then replaces its JSON with the message:
	 * n8n-core, WorkflowExecute.handleNodeErrorOutput and normalizeNodeErrors).
	 */
	const errorOutput = this.getNode().onError === 'continueErrorOutput';
	const failItem = (error: unknown, i: number): void => {
		kept.release(i); // what the item read is dropped: its error item stands for it
		const failure = named(error, i);
		const notRead = options.notReadAsItems ? factsOf(failure).notRead : undefined;
		const binary = notRead ? items[i]?.binary : undefined;
		const about = notRead ? undefined : factsOf(failure).about;
		results[i] = [
			{
				json: {
					error: failure.message,
					...(notRead ? { item_index: i, ...notRead } : {}),
					...(about ? (errorOutput ? { details: about } : about) : {}),
					...(recoveryOf(failure) ?? {}),
				},
				...(binary ? { binary } : {}),
				pairedItem: { item: i },
			},
		];
	};
	/** Whether a failure of item `i` becomes its item rather than stopping the node. */
	const asItem = (error: unknown) =>
		continueOnFail || (options.notReadAsItems === true && factsOf(error).notRead !== undefined);

	// A failure (without Continue On Fail) stops new items from starting; the items already running finish,
	// so that everything they created is recorded before the node stops.
	const failures = new Map<number, unknown>();
	const limit =
		op.kind === 'read' || op.kind === 'parallelWrite'
			? parallelRequests.call(this, items.length, op.parallelOption)
			: 1;
	// An operation that `overlaps` keeps at most `limit` requests in flight (the client's gate) with twice as many
	// items under way (see OperationModule.overlaps). An item still waiting for its place when the run stops is
	// not sent.
	const gate =
		op.overlaps && op.kind !== 'write' && ctx.api?.throttle
			? new Gate(limit, () => failures.size > 0)
			: undefined;
	ctx.api?.throttle?.(gate);
	const unsent: number[] = [];
	let next = 0;
	// A worker runs the next item until none is left or one failed (at most `max` items), calling the operation's
	// execute itself: no frame of the router's between a worker and the operation.
	const worker = async (max = Infinity) => {
		for (let n = 0; n < max && failures.size === 0 && next < items.length; n++) {
			const i = next++;
			try {
				const result = await op.execute.call(this, ctx, i, checked[i]);
				if (result instanceof Deferred) deferred.push({ i, result });
				else results[i] = keep(result, i);
			} catch (error) {
				if (error instanceof NotSent) unsent.push(i);
				else if (asItem(error)) failItem(error, i);
				else failures.set(i, error);
			}
		}
	};
	// Results land at their index, so the output keeps the input order. Where a token may be fetched, the first
	// item runs alone so that one token serves the rest; then `limit` workers take the next index.
	if (ctx.fetchesToken && limit > 1) await worker(1);
	await Promise.all(
		Array.from(
			{ length: Math.min(gate ? 2 * limit : limit, Math.max(1, items.length - next)) },
			() => worker(),
		),
	);
	// What is settled later (Wait for Final State) has bounds of its own.
	ctx.api?.throttle?.(undefined);
	if (failures.size) {
		const first = Math.min(...failures.keys());
		const notRun = [
			...unsent,
			...Array.from({ length: items.length - next }, (_, k) => next + k),
		].sort((a, b) => a - b);
		throw named(failures.get(first), first, ctx.created, notRun);
	}

	// Every deferred result settles (each one's failure is its own), then the first failure, in item order,
	// stops the node, listing what this execution created.
	await Promise.all(
		deferred.map(async ({ i, result }) => {
			try {
				results[i] = keep(await result.settle(), i);
			} catch (error) {
				if (asItem(error)) failItem(error, i);
				else failures.set(i, error);
			}
		}),
	);
	if (failures.size) {
		const first = Math.min(...failures.keys());
		throw named(failures.get(first), first, ctx.created);
	}
	return [results.flat()];
}

/**
 * Runs an aggregate operation (see AggregateModule) over every input item: its output paired with all of them,
 * scrubbed and counted; its failure either stops the node (as the operation worded it: it names the items) or,
 * with Continue On Fail, is the one error item.
 */
async function aggregate<Ctx extends RouterContext>(
	this: IExecuteFunctions,
	op: AggregateModule<Ctx>,
	ctx: Ctx,
	kept: KeptBudget,
	scrub: <T>(value: T) => T,
): Promise<INodeExecutionData[]> {
	const pairedItem = this.getInputData().map((_, item) => ({ item }));
	let out: INodeExecutionData[];
	try {
		out = toItems(await op.execute.call(this, ctx), 0, scrub);
	} catch (error) {
		const failure = shown(
			scrub(
				error instanceof Error && 'node' in error
					? error
					: new NodeOperationError(
							this.getNode(),
							error instanceof Error ? error.message : String(error),
						),
			),
		);
		if (!this.continueOnFail()) throw failure;
		out = [{ json: { error: failure.message, ...(recoveryOf(failure) ?? {}) } }];
	}
	for (const item of out) item.pairedItem = pairedItem;
	kept.settle(0, out, this.getNode().name, op.narrow ?? FEWER_INPUT_ITEMS);
	return out;
}
