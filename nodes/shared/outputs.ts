import type { IExecuteFunctions, INodeExecutionData, INodeOutputConfiguration } from 'n8n-workflow';
import { runsAsAiTool } from './agent';

/**
 * Two outputs for some operations of a node, from one of its versions on: the items that went as hoped leave by
 * the first, every other item by the second — the Receipts node's **Authorized** and **Not Authorized** (version
 * 3), the SRI and SAT nodes' **Read** and **Not Read** of their XML readers (version 2) and **Ready to File** and
 * **Check First** of their declarations (version 3). Workflows saved with an earlier version keep one output for
 * everything, so their connections stay as they are. A node may have several such pairs, each for its operations.
 *
 * The outputs are computed from the parameters, as n8n's Switch node does: an `outputs` expression that
 * n8n-workflow's getNodeOutputs evaluates with the node's version and parameters, in the editor and in the engine
 * alike (`outputsExpression`); the node's router then splits the one list the operations produced (`splitOutputs`).
 * An AI agent's tool has one output, which the agent reads whole: it sees every item.
 */
export interface TwoOutputs {
	/** The first node version that has the two outputs. */
	fromVersion: number;
	/** The operations that have them, by resource. */
	operations: Readonly<Record<string, readonly string[]>>;
	/** The operations that have them in every resource `operations` does not name (the Receipts node's kinds). */
	otherResources?: readonly string[];
	/** The outputs' names, as the editor shows them under the node. */
	names: readonly [string, string];
	/** Whether an output item leaves by the first output. */
	first(item: INodeExecutionData): boolean;
}

/** The operations of `resource` that have the two outputs. */
function operationsOf(spec: TwoOutputs, resource: string): readonly string[] {
	return Object.hasOwn(spec.operations, resource)
		? spec.operations[resource]
		: (spec.otherResources ?? []);
}

/** Whether a node of this version, resource and operation has the two outputs. */
function hasTwoOutputs(
	spec: TwoOutputs,
	version: number,
	resource: string,
	operation: string,
): boolean {
	return version >= spec.fromVersion && operationsOf(spec, resource).includes(operation);
}

/** The node's `outputs`: the rule of `hasTwoOutputs` for each pair, as an expression n8n evaluates with the node's parameters. */
export function outputsExpression(...specs: TwoOutputs[]): `={{${string}}}` {
	const list = (operations: readonly string[]) => JSON.stringify(operations);
	const rule = specs.reduceRight((otherwise, spec) => {
		const two: INodeOutputConfiguration[] = spec.names.map((displayName) => ({
			type: 'main',
			displayName,
		}));
		const byResource = Object.entries(spec.operations).reduceRight(
			(others, [resource, operations]) =>
				`$parameter.resource === ${JSON.stringify(resource)} ? ${list(operations)} : ${others}`,
			list(spec.otherResources ?? []),
		);
		return `$nodeVersion >= ${spec.fromVersion} && (${byResource}).includes($parameter.operation) ? ${JSON.stringify(two)} : ${otherwise}`;
	}, '["main"]');
	return `={{ ${rule} }}`;
}

/**
 * The node's output: the router's one list as the two outputs (first-output items, then the others; order kept)
 * when this node has them, else as it is. Run as an AI agent's tool, one output.
 */
export function splitOutputs(
	this: IExecuteFunctions,
	specs: TwoOutputs | readonly TwoOutputs[],
	outputs: INodeExecutionData[][],
): INodeExecutionData[][] {
	const resource = this.getNodeParameter('resource', 0) as string;
	const operation = this.getNodeParameter('operation', 0) as string;
	const version = this.getNode().typeVersion;
	const spec = (Array.isArray(specs) ? specs : [specs]).find((s: TwoOutputs) =>
		hasTwoOutputs(s, version, resource, operation),
	);
	if (!spec || runsAsAiTool.call(this)) return outputs;
	const first: INodeExecutionData[] = [];
	const second: INodeExecutionData[] = [];
	for (const item of outputs[0] ?? []) (spec.first(item) ? first : second).push(item);
	return [first, second];
}

/**
 * The XML readers' outputs (SRI → Read XML, SAT → Read CFDI XML), from their version 2: **Read**, the files
 * read, and **Not Read**, each input whose file could not be read, with its name and why (the router's
 * `notRead` failures, see router.ts), and any item that failed with Continue On Fail.
 */
export function readerOutputs(operations: TwoOutputs['operations']): TwoOutputs {
	return {
		fromVersion: 2,
		operations,
		names: ['Read', 'Not Read'],
		first: (item) => item.json.error === undefined,
	};
}

/**
 * The declarations' outputs (SRI → Monthly Annex (ATS) → Build, SAT → DIOT → Build DIOT File), from the nodes'
 * version 3: **Ready to File**, a filing with no problem, and **Check First**, a filing with problems to look at
 * before it is filed (or with Continue On Fail, the error that stopped it). The file is on both: what is not ready
 * is never mistaken for what is (shared/declaration.ts `filingItem` decides).
 */
export function filingOutputs(operations: TwoOutputs['operations']): TwoOutputs {
	return {
		fromVersion: 3,
		operations,
		names: ['Ready to File', 'Check First'],
		first: (item) => item.json.ready_to_file === true,
	};
}
