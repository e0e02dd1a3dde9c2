// End-to-end (issue 34): in a real n8n (the pinned version; N8N_LINE=1 for 1.x), every call ends and every file is
// sent as written. A service answering 120,000 "<" (an error page a tag-stripping pattern took seconds per 40,000 to
// read, on n8n's main thread where no Request Timeout cuts it) ends each node — SAT, SRI, Receipts, Partners —
// within its Request Timeout plus a second; Send by Email to a pathological address fails at once with nothing
// sent; an ISO-8859-1 receipt file reaches the receipts service with its "Peñón", never mangled, and an invalid
// UTF-8 one is refused with nothing sent. Run with `node --test test/e2e/linear.test.mjs`.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { requireTestModule } from '../../scripts/n8n/sandbox.mjs';
import { closeSuite, e2eSandbox, startSuiteN8n } from '../../scripts/n8n/suite.mjs';
import { chain, node } from '../../scripts/n8n/workflow.mjs';

const cred = (type) => ({ credentials: { [type]: { id: 'x', name: 'x' } } });
const HOSTILE = '<'.repeat(120_000);
/** Request Timeout of the nodes that have the option (seconds). */
const TIMEOUT_S = 3;

/** @type {Awaited<ReturnType<typeof e2eSandbox>>} */
let sb;
/** @type {Awaited<ReturnType<typeof startSuiteN8n>>} */
let n8n;

/** Manual Trigger → [Input (Code) →] Target. */
function workflow(id, target, input) {
	const nodes = [node('Start', 'n8n-nodes-base.manualTrigger', {})];
	if (input)
		nodes.push(node('Input', 'n8n-nodes-base.code', { jsCode: input }, { typeVersion: 2 }));
	nodes.push({ ...target, name: 'Target' });
	return {
		id,
		name: id,
		settings: { executionOrder: 'v1' },
		nodes,
		connections: input ? chain('Start', 'Input', 'Target') : chain('Start', 'Target'),
	};
}

/** The Code node's items: one with the file `bytes` in its binary field `data`. */
const fileItem = (bytes) =>
	`return [{ json: {}, binary: { data: { data: ${JSON.stringify(bytes.toString('base64'))}, mimeType: 'application/xml', fileName: 'retencion.xml' } } }];`;

let retentionXml;
before(async () => {
	sb = await e2eSandbox('e2e-linear');
	const { xmlOf } = requireTestModule('receipts/setup');
	const written = (encoding) =>
		xmlOf('comprobanteRetencion')
			.replace('encoding="UTF-8"', `encoding="${encoding}"`)
			.replace('Distribuidora Andina S.A.', 'Peñón Cía. Ltda.');
	retentionXml = written;
	const receipts = (parameters) =>
		node('Target', 'n8n-nodes-latam-fiscal.receipts', parameters, cred('receiptsApi'));
	const issueFile = (id, bytes) =>
		workflow(
			id,
			receipts({
				resource: 'retention',
				operation: 'issueFromXml',
				xmlSource: 'binary',
				binaryPropertyName: 'data',
			}),
			fileItem(bytes),
		);
	await sb.importWorkflows([
		workflow(
			'e2eLinSat',
			node('Target', 'n8n-nodes-latam-fiscal.sat', {
				resource: 'cfdi',
				operation: 'checkStatus',
				inputMode: 'fields',
				uuid: 'A0000000-0000-4000-8000-000000000000',
				issuerRfc: 'EKU9003173C9',
				receiverRfc: 'XAXX010101000',
				total: '100.00',
				options: { requestTimeout: TIMEOUT_S, serviceAddress: sb.sim.addresses.sat },
			}),
		),
		workflow(
			'e2eLinSri',
			node('Target', 'n8n-nodes-latam-fiscal.sri', {
				resource: 'receipt',
				operation: 'checkAuthorization',
				accessKey: '2110201101179214673900110020010000000011234567813',
				options: { requestTimeout: TIMEOUT_S, serviceAddress: sb.sim.addresses.sri },
			}),
		),
		workflow(
			'e2eLinReceipts',
			receipts({
				resource: 'document',
				operation: 'get',
				receiptId: 'r1',
				options: { requestTimeout: TIMEOUT_S },
			}),
		),
		workflow(
			'e2eLinPartners',
			node(
				'Target',
				'n8n-nodes-latam-fiscal.partners',
				{ resource: 'plan', operation: 'getMany', returnAll: true },
				cred('partnersApi'),
			),
		),
		workflow(
			'e2eLinEmail',
			receipts({
				resource: 'document',
				operation: 'sendEmail',
				receiptId: 'r1',
				recipients: `a@${'.'.repeat(30_000)}@`,
			}),
		),
		issueFile('e2eLinLatin1', Buffer.from(written('ISO-8859-1'), 'latin1')),
		issueFile('e2eLinBadUtf8', Buffer.from(written('UTF-8'), 'latin1')),
	]);
	n8n = await startSuiteN8n(sb);
});

after(async () => {
	await closeSuite(n8n, sb);
});

/** The Target node's own time in a stored execution, and its error. */
const target = (run) => {
	const [task] = run.data.resultData.runData.Target ?? [];
	return { ms: task?.executionTime ?? NaN, error: run.data.resultData.error };
};

describe('a service answering 120,000 "<" ends every node within its Request Timeout plus a second', () => {
	/** @type {Array<[name: string, id: string, service: string, path: string | undefined, limitS: number]>} */
	const nodes = [
		['SAT (Mexico)', 'e2eLinSat', 'sat', undefined, TIMEOUT_S],
		['SRI (Ecuador)', 'e2eLinSri', 'sri', undefined, TIMEOUT_S],
		['Receipts (Ecuador)', 'e2eLinReceipts', 'receipts', '/edocs', TIMEOUT_S],
		// Partners has no Request Timeout option: 60 s.
		['Partners (Mexico)', 'e2eLinPartners', 'partners', '/v1/products', 60],
	];
	for (const [name, id, service, path, limitS] of nodes)
		test(name, async () => {
			sb.sim.server.fail({ service, path, status: 500, raw: HOSTILE, times: 10 });
			const run = await n8n.execute(id);
			const { ms, error } = target(run);
			assert.ok(error, `${name}: the run failed, as a 500 must make it`);
			assert.ok(ms <= (limitS + 1) * 1000, `${name} took ${ms} ms, more than ${limitS + 1} s`);
			sb.sim.server.clear();
		});
});

describe('what is sent is what the user gave', () => {
	test('Send by Email to "a@" and 30,000 dots fails at once, with nothing sent', async () => {
		sb.sim.server.clear();
		const run = await n8n.execute('e2eLinEmail');
		const { ms, error } = target(run);
		assert.equal(
			error?.message,
			'[item 1] recipients[0]: must be at most 254 characters long, got 30003',
		);
		assert.ok(ms < 1000, `the check took ${ms} ms`);
		assert.deepEqual(sb.sim.server.received('receipts'), []);
	});

	test('an ISO-8859-1 receipt file reaches the service with its Peñón, declared as UTF-8', async () => {
		sb.sim.server.clear();
		const run = await n8n.execute('e2eLinLatin1');
		assert.equal(target(run).error, undefined);
		const sent = sb.sim.server
			.received('receipts')
			.filter((r) => r.method === 'POST' && r.path === '/retentions/issue/xml');
		assert.equal(sent.length, 1);
		const { xml } = /** @type {{ xml: string }} */ (sent[0].body);
		assert.equal(xml, retentionXml('UTF-8'));
		assert.ok(xml.includes('Peñón Cía. Ltda.'));
	});

	test('an invalid UTF-8 receipt file is refused, with nothing sent', async () => {
		sb.sim.server.clear();
		const run = await n8n.execute('e2eLinBadUtf8');
		assert.match(
			target(run).error?.message ?? '',
			/^\[item 1\] binary\.data: the XML is not valid UTF-8/,
		);
		assert.deepEqual(sb.sim.server.received('receipts'), []);
	});
});
