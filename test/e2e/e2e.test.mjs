// End-to-end: a real n8n (the pinned version users run) loads the built package, executes workflows against
// the service simulators, and receives real webhook deliveries on its production URLs.
// Run with `npm run test:e2e` (node's test runner). The first run installs n8n into .cache/ (5–7 minutes).
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { freePort } from '../../scripts/n8n/boot.mjs';
import { untilServed } from '../../scripts/n8n/executions.mjs';
import {
	CREDENTIAL_IDS,
	fillPlaceholders,
	repoRoot,
	requireTestModule,
} from '../../scripts/n8n/sandbox.mjs';
import {
	closeSuite,
	decidingAtFirstCheck,
	e2eSandbox,
	startSuiteN8n,
} from '../../scripts/n8n/suite.mjs';

const PACKAGE_NODES = [
	'partners',
	'receipts',
	'extraction',
	'sri',
	'sat',
	'receiptsTrigger',
	'extractionTrigger',
];
const PACKAGE_CREDENTIALS = [
	'partnersApi',
	'receiptsApi',
	'extractionApi',
	'extractionWebhookApi',
	'satEfirmaApi',
];
/** @typedef {import('../../scripts/n8n/boot.mjs').LoadedTypes} LoadedTypes */

/** The SRI codes' explanations of the built package (read after `before` has built it). */
const sriCode = (code) =>
	createRequire(import.meta.url)(join(repoRoot, 'dist', 'nodes', 'shared', 'sri', 'sriMessages.js'))
		.SRI_CODES[code];
const example = (file, id) => ({
	...JSON.parse(readFileSync(join(repoRoot, 'examples', file), 'utf8')),
	id,
});
const node = (name, type, parameters, extra = {}) => ({
	id: randomUUID(),
	name,
	type,
	typeVersion: 1,
	position: [0, 0],
	parameters,
	...extra,
});
const cred = (type) => ({ [type]: { id: 'x', name: 'x' } }); // replaced by the sandbox's fixed IDs on import
const manual = node('Start', 'n8n-nodes-base.manualTrigger', {});
const chain = (...names) =>
	Object.fromEntries(
		names
			.slice(0, -1)
			.map((name, i) => [name, { main: [[{ node: names[i + 1], type: 'main', index: 0 }]] }]),
	);

/**
 * The examples that run as they are, plus one chain per service so every resource runs at least once
 * (a node runs once per item it receives, so each chain sends one request per node).
 */
const PLACEHOLDER_EXAMPLES = {
	e2eExDownloadAll: ['extraction-get-and-download-all.json', 'Download all documents'],
	e2eExToDisk: ['extraction-last-month-invoices-to-disk.json', 'Write XML to disk'],
	e2eExAuthorize: ['receipts-authorize-pending.json', 'Authorize and wait'],
	e2eExInvoiceMail: ['receipts-invoice-email-ride.json', 'Download the RIDE'],
	e2eExSatCheck: ['sat-check-received-cfdis.json', 'Check CFDI Status'],
};

function workflows() {
	const bodies = requireTestModule('receipts/setup');
	const receipts = (name, parameters, extra = {}) =>
		node(name, 'n8n-nodes-latam-fiscal.receipts', parameters, {
			credentials: cred('receiptsApi'),
			...extra,
		});
	const extraction = (name, parameters) =>
		node(name, 'n8n-nodes-latam-fiscal.extraction', parameters, {
			credentials: cred('extractionApi'),
		});
	/** Extraction → Create of last October's inbound invoices, with the sandbox's SAT password. */
	const createJob = {
		resource: 'extraction',
		operation: 'create',
		satCredentialType: 'ciec',
		rfc: 'EKU9003173C9',
		satPassword: 'ciec-e2e-secret',
		informationType: 'INVOICE',
		periodFrom: '2026-10-01',
		periodTo: '2026-10-31',
		direction: 'INBOUND',
	};
	return [
		...Object.entries(PLACEHOLDER_EXAMPLES).map(([id, [file]]) =>
			fillPlaceholders(example(file, id), sb.sim, userFolder),
		),
		example('partners-onboard-clients.json', 'e2eOnboard'),
		example('receipts-retention-wait-branch.json', 'e2eRetention'),
		{
			id: 'e2eSubscriptions',
			name: 'e2e partners subscriptions',
			settings: { executionOrder: 'v1' },
			nodes: [
				manual,
				node(
					'Subscriptions',
					'n8n-nodes-latam-fiscal.partners',
					{ resource: 'subscription', operation: 'getMany', returnAll: true },
					{ credentials: cred('partnersApi') },
				),
			],
			connections: chain('Start', 'Subscriptions'),
		},
		{
			id: 'e2eRcptResources',
			name: 'e2e receipts: every resource',
			settings: { executionOrder: 'v1' },
			nodes: [
				manual,
				receipts('ATS retention', bodies.jsonIssue('atsRetention', bodies.atsRetentionBody())),
				receipts('Waybill', bodies.jsonIssue('waybill', bodies.waybillBody())),
				receipts('Get waybill', {
					resource: 'waybill',
					operation: 'get',
					receiptId: "={{ $('Waybill').item.json.id }}",
				}),
				receipts(
					'Purchase settlement',
					bodies.jsonIssue('purchaseSettlement', bodies.settlementBody()),
				),
				receipts('Get document', {
					resource: 'document',
					operation: 'get',
					receiptId: "={{ $('Purchase settlement').item.json.id }}",
				}),
				receipts('Subscribe', {
					resource: 'webhook',
					operation: 'subscribe',
					event_name: 'issue-error',
					webhook_url: 'https://erp.example.com/hooks/sri',
				}),
			],
			connections: chain(
				'Start',
				'ATS retention',
				'Waybill',
				'Get waybill',
				'Purchase settlement',
				'Get document',
				'Subscribe',
			),
		},
		{
			id: 'e2eNotFound',
			name: 'e2e receipts: a receipt the service does not know',
			settings: { executionOrder: 'v1' },
			nodes: [
				manual,
				receipts('Get unknown', {
					resource: 'document',
					operation: 'get',
					receiptId: '0123456789abcdef0123456789abcdef',
				}),
			],
			connections: chain('Start', 'Get unknown'),
		},
		{
			id: 'e2eExtraction',
			name: 'e2e extraction: verify, create + wait + download all XML, register a taxpayer',
			settings: { executionOrder: 'v1' },
			nodes: [
				manual,
				extraction('Verify', { resource: 'account', operation: 'verifyApiKey' }),
				extraction('Create and download', {
					...createJob,
					waitForCompletion: true,
					waitTimeout: 60,
					downloadAll: true,
					formats: 'XML',
					options: { pollInterval: 0.2 },
				}),
				{
					...extraction('Register taxpayer', {
						resource: 'taxpayer',
						operation: 'register',
						taxpayer: '{"identification":"1792146739001","name":"Distribuidora Andina S.A."}',
					}),
					executeOnce: true,
				},
			],
			connections: chain('Start', 'Verify', 'Create and download', 'Register taxpayer'),
		},
		{
			// Saved before the one wait rule: Timeout as `timeout`, Check Every as `pollInterval` outside Options.
			id: 'e2eExtSavedOld',
			name: 'e2e extraction: a workflow saved with the old wait fields',
			settings: { executionOrder: 'v1' },
			nodes: [
				manual,
				extraction('Create and wait', {
					...createJob,
					waitForCompletion: true,
					timeout: 3,
					pollInterval: 1,
				}),
			],
			connections: chain('Start', 'Create and wait'),
		},
		{
			id: 'e2eClosedPort',
			name: 'e2e receipts: nothing listening',
			settings: { executionOrder: 'v1' },
			nodes: [
				manual,
				receipts('Issue', bodies.jsonIssue('retention', bodies.retentionBody()), {
					credentials: { receiptsApi: CLOSED_PORT },
				}),
			],
			connections: chain('Start', 'Issue'),
		},
	];
}

/** A Receipts credential whose Base URL is a port nothing listens on (imported with the sandbox's). */
const CLOSED_PORT = { id: 'latamClosedPort', name: 'Receipts (nothing listening)' };

/** The trigger examples a user imports, activated as they are (in 'trigger nodes receive real deliveries'). */
const triggerWorkflows = {
	receipts: example('receipts-trigger-branch-on-authorization.json', 'e2eRcptTrigger'),
	extraction: example('extraction-trigger-download-completed.json', 'e2eExtTrigger'),
};

let sb;
let n8n;
const runs = {};
let userFolder;

const execute = (id) => n8n.execute(id);
/** An example, run with the services deciding at the first status check (see decidingAtFirstCheck). */
const runExample = (id) => decidingAtFirstCheck(sb.sim, () => execute(id));
const output = (run, nodeName) => run.data.resultData.runData[nodeName]?.[0]?.data?.main?.[0] ?? [];

async function executions(workflowId) {
	const res = await fetch(`${n8n.url}/api/v1/executions?workflowId=${workflowId}&limit=250`, {
		headers: n8n.api.headers,
	});
	assert.equal(res.status, 200, `executions API answered ${res.status}`);
	return /** @type {{ data: import('../../scripts/n8n/executions.mjs').Execution[] }} */ (
		await res.json()
	).data;
}

/** Executions of a workflow once the count has stopped changing (webhook runs are stored after the answer). */
async function settledExecutions(workflowId, { atLeast = 0 } = {}) {
	let last = -1;
	let list = [];
	for (let i = 0; i < 40; i++) {
		list = await executions(workflowId);
		if (
			list.length === last &&
			list.length >= atLeast &&
			list.every((e) => e.finished || e.stoppedAt)
		)
			return list;
		last = list.length;
		await new Promise((r) => setTimeout(r, 500));
	}
	return list;
}

before(async () => {
	const closedPort = `http://127.0.0.1:${await freePort()}`;
	sb = await e2eSandbox('e2e', {
		adjustCredentials: (list, sim) => [
			...list,
			{
				...CLOSED_PORT,
				type: 'receiptsApi',
				data: { ...sim.credentials.receiptsApi, baseUrl: closedPort },
			},
		],
	});
	userFolder = sb.opts.userFolder;
	await sb.importWorkflows([...workflows(), ...Object.values(triggerWorkflows)]);
	n8n = await startSuiteN8n(sb);
});

after(() => closeSuite(n8n, sb));

describe('n8n loads the package', () => {
	test('every node of the package is registered', async () => {
		const names = await n8n.typeNames('nodes');
		for (const name of PACKAGE_NODES)
			assert.ok(names.includes(sb.nodeType(name)), `${sb.nodeType(name)} not loaded`);
	});
});

describe('workflows executed by n8n', () => {
	test('the examples with placeholders run as `npm run dev` imports them (demo data filled in)', async () => {
		for (const [id, [file, last]] of Object.entries(PLACEHOLDER_EXAMPLES)) {
			const run = (runs[id] = await runExample(id));
			assert.equal(
				run.data.resultData.error,
				undefined,
				`${file}: ${run.data.resultData.error?.message}`,
			);
			assert.ok(output(run, last).length >= 1, `${file}: "${last}" produced no items`);
		}
	});

	test('Partners: one token, a plan search and one client per row (Sandbox header on every call)', async () => {
		sb.sim.server.clear();
		const run = (runs.partners = await execute('e2eOnboard'));
		assert.equal(run.data.resultData.error, undefined, run.data.resultData.error?.message);
		const created = output(run, 'Create client');
		assert.deepEqual(
			created.map((i) => i.json.email),
			['contacto@tiendaazul.mx', 'ventas@mostrador.mx'],
		);
		const received = sb.sim.server.received('partners');
		assert.equal(
			received.filter((r) => r.path === '/v1/auth/token').length,
			1,
			'exactly one token request',
		);
		assert.ok(received.every((r) => r.headers['f-sandbox-mode'] === 'true'));
		assert.ok(
			received
				.filter((r) => r.path !== '/v1/auth/token')
				.every((r) => /^Bearer /.test(r.headers.authorization)),
		);
		assert.equal(sb.sim.partners.clients.size, 2);
	});

	test('Receipts: retentions issued from JSON, X-Password only on the issuing POSTs, branch on the result; the repeated row is returned with 43 and explained', async () => {
		sb.sim.server.clear();
		const run = (runs.receipts = await runExample('e2eRetention'));
		assert.equal(run.data.resultData.error, undefined, run.data.resultData.error?.message);
		const issued = output(run, 'Issue retention');
		assert.ok(issued.length >= 1);
		assert.ok(
			issued.every(
				(i) => typeof i.json.id === 'string' && /^\d{49}$/.test(String(i.json.clave_acceso)),
			),
		);
		const received = sb.sim.server.received('receipts');
		const posts = received.filter((r) => r.method === 'POST');
		const reads = received.filter((r) => r.method === 'GET');
		assert.ok(posts.length >= 1 && reads.length >= 1, 'issued and polled');
		assert.ok(
			posts.every((r) => r.headers['x-password'] === sb.sim.receipts.certificatePassword),
			'X-Password on every issue',
		);
		assert.ok(
			reads.every((r) => r.headers['x-password'] === undefined),
			'no X-Password on reads',
		);
		assert.ok(received.every((r) => r.headers['x-key'] === sb.sim.receipts.apiKey));
		assert.ok(
			!JSON.stringify(run).includes(sb.sim.receipts.certificatePassword),
			'certificate password never in the run data',
		);
		// The repeated third row carries the first row's reproducible access key: the SRI authorizes one of the two
		// and returns the other with 43 (whichever arrives second: rows may be sent side by side), and the example's
		// Code node reads the reason and the next step from the simplified output.
		assert.equal(posts.filter((r) => r.path === '/retentions/issue').length, 3);
		const repeated = posts.filter((r) => r.body.secuencial === 101);
		assert.equal(repeated.length, 2);
		assert.equal(repeated[1].body.clave_acceso, repeated[0].body.clave_acceso);
		assert.deepEqual(
			output(run, 'Authorized')
				.map((i) => [i.json.numero, i.json.estado])
				.sort(),
			[
				['001-002-000000101', 'AUTORIZADO'],
				['001-002-000000102', 'AUTORIZADO'],
			],
		);
		const [reason] = output(run, 'Not authorized: reasons');
		assert.deepEqual(
			{ ...reason.json, id: undefined },
			{
				numero: '001-002-000000101',
				id: undefined,
				estado: 'DEVUELTO',
				timedOut: false,
				codes: '43',
				reason: `43 CLAVE ACCESO REGISTRADA — ${sriCode('43').explanation}`,
				next_step: sriCode('43').nextStep,
			},
		);
		const returned = issued.find((i) => i.json.estado === 'DEVUELTO').json;
		assert.equal(returned.rejected, true);
		assert.equal('url_formato_impresion' in returned, false, 'no RIDE link for a rejected receipt');
	});

	test('Receipts: the invoice example returns the repeated row with 43 and e-mails only the authorized ones; run again, it authorizes nothing twice', async () => {
		const run = runs.e2eExInvoiceMail;
		const rejected = output(run, 'Not authorized').map((i) => i.json);
		assert.equal(rejected.length, 1);
		assert.equal(rejected[0].estado, 'DEVUELTO');
		assert.equal(rejected[0].numero, '001-002-000002001');
		assert.equal(rejected[0].next_step, sriCode('43').nextStep);
		assert.deepEqual(
			rejected[0].sri_messages.map((m) => [m.identificador, m.source]),
			[['43', 'envio_sri']],
		);
		assert.deepEqual(
			output(run, 'Download the RIDE').map((i) => i.json.estado),
			['AUTORIZADO', 'AUTORIZADO'],
		);
		const authorizedBefore = [...sb.sim.receipts.receipts.values()].filter(
			(r) => r.estado === 'AUTORIZADO' && r.kind === 'invoice',
		).length;
		const again = await execute('e2eExInvoiceMail');
		assert.equal(again.data.resultData.error, undefined, again.data.resultData.error?.message);
		assert.deepEqual(
			output(again, 'Not authorized').map((i) => [
				i.json.numero,
				i.json.sri_messages[0].identificador,
			]),
			[
				['001-002-000002001', '43'],
				['001-002-000002002', '43'],
				['001-002-000002001', '43'],
			],
		);
		assert.equal(output(again, 'Download the RIDE').length, 0);
		assert.equal(
			[...sb.sim.receipts.receipts.values()].filter(
				(r) => r.estado === 'AUTORIZADO' && r.kind === 'invoice',
			).length,
			authorizedBefore,
		);
	});

	test('Partners: subscriptions listed', async () => {
		const run = await execute('e2eSubscriptions');
		assert.equal(run.data.resultData.error, undefined, run.data.resultData.error?.message);
		assert.deepEqual(
			output(run, 'Subscriptions')
				.map((i) => i.json.client.email)
				.sort(),
			['contacto@tiendaazul.mx', 'ventas@mostrador.mx'],
		);
	});

	test('Receipts: ATS retention, waybill, purchase settlement, document read and webhook subscription', async () => {
		sb.sim.server.clear();
		const run = await execute('e2eRcptResources');
		assert.equal(run.data.resultData.error, undefined, run.data.resultData.error?.message);
		for (const name of ['ATS retention', 'Waybill', 'Purchase settlement'])
			assert.match(String(output(run, name)[0]?.json.clave_acceso), /^\d{49}$/, name);
		assert.equal(output(run, 'Get waybill')[0].json.id, output(run, 'Waybill')[0].json.id);
		assert.equal(
			output(run, 'Get document')[0].json.id,
			output(run, 'Purchase settlement')[0].json.id,
		);
		const received = sb.sim.server.received('receipts');
		const posts = received.filter((r) => r.method === 'POST');
		assert.deepEqual(
			posts.map((r) => r.path),
			['/ats-retentions/issue', '/waybills/issue', '/purchase-settlements/issue', '/webhooks'],
		);
		// X-Password only where the spec sends it, on issuing operations; subscribing issues nothing (nodes/Receipts/webhooks.ts).
		assert.ok(
			posts
				.slice(0, 3)
				.every((r) => r.headers['x-password'] === sb.sim.receipts.certificatePassword),
			'X-Password on every issue',
		);
		assert.equal(posts[3].headers['x-password'], undefined, 'no X-Password on the subscription');
		assert.ok(
			received
				.filter((r) => r.method === 'GET')
				.every((r) => r.headers['x-password'] === undefined),
		);
	});

	test('a receipts service that refuses the connection: an issue says nothing reached it on 2.x; on 1.x, that the receipt may exist', async () => {
		// n8n 1.x's NodeApiError drops the HTTP client's error it wraps (its `cause`), and with it the socket's
		// code: the node cannot tell a refused connection (nothing sent) from an answer lost after sending, so it
		// takes the safe reading and says the receipt may exist.
		const error = (await execute('e2eClosedPort')).data.resultData.error;
		if (sb.line === 1) {
			assert.match(
				error.message,
				/^\[item 1\] The retention may exist: Receipts could not be reached/,
			);
			assert.match(error.description, /may have been issued/);
		} else {
			assert.match(error.message, /^\[item 1\] Receipts could not be reached \(ECONNREFUSED\)$/);
			assert.match(error.description, /^POST \/retentions\/issue failed before an answer arrived/);
		}
	});

	test("an error answer is read as the service's answer on every line: an unknown receipt is HTTP 404 in the service's words, after one request", async () => {
		// n8n 1.x's NodeApiError drops the HTTP client's error it wraps (its `cause`): a node that looked for the
		// status, body and headers there would see no answer at all, call a 404 a network failure and retry it.
		sb.sim.server.clear();
		const run = await execute('e2eNotFound');
		const error = run.data.resultData.error;
		assert.equal(error?.httpCode, '404', `${error?.message} / ${error?.description}`);
		assert.match(error.message, /no encontrado/, "the service's own message");
		assert.match(error.description, /\(GET \/edocs\/0123456789abcdef0123456789abcdef, HTTP 404\)/);
		assert.equal(sb.sim.server.received('receipts').length, 1, 'a 404 is an answer: not retried');
	});

	test('Extraction: key verified, a job followed to COMPLETED with its XML files as binary items, a taxpayer registered at the Ecuador API', async () => {
		sb.sim.server.clear();
		const run = await execute('e2eExtraction');
		assert.equal(run.data.resultData.error, undefined, run.data.resultData.error?.message);
		assert.equal(output(run, 'Verify')[0].json.valid, true);
		const items = output(run, 'Create and download');
		assert.ok(items.length >= 1, 'one item per document');
		for (const item of items) {
			const binary = Object.values(item.binary ?? {})[0];
			assert.ok(binary, 'binary data present');
			assert.equal(binary.mimeType, 'application/xml');
			assert.match(binary.fileName, /\.xml$/);
		}
		assert.equal(output(run, 'Register taxpayer').length, 1);
		const received = sb.sim.server.received('extraction');
		assert.ok(received.some((r) => r.method === 'POST' && /\/v1\/extractions$/.test(r.path)));
		assert.ok(
			received.some((r) => /\/documents\/.+\/download$/.test(r.path) && r.query.type === 'XML'),
		);
		assert.ok(
			received.every((r) => r.headers.authorization === `Bearer ${sb.sim.extraction.stagingKey}`),
		);
		assert.ok(
			received.every(
				(r) => r.headers['x-api-key'] === undefined && r.headers['x-organization-id'] === undefined,
			),
			'the Ecuador key never goes to the Mexico API',
		);
		assert.ok(
			!received.some((r) => r.path.endsWith('/taxpayers')),
			'Register never goes to the Mexico API',
		);
		// Register went to the Ecuador API: its own host, its own key in x-api-key, the organization, no bearer.
		const ecuador = sb.sim.server.received(sb.sim.extraction.ecuador.prefix);
		assert.deepEqual(
			ecuador.map((r) => [
				r.method,
				r.path,
				r.headers['x-api-key'],
				r.headers['x-organization-id'],
				r.headers.authorization,
			]),
			[
				[
					'POST',
					'/staging/taxpayers',
					sb.sim.extraction.ecuador.stagingKey,
					sb.sim.extraction.ecuador.organizationId,
					undefined,
				],
			],
		);
		assert.notEqual(ecuador[0].origin, received[0].origin, 'the Ecuador API is another host');
		assert.equal(output(run, 'Register taxpayer')[0].json.status, 'REGISTERED');
		// The run's data; n8n stores the workflow beside it, whose node holds the password as it was typed there.
		assert.ok(
			!JSON.stringify(run.data).includes('ciec-e2e-secret'),
			'SAT password never in the run data',
		);
	});

	test('Extraction: a workflow saved with the old wait fields keeps their values (n8n passes the hidden parameters on); a job not finished in time is output, marked', async () => {
		sb.sim.server.clear();
		sb.sim.extraction.nextJobs.push({ checks: 100_000, outcome: 'COMPLETED', documents: 1 });
		const run = await execute('e2eExtSavedOld');
		assert.equal(run.data.resultData.error, undefined, run.data.resultData.error?.message);
		const [item] = output(run, 'Create and wait');
		assert.equal(item.json.wait_timed_out, true);
		// 3 s from the old `timeout` (the new field's default is 600 s); checks from the old 1 s (the default: 15 s).
		assert.match(
			String(item.json.warnings),
			/^Wait for Completion timed out after 3 s in state PROCESSING/,
		);
		assert.ok(
			sb.sim.server.received('extraction').filter((r) => r.method === 'GET').length >= 1,
			'checked before the 3 s passed',
		);
	});
});

describe('trigger nodes receive real deliveries', () => {
	let extractionUrl;
	let api;

	before(async () => {
		api = n8n.api;
		for (const wf of Object.values(triggerWorkflows)) {
			const answer = await n8n.activate(wf.id);
			assert.equal(answer.status, 200, `activating ${wf.id}: ${answer.text}`);
		}
		extractionUrl = `${n8n.url}/webhook/${triggerWorkflows.extraction.nodes[0].webhookId}/extraction`;
		// 2.x activates in the background after it answers: wait until the webhook is served.
		await untilServed(extractionUrl);
	});

	test('n8n lists every credential type of the package', async () => {
		const res = await fetch(`${n8n.url}/types/credentials.json`, {
			headers: { cookie: api.cookie, 'browser-id': 'latam-fiscal-dev-scripts' },
		});
		assert.equal(res.status, 200);
		const body = /** @type {LoadedTypes | { data: LoadedTypes }} */ (await res.json());
		const list = Array.isArray(body) ? body : Object.values(body.data ?? body);
		const types = [
			...list.map((t) => t?.name),
			...(Array.isArray(body) ? [] : Object.keys(body.data ?? body)),
		];
		for (const name of PACKAGE_CREDENTIALS)
			assert.ok(types.includes(name), `${name} not registered`);
		assert.doesNotMatch(
			n8n.logs(),
			/(Error|error).{0,80}(CUSTOM|latam|dist\/nodes|dist\/credentials)/,
		);
	});

	test("the Test buttons, through n8n's own credential-test route: with the package loaded from a custom-extensions folder, n8n finds no test (the limit the documentation states; installed, they work: test/e2e-installed/credential-test.test.mjs)", async () => {
		// What the editor's credential dialog sends: POST /rest/credentials/test with the stored credential's id
		// and the data in the dialog. The package's credentials have no `test` request (n8n would send it outside
		// the package's client); their nodes test them (`testedBy`), which n8n looks up only in the list of nodes it
		// keeps for a credential of an installed package, not for custom extensions.
		for (const type of ['receiptsApi', 'partnersApi', 'extractionApi']) {
			const { id, name } = CREDENTIAL_IDS[type];
			const res = await fetch(`${n8n.url}/rest/credentials/test`, {
				method: 'POST',
				headers: {
					cookie: api.cookie,
					'browser-id': 'latam-fiscal-dev-scripts',
					'content-type': 'application/json',
				},
				body: JSON.stringify({
					credentials: { id, name, type, data: sb.sim.credentials[type] },
				}),
			});
			assert.equal(res.status, 200, `the test route answered ${res.status}`);
			const body = /** @type {{ data: { status: 'OK' | 'Error', message: string } }} */ (
				await res.json()
			);
			assert.deepEqual(body.data ?? body, {
				status: 'Error',
				message: 'No testing function found for this credential.',
			});
		}
	});

	test('activating the Receipts trigger subscribed both events at the service, each with its own URL', async () => {
		const ours = () =>
			sb.sim.receipts.subscriptions.filter((s) => s.webhook_url.startsWith(n8n.url));
		for (let i = 0; i < 40 && ours().length < 2; i++) await new Promise((r) => setTimeout(r, 250)); // activation runs after start-up
		const subs = ours();
		assert.deepEqual(subs.map((s) => s.event_name).sort(), ['issue-error', 'receipt-issued']);
		for (const s of subs) assert.ok(s.webhook_url.startsWith(`${n8n.url}/webhook/`), s.webhook_url);
		assert.ok(subs.every((s) => s.headers['x-key'] === sb.sim.receipts.apiKey));
	});

	test('Receipts: a real delivery starts one execution; forged and duplicate ones start none', async () => {
		const wf = triggerWorkflows.receipts.id;
		const before = (await settledExecutions(wf)).length;
		const issuedId = output(runs.receipts, 'Issue retention')[0].json.id;
		const [ok] = await sb.sim.receipts.deliver('receipt-issued', issuedId);
		assert.equal(ok.status, 200);
		const afterOne = await settledExecutions(wf, { atLeast: before + 1 });
		assert.equal(afterOne.length, before + 1);

		const sub = sb.sim.receipts.subscriptions.find((s) => s.event_name === 'receipt-issued');
		const payload = sb.sim.receipts.payload(issuedId);
		const post = (url, body) =>
			fetch(url, {
				method: 'POST',
				headers: { 'content-type': 'application/json' },
				body: JSON.stringify(body),
			});
		const forgedToken = new URL(sub.webhook_url);
		forgedToken.searchParams.set('token', 'guessed-token');
		assert.equal((await post(forgedToken, payload)).status, 401, 'wrong token');
		assert.equal(
			(await post(sub.webhook_url, { ...payload, 'api-key': 'not-the-key' })).status,
			401,
			'wrong api-key',
		);
		const noToken = new URL(sub.webhook_url);
		noToken.searchParams.delete('token');
		assert.equal((await post(noToken, payload)).status, 401, 'no token');
		const [dup] = await sb.sim.receipts.deliver('receipt-issued', issuedId);
		assert.ok(
			dup.status >= 200 && dup.status < 300,
			'a duplicate is acknowledged so the service stops',
		);
		const final = await settledExecutions(wf);
		assert.equal(final.length, before + 1, 'forged and duplicate deliveries started nothing');
	});

	test('Extraction: a signed delivery starts one execution; forged, stale and replayed ones get 401 or nothing', async () => {
		const wf = triggerWorkflows.extraction.id;
		const secret = sb.sim.credentials.extractionWebhookApi.secret;
		const job = [...sb.sim.extraction.jobs.values()][0];
		const data = sb.sim.extraction.completedEventData(job);
		const eventTimestamp = new Date().toISOString();
		const ok = await sb.sim.extraction.deliver('extraction.completed', data, {
			secret,
			url: extractionUrl,
			eventTimestamp,
		});
		assert.equal(ok.status, 200, ok.text);
		const afterOne = await settledExecutions(wf, { atLeast: 1 });
		assert.equal(afterOne.length, 1);
		// What this test reads of n8n's run data: node → runs → outputs → items (each run here has its output).
		const detail =
			/** @type {{ data: { resultData: { runData: Record<string, Array<{ data: { main: import('n8n-workflow').INodeExecutionData[][] } }>> } } }} */ (
				await (
					await fetch(`${n8n.url}/api/v1/executions/${afterOne[0].id}?includeData=true`, {
						headers: api.headers,
					})
				).json()
			);
		const runData = detail.data.resultData.runData;
		const [item] = runData['Extraction events'][0].data.main[0];
		assert.equal(item.json.publicId, job.publicId, 'extractionId normalized to publicId');
		assert.equal(
			/** @type {{ direction: string }} */ (item.json.options).direction,
			'INBOUND',
			'RECEIVED normalized to INBOUND',
		);
		const downloaded = runData['Download all XML'][0].data.main[0];
		assert.ok(
			downloaded.length >= 1 &&
				downloaded.every((i) => i.binary?.data?.mimeType === 'application/xml'),
			'the example downloaded the XML files',
		);

		const refused = [
			await sb.sim.extraction.deliver('extraction.completed', data, {
				secret: 'wrong-secret',
				url: extractionUrl,
			}),
			await sb.sim.extraction.deliver('extraction.completed', data, {
				secret,
				url: extractionUrl,
				tamper: 'body',
			}),
			await sb.sim.extraction.deliver('extraction.completed', data, {
				secret,
				url: extractionUrl,
				tamper: 'signature',
			}),
			await sb.sim.extraction.deliver('extraction.completed', data, {
				secret,
				url: extractionUrl,
				timestamp: Math.floor(Date.now() / 1000) - 301,
			}),
		];
		assert.deepEqual(
			refused.map((r) => r.status),
			[401, 401, 401, 401],
		);
		const replay = await sb.sim.extraction.deliver('extraction.completed', data, {
			secret,
			url: extractionUrl,
			eventTimestamp,
		});
		assert.ok(replay.status >= 200 && replay.status < 300, 'a redelivery is acknowledged');
		const final = await settledExecutions(wf);
		assert.equal(final.length, 1, 'forged, stale and replayed deliveries started nothing');
	});
});
