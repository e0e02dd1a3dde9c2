import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

/** What an operation returns for one input item: one or many JSON objects, or ready-made items (binary). */
export type OperationResult = IDataObject | IDataObject[] | INodeExecutionData[] | undefined;

export interface OperationModule<Ctx> {
	description: INodeProperties[];
	execute(this: IExecuteFunctions, ctx: Ctx, itemIndex: number): Promise<OperationResult>;
	/**
	 * `read`: may run for several items at once (bounded, output order kept).
	 * `write`: runs one item at a time, in order (default).
	 */
	kind?: 'read' | 'write';
}

export type ResourceMap<Ctx> = Record<string, Record<string, OperationModule<Ctx>>>;

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

function errorMessage(error: unknown): string {
	return error instanceof Error ? error.message : String(error);
}

function withItemIndex(this: IExecuteFunctions, error: unknown, itemIndex: number): Error {
	if (error instanceof Error && 'node' in error) {
		const nodeError = error as Error & { context?: IDataObject };
		nodeError.context = { ...(nodeError.context ?? {}), itemIndex };
		return nodeError;
	}
	return new NodeOperationError(this.getNode(), `[item ${itemIndex}] ${errorMessage(error)}`, { itemIndex });
}

/**
 * The one item loop of every action node: picks the operation by resource/operation, runs it per item,
 * pairs every output item with its input, and turns a failure into an error item when "Continue On Fail"
 * is set. Read operations may run several items at once (bounded); writes run strictly in order.
 */
export async function route<Ctx>(
	this: IExecuteFunctions,
	resources: ResourceMap<Ctx>,
	makeContext: () => Ctx,
): Promise<INodeExecutionData[][]> {
	const items = this.getInputData();
	const resource = this.getNodeParameter('resource', 0) as string;
	const operation = this.getNodeParameter('operation', 0) as string;
	const op = resources[resource]?.[operation];
	if (!op) {
		throw new NodeOperationError(this.getNode(), `The operation "${operation}" of resource "${resource}" is not supported`, {
			description: 'Pick the resource and operation again in the node: this workflow may come from a newer version of the node.',
		});
	}
	const ctx = makeContext();
	const results: INodeExecutionData[][] = new Array(items.length);

	let failed = false;
	const runOne = async (i: number): Promise<void> => {
		try {
			results[i] = toItems(await op.execute.call(this, ctx, i), i);
		} catch (error) {
			if (this.continueOnFail()) {
				results[i] = [{ json: { error: errorMessage(error) }, pairedItem: { item: i } }];
				return;
			}
			failed = true;
			throw withItemIndex.call(this, error, i);
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
	return [results.flat()];
}
