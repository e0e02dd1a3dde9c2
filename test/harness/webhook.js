import { createServer } from 'node:http';
/** @import { IncomingMessage, Server, ServerResponse } from 'node:http' */
/** @import { AddressInfo } from 'node:net' */
import { HookContext, WebhookContext } from 'n8n-core';
/** @import { ICredentialDataDecryptedObject, ICredentialType, IDataObject, INode, INodeExecutionData, INodeType, IWebhookData, IWebhookDescription, IWebhookResponseData, IWorkflowExecuteAdditionalData, WorkflowActivateMode, WorkflowExecuteMode } from 'n8n-workflow' */
import { Workflow } from 'n8n-workflow';
import { TestCredentialsHelper } from './credentials';
import { PACKAGE, TestNodeTypes } from './engine';

/**
 * Runs a trigger node's `webhookMethods` and `webhook()` through n8n-core's real HookContext and
 * WebhookContext, behind a real HTTP server on loopback, the way n8n's server drives them:
 *
 * - activation: `checkExists`, then `create` only when it answered false (n8n's createWebhookIfNotExists);
 *   deactivation: `delete`. Static data written by these is saved ("the database": `savedStaticData`), except
 *   by an activation that throws: then, as n8n does, `delete` runs on the workflow as saved and only what it
 *   writes is saved.
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

/**
 * @typedef {object} HttpAnswer
 * @property {number} status
 * @property {unknown} body
 * @property {string} text
 */

/**
 * @typedef {object} StartedExecution
 * @property {INodeExecutionData[][]} workflowData
 * @property {IDataObject[]} items The trigger's output items (first output).
 */

/**
 * @typedef {object} TriggerHarnessOptions
 * @property {INodeType} node
 * @property {ICredentialType[]} credentialTypes
 * @property {Record<string, IDataObject>} credentials Credential type name → data (the credential the node uses).
 * @property {IDataObject} [parameters]
 * @property {'webhook' | 'manual'} [mode] 'webhook' = production URL (active workflow); 'manual' = test URL ("Listen for test event").
 * @property {string} [workflowId]
 * @property {string} [webhookId]
 * @property {string} [nodeName]
 */

/**
 * @typedef {object} LoggedLine
 * @property {string} level
 * @property {string} message
 */

function quietLogger(lines) {
	const log = (level) => (message) => lines.push({ level, message });
	return {
		error: log('error'),
		warn: log('warn'),
		info: log('info'),
		debug: log('debug'),
		scoped: () => quietLogger(lines),
	};
}

/** @returns {ServerResponse} */
function addExpressMethods(res) {
	const r = /** @type {ServerResponse & Record<string, unknown>} */ (res);
	r.status = (code) => {
		res.statusCode = code;
		return r;
	};
	r.json = (body) => {
		if (!res.headersSent) res.setHeader('content-type', 'application/json; charset=utf-8');
		res.end(JSON.stringify(body));
		return r;
	};
	r.send = (body) => {
		if (typeof body === 'object' && body !== null && !Buffer.isBuffer(body))
			return /** @type {(b: unknown) => unknown} */ (r.json)(body);
		res.end(/** @type {string | Buffer | undefined} */ (body));
		return r;
	};
	return res;
}

/** @returns {Record<string, string | string[]>} */
function queryOf(url) {
	/** @type {Record<string, string | string[]>} */
	const out = {};
	for (const [k, v] of url.searchParams) {
		const prev = out[k];
		out[k] = prev === undefined ? v : Array.isArray(prev) ? [...prev, v] : [prev, v];
	}
	return out;
}

export class TriggerHarness {
	/** @type {TestNodeTypes} */
	nodeTypes;
	/** @type {TestCredentialsHelper} */
	credentials;
	/** @type {StartedExecution[]} */
	executions = [];
	/** @type {Error[]} */
	errorExecutions = [];
	/**
	 * The static data "in the database".
	 * @type {IDataObject}
	 */
	savedStaticData = {};
	/** @type {LoggedLine[]} */
	logs = [];
	active = false;
	/** @type {Server | undefined} */
	server;
	base = '';
	/** @type {INode} */
	node;
	/** @type {WorkflowExecuteMode} */
	mode;
	/** @type {TriggerHarnessOptions} */
	options;

	constructor(options) {
		this.options = options;
		this.nodeTypes = new TestNodeTypes([options.node]);
		this.credentials = new TestCredentialsHelper(options.credentialTypes);
		for (const [type, data] of Object.entries(options.credentials))
			this.credentials.set(type, /** @type {ICredentialDataDecryptedObject} */ (data));
		this.mode = options.mode ?? 'webhook';
		this.node = {
			id: 'trigger-node-id',
			name: options.nodeName ?? 'Trigger',
			type: `${PACKAGE}.${options.node.description.name}`,
			typeVersion: 1,
			position: [0, 0],
			webhookId: options.webhookId ?? 'a1b2c3d4-0000-4000-8000-000000000001',
			parameters: /** @type {INode['parameters']} */ (options.parameters ?? {}),
			credentials: Object.fromEntries(
				Object.keys(options.credentials).map((t) => [t, { id: '1', name: `${t} test` }]),
			),
		};
	}

	get description() {
		const webhooks = this.options.node.description.webhooks;
		if (!webhooks?.length) throw new Error('the node declares no webhooks');
		return webhooks[0];
	}

	/** The URL n8n would show (Production URL in 'webhook' mode, Test URL in 'manual' mode). */
	get url() {
		const prefix = this.mode === 'manual' ? 'webhook-test' : 'webhook';
		return `${this.base}/${prefix}/${this.node.webhookId}/${this.description.path}`;
	}

	/** @returns {Promise<this>} */
	async start() {
		this.server = createServer((req, res) => {
			/** @type {Buffer[]} */
			const chunks = [];
			req.on('data', (c) => chunks.push(c));
			req.on('end', () => {
				void this.handle(req, addExpressMethods(res), Buffer.concat(chunks)).catch((error) => {
					if (!res.headersSent) res.writeHead(599, { 'content-type': 'text/plain' });
					res.end(`harness error: ${error.message}`);
				});
			});
		});
		await /** @type {Promise<void>} */ (
			new Promise((resolve) =>
				/** @type {NonNullable<typeof this.server>} */ (this.server).listen(
					0,
					'127.0.0.1',
					resolve,
				),
			)
		);
		this.base = `http://127.0.0.1:${/** @type {AddressInfo} */ (this.server.address()).port}`;
		return this;
	}

	async stop() {
		if (!this.server) return;
		this.server.closeAllConnections();
		await /** @type {Promise<void>} */ (
			new Promise((resolve) =>
				/** @type {NonNullable<typeof this.server>} */ (this.server).close(() => resolve()),
			)
		);
		this.server = undefined;
	}

	/** @returns {Workflow} */
	workflow() {
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

	/** @returns {IWorkflowExecuteAdditionalData} */
	additionalData(extra = {}) {
		return /** @type {IWorkflowExecuteAdditionalData} */ (
			/** @type {unknown} */ ({
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
			})
		);
	}

	/** @returns {IWebhookData} */
	webhookData(workflow, additionalData) {
		return /** @type {IWebhookData} */ ({
			httpMethod: /** @type {IWebhookData['httpMethod']} */ (this.description.httpMethod),
			node: this.node.name,
			path: `${this.node.webhookId}/${this.description.path}`,
			webhookDescription: this.description,
			workflowId: workflow.id,
			workflowExecuteAdditionalData: additionalData,
			isTest: this.mode === 'manual',
		});
	}

	/** @returns {Promise<boolean | undefined>} */
	async hook(method, workflow, activation) {
		const additionalData = this.additionalData();
		const webhookData = this.webhookData(workflow, additionalData);
		const fn = this.options.node.webhookMethods?.default?.[method];
		if (!fn) return undefined;
		const node = /** @type {any} */ (workflow.getNode(this.node.name));
		const context = new HookContext(
			workflow,
			node,
			additionalData,
			method === 'delete' ? 'internal' : this.mode,
			activation,
			webhookData,
		);
		Object.defineProperty(context, 'logger', { value: quietLogger(this.logs) });
		return await fn.call(context);
	}

	save(workflow) {
		const data = structuredClone(
			/** @type {IDataObject} */ (JSON.parse(JSON.stringify(workflow.staticData))),
		);
		delete data.__dataChanged;
		this.savedStaticData = data;
	}

	/**
	 * What n8n does when the workflow is activated (or at start-up, activation 'init'): checkExists → create,
	 * then saves the static data; when either throws, `delete` on the saved workflow, whose static data is saved.
	 * @returns {Promise<{ created: boolean }>}
	 */
	async activate(activation = 'activate') {
		const workflow = this.workflow();
		let created = false;
		try {
			const exists = await this.hook('checkExists', workflow, activation);
			if (!exists) {
				await this.hook('create', workflow, activation);
				created = true;
			}
		} catch (error) {
			// n8n 2.41.1 (ActiveWorkflowManager.addWebhooks → clearWebhooks): the failed activation's static data
			// is not saved; n8n runs `delete` on the workflow as saved, saves what that writes, and reports the error.
			const saved = this.workflow();
			await this.hook('delete', saved, 'update');
			this.save(saved);
			throw error;
		}
		this.save(workflow);
		this.active = true;
		return { created };
	}

	/** What n8n does on deactivation: delete, then save static data. */
	async deactivate() {
		const workflow = this.workflow();
		await this.hook('delete', workflow, 'update');
		this.save(workflow);
		this.active = false;
	}

	/** Replaces the node's parameters (as saving an edited workflow does). */
	setParameters(parameters) {
		this.node.parameters = /** @type {INode['parameters']} */ (parameters);
	}

	async handle(req, res, raw) {
		const url = new URL(req.url ?? '/', this.base);
		const expected = new URL(this.url);
		if (
			!this.active ||
			url.pathname !== expected.pathname ||
			req.method !== this.description.httpMethod
		) {
			res.statusCode = 404;
			res.setHeader('content-type', 'application/json');
			res.end(JSON.stringify({ code: 404, message: 'The requested webhook is not registered.' }));
			return;
		}
		const request = /** @type {IncomingMessage & Record<string, unknown>} */ (req);
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
		const node = /** @type {any} */ (workflow.getNode(this.node.name));
		const context = new WebhookContext(
			workflow,
			node,
			additionalData,
			this.mode,
			webhookData,
			[],
			null,
		);
		Object.defineProperty(context, 'logger', { value: quietLogger(this.logs) });
		/** @type {IWebhookResponseData} */
		let result;
		try {
			result = await /** @type {NonNullable<typeof this.options.node.webhook>} */ (
				this.options.node.webhook
			).call(context);
		} catch (error) {
			this.errorExecutions.push(/** @type {Error} */ (error));
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

	/** @returns {StartedExecution} */
	started(workflowData) {
		return { workflowData, items: (workflowData[0] ?? []).map((i) => i.json) };
	}

	/**
	 * Sends a real HTTP request (default POST) to a URL of this n8n (default: the node's URL).
	 * @returns {Promise<HttpAnswer>}
	 */
	async send(opts) {
		const response = await fetch(opts.url ?? this.url, {
			method: opts.method ?? 'POST',
			headers: { 'content-type': 'application/json', ...(opts.headers ?? {}) },
			body: opts.body,
		});
		const text = await response.text();
		/** @type {unknown} */
		let body = text;
		try {
			body = JSON.parse(text);
		} catch {
			// not JSON
		}
		return { status: response.status, body, text };
	}
}
