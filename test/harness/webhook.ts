import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { HookContext, WebhookContext } from 'n8n-core';
import type {
	ICredentialDataDecryptedObject,
	ICredentialType,
	IDataObject,
	INode,
	INodeExecutionData,
	INodeType,
	IWebhookData,
	IWebhookDescription,
	IWebhookResponseData,
	IWorkflowExecuteAdditionalData,
	WorkflowActivateMode,
	WorkflowExecuteMode,
} from 'n8n-workflow';
import { Workflow } from 'n8n-workflow';
import { TestCredentialsHelper } from './credentials';
import { PACKAGE, TestNodeTypes } from './engine';

/**
 * Runs a trigger node's `webhookMethods` and `webhook()` through n8n-core's real HookContext and
 * WebhookContext, behind a real HTTP server on loopback, the way n8n's server drives them:
 *
 * - activation: `checkExists`, then `create` only when it answered false (n8n's createWebhookIfNotExists);
 *   deactivation: `delete`. Static data written by these is saved ("the database": `savedStaticData`).
 * - each request: a fresh Workflow built from the saved static data (n8n's live webhooks load the workflow
 *   per request), `req.rawBody` = the exact bytes, `req.body` parsed for JSON content types (a body that is
 *   not JSON is answered 422 before the node runs, as n8n does), `req.query` from the URL.
 *   What `webhook()` writes to static data is NOT saved — as in real n8n.
 * - the result is handled like n8n's webhook helpers: `noWebhookResponse` → the node answered itself;
 *   no `workflowData` → 200 "Webhook call received", no execution; `workflowData` → an execution starts
 *   (recorded in `executions`) and the answer is 200 "Workflow was started" (`responseMode: onReceived`);
 *   `webhook()` throwing → n8n starts an execution that carries the error (recorded in `errorExecutions`)
 *   and answers 500.
 * The response object is Node's own ServerResponse with express's `status()`, `json()` and `send()`.
 */

export interface HttpAnswer {
	status: number;
	body: unknown;
	text: string;
}

export interface StartedExecution {
	workflowData: INodeExecutionData[][];
	/** The trigger's output items (first output). */
	items: IDataObject[];
}

export interface TriggerHarnessOptions {
	node: INodeType;
	credentialTypes: ICredentialType[];
	/** Credential type name → data (the credential the node uses). */
	credentials: Record<string, IDataObject>;
	parameters?: IDataObject;
	/** 'webhook' = production URL (active workflow); 'manual' = test URL ("Listen for test event"). */
	mode?: 'webhook' | 'manual';
	workflowId?: string;
	webhookId?: string;
	nodeName?: string;
}

interface LoggedLine {
	level: string;
	message: string;
}

function quietLogger(lines: LoggedLine[]) {
	const log = (level: string) => (message: string) => lines.push({ level, message });
	return { error: log('error'), warn: log('warn'), info: log('info'), debug: log('debug'), scoped: () => quietLogger(lines) };
}

function addExpressMethods(res: ServerResponse): ServerResponse {
	const r = res as ServerResponse & Record<string, unknown>;
	r.status = (code: number) => {
		res.statusCode = code;
		return r;
	};
	r.json = (body: unknown) => {
		if (!res.headersSent) res.setHeader('content-type', 'application/json; charset=utf-8');
		res.end(JSON.stringify(body));
		return r;
	};
	r.send = (body: unknown) => {
		if (typeof body === 'object' && body !== null && !Buffer.isBuffer(body)) return (r.json as (b: unknown) => unknown)(body);
		res.end(body as string | Buffer | undefined);
		return r;
	};
	return res;
}

function queryOf(url: URL): Record<string, string | string[]> {
	const out: Record<string, string | string[]> = {};
	for (const [k, v] of url.searchParams) {
		const prev = out[k];
		out[k] = prev === undefined ? v : Array.isArray(prev) ? [...prev, v] : [prev, v];
	}
	return out;
}

export class TriggerHarness {
	readonly nodeTypes: TestNodeTypes;
	readonly credentials: TestCredentialsHelper;
	readonly executions: StartedExecution[] = [];
	readonly errorExecutions: Error[] = [];
	/** The static data "in the database". */
	savedStaticData: IDataObject = {};
	readonly logs: LoggedLine[] = [];
	active = false;
	private server?: Server;
	private base = '';
	private readonly node: INode;
	private readonly mode: WorkflowExecuteMode;

	constructor(private readonly options: TriggerHarnessOptions) {
		this.nodeTypes = new TestNodeTypes([options.node]);
		this.credentials = new TestCredentialsHelper(options.credentialTypes);
		for (const [type, data] of Object.entries(options.credentials)) this.credentials.set(type, data as ICredentialDataDecryptedObject);
		this.mode = options.mode ?? 'webhook';
		this.node = {
			id: 'trigger-node-id',
			name: options.nodeName ?? 'Trigger',
			type: `${PACKAGE}.${options.node.description.name}`,
			typeVersion: 1,
			position: [0, 0],
			webhookId: options.webhookId ?? 'a1b2c3d4-0000-4000-8000-000000000001',
			parameters: (options.parameters ?? {}) as INode['parameters'],
			credentials: Object.fromEntries(Object.keys(options.credentials).map((t) => [t, { id: '1', name: `${t} test` }])),
		};
	}

	private get description(): IWebhookDescription {
		const webhooks = this.options.node.description.webhooks;
		if (!webhooks?.length) throw new Error('the node declares no webhooks');
		return webhooks[0];
	}

	/** The URL n8n would show (Production URL in 'webhook' mode, Test URL in 'manual' mode). */
	get url(): string {
		const prefix = this.mode === 'manual' ? 'webhook-test' : 'webhook';
		return `${this.base}/${prefix}/${this.node.webhookId}/${this.description.path}`;
	}

	async start(): Promise<this> {
		this.server = createServer((req, res) => {
			const chunks: Buffer[] = [];
			req.on('data', (c: Buffer) => chunks.push(c));
			req.on('end', () => {
				void this.handle(req, addExpressMethods(res), Buffer.concat(chunks)).catch((error: Error) => {
					if (!res.headersSent) res.writeHead(599, { 'content-type': 'text/plain' });
					res.end(`harness error: ${error.message}`);
				});
			});
		});
		await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
		this.base = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
		return this;
	}

	async stop(): Promise<void> {
		if (!this.server) return;
		this.server.closeAllConnections();
		await new Promise<void>((resolve) => this.server!.close(() => resolve()));
		this.server = undefined;
	}

	private workflow(): Workflow {
		return new Workflow({
			id: this.options.workflowId ?? 'wf-trigger',
			name: 'trigger test',
			nodes: [structuredClone(this.node)],
			connections: {},
			active: this.mode === 'webhook',
			nodeTypes: this.nodeTypes,
			staticData: structuredClone(this.savedStaticData),
			settings: { executionOrder: 'v1' },
		});
	}

	private additionalData(extra: IDataObject = {}): IWorkflowExecuteAdditionalData {
		return {
			credentialsHelper: this.credentials,
			variables: {},
			currentNodeExecutionIndex: 0,
			instanceBaseUrl: `${this.base}/`,
			restApiUrl: `${this.base}/rest`,
			formBaseUrl: `${this.base}/form`,
			formWaitingBaseUrl: `${this.base}/form-waiting`,
			formTestBaseUrl: `${this.base}/form-test`,
			webhookBaseUrl: `${this.base}/webhook`,
			webhookWaitingBaseUrl: `${this.base}/webhook-waiting`,
			webhookTestBaseUrl: `${this.base}/webhook-test`,
			mcpBaseUrl: `${this.base}/mcp`,
			mcpTestBaseUrl: `${this.base}/mcp-test`,
			executeWorkflow: async () => {
				throw new Error('not used');
			},
			getRunExecutionData: async () => undefined,
			getRuntimeCredential: async () => undefined,
			logAiEvent: () => {},
			...extra,
		} as unknown as IWorkflowExecuteAdditionalData;
	}

	private webhookData(workflow: Workflow, additionalData: IWorkflowExecuteAdditionalData): IWebhookData {
		return {
			httpMethod: this.description.httpMethod as IWebhookData['httpMethod'],
			node: this.node.name,
			path: `${this.node.webhookId}/${this.description.path}`,
			webhookDescription: this.description,
			workflowId: workflow.id,
			workflowExecuteAdditionalData: additionalData,
			isTest: this.mode === 'manual',
		} as IWebhookData;
	}

	private async hook(method: 'checkExists' | 'create' | 'delete', workflow: Workflow, activation: WorkflowActivateMode): Promise<boolean | undefined> {
		const additionalData = this.additionalData();
		const webhookData = this.webhookData(workflow, additionalData);
		const fn = this.options.node.webhookMethods?.default?.[method];
		if (!fn) return undefined;
		const node = workflow.getNode(this.node.name)!;
		const context = new HookContext(workflow, node, additionalData, method === 'delete' ? 'internal' : this.mode, activation, webhookData);
		Object.defineProperty(context, 'logger', { value: quietLogger(this.logs) });
		return await fn.call(context);
	}

	private save(workflow: Workflow): void {
		const data = structuredClone(JSON.parse(JSON.stringify(workflow.staticData)) as IDataObject);
		delete data.__dataChanged;
		this.savedStaticData = data;
	}

	/** What n8n does when the workflow is activated (or at start-up, activation 'init'): checkExists → create. */
	async activate(activation: WorkflowActivateMode = 'activate'): Promise<{ created: boolean }> {
		const workflow = this.workflow();
		const exists = await this.hook('checkExists', workflow, activation);
		let created = false;
		if (!exists) {
			await this.hook('create', workflow, activation);
			created = true;
		}
		this.save(workflow);
		this.active = true;
		return { created };
	}

	/** What n8n does on deactivation: delete, then save static data. */
	async deactivate(): Promise<void> {
		const workflow = this.workflow();
		await this.hook('delete', workflow, 'update');
		this.save(workflow);
		this.active = false;
	}

	/** Replaces the node's parameters (as saving an edited workflow does). */
	setParameters(parameters: IDataObject): void {
		this.node.parameters = parameters as INode['parameters'];
	}

	private async handle(req: IncomingMessage, res: ServerResponse, raw: Buffer): Promise<void> {
		const url = new URL(req.url ?? '/', this.base);
		const expected = new URL(this.url);
		if (!this.active || url.pathname !== expected.pathname || req.method !== this.description.httpMethod) {
			res.statusCode = 404;
			res.setHeader('content-type', 'application/json');
			res.end(JSON.stringify({ code: 404, message: 'The requested webhook is not registered.' }));
			return;
		}
		const request = req as IncomingMessage & Record<string, unknown>;
		request.rawBody = raw;
		request.query = queryOf(url);
		request.params = {};
		const contentType = (req.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
		request.contentType = contentType;
		if (raw.length && contentType === 'application/json') {
			try {
				const text = raw.toString('utf8');
				request.body = JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
			} catch {
				res.statusCode = 422;
				res.setHeader('content-type', 'application/json');
				res.end(JSON.stringify({ code: 422, message: 'Failed to parse request body' }));
				return;
			}
		}
		request.body ??= {};

		const workflow = this.workflow();
		const additionalData = this.additionalData({ httpRequest: request, httpResponse: res });
		const webhookData = this.webhookData(workflow, additionalData);
		const node = workflow.getNode(this.node.name)!;
		const context = new WebhookContext(workflow, node, additionalData, this.mode, webhookData, [], null);
		Object.defineProperty(context, 'logger', { value: quietLogger(this.logs) });
		let result: IWebhookResponseData;
		try {
			result = await this.options.node.webhook!.call(context);
		} catch (error) {
			this.errorExecutions.push(error as Error);
			if (!res.headersSent) {
				res.statusCode = 500;
				res.setHeader('content-type', 'application/json');
				res.end(JSON.stringify({ code: 0, message: 'Error in workflow' }));
			}
			return;
		}
		// Not saved: n8n drops static data written during webhook().
		if (result.noWebhookResponse === true) {
			if (!res.writableEnded) {
				// n8n would leave the request hanging here: make it visible instead.
				res.statusCode = 599;
				res.end('noWebhookResponse without an answer');
			}
			if (result.workflowData) this.executions.push(this.started(result.workflowData));
			return;
		}
		if (result.workflowData === undefined) {
			res.statusCode = 200;
			res.setHeader('content-type', 'application/json');
			res.end(JSON.stringify(result.webhookResponse ?? { message: 'Webhook call received' }));
			return;
		}
		this.executions.push(this.started(result.workflowData));
		res.statusCode = 200;
		res.setHeader('content-type', 'application/json');
		res.end(JSON.stringify({ message: 'Workflow was started' }));
	}

	private started(workflowData: INodeExecutionData[][]): StartedExecution {
		return { workflowData, items: (workflowData[0] ?? []).map((i) => i.json) };
	}

	/** Sends a real HTTP request (default POST) to a URL of this n8n (default: the node's URL). */
	async send(opts: { body: string | Buffer; headers?: Record<string, string>; url?: string; method?: string }): Promise<HttpAnswer> {
		const response = await fetch(opts.url ?? this.url, {
			method: opts.method ?? 'POST',
			headers: { 'content-type': 'application/json', ...(opts.headers ?? {}) },
			body: opts.body,
		});
		const text = await response.text();
		let body: unknown = text;
		try {
			body = JSON.parse(text);
		} catch {
			// not JSON
		}
		return { status: response.status, body, text };
	}
}
