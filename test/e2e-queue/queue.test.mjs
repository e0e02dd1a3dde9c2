// End-to-end in n8n's queue mode (the pinned n8n, the way installations scale past one process): a throw-away
// PostgreSQL and Redis on loopback, then n8n as main + one worker + two webhook processes, all with the package
// loaded as in the single-process e2e. Proves where executions run, that the Partners token is shared through
// the credential, what the triggers guarantee when deliveries reach different webhook processes, and that the
// Remove Duplicates recipe holds the downstream work to one run.
// Run with `npm run test:e2e:queue` (CI runs it after `npm run test:e2e`). Needs Debian's postgresql and
// redis-server packages (`.ci/run` installs them); everything it starts it stops.
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { freePort, parseCliJson } from '../../scripts/n8n/boot.mjs';
import {
	executionsClient,
	nodeOutput,
	nodeRan,
	post,
	replay,
	until,
	untilGone,
	untilServed,
} from '../../scripts/n8n/executions.mjs';
import { queueEnv, startPostgres, startRedis } from '../../scripts/n8n/queue.mjs';
import {
	apiActivation,
	fillPlaceholders,
	ownerApiKey,
	repoRoot,
	userFolderFor,
} from '../../scripts/n8n/sandbox.mjs';
import {
	BROWSER_ID,
	decidingAtFirstCheck,
	e2eSandbox,
	executeWorkflow,
	printN8nUsage,
	restClient,
} from '../../scripts/n8n/suite.mjs';

// Whatever happens, nothing outlives the suite: boot.mjs kills every child when this process exits.
setTimeout(() => {
	console.error('queue-mode e2e: giving up after 20 minutes');
	process.exit(1);
}, 20 * 60_000).unref();

const PACKAGE_NODES = [
	'partners',
	'receipts',
	'extraction',
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
const REFUSAL = '{"error":"unauthorized"}';
const ACKNOWLEDGED = '{"received":true}';
const DEDUP = 'Skip events already processed';
/** @typedef {import('../../scripts/n8n/boot.mjs').LoadedTypes} LoadedTypes */

const userFolder = userFolderFor('e2e-queue');
const example = (file, id) => ({
	...JSON.parse(readFileSync(join(repoRoot, 'examples', file), 'utf8')),
	id,
});
const extractionTrigger = example('extraction-trigger-download-completed.json', 'qExtTrigger');
const receiptsTrigger = example(
	'receipts-trigger-branch-on-authorization.json',
	'qReceiptsTrigger',
);

let pg;
let redis;
let sb;
let api;
let ex;
/** name → n8n process: main, worker, webhook-1, webhook-2 (each with its own user folder, as on separate hosts). */
const procs = {};
const folders = {
	main: userFolder,
	worker: join(userFolder, 'worker'),
	'webhook-1': join(userFolder, 'webhook-1'),
	'webhook-2': join(userFolder, 'webhook-2'),
};
const EVENT_LOG = {
	main: 'n8nEventLog.log',
	worker: 'n8nEventLog-worker.log',
	'webhook-1': 'n8nEventLog-webhook-processor.log',
	'webhook-2': 'n8nEventLog-webhook-processor.log',
};
const webhookProcs = ['webhook-1', 'webhook-2'];
let publicUrl; // WEBHOOK_URL: where the services are told to deliver (webhook-1; a load balancer in production)

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const extractionPath = `/webhook/${extractionTrigger.nodes[0].webhookId}/extraction`;
const receiptsPath = `/webhook/${receiptsTrigger.nodes[0].webhookId}/receipts`;

/** n8n's own event log of one process (one JSON message per line). */
function events(name) {
	const file = join(folders[name], '.n8n', EVENT_LOG[name]);
	if (!existsSync(file)) return [];
	return readFileSync(file, 'utf8')
		.split('\n')
		.flatMap((line) => {
			try {
				return [JSON.parse(line)];
			} catch {
				return [];
			}
		});
}

/**
 * Which processes enqueued and which dequeued (ran) an execution, from n8n's event logs
 * (`n8n.queue.job.enqueued` / `n8n.queue.job.dequeued`, each with the process's hostId). The execution records
 * of n8n 2.41.1 (execution_entity, execution_data, execution_metadata) carry no host or worker field.
 */
async function whereRan(executionId) {
	const find = (eventName) =>
		Object.keys(procs).filter((name) =>
			events(name).some(
				(e) => e.eventName === eventName && e.payload?.executionId === String(executionId),
			),
		);
	for (let i = 0; i < 40; i++) {
		const where = {
			enqueuedBy: find('n8n.queue.job.enqueued'),
			ranOn: find('n8n.queue.job.dequeued'),
		};
		if (where.enqueuedBy.length && where.ranOn.length) return where;
		await sleep(250); // the event log is written a moment after the fact
	}
	return { enqueuedBy: find('n8n.queue.job.enqueued'), ranOn: find('n8n.queue.job.dequeued') };
}

async function assertRanOnWorker(executionId, enqueuedBy) {
	assert.deepEqual(
		await whereRan(executionId),
		{ enqueuedBy: [enqueuedBy], ranOn: ['worker'] },
		`execution ${executionId}`,
	);
	assert.match(
		procs.worker.logs(),
		new RegExp(`Worker started execution ${executionId} \\(job`),
		'the worker says it ran it',
	);
	assert.doesNotMatch(
		procs.main.logs(),
		new RegExp(`started execution ${executionId} `),
		'main did not run it',
	);
}

/** The editor's "Execute workflow" (suite.mjs executeWorkflow); with OFFLOAD_MANUAL_EXECUTIONS_TO_WORKERS a worker runs it. */
async function runFromEditor(workflowId) {
	const rest = restClient(procs.main.url, api.cookie);
	const execution = await executeWorkflow({ rest, ex }, workflowId, { timeoutMs: 120_000 });
	assert.equal(execution.status, 'success', JSON.stringify(execution.data?.resultData?.error));
	return execution;
}

/** The same workflow in one process: `n8n execute` runs in the CLI process (n8n falls back from queue mode). */
async function runInOneProcess(workflowId) {
	const r = await sb.cli(['execute', `--id=${workflowId}`, '--rawOutput'], {
		userFolder: join(userFolder, 'cli'),
		timeoutMs: 180_000,
	});
	const run = parseCliJson(r.stdout);
	assert.equal(run.data.resultData.error, undefined, run.data.resultData.error?.message);
	return run;
}

/**
 * What a run produced, without what differs from run to run (ids, dates): per node and output, each item's fields
 * and files, in no particular order. The order of items may differ between two runs of the same workflow: the
 * Receipts example repeats a row, and which of the two rows sent side by side the service takes first is a race.
 */
function shape(execution) {
	return Object.fromEntries(
		Object.entries(execution.data.resultData.runData).map(([name, runs]) => [
			name,
			runs.map((r) =>
				(r.data?.main ?? []).map((items) =>
					(items ?? [])
						.map((i) => ({
							fields: Object.keys(i.json).sort().join(','),
							files: Object.values(i.binary ?? {})
								.map((b) => `${b.mimeType} ${b.fileName}`)
								.sort(),
						}))
						.sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b))),
				),
			),
		]),
	);
}

const newJob = () =>
	sb.sim.extraction.seedJob({ env: 'staging', status: 'COMPLETED', documents: 2 });
const downloads = (publicId) =>
	sb.sim.server
		.received('extraction')
		.filter((r) => r.path.includes(publicId) && /\/download$/.test(r.path)).length;
const secret = () => sb.sim.credentials.extractionWebhookApi.secret;

/** A signed delivery as the extraction service makes it, not sent yet (to send the same bytes to two processes at once). */
function signed(type, data) {
	const timestamp = Math.floor(Date.now() / 1000);
	const rawBody = JSON.stringify({
		event: { type, timestamp: new Date().toISOString(), version: '1.0' },
		data,
	});
	return {
		rawBody,
		timestamp,
		signature: `sha256=${createHmac('sha256', secret()).update(`${timestamp}.${rawBody}`).digest('hex')}`,
	};
}

function assertStarted(answer, message = 'started') {
	assert.equal(answer.status, 200, `${message}: ${answer.text}`);
	assert.notEqual(answer.text, ACKNOWLEDGED, `${message}: acknowledged without a run`);
}

const newestOf = (list) => list.reduce((a, b) => (Number(b.id) > Number(a.id) ? b : a));
const newSince = (list, beforeIds) => list.filter((e) => !beforeIds.has(e.id));

before(async () => {
	const t0 = Date.now();
	[pg, redis] = await Promise.all([startPostgres(), startRedis()]);
	sb = await e2eSandbox('e2e-queue', { userFolder, env: queueEnv({ pg, redis }) });
	await sb.importWorkflows([
		example('partners-onboard-clients.json', 'qPartners'),
		example('receipts-retention-wait-branch.json', 'qReceipts'),
		fillPlaceholders(
			example('extraction-get-and-download-all.json', 'qExtraction'),
			sb.sim,
			userFolder,
		),
		extractionTrigger,
		receiptsTrigger,
	]);

	const [mainPort, ...webhookPorts] = await Promise.all([freePort(), freePort(), freePort()]);
	publicUrl = `http://127.0.0.1:${webhookPorts[0]}/`;
	const env = { WEBHOOK_URL: publicUrl };
	// Main first; the worker and the webhook processes start while main activates the triggers, switched on as a
	// user does (the public API). A restart of main below activates them again at start-up.
	procs.main = await sb.start({ port: mainPort, env });
	api = await ownerApiKey(procs.main.url);
	ex = executionsClient(procs.main.url, api.headers);
	const activated = Promise.all(
		[extractionTrigger.id, receiptsTrigger.id].map(async (id) => {
			const res = await fetch(
				`${procs.main.url}/api/v1/workflows/${id}/${apiActivation(sb.line).on}`,
				{
					method: 'POST',
					headers: { ...api.headers, 'content-type': 'application/json' },
					body: '{}',
				},
			);
			assert.equal(res.status, 200, `activating ${id}: ${await res.text()}`);
		}),
	);
	const started = await Promise.all([
		sb.start({ command: 'worker', userFolder: folders.worker, env }),
		...webhookPorts.map((port, i) =>
			sb.start({ command: 'webhook', port, userFolder: folders[webhookProcs[i]], env }),
		),
	]);
	[procs.worker, procs['webhook-1'], procs['webhook-2']] = started;
	await activated;
	for (const name of webhookProcs) await untilServed(procs[name].url + extractionPath);
	// 2.x activates after it answers: the Receipts Trigger subscribes its two events a moment later.
	await until(() => sb.sim.receipts.subscriptions.length >= 2, 'the Receipts Trigger subscribing');
	console.log(`# queue-mode installation ready in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
});

after(async () => {
	for (const name of ['webhook-1', 'webhook-2', 'worker', 'main'])
		await procs[name]?.stop().catch(() => {});
	await sb?.stop().catch(() => {});
	await redis?.stop().catch(() => {});
	await pg?.stop().catch(() => {});
	printN8nUsage();
});

describe('every process loads the package', () => {
	test('main lists every node and credential type of the package', async () => {
		const headers = { cookie: api.cookie, 'browser-id': BROWSER_ID };
		const nodes = /** @type {LoadedTypes} */ (
			await (await fetch(`${procs.main.url}/types/nodes.json`, { headers })).json()
		);
		const nodeNames = (Array.isArray(nodes) ? nodes : Object.values(nodes)).map((n) => n.name);
		for (const name of PACKAGE_NODES)
			assert.ok(nodeNames.includes(sb.nodeType(name)), `${sb.nodeType(name)} not loaded by main`);
		const creds = /** @type {LoadedTypes} */ (
			await (await fetch(`${procs.main.url}/types/credentials.json`, { headers })).json()
		);
		const credNames = (Array.isArray(creds) ? creds : Object.values(creds)).map((c) => c.name);
		for (const name of PACKAGE_CREDENTIALS)
			assert.ok(credNames.includes(name), `${name} not loaded by main`);
	});

	test("both webhook processes run both triggers' code with their credentials", async () => {
		const sub = sb.sim.receipts.subscriptions.find((s) => s.event_name === 'receipt-issued');
		assert.ok(sub, 'the Receipts Trigger subscribed on activation');
		const payload = sb.sim.receipts.payload(sb.sim.receipts.seed('retention').id);
		for (const name of webhookProcs) {
			const base = procs[name].url;
			// A wrong signature is refused only after the webhook-secret credential was read; a real token with a
			// wrong api-key only after the Receipts credential was read. Anything else would be a 500 or a 404.
			const forged = await sb.sim.extraction.deliver(
				'extraction.completed',
				{},
				{ secret: 'not-the-secret', url: base + extractionPath },
			);
			assert.deepEqual(
				{ status: forged.status, text: forged.text },
				{ status: 401, text: REFUSAL },
				`${name}: Extraction Trigger`,
			);
			const url = new URL(sub.webhook_url);
			url.port = new URL(base).port;
			assert.deepEqual(
				await post(url, { ...payload, 'api-key': 'not-the-key' }),
				{ status: 401, text: REFUSAL },
				`${name}: Receipts Trigger`,
			);
		}
	});
});

describe('action workflows run on the worker, as in one process', () => {
	test('Partners: two runs on the worker share one stored token (one token request in all)', async () => {
		const tokensBefore = sb.sim.partners.tokensIssued;
		const runs = [];
		for (let i = 0; i < 2; i++) {
			sb.sim.partners.clients.clear(); // each run onboards the same two clients
			const run = await runFromEditor('qPartners');
			await assertRanOnWorker(run.id, 'main');
			assert.deepEqual(
				nodeOutput(run, 'Create client').map((item) => item.json.email),
				['contacto@tiendaazul.mx', 'ventas@mostrador.mx'],
			);
			runs.push(run);
		}
		assert.equal(sb.sim.partners.tokensIssued - tokensBefore, 1, 'one token request for both runs');

		sb.sim.partners.clients.clear();
		const single = await runInOneProcess('qPartners');
		assert.deepEqual(
			shape(runs[1]),
			shape(single),
			'the worker produced what one process produces',
		);
		assert.deepEqual(
			nodeOutput(single, 'Create client').map((item) => item.json.email),
			['contacto@tiendaazul.mx', 'ventas@mostrador.mx'],
		);
		assert.equal(
			sb.sim.partners.tokensIssued - tokensBefore,
			1,
			'the single process read the same stored token too',
		);
	});

	test('Receipts: retentions issued, followed to a final state and branched, on the worker as in one process', async () => {
		sb.sim.receipts.receipts.clear(); // the same secuenciales again: no duplicate access keys
		// Both runs with the service deciding at the first status check (the example waits its 5 s Poll Interval once).
		const onWorker = await decidingAtFirstCheck(sb.sim, () => runFromEditor('qReceipts'));
		await assertRanOnWorker(onWorker.id, 'main');
		sb.sim.receipts.receipts.clear();
		const single = await decidingAtFirstCheck(sb.sim, () => runInOneProcess('qReceipts'));
		assert.deepEqual(shape(onWorker), shape(single));
		const states = (run) =>
			nodeOutput(run, 'Issue retention')
				.map((i) => `${i.json.secuencial} ${i.json.estado}`)
				.sort();
		assert.ok(states(onWorker).length >= 1);
		assert.deepEqual(states(onWorker), states(single));
	});

	test('Extraction: an extraction checked and its XML and PDF files downloaded as binary items, on the worker as in one process', async () => {
		const onWorker = await runFromEditor('qExtraction');
		await assertRanOnWorker(onWorker.id, 'main');
		const single = await runInOneProcess('qExtraction');
		assert.deepEqual(shape(onWorker), shape(single));
		const files = (run) =>
			nodeOutput(run, 'Download all documents')
				.flatMap((i) => Object.values(i.binary ?? {}).map((b) => `${b.mimeType} ${b.fileName}`))
				.sort();
		assert.ok(
			files(onWorker).some((f) => f.startsWith('application/xml')) &&
				files(onWorker).some((f) => f.startsWith('application/pdf')),
			files(onWorker).join('; '),
		);
		assert.deepEqual(files(onWorker), files(single));
	});
});

describe('Extraction Trigger behind two webhook processes', () => {
	const deliveries = [];

	test('valid deliveries sent alternately to both processes each start exactly one run, on the worker', async () => {
		const beforeIds = new Set((await ex.settled(extractionTrigger.id)).map((e) => e.id));
		const sentTo = [];
		for (let i = 0; i < 4; i++) {
			const name = webhookProcs[i % 2];
			const job = newJob();
			const d = await sb.sim.extraction.deliver(
				'extraction.completed',
				sb.sim.extraction.completedEventData(job),
				{ secret: secret(), url: procs[name].url + extractionPath },
			);
			assertStarted(d, `delivery ${i + 1} to ${name}`);
			deliveries.push({ ...d, job, name });
			sentTo.push([job.publicId, name]);
		}
		const added = newSince(
			await ex.settled(extractionTrigger.id, { atLeast: beforeIds.size + 4 }),
			beforeIds,
		);
		assert.equal(added.length, 4, 'one run per delivery');
		const seen = [];
		for (const e of added) {
			const run = await ex.get(e.id);
			assert.equal(run.status, 'success');
			const publicId = nodeOutput(run, 'Extraction events')[0].json.publicId;
			const sent = sentTo.find(([id]) => id === publicId);
			assert.ok(sent, `run ${e.id} is for ${publicId}, which was not delivered`);
			const [, name] = sent;
			await assertRanOnWorker(e.id, name);
			assert.ok(nodeRan(run, 'Download all XML'), 'a new event reaches the download step');
			seen.push(publicId);
		}
		assert.deepEqual(seen.sort(), sentTo.map(([id]) => id).sort(), 'each event ran once');
		for (const { job } of deliveries)
			assert.equal(downloads(job.publicId), 2, `${job.publicId}: its 2 documents downloaded once`);
	});

	test('forged, tampered and stale deliveries to either process get the same 401 and start nothing', async () => {
		const before = (await ex.settled(extractionTrigger.id)).length;
		const data = sb.sim.extraction.completedEventData(newJob());
		for (const name of webhookProcs) {
			const url = procs[name].url + extractionPath;
			const answers = [
				await sb.sim.extraction.deliver('extraction.completed', data, {
					secret: 'not-the-secret',
					url,
				}),
				await sb.sim.extraction.deliver('extraction.completed', data, {
					secret: secret(),
					url,
					tamper: 'body',
				}),
				await sb.sim.extraction.deliver('extraction.completed', data, {
					secret: secret(),
					url,
					timestamp: Math.floor(Date.now() / 1000) - 301,
				}),
				await post(url, JSON.stringify({ event: { type: 'extraction.completed' }, data })),
			];
			assert.deepEqual(
				answers.map((a) => [a.status, a.text]),
				answers.map(() => [401, REFUSAL]),
				name,
			);
		}
		assert.equal((await ex.settled(extractionTrigger.id)).length, before, 'no run');
	});

	test('a redelivery to the same process is acknowledged; to the other process it starts a run whose downstream work Remove Duplicates drops', async () => {
		const first = deliveries[0]; // accepted by webhook-1
		const other = webhookProcs.find((n) => n !== first.name);
		const beforeIds = new Set((await ex.settled(extractionTrigger.id)).map((e) => e.id));
		assert.deepEqual(
			await replay(procs[first.name].url + extractionPath, first),
			{ status: 200, text: ACKNOWLEDGED },
			'same process remembers',
		);
		assertStarted(
			await replay(procs[other].url + extractionPath, first),
			'the other process does not know the event',
		);
		const added = newSince(
			await ex.settled(extractionTrigger.id, { atLeast: beforeIds.size + 1 }),
			beforeIds,
		);
		assert.equal(added.length, 1, 'one run, from the other process');
		const run = await ex.get(added[0].id);
		await assertRanOnWorker(run.id, other);
		assert.equal(nodeOutput(run, DEDUP, 0).length, 0, 'nothing kept');
		assert.equal(
			nodeOutput(run, DEDUP, 1)[0]?.json.publicId,
			first.job.publicId,
			'discarded as processed in an earlier execution',
		);
		assert.equal(nodeRan(run, 'Download all XML'), false);
		assert.equal(downloads(first.job.publicId), 2, 'the documents were downloaded once in all');
	});

	test('measured: an event reaching both processes at the same moment is never lost (it may run twice)', async (t) => {
		const PAIRS = 5;
		const beforeIds = new Set((await ex.settled(extractionTrigger.id)).map((e) => e.id));
		const jobs = [];
		for (let i = 0; i < PAIRS; i++) {
			const job = newJob();
			const d = signed('extraction.completed', sb.sim.extraction.completedEventData(job));
			const answers = await Promise.all(
				webhookProcs.map((name) => replay(procs[name].url + extractionPath, d)),
			);
			answers.forEach((a, n) => assertStarted(a, `pair ${i + 1}, ${webhookProcs[n]}`));
			jobs.push(job);
		}
		const added = newSince(
			await ex.settled(extractionTrigger.id, { atLeast: beforeIds.size + 2 * PAIRS }),
			beforeIds,
		);
		assert.equal(added.length, 2 * PAIRS, 'each process started a run for each event');
		const runs = await Promise.all(added.map((e) => ex.get(e.id)));
		const perEvent = jobs.map(
			(job) =>
				runs.filter(
					(r) =>
						nodeOutput(r, 'Extraction events')[0]?.json.publicId === job.publicId &&
						nodeRan(r, 'Download all XML'),
				).length,
		);
		t.diagnostic(
			`download step runs per event: ${perEvent.join(', ')}; run statuses: ${runs.map((r) => r.status).join(', ')}`,
		);
		perEvent.forEach((n, i) => {
			assert.ok(n >= 1, `event ${i + 1} never reached the download step`);
			assert.equal(downloads(jobs[i].publicId), 2 * n);
		});
	});
});

describe('Receipts Trigger in queue mode', () => {
	const ours = () =>
		sb.sim.receipts.subscriptions.filter((s) => s.webhook_url.startsWith(publicUrl));

	test('activation by main subscribed each event once, at the public URL; a restart of main and an unpublish/publish cycle subscribe nothing more', async () => {
		const expectSame = (label, urls) => {
			assert.deepEqual(
				ours()
					.map((s) => s.event_name)
					.sort(),
				['issue-error', 'receipt-issued'],
				label,
			);
			assert.equal(sb.sim.receipts.subscriptions.length, 2, `${label}: no other subscription`);
			if (urls)
				assert.deepEqual(
					ours()
						.map((s) => s.webhook_url)
						.sort(),
					urls,
					`${label}: the same URLs and tokens`,
				);
		};
		expectSame('after start');
		const urls = ours()
			.map((s) => s.webhook_url)
			.sort();

		// n8n 2.41.1 keeps the webhooks of published workflows in the database: a restart of main re-activates nothing.
		await procs.main.stop();
		procs.main = await sb.start({ port: procs.main.port, env: { WEBHOOK_URL: publicUrl } });
		await sleep(3000);
		expectSame('after a restart of main', urls);

		// Deactivation and re-activation do run the trigger's webhook methods (on main): the saved subscriptions are reused.
		const url = `${procs['webhook-1'].url}${receiptsPath}?event=receipt-issued`;
		const { on, off } = apiActivation(sb.line);
		for (const action of [off, on]) {
			const res = await fetch(
				`${procs.main.url}/api/v1/workflows/${receiptsTrigger.id}/${action}`,
				{
					method: 'POST',
					headers: { ...api.headers, 'content-type': 'application/json' },
					body: '{}',
				},
			);
			assert.equal(res.status, 200, `${action}: ${await res.text()}`);
			await (action === off ? untilGone(url) : untilServed(url));
		}
		await sleep(2000); // n8n stores the webhook, then runs checkExists/create: give a new subscription time to show
		expectSame('after unpublish + publish', urls);
	});

	test('a verified delivery through a webhook process starts one run on the worker; the same notification at the other process is dropped by Remove Duplicates', async () => {
		const beforeIds = new Set((await ex.settled(receiptsTrigger.id)).map((e) => e.id));
		// A receipt-issued notification runs only for a receipt the service holds as decided.
		const receipt = sb.sim.receipts.seed('retention', {}, 'AUTORIZADO');
		const answers = await sb.sim.receipts.deliver('receipt-issued', receipt.id); // to WEBHOOK_URL: webhook-1
		assert.equal(answers.length, 1, 'one subscription for the event');
		assertStarted({ status: answers[0].status, text: JSON.stringify(answers[0].body) });
		let added = newSince(
			await ex.settled(receiptsTrigger.id, { atLeast: beforeIds.size + 1 }),
			beforeIds,
		);
		assert.equal(added.length, 1, 'one run');
		const run = await ex.get(added[0].id);
		await assertRanOnWorker(run.id, 'webhook-1');
		const item = /** @type {{ eventId: string, estado: string, stateFrom: string }} */ (
			nodeOutput(run, 'Receipt events')[0].json
		);
		assert.match(item.eventId, new RegExp(`^${receipt.id}:[0-9a-f]{64}$`));
		assert.deepEqual(
			[item.estado, item.stateFrom],
			['AUTORIZADO', 'service'],
			"the webhook process read the receipt's state from the service",
		);
		assert.equal(
			sb.sim.server
				.received('receipts')
				.filter((r) => r.method === 'GET' && r.path === `/edocs/${receipt.id}`).length,
			1,
			'one read for the delivery',
		);
		assert.ok(nodeRan(run, 'Authorized?'), 'a new notification reaches the branch');

		// webhook-2 checks the token against what main saved at activation (static data, in the database).
		const sub = ours().find((s) => s.event_name === 'receipt-issued');
		const toOther = new URL(sub.webhook_url);
		toOther.port = new URL(procs['webhook-2'].url).port;
		const payload = sb.sim.receipts.payload(receipt.id);
		assertStarted(
			await post(toOther, payload),
			'webhook-2 accepts the token and does not know the notification',
		);
		assert.deepEqual(
			await post(sub.webhook_url, payload),
			{ status: 200, text: ACKNOWLEDGED },
			'webhook-1 remembers it',
		);
		added = newSince(
			await ex.settled(receiptsTrigger.id, { atLeast: beforeIds.size + 2 }),
			beforeIds,
		);
		assert.equal(added.length, 2);
		const second = await ex.get(newestOf(added).id);
		await assertRanOnWorker(second.id, 'webhook-2');
		assert.equal(
			nodeOutput(second, DEDUP, 0).length,
			0,
			'dropped as processed in an earlier execution',
		);
		assert.equal(nodeRan(second, 'Authorized?'), false, 'the branch ran once in all');
	});
});

describe('where the work ran', () => {
	test('the worker ran every node type of the package; main and the webhook processes ran no execution', async () => {
		const ranNodeTypes = new Set(
			events('worker')
				.filter((e) => e.eventName === 'n8n.node.started')
				.map((e) => e.payload.nodeType),
		);
		for (const name of PACKAGE_NODES)
			assert.ok(ranNodeTypes.has(sb.nodeType(name)), `the worker never ran ${sb.nodeType(name)}`);
		for (const name of ['main', ...webhookProcs]) {
			assert.equal(
				events(name).filter(
					(e) => e.eventName === 'n8n.queue.job.dequeued' || e.eventName === 'n8n.node.started',
				).length,
				0,
				`${name} ran something`,
			);
		}
		const dequeued = events('worker').filter(
			(e) => e.eventName === 'n8n.queue.job.dequeued',
		).length;
		// `n8n execute` (the single-process reference runs) stores its runs too, with mode 'cli'.
		const stored = Number(
			(await pg.query("select count(*) from execution_entity where mode <> 'cli'")).trim(),
		);
		assert.equal(dequeued, stored, 'every execution of the installation was run by the worker');
	});
});
