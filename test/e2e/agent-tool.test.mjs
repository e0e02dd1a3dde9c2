// End-to-end: the Receipts node run under its AI-tool type in a real n8n (the pinned version). n8n makes the
// tool variant of a `usableAsTool` node itself (its type name with the suffix `Tool`); this checks that the
// node sees that type there as it does in the engine tests, so a production receipt is refused unless the
// tool's switch is on, and that the switch is read. Run with `npm run test:e2e`.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { closeSuite, e2eSandbox, startSuiteN8n } from '../../scripts/n8n/suite.mjs';
import { node, retentionFromItem, rowsWorkflow } from '../../scripts/n8n/workflow.mjs';

const production = retentionFromItem().replace('"ambiente":1', '"ambiente":2');
const asTool = (extra) =>
	node(
		'Target',
		'n8n-nodes-latam-fiscal.receiptsTool',
		{
			resource: 'retention',
			operation: 'issue',
			inputMode: 'json',
			jsonBody: production,
			...extra,
		},
		{ credentials: { receiptsApi: { id: 'x', name: 'x' } } },
	);

let sb;
let n8n;

before(async () => {
	sb = await e2eSandbox('e2e-agent');
	await sb.importWorkflows([
		rowsWorkflow('e2eAgentRefused', 1, '{ seq: 7400 }', asTool({})),
		rowsWorkflow('e2eAgentAllowed', 1, '{ seq: 7401 }', asTool({ allowProductionFromAgent: true })),
	]);
	n8n = await startSuiteN8n(sb);
});

after(() => closeSuite(n8n, sb));

describe('Receipts as an AI agent’s tool, in real n8n', () => {
	test('a production receipt is refused before anything is sent', async () => {
		sb.sim.server.clear();
		const run = await n8n.execute('e2eAgentRefused');
		assert.match(
			String(run.data.resultData.error?.message),
			/An AI agent may not issue this retention: it is in the production environment \(ambiente 2\)/,
		);
		// Nothing sent but the read of the rates' catalog that checking the receipt makes (GET, X-Key only).
		assert.deepEqual(
			sb.sim.server.received('receipts').map((r) => `${r.method} ${r.path}`),
			['GET /catalog/withholdings-tax-rates/1'],
		);
	});

	test('with the tool’s "Allow Production From an AI Agent" on, it is issued', async () => {
		sb.sim.server.clear();
		const run = await n8n.execute('e2eAgentAllowed');
		assert.equal(run.data.resultData.error, undefined, run.data.resultData.error?.message);
		const posts = sb.sim.server.received('receipts').filter((r) => r.method === 'POST');
		assert.equal(posts.length, 1);
		assert.equal(posts[0].body.ambiente, 2);
	});
});
