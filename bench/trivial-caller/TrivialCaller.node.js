// A test-only action node for the benchmarks, never shipped: for every input item it POSTs one SOAP envelope with
// n8n's HTTP helper and waits for the answer, keeping Parallel Requests of them in flight, and outputs the status
// and the answer's length. It reads nothing of the answer, checks nothing, evaluates no expression per item (the
// envelope's `{{ $json.<field> }}` are filled from the item) and writes no file: the fair floor for a community
// node that waits for each answer of a service, n8n's HTTP helper included (a new agent and connection per
// request), loaded into the same n8n as a second custom extension folder.
const PLACEHOLDER = /\{\{ \$json\.(\w+) \}\}/g;

class TrivialCaller {
	constructor() {
		this.description = {
			displayName: 'Trivial Caller (benchmark only)',
			name: 'trivialCaller',
			group: ['transform'],
			version: 1,
			description: 'POSTs an envelope per item and waits for its answer; reads nothing of it',
			defaults: { name: 'Trivial Caller' },
			inputs: ['main'],
			outputs: ['main'],
			properties: [
				{ displayName: 'URL', name: 'url', type: 'string', default: '' },
				{ displayName: 'SOAPAction', name: 'soapAction', type: 'string', default: '' },
				{ displayName: 'Envelope', name: 'envelope', type: 'string', default: '' },
				{ displayName: 'Parallel Requests', name: 'parallelRequests', type: 'number', default: 1 },
			],
		};
	}

	/** @this {import('n8n-workflow').IExecuteFunctions} */
	async execute() {
		const items = this.getInputData();
		const url = /** @type {string} */ (this.getNodeParameter('url', 0));
		const soapAction = /** @type {string} */ (this.getNodeParameter('soapAction', 0));
		const envelope = /** @type {string} */ (this.getNodeParameter('envelope', 0));
		const parallel = /** @type {number} */ (this.getNodeParameter('parallelRequests', 0));
		/** @type {import('n8n-workflow').INodeExecutionData[]} */
		const out = new Array(items.length);
		let next = 0;
		const worker = async () => {
			while (next < items.length) {
				const i = next++;
				const json = items[i].json;
				const answer = await this.helpers.httpRequest({
					method: 'POST',
					url,
					headers: {
						'Content-Type': 'text/xml; charset=utf-8',
						SOAPAction: soapAction,
						Accept: 'text/xml',
					},
					body: envelope.replace(PLACEHOLDER, (_, name) => String(json[name])),
					json: false,
					encoding: 'text',
					returnFullResponse: true,
					ignoreHttpStatusErrors: true,
				});
				out[i] = {
					json: { status: answer.statusCode, length: String(answer.body).length },
					pairedItem: { item: i },
				};
			}
		};
		await Promise.all(Array.from({ length: Math.min(parallel, items.length) }, worker));
		return [out];
	}
}

module.exports = { TrivialCaller };
