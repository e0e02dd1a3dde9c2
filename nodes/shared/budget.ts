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
 * What counts is what n8n holds for the run's output, as resident memory shows it — not the size of its JSON
 * text, which is a fraction of it (a row of a CFDI's conceptos is 900 bytes of JSON and 1.9 KB of objects, and n8n
 * holds them more than once): `keptSize` estimates the objects from their shape (`heldSize`) and multiplies them
 * by what n8n makes of them (`N8N_HOLDS`). Files that n8n keeps in memory (its `default` binary data mode) count
 * by their base64 text the same way; a file n8n's binary store keeps outside memory (`filesystem`, n8n 2.x's
 * default; `s3`, `database`) counts by its reference only. Answers that are read and dropped (the status checks
 * of a wait) do not count. `npm run bench` (bench/memory.mjs) prints counted against resident for the largest
 * outputs.
 *
 * These are the package's limits of memory, in one place (docs/limits.md says them to users).
 */
const KEPT_LIMITS = {
	/** Bytes kept by one run of a node, as `keptSize` counts them. */
	bytes: 512 * 1024 * 1024,
	/** Output items of one run of a node. */
	items: 100_000,
} as const;

/** How to ask for less when nothing more precise applies. */
export const FEWER_INPUT_ITEMS =
	"Send fewer input items per run (n8n's Loop Over Items node splits them into batches)";

/**
 * How many times its objects' size n8n's resident memory grows by for what a node outputs, during and after the
 * node's run: the reading that made them, the items in the execution's run data, their copies when the execution
 * is saved (n8n serializes the whole run data at its end) and the garbage all of it leaves until it is collected.
 * Measured in n8n 2.41.1 (`npm run bench`, "Memory in n8n"): `n8n execute` of the SAT node reading CFDIs of 1 to
 * 2 MB, as rows and as one item, peaked 11 to 15 times the output's `heldSize` above the same run without the
 * node, once the run was over and saved. 16 keeps every case measured within what is counted. (A Node process of
 * its own holding the same outputs grows about 3 times: bench/memory.mjs, part 1; n8n makes the rest.)
 */
const N8N_HOLDS = 16;

/**
 * Bytes V8 takes for `value` as n8n holds it (64-bit Node, which n8n runs without pointer compression), from its
 * shape, without serializing it: an object 64 bytes and 24 per property, an array 32 and 8 per element, a string
 * 24 and its length (twice its length when a character is past U+00FF: V8 keeps it two bytes a character), a
 * number 16. Measured against the heap an item takes after a garbage collection (bench/memory.mjs): within a
 * quarter for rows of conceptos, `comprobante` trees, summaries and pages of plans.
 */
export function heldSize(value: unknown): number {
	if (typeof value === 'string') return 24 + (TWO_BYTE.test(value) ? 2 : 1) * value.length;
	if (typeof value === 'number') return 16;
	if (value === null || value === undefined || typeof value !== 'object') return 8;
	if (Array.isArray(value)) {
		let size = 32;
		for (const v of value) size += 8 + heldSize(v);
		return size;
	}
	let size = 64;
	for (const key of Object.keys(value))
		size += 24 + heldSize((value as Record<string, unknown>)[key]);
	return size;
}

/** A character V8 cannot keep in one byte (past U+00FF). */
const TWO_BYTE = /[\u0100-\uffff]/;

/** What n8n holds for `value` (an item's JSON, a page of records) while a run's output is kept: see N8N_HOLDS. */
export function keptSize(value: unknown): number {
	return heldSize(value) * N8N_HOLDS;
}

/** The bytes of a file n8n keeps in memory: its base64 text (only its reference when n8n's binary store keeps it elsewhere). */
export function binaryKeptSize(binary: IBinaryData): number {
	return binary.id ? keptSize(binary.id) : keptSize(binary.data ?? '');
}

/** What one output item keeps: its JSON, and its files kept in memory. */
function itemKeptSize(item: INodeExecutionData): number {
	let size = keptSize(item.json);
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
