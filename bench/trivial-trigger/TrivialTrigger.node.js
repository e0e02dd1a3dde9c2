// A test-only trigger for the benchmarks, never shipped: it starts a workflow with the request body and
// verifies nothing. n8n skips its per-request expression isolate only for its own Webhook node, so the fair
// floor for a community trigger's throughput is a community trigger that does no work of its own: this one,
// loaded into the same n8n as a second custom extension folder.
class TrivialTrigger {
	constructor() {
		this.description = {
			displayName: 'Trivial Trigger (benchmark only)',
			name: 'trivialTrigger',
			group: ['trigger'],
			version: 1,
			description: 'Starts a workflow with the request body; verifies nothing',
			defaults: { name: 'Trivial Trigger' },
			inputs: [],
			outputs: ['main'],
			webhooks: [
				{ name: 'default', httpMethod: 'POST', responseMode: 'onReceived', path: 'trivial' },
			],
			// Optional and never read: the bench attaches it in one workflow to measure what n8n itself spends on
			// a workflow whose trigger carries a credential.
			credentials: [{ name: 'extractionWebhookApi', required: false }],
			properties: [],
		};
	}

	/** @this {import('n8n-workflow').IWebhookFunctions} */
	async webhook() {
		return { workflowData: [this.helpers.returnJsonArray(this.getBodyData())] };
	}
}

module.exports = { TrivialTrigger };
