import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';
import type { CreatedLedger } from './created';
import { addFacts, factsOf, itemLabel, recoveryOf } from './errors';

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

export interface OperationModule<Ctx> {
	description: INodeProperties[];
	execute(this: IExecuteFunctions, ctx: Ctx, itemIndex: number): Promise<OperationResult | Deferred>;
	/**
	 * `read`: may run for several items at once (bounded, output order kept).
	 * `write`: runs one item at a time, in order (default).
	 */
	kind?: 'read' | 'write';
	/**
	 * Checks item `itemIndex` without sending anything. When a write operation has it and Continue On Fail
	 * is off, every item is checked before the first request is sent: one bad row stops the whole batch
	 * with nothing sent, instead of half a batch issued.
	 */
	validate?(this: IExecuteFunctions, ctx: Ctx, itemIndex: number): void | Promise<void>;
}

/** What the router reads from an execution's context, besides passing it to the operations. */
export interface RouterContext {
	/** What this execution created: listed in an error that stops the node. */
	created?: CreatedLedger;
}

/**
 * A node's operations by resource, typed from the node's map of resource → operation names (the
 * `node.type.ts` of n8n's Airtable v2 node): an operation the map names without a module, or a module whose
 * `execute` does not fit the node's context, is a compile error.
 */
export type OperationTable<M extends Record<string, string>, Ctx> = { [R in keyof M]: { [O in M[R]]: OperationModule<Ctx> } };

/** The "Parallel Requests" option offered on read operations; the router reads it from the first item. */
export const concurrencyOption: INodeProperties = {
	displayName: 'Parallel Requests',
	name: 'parallelRequests',
	type: 'number',
	typeOptions: { minValue: 1, maxValue: 20 },
	default: 5,
	description:
		'How many items to request at the same time. Output order always matches input order. Lower it if the service answers with rate-limit errors.',
};

function isItemList(value: OperationResult): value is INodeExecutionData[] {
	return Array.isArray(value) && value.length > 0 && value.every((v) => v && typeof v === 'object' && 'json' in v && typeof v.json === 'object');
}

function toItems(result: OperationResult, itemIndex: number): INodeExecutionData[] {
	if (result === undefined) return [];
	if (isItemList(result)) return result.map((item) => ({ ...item, pairedItem: { item: itemIndex } }));
	const list = Array.isArray(result) ? result : [result];
	return list.map((json) => ({ json: json as IDataObject, pairedItem: { item: itemIndex } }));
}

/**
 * The error of item `itemIndex` as n8n shows it: its message starts with `[item N]` (counted from 1; the one
 * place that names the item), n8n's context carries the index, and an error that stops the node lists what the
 * execution created.
 */
function forItem(this: IExecuteFunctions, error: unknown, itemIndex: number, created?: CreatedLedger): Error & { description?: string | null } {
	let nodeError: Error & { context?: IDataObject; description?: string | null };
	if (error instanceof Error && 'node' in error) {
		nodeError = error as Error & { context?: IDataObject };
		nodeError.context = { ...(nodeError.context ?? {}), itemIndex };
	} else {
		nodeError = new NodeOperationError(this.getNode(), error instanceof Error ? error.message : String(error), { itemIndex });
	}
	if (factsOf(nodeError).item === undefined) {
		nodeError.message = `${itemLabel(itemIndex)} ${nodeError.message}`;
		addFacts(nodeError, { item: itemIndex });
	}
	const list = created?.describe();
	if (list) nodeError.description = `${nodeError.description ? `${nodeError.description}\n\n` : ''}${list}`;
	return nodeError;
}

/**
 * The one item loop of every action node: picks the operation by resource/operation, runs it per item,
 * pairs every output item with its input, and turns a failure into an error item when "Continue On Fail"
 * is set (with the identifiers of anything the item created, see created.ts). Read operations may run
 * several items at once (bounded); writes run strictly in order, after every item passed `validate`.
 * Deferred results are settled together once every item has run.
 */
export async function route<Ctx extends RouterContext, M extends Record<string, string>>(
	this: IExecuteFunctions,
	resources: OperationTable<M, Ctx>,
	makeContext: () => Ctx,
): Promise<INodeExecutionData[][]> {
	const items = this.getInputData();
	const resource = this.getNodeParameter('resource', 0) as string;
	const operation = this.getNodeParameter('operation', 0) as string;
	// The parameters are strings from the workflow: an unknown pair is reported below, not trusted.
	const table = resources as Record<string, Record<string, OperationModule<Ctx> | undefined> | undefined>;
	const op = Object.hasOwn(table, resource) && Object.hasOwn(table[resource] ?? {}, operation) ? table[resource]?.[operation] : undefined;
	if (!op) {
		throw new NodeOperationError(this.getNode(), `The operation "${operation}" of resource "${resource}" is not supported`, {
			description: 'Pick the resource and operation again in the node: this workflow may come from a newer version of the node.',
		});
	}
	const ctx = makeContext();
	const continueOnFail = this.continueOnFail();
	const results: INodeExecutionData[][] = new Array(items.length);
	const deferred: Array<{ i: number; result: Deferred }> = [];

	if (op.kind !== 'read' && op.validate && !continueOnFail) {
		for (let i = 0; i < items.length; i++) {
			try {
				await op.validate.call(this, ctx, i);
			} catch (error) {
				throw forItem.call(this, error, i);
			}
		}
	}

	const failItem = (error: unknown, i: number): void => {
		const named = forItem.call(this, error, i);
		results[i] = [{ json: { error: named.message, ...(recoveryOf(named) ?? {}) }, pairedItem: { item: i } }];
	};

	let failed = false;
	const runOne = async (i: number): Promise<void> => {
		try {
			const result = await op.execute.call(this, ctx, i);
			if (result instanceof Deferred) deferred.push({ i, result });
			else results[i] = toItems(result, i);
		} catch (error) {
			if (continueOnFail) return failItem(error, i);
			failed = true;
			throw forItem.call(this, error, i, ctx.created);
		}
	};

	let limit = 1;
	if (op.kind === 'read' && items.length > 1) {
		limit = Math.max(1, Math.min(20, Number(this.getNodeParameter('options.parallelRequests', 0, 5)) || 1));
	}
	if (limit === 1) {
		for (let i = 0; i < items.length; i++) await runOne(i);
	} else {
		// Bounded pool: `limit` workers take the next index; results land at their index, so order is kept.
		// The first item runs alone so a token fetched for it serves the rest.
		await runOne(0);
		let next = 1;
		const worker = async () => {
			// A failed item stops the other workers from starting new items.
			while (!failed && next < items.length) await runOne(next++);
		};
		await Promise.all(Array.from({ length: Math.min(limit, items.length - 1) }, worker));
	}

	// Every deferred result settles (each one's failure is its own), then the first failure, in item order,
	// stops the node, listing what this execution created.
	const failures = new Map<number, unknown>();
	await Promise.all(
		deferred.map(async ({ i, result }) => {
			try {
				results[i] = toItems(await result.settle(), i);
			} catch (error) {
				if (continueOnFail) failItem(error, i);
				else failures.set(i, error);
			}
		}),
	);
	if (failures.size) {
		const first = Math.min(...failures.keys());
		throw forItem.call(this, failures.get(first), first, ctx.created);
	}
	return [results.flat()];
}
