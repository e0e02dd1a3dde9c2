import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
	CredentialTestContext,
	ExecutionLifecycleHooks,
	LoadOptionsContext,
	WorkflowExecute,
} from 'n8n-core';
/** @import { ICredentialTestFunctions, ICredentialType, IDataObject, INodeCredentialTestResult, IExecuteFunctions, ILoadOptionsFunctions, INode, INodeExecutionData, INodeType, INodeTypeDescription, INodeTypes, IRun, ITriggerResponse, IVersionedNodeType, IWorkflowBase, IWorkflowExecuteAdditionalData } from 'n8n-workflow' */
import { NodeHelpers, Workflow } from 'n8n-workflow';
import { TestCredentialsHelper } from './credentials';
import './shutdown';

/**
 * Runs workflows through n8n-core's real execution engine (WorkflowExecute over a Workflow), with the
 * package's built node classes (dist/) and a credentials helper that behaves like n8n's server.
 * Stand-ins for n8n's own nodes let test workflows look exactly like ones a user imports:
 * `n8n-nodes-base.manualTrigger` (one empty item), `n8n-nodes-base.code` ("Run Once for All Items":
 * its JavaScript returns the items), what the examples branch and stop with: `if`, `noOp`, `stopAndError`, and
 * what the SRI example reads from and writes to: `emailReadImap` (never started), `convertToFile` (text to a
 * file, or items to one CSV file: readCsv reads it back), `readWriteFile` (writes a file, reads a folder's files),
 * `stickyNote`.
 */

export const PACKAGE = 'n8n-nodes-latam-fiscal';
const root = join(__dirname, '..', '..');

/**
 * A built module of dist/ as n8n loads it (require() of the compiled file), e.g. a router's table.
 * @returns {Record<string, any>}
 */
export function builtModule(path) {
	return require(join(root, 'dist', path));
}

/**
 * Loads a built class from dist/, e.g. built('nodes/Partners/Partners.node', 'Partners').
 * @template T
 * @returns {T}
 */
export function built(path, exportName) {
	// the built package is loaded the way n8n loads it: require() of the compiled file
	const mod = /** @type {Record<string, new () => T>} */ (require(join(root, 'dist', path)));
	return new mod[exportName]();
}

/**
 * A stand-in node's description: `fields` over what every stand-in shares (version 1, no description or defaults, a
 * transform with one input and one output, no properties), typed as n8n's.
 * @param {Partial<INodeTypeDescription> & { displayName: string, name: string }} fields
 * @returns {INodeTypeDescription}
 */
export function standIn(fields) {
	return /** @type {INodeTypeDescription} */ (
		/** @type {unknown} */ ({
			version: 1,
			description: '',
			defaults: {},
			group: ['transform'],
			inputs: ['main'],
			outputs: ['main'],
			properties: [],
			...fields,
		})
	);
}

class ManualTrigger {
	description = standIn({
		displayName: 'Manual Trigger',
		name: 'manualTrigger',
		group: ['trigger'],
		inputs: [],
	});

	async trigger() {
		return {};
	}

	/**
	 * @this {IExecuteFunctions}
	 * @returns {Promise<INodeExecutionData[][]>}
	 */
	async execute() {
		return [[{ json: {} }]];
	}
}

class Code {
	description = standIn({
		displayName: 'Code',
		name: 'code',
		version: [1, 2],
		properties: [{ displayName: 'JavaScript', name: 'jsCode', type: 'string', default: '' }],
	});

	/**
	 * @this {IExecuteFunctions}
	 * @returns {Promise<INodeExecutionData[][]>}
	 */
	async execute() {
		const code = /** @type {string} */ (this.getNodeParameter('jsCode', 0));
		const items = this.getInputData();
		const $input = { all: () => items, first: () => items[0] };
		const result = /** @type {Array<IDataObject | INodeExecutionData>} */ (
			new Function('$input', 'items', code)($input, items)
		);
		return [
			result.map((r, i) =>
				'json' in r && typeof r.json === 'object'
					? /** @type {INodeExecutionData} */ (r)
					: { json: /** @type {IDataObject} */ (r), pairedItem: { item: i } },
			),
		];
	}
}

/**
 * n8n's If node (version 2) as far as the examples use it: conditions combined with "and", each a string
 * "equals" or a boolean "is true" / "is false"; items that pass go to the first output, the others to the second.
 */
class If {
	description = standIn({
		displayName: 'If',
		name: 'if',
		version: [1, 2],
		outputs: ['main', 'main'],
		properties: [{ displayName: 'Conditions', name: 'conditions', type: 'filter', default: {} }],
	});

	/**
	 * @this {IExecuteFunctions}
	 * @returns {Promise<INodeExecutionData[][]>}
	 */
	async execute() {
		/** @type {Record<string, (left: unknown, right: unknown) => boolean>} */
		const operations = {
			equals: (left, right) => left === right,
			true: (left) => left === true,
			false: (left) => left === false,
		};
		/** @type {INodeExecutionData[]} */
		const yes = [];
		/** @type {INodeExecutionData[]} */
		const no = [];
		this.getInputData().forEach((item, i) => {
			const filter =
				/** @type {{ conditions: Array<{ leftValue: unknown; rightValue: unknown; operator: { operation: string } }> }} */ (
					this.getNodeParameter('conditions', i)
				);
			const pass = filter.conditions.every((c) => {
				const operation = operations[c.operator.operation];
				if (!operation)
					throw new Error(`the If stand-in has no operation "${c.operator.operation}"`);
				return operation(c.leftValue, c.rightValue);
			});
			(pass ? yes : no).push({ ...item, pairedItem: { item: i } });
		});
		return [yes, no];
	}
}

/** n8n's No Operation node: passes its items on. */
class NoOp {
	description = standIn({
		displayName: 'No Operation',
		name: 'noOp',
	});

	/**
	 * @this {IExecuteFunctions}
	 * @returns {Promise<INodeExecutionData[][]>}
	 */
	async execute() {
		return [this.getInputData()];
	}
}

/** n8n's Stop and Error node (error message): stops the run with the message of its first item. */
class StopAndError {
	description = standIn({
		displayName: 'Stop and Error',
		name: 'stopAndError',
		group: ['input'],
		outputs: [],
		properties: [
			{ displayName: 'Error Message', name: 'errorMessage', type: 'string', default: '' },
		],
	});

	/**
	 * @this {IExecuteFunctions}
	 * @returns {Promise<INodeExecutionData[][]>}
	 */
	async execute() {
		throw new Error(/** @type {string} */ (this.getNodeParameter('errorMessage', 0)));
	}
}

/**
 * n8n's Sticky Note: a note on the canvas, never run.
 */
class StickyNote {
	description = standIn({
		displayName: 'Sticky Note',
		name: 'stickyNote',
		group: ['input'],
		inputs: [],
		outputs: [],
		properties: [{ displayName: 'Content', name: 'content', type: 'string', default: '' }],
	});
}

/**
 * n8n's Email Trigger (IMAP), as far as an example names it: a trigger that a manual run from another trigger
 * never starts (it would need a mailbox).
 */
class EmailReadImap {
	description = standIn({
		displayName: 'Email Trigger (IMAP)',
		name: 'emailReadImap',
		group: ['trigger'],
		version: [2, 2.1],
		inputs: [],
	});

	/** @returns {Promise<ITriggerResponse | undefined>} */
	async trigger() {
		throw new Error(
			'the IMAP trigger stand-in never runs: start the workflow from its Manual Trigger',
		);
	}
}

/** n8n's Convert to File, operation "Convert to Text File": the text of `sourceProperty` as a binary file. */
/**
 * n8n's Convert to CSV: every item one row, in one file; the columns every key of every item, in the order met, as
 * n8n's does (its flattening of nested objects is not needed: the rows here are flat); each value written as JSON
 * (readCsv reads it back).
 * @this {IExecuteFunctions}
 * @param {INodeExecutionData[]} items
 * @returns {Promise<INodeExecutionData>}
 */
async function csvFile(items) {
	const rows = items.map((i) => i.json);
	const columns = [...new Set(rows.flatMap((r) => Object.keys(r)))];
	const cell = (v) =>
		v === null || v === undefined
			? ''
			: JSON.stringify(typeof v === 'object' ? JSON.stringify(v) : v);
	const text = [
		columns.join(','),
		...rows.map((r) => columns.map((c) => cell(r[c])).join(',')),
	].join('\n');
	const fileName = /** @type {string} */ (this.getNodeParameter('options.fileName', 0, 'data.csv'));
	return {
		json: {},
		binary: { data: await this.helpers.prepareBinaryData(Buffer.from(text), fileName, 'text/csv') },
		pairedItem: items.map((_, item) => ({ item })),
	};
}

class ConvertToFile {
	description = standIn({
		displayName: 'Convert to File',
		name: 'convertToFile',
		group: ['input'],
		version: [1, 1.1],
		properties: [
			{ displayName: 'Operation', name: 'operation', type: 'string', default: 'csv' },
			{ displayName: 'Text Input Field', name: 'sourceProperty', type: 'string', default: '' },
			{
				displayName: 'Put Output File in Field',
				name: 'binaryPropertyName',
				type: 'string',
				default: 'data',
			},
			{
				displayName: 'Options',
				name: 'options',
				type: 'collection',
				default: {},
				options: [{ displayName: 'File Name', name: 'fileName', type: 'string', default: '' }],
			},
		],
	});

	/**
	 * @this {IExecuteFunctions}
	 * @returns {Promise<INodeExecutionData[][]>}
	 */
	async execute() {
		const items = this.getInputData();
		if (this.getNodeParameter('operation', 0) === 'csv') return [[await csvFile.call(this, items)]];
		const out = [];
		for (let i = 0; i < items.length; i++) {
			if (this.getNodeParameter('operation', i) !== 'toText')
				throw new Error('the Convert to File stand-in converts text (toText) and CSV (csv) only');
			const source = /** @type {string} */ (this.getNodeParameter('sourceProperty', i));
			const field = /** @type {string} */ (this.getNodeParameter('binaryPropertyName', i, 'data'));
			const fileName = /** @type {string} */ (
				this.getNodeParameter('options.fileName', i, 'file.txt')
			);
			const text = String(items[i].json[source] ?? '');
			out.push({
				json: items[i].json,
				binary: {
					[field]: await this.helpers.prepareBinaryData(Buffer.from(text, 'utf8'), fileName),
				},
				pairedItem: { item: i },
			});
		}
		return [out];
	}
}

/**
 * n8n's "Read/Write Files from Disk": "Write File to Disk" writes each item's binary field to `fileName` (the
 * examples' folder, replaced by the test with a temporary one); "Read File(s) From Disk" outputs one item per file
 * that `fileSelector` (a folder and `*<ending>`, as the examples write it) names, in name order, the file in `data`.
 */
class ReadWriteFile {
	description = standIn({
		displayName: 'Read/Write Files from Disk',
		name: 'readWriteFile',
		properties: [
			{ displayName: 'Operation', name: 'operation', type: 'string', default: 'write' },
			{ displayName: 'File(s) Selector', name: 'fileSelector', type: 'string', default: '' },
			{ displayName: 'File Name', name: 'fileName', type: 'string', default: '' },
			{
				displayName: 'Data Property Name',
				name: 'dataPropertyName',
				type: 'string',
				default: 'data',
			},
			{ displayName: 'Options', name: 'options', type: 'collection', default: {}, options: [] },
		],
	});

	/**
	 * @this {IExecuteFunctions}
	 * @returns {Promise<INodeExecutionData[][]>}
	 */
	async execute() {
		if (this.getNodeParameter('operation', 0) === 'read') {
			const selector = /** @type {string} */ (this.getNodeParameter('fileSelector', 0));
			const [, folder, ending] = /** @type {RegExpExecArray} */ (
				/^(.*)\/\*([^/*]*)$/.exec(selector)
			);
			const names = readdirSync(folder)
				.filter((name) => name.endsWith(ending))
				.sort();
			return [
				await Promise.all(
					names.map(async (name) => ({
						json: {},
						binary: {
							data: await this.helpers.prepareBinaryData(readFileSync(join(folder, name)), name),
						},
						pairedItem: { item: 0 },
					})),
				),
			];
		}
		return [
			this.getInputData().map((item, i) => {
				const fileName = /** @type {string} */ (this.getNodeParameter('fileName', i));
				const field = /** @type {string} */ (this.getNodeParameter('dataPropertyName', i));
				writeFileSync(
					fileName,
					Buffer.from(
						/** @type {NonNullable<typeof item.binary>} */ (item.binary)[field].data,
						'base64',
					),
				);
				return { json: { fileName }, pairedItem: { item: i } };
			}),
		];
	}
}

/**
 * A CSV file the Convert to File stand-in wrote (`csv`), as rows of cells: the stand-in quotes every value as
 * JSON, so each line reads back as the values it was given.
 * @returns {Array<Record<string, unknown>>}
 */
export function readCsv(path) {
	const [header, ...lines] = readFileSync(path, 'utf8').split('\n');
	const columns = header.split(',');
	return lines.map((line) => {
		const cells = JSON.parse(`[${line.replace(/,(?=,|$)/g, ',null').replace(/^,/, 'null,')}]`);
		return Object.fromEntries(columns.map((c, n) => [c, cells[n]]));
	});
}

export class TestNodeTypes {
	types = /** @type {Map<string, INodeType>} */ (new Map());

	constructor(packageNodes) {
		this.types.set('n8n-nodes-base.manualTrigger', new ManualTrigger());
		this.types.set('n8n-nodes-base.code', new Code());
		this.types.set('n8n-nodes-base.if', new If());
		this.types.set('n8n-nodes-base.noOp', new NoOp());
		this.types.set('n8n-nodes-base.stopAndError', new StopAndError());
		this.types.set('n8n-nodes-base.stickyNote', new StickyNote());
		this.types.set('n8n-nodes-base.emailReadImap', new EmailReadImap());
		this.types.set('n8n-nodes-base.convertToFile', new ConvertToFile());
		this.types.set('n8n-nodes-base.readWriteFile', new ReadWriteFile());
		for (const node of packageNodes) this.types.set(`${PACKAGE}.${node.description.name}`, node);
	}

	/** @returns {INodeType | IVersionedNodeType} */
	getByName(type) {
		return this.getByNameAndVersion(type);
	}

	/** @returns {INodeType} */
	getByNameAndVersion(type) {
		const node = this.types.get(type) ?? this.toolVariant(type);
		if (!node) throw new Error(`Unknown node type ${type}`);
		return node;
	}

	/**
	 * The node an AI agent runs when a `usableAsTool` node is its tool, as n8n 2.41.1 makes it (cli's NodeTypes
	 * for a type `<name>Tool` it does not know, and `convertNodeToAiTool`): the same node and execute method,
	 * its description's name with the suffix `Tool`, no main input, an `ai_tool` output. Its workflow node has
	 * the type `<package>.<name>Tool`, which is what the node sees when it runs.
	 * @returns {INodeType | undefined}
	 */
	toolVariant(type) {
		const base = type.endsWith('Tool') ? this.types.get(type.slice(0, -'Tool'.length)) : undefined;
		if (!base?.description.usableAsTool) return undefined;
		const description = {
			...base.description,
			name: `${base.description.name}Tool`,
			displayName: `${base.description.displayName} Tool`,
			inputs: [],
			outputs: ['ai_tool'],
		};
		delete description.usableAsTool;
		const tool = /** @type {INodeType} */ (
			Object.create(base, { description: { value: description } })
		);
		this.types.set(type, tool);
		return tool;
	}

	getKnownTypes() {
		return {};
	}
}

/**
 * @typedef {object} RunResult
 * @property {IRun} run
 * @property {(nodeName: string, index?: number) => INodeExecutionData[]} output Output items of a node (its first output, or output `index`), or [] when it did not run.
 * @property {Error & { description?: string; httpCode?: string; context?: IDataObject }} [error] The error of the run, if it failed.
 */

export class Engine {
	/** @type {TestNodeTypes} */
	nodeTypes;
	/** @type {TestCredentialsHelper} */
	credentials;

	constructor(nodes, credentialTypes) {
		this.nodeTypes = new TestNodeTypes(nodes);
		this.credentials = new TestCredentialsHelper(credentialTypes);
	}

	/**
	 * Presses a credential's Test button the way n8n's credentials tester does for a credential without a `test`
	 * request: the first node that names a `testedBy` method for it, called with n8n-core's own
	 * CredentialTestContext (whose only request helper is the legacy `request`), with the credential's defaults
	 * under `data`.
	 * @param {string} typeName
	 * @param {IDataObject} data
	 * @returns {Promise<INodeCredentialTestResult>}
	 */
	async testCredential(typeName, data) {
		for (const node of this.nodeTypes.types.values()) {
			const entry = (node.description.credentials ?? []).find((c) => c.name === typeName);
			const method =
				typeof entry?.testedBy === 'string'
					? node.methods?.credentialTest?.[entry.testedBy]
					: undefined;
			if (!method) continue;
			const context = /** @type {ICredentialTestFunctions} */ (
				/** @type {unknown} */ (new CredentialTestContext(/** @type {any} */ (undefined)))
			);
			return await method.call(context, {
				id: 'test',
				name: typeName,
				type: typeName,
				data: this.credentials.withDefaults(typeName, { ...data }),
			});
		}
		throw new Error(`no node names a testedBy method for ${typeName}`);
	}

	/** @returns {Workflow} */
	workflow(workflowData) {
		return new Workflow({
			id: workflowData.id ?? 'test',
			name: workflowData.name,
			nodes: workflowData.nodes,
			connections: workflowData.connections,
			active: false,
			nodeTypes: this.nodeTypes,
			settings: workflowData.settings,
		});
	}

	/**
	 * What n8n's server hands the engine; URLs must be absolute (n8n-core parses them).
	 * @returns {IWorkflowExecuteAdditionalData}
	 */
	additionalData(hooks) {
		const base = 'http://127.0.0.1:5678';
		return /** @type {IWorkflowExecuteAdditionalData} */ (
			/** @type {unknown} */ ({
				credentialsHelper: this.credentials,
				hooks,
				variables: {},
				currentNodeExecutionIndex: 0,
				instanceBaseUrl: `${base}/`,
				restApiUrl: `${base}/rest`,
				formBaseUrl: `${base}/form`,
				formWaitingBaseUrl: `${base}/form-waiting`,
				formTestBaseUrl: `${base}/form-test`,
				webhookBaseUrl: `${base}/webhook`,
				webhookWaitingBaseUrl: `${base}/webhook-waiting`,
				webhookTestBaseUrl: `${base}/webhook-test`,
				mcpBaseUrl: `${base}/mcp`,
				mcpTestBaseUrl: `${base}/mcp-test`,
				executeWorkflow: async () => {
					throw new Error('sub-workflows are not used in tests');
				},
				getRunExecutionData: async () => undefined,
				getRuntimeCredential: async () => undefined,
				logAiEvent: () => {},
				startRunnerTask: async () => {
					throw new Error('task runners are not used in tests');
				},
			})
		);
	}

	/**
	 * The context n8n gives a node's listSearch/loadOptions methods while the user edits the node named
	 * `nodeName` (its current parameters are the workflow's).
	 * @returns {ILoadOptionsFunctions}
	 */
	loadOptionsContext(workflowData, nodeName, path = 'parameters') {
		const workflow = this.workflow(workflowData);
		const node = /** @type {INode} */ (workflow.getNode(nodeName));
		const additionalData = this.additionalData();
		additionalData.currentNodeParameters = node.parameters; // what the editor sends with the request
		return new LoadOptionsContext(workflow, node, additionalData, path);
	}

	/** @returns {Promise<RunResult>} */
	async run(workflowData) {
		const workflow = this.workflow(workflowData);
		const hooks = new ExecutionLifecycleHooks(
			'manual',
			'test-execution',
			/** @type {IWorkflowBase} */ ({ ...workflowData, id: workflowData.id ?? 'test' }),
		);
		const finished = /** @type {Promise<IRun>} */ (
			new Promise((resolve) => hooks.addHandler('workflowExecuteAfter', (run) => resolve(run)))
		);
		const additionalData = this.additionalData(hooks);
		const startNode = /** @type {INode} */ (
			workflowData.nodes.find((n) => n.type === 'n8n-nodes-base.manualTrigger')
		);
		const execution = new WorkflowExecute(additionalData, 'manual');
		await execution.run({ workflow, startNode });
		const run = await finished;
		const error = /** @type {RunResult['error']} */ (run.data.resultData.error);
		return {
			run,
			error,
			output: (name, index = 0) =>
				run.data.resultData.runData[name]?.[0]?.data?.main?.[index] ?? [],
		};
	}
}

/**
 * The outputs of a node of type `nodeType` (a built node) at `typeVersion` with `parameters`, by name, as
 * n8n-workflow computes them for the editor and the engine alike (NodeHelpers.getNodeOutputs evaluates an `outputs`
 * expression with the node's version and parameters): `['Read', 'Not Read']`, or `['main']` for one output.
 * @param {INodeType} nodeType
 * @returns {string[]}
 */
export function outputNames(nodeType, typeVersion, parameters) {
	/** @type {INode} */
	const node = {
		id: '1',
		name: 'Node',
		type: `${PACKAGE}.${nodeType.description.name}`,
		typeVersion,
		position: [0, 0],
		parameters,
	};
	const nodeTypes = /** @type {INodeTypes} */ (
		/** @type {unknown} */ ({
			getByName: () => nodeType,
			getByNameAndVersion: () => nodeType,
			getKnownTypes: () => ({}),
		})
	);
	const workflow = new Workflow({ nodes: [node], connections: {}, active: false, nodeTypes });
	return NodeHelpers.getNodeOutputs(workflow, node, nodeType.description).map((o) =>
		typeof o === 'string' ? o : (o.displayName ?? o.type),
	);
}

/**
 * Loads an importable example workflow from examples/ (the same files `npm run dev` imports into n8n).
 * @returns {IWorkflowBase}
 */
export function fixture(name) {
	return /** @type {IWorkflowBase} */ (
		JSON.parse(readFileSync(join(root, 'examples', name), 'utf8'))
	);
}

/**
 * Builds the workflow most tests need, in the shape a user would import: Manual Trigger → Code (emits the
 * given input items) → the node under test with the given parameters and credential (none when
 * `credentialType` is not given), at `typeVersion`
 * (1 unless given: what workflows saved before a node's later versions carry).
 * @returns {IWorkflowBase}
 */
export function workflowWith(opts) {
	const nodeName = opts.name ?? 'Node';
	const input = opts.input ?? [{}];
	return /** @type {IWorkflowBase} */ (
		/** @type {unknown} */ ({
			id: 'wf',
			name: `test ${opts.nodeType}`,
			active: false,
			isArchived: false,
			activeVersionId: null,
			createdAt: new Date(),
			updatedAt: new Date(),
			settings: { executionOrder: 'v1' },
			nodes: [
				{
					id: 't',
					name: 'Start',
					type: 'n8n-nodes-base.manualTrigger',
					typeVersion: 1,
					position: [0, 0],
					parameters: {},
				},
				{
					id: 'c',
					name: 'Input',
					type: 'n8n-nodes-base.code',
					typeVersion: 2,
					position: [200, 0],
					parameters: { jsCode: `return ${JSON.stringify(input.map((json) => ({ json })))};` },
				},
				{
					id: 'n',
					name: nodeName,
					type: `${PACKAGE}.${opts.nodeType}`,
					typeVersion: opts.typeVersion ?? 1,
					position: [400, 0],
					parameters: /** @type {INode['parameters']} */ (opts.parameters),
					// A node that takes no credential (the SRI's) is given none.
					...(opts.credentialType
						? { credentials: { [opts.credentialType]: { id: '1', name: 'test credential' } } }
						: {}),
					...(opts.continueOnFail
						? { onError: /** @type {const} */ ('continueRegularOutput') }
						: {}),
				},
			],
			connections: {
				Start: { main: [[{ node: 'Input', type: 'main', index: 0 }]] },
				Input: { main: [[{ node: nodeName, type: 'main', index: 0 }]] },
			},
		})
	);
}
