// End-to-end: trusted issuing in a real n8n (the pinned version) with the built package, against the
// simulators: a batch followed together, a refused certificate password, a lost issue answer, and one token
// refresh for every request in flight. Run with `npm run test:e2e` (CI runs it after `npm test`).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { closeSuite, e2eSandbox, startSuiteN8n } from '../../scripts/n8n/suite.mjs';
import {
	node,
	partnersGetById,
	retentionFromItem,
	rowsWorkflow,
} from '../../scripts/n8n/workflow.mjs';

const issue = (extra) =>
	node(
		'Target',
		'n8n-nodes-latam-fiscal.receipts',
		{
			resource: 'retention',
			operation: 'issue',
			inputMode: 'json',
			jsonBody: retentionFromItem(),
			...extra,
		},
		{ credentials: { receiptsApi: { id: 'x', name: 'x' } }, onError: 'continueRegularOutput' },
	);
const seqRows = (id, n, from, target) => rowsWorkflow(id, n, `{ seq: ${from} + i }`, target);

let sb;
let n8n;
let planId;

/** Runs workflow `id`; its Target node's output. */
async function execute(id) {
	const run = await n8n.execute(id);
	assert.equal(run.data.resultData.error, undefined, run.data.resultData.error?.message);
	return run.data.resultData.runData.Target[0].data.main[0];
}

before(async () => {
	sb = await e2eSandbox('e2e-trust');
	[{ uuid: planId }] = sb.sim.partners.seedProducts(1, 'E2E token');
	await sb.importWorkflows([
		seqRows(
			'e2eTrustBatch',
			20,
			7000,
			issue({ waitForFinalState: true, waitTimeout: 60, options: { pollInterval: 0.3 } }),
		),
		seqRows('e2eTrustSigning', 2, 7100, issue({ waitForFinalState: true, waitTimeout: 120 })),
		seqRows('e2eTrustLost', 1, 7200, issue({ options: { accessKey: 'reproducible' } })),
		...[1, 5, 20].map((p) =>
			rowsWorkflow(
				`e2eTrustTokenP${p}`,
				1000,
				`{ id: ${JSON.stringify(planId)} }`,
				partnersGetById(p),
			),
		),
	]);
	n8n = await startSuiteN8n(sb);
});

after(() => closeSuite(n8n, sb));

describe('Receipts: trusted issuing in real n8n', () => {
	test('a batch is issued (5 at a time, the default), then followed together: every receipt authorized, in input order', async () => {
		sb.sim.server.clear();
		sb.sim.receipts.decideAfterMs = 1500;
		const items = await execute('e2eTrustBatch');
		sb.sim.receipts.decideAfterMs = undefined;
		assert.deepEqual(
			items.map((i) => i.json.secuencial),
			Array.from({ length: 20 }, (_, i) => 7000 + i),
		);
		assert.ok(
			items.every((i) => i.json.estado === 'AUTORIZADO'),
			JSON.stringify(items.map((i) => i.json.estado)),
		);
		const received = sb.sim.server.received('receipts');
		const lastPost = Math.max(...received.filter((r) => r.method === 'POST').map((r) => r.at));
		const firstGet = Math.min(
			...received
				.filter((r) => r.method === 'GET' && r.path.startsWith('/edocs/'))
				.map((r) => r.at),
		);
		assert.ok(lastPost <= firstGet, 'every receipt was issued before the first status check');
	});

	test('a refused certificate password stops each item at once, with its id and what to do; the password appears nowhere', async () => {
		sb.sim.server.clear();
		const real = sb.sim.receipts.certificatePassword;
		sb.sim.receipts.certificatePassword = 'the-service-expects-another-one';
		const items = await execute('e2eTrustSigning');
		sb.sim.receipts.certificatePassword = real;
		assert.equal(
			sb.sim.server
				.received('receipts')
				.filter((r) => r.method === 'GET' && r.path.startsWith('/edocs/')).length,
			0,
			'no status checks',
		);
		for (const item of items) {
			assert.equal(item.json.signing_failed, true);
			assert.equal(item.json.document_exists, true);
			assert.match(String(item.json.id), /^[0-9a-f]{32}$/);
			assert.match(
				String(item.json.error),
				/refused the Certificate Password of the Receipts credential/,
			);
			assert.match(
				String(item.json.instruction),
				new RegExp(`Document → Authorize \\(ID ${item.json.id}\\)`),
			);
		}
		assert.ok(!JSON.stringify(items).includes(real));
	});

	test('an issue whose answer is lost is not re-sent; the item says it may exist, with the secuencial and the access key sent', async () => {
		sb.sim.server.clear();
		const before = sb.sim.receipts.receipts.size;
		sb.sim.server.fail({ service: 'receipts', method: 'POST', mode: 'drop-after', times: 1 });
		const [item] = await execute('e2eTrustLost');
		const posts = sb.sim.server.received('receipts').filter((r) => r.method === 'POST');
		assert.equal(posts.length, 1);
		assert.equal(sb.sim.receipts.receipts.size, before + 1, 'the service created it');
		assert.equal(item.json.document_may_exist, true);
		assert.equal(item.json.secuencial, 7200);
		assert.equal(item.json.clave_acceso, posts[0].body.clave_acceso);
		assert.match(String(item.json.clave_acceso), /^\d{49}$/);
	});
});

describe('Partners: one token refresh for every request in flight, in real n8n', () => {
	for (const parallel of [1, 5, 20]) {
		test(`1000 reads at ${parallel} parallel, tokens expiring every 100 requests: at most 11 token requests`, async () => {
			sb.sim.partners.expireTokens(); // the stored token (if any) is refused: the run starts by needing one
			sb.sim.partners.tokenMaxUses = 100;
			const before = sb.sim.partners.tokensIssued;
			const items = await execute(`e2eTrustTokenP${parallel}`);
			sb.sim.partners.tokenMaxUses = undefined;
			const tokens = sb.sim.partners.tokensIssued - before;
			assert.equal(items.length, 1000);
			assert.ok(items.every((i) => i.json.uuid === planId));
			assert.ok(tokens >= 10 && tokens <= 11, `${tokens} token requests`);
		});
	}
});
