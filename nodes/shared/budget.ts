import type { IBinaryData, INode, INodeExecutionData } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';
import { addFacts } from './errors';
import { megabytes } from './http';

/**
 * What one run of a node may keep in memory, all its input items together. One answer is capped already (the
 * client's size caps), but an operation that accumulates (Get Many with Return All walking pages, Download All
 * keeping every file, many input items each reading a large answer) could otherwise keep growing until n8n runs
 * out of memory and crashes, with every other workflow of the instance. Past either limit the run stops with an
 * error that names the limit and how to ask for less, before the next page or file is read.
 *
 * What counts is what the run keeps for its output: JSON, about as many bytes as its JSON text, and files that
 * n8n keeps in memory (its `default` binary data mode, base64). A file n8n's binary store keeps outside memory
 * (`filesystem`, n8n 2.x's default; `s3`, `database`) counts by its reference only. Answers that are read and
 * dropped (the status checks of a wait) do not count.
 *
 * These are the package's limits of memory, in one place (docs/limits.md says them to users).
 */
const KEPT_LIMITS = {
	/** Bytes kept by one run of a node. */
	bytes: 128 * 1024 * 1024,
	/** Output items of one run of a node. */
	items: 100_000,
} as const;

/** How to ask for less when nothing more precise applies. */
export const FEWER_INPUT_ITEMS =
	"Send fewer input items per run (n8n's Loop Over Items node splits them into batches)";

/** About the bytes `value` takes as JSON, without serializing it (strings by length, numbers and signs by a few). */
export function jsonSize(value: unknown): number {
	if (typeof value === 'string') return value.length + 2;
	if (value === null || value === undefined) return 4;
	if (typeof value !== 'object') return 8;
	if (Array.isArray(value)) {
		let size = 2;
		for (const v of value) size += jsonSize(v) + 1;
		return size;
	}
	let size = 2;
	for (const [key, v] of Object.entries(value as Record<string, unknown>))
		size += key.length + 4 + jsonSize(v);
	return size;
}

/** The bytes of a file n8n keeps in memory: its base64 text (none when n8n's binary store keeps it elsewhere). */
export function binaryKeptSize(binary: IBinaryData): number {
	return binary.id ? jsonSize(binary.id) : (binary.data?.length ?? 0);
}

/** What one output item keeps: its JSON, and its files kept in memory. */
function itemKeptSize(item: INodeExecutionData): number {
	let size = jsonSize(item.json);
	for (const binary of Object.values(item.binary ?? {})) size += binaryKeptSize(binary);
	return size;
}

/**
 * The memory one run of a node keeps, counted as it grows: by the operations that accumulate (`keep`, while they
 * read), and by the router for every item's result as it leaves (`settle`, which counts only what the item did
 * not count already), so nothing is counted twice.
 */
export class KeptBudget {
	private bytes = 0;

	private items = 0;

	private readonly byItem = new Map<number, { bytes: number; items: number }>();

	constructor(
		private readonly node: INode,
		readonly limits: { bytes: number; items: number } = KEPT_LIMITS,
	) {}

	/**
	 * Counts `bytes` and `items` more kept by input item `itemIndex` (a page read, a file downloaded); throws
	 * past a limit. `what` names what was kept (e.g. "Plan → Get Many"), `narrow` how to ask for less.
	 */
	keep(itemIndex: number, bytes: number, items: number, what: string, narrow: string): void {
		const counted = this.byItem.get(itemIndex) ?? { bytes: 0, items: 0 };
		counted.bytes += bytes;
		counted.items += items;
		this.byItem.set(itemIndex, counted);
		this.bytes += bytes;
		this.items += items;
		if (this.bytes > this.limits.bytes || this.items > this.limits.items)
			throw this.exceeded(itemIndex, what, narrow);
	}

	/**
	 * Counts the result of item `itemIndex` as it leaves the operation: only what it did not count while running.
	 */
	settle(itemIndex: number, result: INodeExecutionData[], what: string, narrow: string): void {
		let bytes = 0;
		for (const item of result) bytes += itemKeptSize(item);
		const counted = this.byItem.get(itemIndex) ?? { bytes: 0, items: 0 };
		this.keep(
			itemIndex,
			Math.max(0, bytes - counted.bytes),
			Math.max(0, result.length - counted.items),
			what,
			narrow,
		);
	}

	/** Forgets what item `itemIndex` counted: its result was dropped (an error item stands for it). */
	release(itemIndex: number): void {
		const counted = this.byItem.get(itemIndex);
		if (!counted) return;
		this.bytes -= counted.bytes;
		this.items -= counted.items;
		this.byItem.delete(itemIndex);
	}

	private exceeded(itemIndex: number, what: string, narrow: string): NodeOperationError {
		const { bytes, items } = this.limits;
		const over = this.bytes > bytes;
		const error = new NodeOperationError(
			this.node,
			over
				? `${what}: this run would keep more than ${megabytes(bytes)} in memory`
				: `${what}: this run would output more than ${items.toLocaleString('en-US')} items`,
			{
				itemIndex,
				description: `One run of a node keeps at most ${megabytes(bytes)} and ${items.toLocaleString('en-US')} items in memory, all its input items together, so that one run cannot take n8n down with every other workflow. It had ${megabytes(this.bytes)} and ${this.items.toLocaleString('en-US')} items when it stopped; nothing more was read. ${narrow}.`,
			},
		);
		return addFacts(error, {
			kept: { bytes: this.bytes, items: this.items, limits: { bytes, items } },
		});
	}
}
