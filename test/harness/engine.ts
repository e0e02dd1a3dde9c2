import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ExecutionLifecycleHooks, LoadOptionsContext, WorkflowExecute } from 'n8n-core';
import type {
	ICredentialType,
	IDataObject,
	IExecuteFunctions,
	ILoadOptionsFunctions,
	INode,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
	INodeTypes,
	IRun,
	IVersionedNodeType,
	IWorkflowBase,
	IWorkflowExecuteAdditionalData,
} from 'n8n-workflow';
import { Workflow } from 'n8n-workflow';
import { TestCredentialsHelper } from './credentials';

/**
 * Runs workflows through n8n-core's real execution engine (WorkflowExecute over a Workflow), with the
 * package's built node classes (dist/) and a credentials helper that behaves like n8n's server.
 * Two stand-ins for n8n's own nodes let test workflows look exactly like ones a user imports:
 * `n8n-nodes-base.manualTrigger` (one empty item) and `n8n-nodes-base.code` ("Run Once for All Items":
 * its JavaScript returns the items).
 */

export const PACKAGE = 'n8n-nodes-latam-fiscal';
const root = join(__dirname, '..', '..');

/** Loads a built class from dist/, e.g. built('nodes/Partners/Partners.node', 'Partners'). */
export function built<T>(path: string, exportName: string): T {
	// eslint-disable-next-line @typescript-eslint/no-require-imports -- the built package is loaded like n8n loads it
	const mod = require(join(root, 'dist', path)) as Record<string, new () => T>;
	return new mod[exportName]();
}

class ManualTrigger implements INodeType {
	description = {
		displayName: 'Manual Trigger',
		name: 'manualTrigger',
		group: ['trigger'],
		version: 1,
		description: '',
		defaults: {},
		inputs: [],
		outputs: ['main'],
		properties: [],
	} as unknown as INodeTypeDescription;

	async trigger() {
		return {};
	}

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return [[{ json: {} }]];
	}
}

class Code implements INodeType {
	description = {
		displayName: 'Code',
		name: 'code',
		group: ['transform'],
		version: [1, 2],
		description: '',
		defaults: {},
		inputs: ['main'],
		outputs: ['main'],
		properties: [{ displayName: 'JavaScript', name: 'jsCode', type: 'string', default: '' }],
	} as unknown as INodeTypeDescription;

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const code = this.getNodeParameter('jsCode', 0) as string;
		const items = this.getInputData();
		const $input = { all: () => items, first: () => items[0] };
		const result = new Function('$input', 'items', code)($input, items) as Array<IDataObject | INodeExecutionData>;
		return [result.map((r, i) => ('json' in r && typeof r.json === 'object' ? (r as INodeExecutionData) : { json: r as IDataObject, pairedItem: { item: i } }))];
	}
}

export class TestNodeTypes implements INodeTypes {
	private readonly types = new Map<string, INodeType>();

	constructor(packageNodes: INodeType[]) {
		this.types.set('n8n-nodes-base.manualTrigger', new ManualTrigger());
		this.types.set('n8n-nodes-base.code', new Code());
		for (const node of packageNodes) this.types.set(`${PACKAGE}.${node.description.name}`, node);
	}

	getByName(type: string): INodeType | IVersionedNodeType {
		return this.getByNameAndVersion(type);
	}

	getByNameAndVersion(type: string): INodeType {
		const node = this.types.get(type);
		if (!node) throw new Error(`Unknown node type ${type}`);
		return node;
	}

	getKnownTypes() {
		return {};
	}
}

export interface RunResult {
	run: IRun;
	/** Output items (first output) of a node, or [] when it did not run. */
	output(nodeName: string): INodeExecutionData[];
	/** The error of the run, if it failed. */
	error?: Error & { description?: string; httpCode?: string; context?: IDataObject };
}

export class Engine {
	readonly nodeTypes: TestNodeTypes;
	readonly credentials: TestCredentialsHelper;

	constructor(nodes: INodeType[], credentialTypes: ICredentialType[]) {
		this.nodeTypes = new TestNodeTypes(nodes);
		this.credentials = new TestCredentialsHelper(credentialTypes);
	}

	workflow(workflowData: IWorkflowBase): Workflow {
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

	/** What n8n's server hands the engine; URLs must be absolute (n8n-core parses them). */
	additionalData(hooks?: ExecutionLifecycleHooks): IWorkflowExecuteAdditionalData {
		const base = 'http://127.0.0.1:5678';
		return {
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
		} as unknown as IWorkflowExecuteAdditionalData;
	}

	/**
	 * The context n8n gives a node's listSearch/loadOptions methods while the user edits the node named
	 * `nodeName` (its current parameters are the workflow's).
	 */
	loadOptionsContext(workflowData: IWorkflowBase, nodeName: string, path = 'parameters'): ILoadOptionsFunctions {
		const workflow = this.workflow(workflowData);
		const node = workflow.getNode(nodeName) as INode;
		const additionalData = this.additionalData();
		additionalData.currentNodeParameters = node.parameters; // what the editor sends with the request
		return new LoadOptionsContext(workflow, node, additionalData, path);
	}

	async run(workflowData: IWorkflowBase): Promise<RunResult> {
		const workflow = this.workflow(workflowData);
		const hooks = new ExecutionLifecycleHooks('manual', 'test-execution', { ...workflowData, id: workflowData.id ?? 'test' } as IWorkflowBase);
		const finished = new Promise<IRun>((resolve) => hooks.addHandler('workflowExecuteAfter', (run: IRun) => resolve(run)));
		const additionalData = this.additionalData(hooks);
		const startNode = workflowData.nodes.find((n) => n.type === 'n8n-nodes-base.manualTrigger') as INode;
		const execution = new WorkflowExecute(additionalData, 'manual');
		await execution.run({ workflow, startNode });
		const run = await finished;
		const error = run.data.resultData.error as RunResult['error'];
		return {
			run,
			error,
			output: (name) => run.data.resultData.runData[name]?.[0]?.data?.main?.[0] ?? [],
		};
	}
}

/** Loads an importable example workflow from examples/ (the same files `npm run dev` imports into n8n). */
export function fixture(name: string): IWorkflowBase {
	return JSON.parse(readFileSync(join(root, 'examples', name), 'utf8')) as IWorkflowBase;
}

/**
 * Builds the workflow most tests need, in the shape a user would import: Manual Trigger → Code (emits the
 * given input items) → the node under test with the given parameters and credential.
 */
export function workflowWith(opts: {
	nodeType: string;
	parameters: IDataObject;
	credentialType: string;
	input?: IDataObject[];
	continueOnFail?: boolean;
	name?: string;
}): IWorkflowBase {
	const nodeName = opts.name ?? 'Node';
	const input = opts.input ?? [{}];
	return {
		id: 'wf',
		name: `test ${opts.nodeType}`,
		active: false,
		isArchived: false,
		activeVersionId: null,
		createdAt: new Date(),
		updatedAt: new Date(),
		settings: { executionOrder: 'v1' },
		nodes: [
			{ id: 't', name: 'Start', type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, position: [0, 0], parameters: {} },
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
				typeVersion: 1,
				position: [400, 0],
				parameters: opts.parameters as INode['parameters'],
				credentials: { [opts.credentialType]: { id: '1', name: 'test credential' } },
				...(opts.continueOnFail ? { onError: 'continueRegularOutput' as const } : {}),
			},
		],
		connections: {
			Start: { main: [[{ node: 'Input', type: 'main', index: 0 }]] },
			Input: { main: [[{ node: nodeName, type: 'main', index: 0 }]] },
		},
	} as unknown as IWorkflowBase;
}
