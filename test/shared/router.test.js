/** @import { INodeProperties, INodeType } from 'n8n-workflow' */
import { built, builtModule } from '../harness/engine';

/**
 * The Resource and Operation selectors of each action node offer exactly the operations its router can run:
 * the router's table is typed from the node's map (a missing module is a compile error), and this checks
 * the selectors against that table, so an option without an operation (or an operation no one can pick)
 * fails here.
 */

const NODES = [
	['nodes/Receipts/Receipts.node', 'Receipts', 'nodes/Receipts/actions/router'],
	['nodes/Partners/Partners.node', 'Partners', 'nodes/Partners/actions/router'],
	['nodes/Extraction/Extraction.node', 'Extraction', 'nodes/Extraction/actions/router'],
	['nodes/Sri/Sri.node', 'Sri', 'nodes/Sri/actions/router'],
	['nodes/Sat/Sat.node', 'Sat', 'nodes/Sat/actions/router'],
];

/** @param {INodeProperties} p */
const valuesOf = (p) =>
	(p.options ?? []).map((o) => String(/** @type {{ value: unknown }} */ (o).value)).sort();

describe.each(NODES)('%s', (path, name, routerPath) => {
	const node = /** @type {INodeType} */ (built(path, name));
	const table = builtModule(routerPath).resources;
	const properties = node.description.properties;
	const resourceField = properties.find((p) => p.name === 'resource');

	test('the Resource selector offers exactly the resources of the router', () => {
		expect(resourceField && valuesOf(resourceField)).toEqual(Object.keys(table).sort());
	});

	test.each(Object.keys(table))(
		'the Operation selector of %s offers exactly its operations',
		(resource) => {
			const selectors = properties.filter(
				(p) => p.name === 'operation' && p.displayOptions?.show?.resource?.includes(resource),
			);
			expect(selectors).toHaveLength(1);
			const operations = Object.keys(table[resource]).filter(
				(k) => typeof table[resource][k]?.execute === 'function',
			);
			expect(valuesOf(selectors[0])).toEqual(operations.sort());
		},
	);
});

/**
 * Every write is checked before the first request: the operation contract (shared/router.ts) makes `validate`
 * required for a write, so the type checker (`npm run typecheck`, over this file too) refuses a write without it;
 * and each node's table, as built, has one for every operation that is not a read or an aggregate.
 */
describe('every write has a validate', () => {
	/** @typedef {import('../../nodes/shared/router').OperationModule<Record<string, never>>} Module */
	/** @typedef {import('../../nodes/shared/router').WriteModule<Record<string, never>>} Write */
	/** @typedef {import('../../nodes/shared/router').AggregateModule<Record<string, never>>} Aggregate */
	test('the contract: a write without validate does not type-check, a read needs none', () => {
		const execute = async () => ({});
		/** @type {Module[]} */
		const modules = [
			{ kind: 'read', description: [], execute },
			{ kind: 'write', description: [], execute, validate: () => undefined },
			{ description: [], execute, validate: () => undefined },
			// @ts-expect-error a write (the default kind) without validate
			{ description: [], execute },
			// @ts-expect-error a parallel write without validate
			{ kind: 'parallelWrite', description: [], execute },
		];
		/** @type {Write} */
		// @ts-expect-error a WriteModule is a write whatever its kind says, and needs validate
		const write = { kind: 'write', description: [], execute };
		/** @type {Aggregate} */
		const aggregate = { kind: 'aggregate', description: [], execute: async () => ({}) };
		expect([...modules, write, aggregate]).toHaveLength(7);
	});

	test.each(NODES)('%s: every write operation has validate', (_path, _name, routerPath) => {
		const table = builtModule(routerPath).resources;
		const unchecked = Object.entries(table).flatMap(([resource, operations]) =>
			Object.entries(operations)
				.filter(([, op]) => typeof op?.execute === 'function')
				.filter(
					([, op]) =>
						op.kind !== 'read' && op.kind !== 'aggregate' && typeof op.validate !== 'function',
				)
				.map(([operation]) => `${resource} → ${operation}`),
		);
		expect(unchecked).toEqual([]);
	});
});

/**
 * An operation that `overlaps` keeps Parallel Requests requests in flight with twice as many items under way: when an
 * answer frees a place, the request waiting for it must leave before the item that got the answer reads it. n8n's
 * HTTP helper opens a new connection per request, which the event loop writes only when it next polls, so the read
 * (and the next item's preparation) waits until the event loop has polled once after the next request was sent.
 */
describe('an operation that overlaps', () => {
	const { route } = builtModule('nodes/shared/router');

	/** The router run over `count` items with Parallel Requests 1, and what happened in which order. */
	async function run(count) {
		/** @type {string[]} */
		const events = [];
		/** @type {{ run<T>(send: () => Promise<T>): Promise<T> } | undefined} */
		let gate;
		// Item i's answer comes once item i + 1 waits for its place (or i is the last): the case the overlap is for.
		// A fixed latency would make the test depend on the machine's speed: on a loaded machine the next item
		// was still being prepared when the answer came, and nothing was waiting to leave first.
		/** @type {Array<() => void>} */
		const arrive = [];
		const arrived = Array.from(
			{ length: count + 1 },
			(_, i) => new Promise((resolve) => (arrive[i] = () => resolve(undefined))),
		);
		arrive[count]();
		const operation = {
			kind: 'read',
			overlaps: true,
			description: [],
			/** @param {unknown} _ctx @param {number} i */
			async execute(_ctx, i) {
				arrive[i]();
				const answer = await /** @type {NonNullable<typeof gate>} */ (gate).run(async () => {
					events.push(`sent ${i}`);
					// What runs once the event loop has polled after this request was sent (its connection written).
					setImmediate(() => events.push(`polled after ${i} was sent`));
					await arrived[i + 1];
					// The answer arrives as I/O does: in a later turn of the event loop.
					await new Promise((resolve) => setTimeout(resolve, 1));
					return i;
				});
				events.push(`read ${answer}`);
				return { i: answer };
			},
		};
		const self = {
			getInputData: () => Array.from({ length: count }, (_, i) => ({ json: { i } })),
			/** @param {string} name @param {number} _i @param {unknown} fallback */
			getNodeParameter: (name, _i, fallback) =>
				/** @type {Record<string, unknown>} */ ({
					resource: 'thing',
					operation: 'check',
					'options.parallelRequests': 1,
				})[name] ?? fallback,
			getNode: () => ({ name: 'Check', type: 'check', typeVersion: 1, parameters: {} }),
			continueOnFail: () => false,
		};
		const context = () => ({
			api: {
				scrub: (/** @type {unknown} */ value) => value,
				keepSecret: () => undefined,
				throttle: (/** @type {typeof gate} */ g) => {
					gate = g ?? gate;
				},
			},
		});
		const [out] = await route.call(self, { thing: { check: operation } }, context);
		return { events, out };
	}

	test('the next request leaves before an answer is read; the output keeps the input order', async () => {
		const { events, out } = await run(4);
		expect(out.map((/** @type {{ json: unknown }} */ item) => item.json)).toEqual([
			{ i: 0 },
			{ i: 1 },
			{ i: 2 },
			{ i: 3 },
		]);
		for (let i = 0; i < 3; i++)
			expect(events.indexOf(`polled after ${i + 1} was sent`)).toBeLessThan(
				events.indexOf(`read ${i}`),
			);
		// One request in flight at a time: each is sent after the one before it was answered.
		expect(events.filter((e) => e.startsWith('sent'))).toEqual([
			'sent 0',
			'sent 1',
			'sent 2',
			'sent 3',
		]);
	});
});
