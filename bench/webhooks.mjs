// Webhook throughput inside one real n8n: the Extraction Trigger (HMAC verified, de-duplicated, secret read
// from the credential at most once a second) against the fair floor for any community trigger — a test-only trigger that returns the body
// and verifies nothing (bench/trivial-trigger/) — with n8n's own Webhook node as context (n8n skips its
// per-request expression isolate for that node only, so no community trigger can match it).
//
//   import { benchWebhooks } from './webhooks.mjs';   // used by bench/run.mjs
//   node bench/webhooks.mjs                           // this section alone (prints it, writes nothing)
import { createHmac, randomUUID } from 'node:crypto';
import { mkdirSync, rmSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from '../scripts/n8n/boot.mjs';
import { node } from '../scripts/n8n/workflow.mjs';

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const TRIVIAL_DIR = fileURLToPath(new URL('./trivial-trigger', import.meta.url));

// Rounds, not one long run each: the receivers are measured back to back in every round and the headline is the
// median of the per-round ratios, so a slow spell of the machine touches both sides of a ratio alike.
export async function benchWebhooks({
	sb,
	secret,
	log,
	runs = 5,
	deliveries = Number(process.env.BENCH_DELIVERIES ?? 200),
	senders = 4,
}) {
	// The package (dist/) and the trivial trigger, both as custom extensions of the same n8n. One folder holding
	// links to both: n8n keeps one loader per package name, and every custom folder is the package "CUSTOM",
	// so a second folder in N8N_CUSTOM_EXTENSIONS would replace the first.
	const folder = join(sb.opts.userFolder, 'bench-extensions');
	rmSync(folder, { recursive: true, force: true });
	mkdirSync(folder, { recursive: true });
	symlinkSync(sb.opts.extensionsDir, join(folder, 'package'));
	symlinkSync(TRIVIAL_DIR, join(folder, 'trivial-trigger'));
	const extensions = { N8N_CUSTOM_EXTENSIONS: folder };
	const quiet = { executionOrder: 'v1', saveDataSuccessExecution: 'none' };
	const receivers = [
		{
			key: 'plain',
			label:
				"n8n's Webhook node, unverified (context: n8n skips its expression isolate for this node only)",
			workflow: {
				id: 'bPlainWebhook',
				name: 'bench plain webhook',
				settings: quiet,
				connections: {},
				nodes: [
					node(
						'Hook',
						'n8n-nodes-base.webhook',
						{ httpMethod: 'POST', path: 'bench-plain', options: {} },
						{ typeVersion: 2, webhookId: randomUUID() },
					),
				],
			},
			path: () => 'bench-plain',
			signed: false,
		},
		{
			key: 'trivial',
			label: 'trivial community trigger: returns the body, verifies nothing (the floor)',
			workflow: {
				id: 'bTrivialTrigger',
				name: 'bench trivial trigger',
				settings: quiet,
				connections: {},
				nodes: [node('Hook', 'CUSTOM.trivialTrigger', {}, { webhookId: randomUUID() })],
			},
			path: (wf) => `${wf.nodes[0].webhookId}/trivial`,
			signed: false,
		},
		{
			key: 'trivialCredential',
			label:
				"the same trivial trigger with the Extraction Trigger's credential attached, never read (what n8n spends on a credentialed trigger)",
			workflow: {
				id: 'bTrivialCredTrig',
				name: 'bench trivial trigger with credential',
				settings: quiet,
				connections: {},
				nodes: [
					node(
						'Hook',
						'CUSTOM.trivialTrigger',
						{},
						{
							webhookId: randomUUID(),
							credentials: { extractionWebhookApi: { id: 'x', name: 'x' } },
						},
					),
				],
			},
			path: (wf) => `${wf.nodes[0].webhookId}/trivial`,
			signed: false,
		},
		{
			key: 'extraction',
			label:
				'Document Extraction (Mexico, Ecuador) Trigger: HMAC verified, timestamp window, de-duplicated, secret read from the credential at most once a second',
			workflow: {
				id: 'bExtractTrigger',
				name: 'bench extraction trigger',
				settings: quiet,
				connections: {},
				nodes: [
					node(
						'Hook',
						'n8n-nodes-latam-fiscal.extractionTrigger',
						{ events: [] },
						{
							webhookId: randomUUID(),
							credentials: { extractionWebhookApi: { id: 'x', name: 'x' } },
						},
					),
				],
			},
			path: (wf) => `${wf.nodes[0].webhookId}/extraction`,
			signed: true,
		},
	];
	await sb.importWorkflows(receivers.map((r) => r.workflow));
	for (const r of receivers)
		await sb.cli(['publish:workflow', `--id=${r.workflow.id}`], { check: true, env: extensions });
	const port = await freePort();
	const n8n = await sb.start({
		port,
		env: { ...extensions, WEBHOOK_URL: `http://127.0.0.1:${port}/` },
	});
	try {
		for (const r of receivers) {
			r.url = `${n8n.url}/webhook/${r.path(r.workflow)}`;
			for (let i = 0; i < 60; i++) {
				const res = await fetch(r.url, {
					method: 'POST',
					body: '{}',
					headers: { 'content-type': 'application/json' },
				});
				await res.text();
				if (res.status !== 404) break;
				await new Promise((resolve) => setTimeout(resolve, 500));
			}
		}

		/** `deliveries` distinct document.ready events from `senders` concurrent senders; deliveries per second. */
		async function blast(r) {
			const bodies = Array.from({ length: deliveries }, (_, i) =>
				JSON.stringify({
					event: {
						type: 'document.ready',
						timestamp: `${new Date(Date.UTC(2026, 0, 1, 0, 0, 0, i)).toISOString()}-${randomUUID()}`,
						version: '1.0',
					},
					data: { extractionId: 'ext_bench', document: { id: `doc_${i}` } },
				}),
			);
			let next = 0;
			let ok = 0;
			const answers = new Map();
			const started = performance.now();
			await Promise.all(
				Array.from({ length: senders }, async () => {
					while (next < bodies.length) {
						const body = bodies[next++];
						const headers = { 'content-type': 'application/json' };
						if (r.signed) {
							const ts = Math.floor(Date.now() / 1000);
							headers['x-svc-timestamp'] = String(ts);
							headers['x-svc-signature'] =
								`sha256=${createHmac('sha256', secret).update(`${ts}.${body}`).digest('hex')}`;
						}
						const res = await fetch(r.url, { method: 'POST', headers, body });
						const text = await res.text();
						// 200 and not the trigger's own "acknowledged, nothing started" answer (a duplicate).
						if (res.status === 200 && !text.includes('"received"')) ok++;
						else
							answers.set(
								`${res.status} ${text.slice(0, 120)}`,
								(answers.get(`${res.status} ${text.slice(0, 120)}`) ?? 0) + 1,
							);
					}
				}),
			);
			if (answers.size) log(`${r.key}: unexpected answers ${JSON.stringify([...answers])}`);
			return { perSecond: (deliveries / (performance.now() - started)) * 1000, ok };
		}

		for (const r of receivers) await blast(r); // warm-up
		for (const r of receivers) r.runs = [];
		for (let round = 0; round < runs; round++) {
			// Rotate the order each round, so no receiver always runs right after another.
			const order = receivers.map((_, n) => receivers[(n + round) % receivers.length]);
			for (const r of order) {
				const run = await blast(r);
				r.runs.push(run);
				log(
					`webhooks round ${round + 1}: ${r.key} ${run.perSecond.toFixed(1)}/s (${run.ok}/${deliveries} started)`,
				);
			}
		}
	} finally {
		await n8n.stop();
	}
	const runsOf = (key) => {
		const receiver = receivers.find((r) => r.key === key);
		if (!receiver) throw new Error(`no receiver ${key}`);
		return receiver.runs;
	};
	const rate = (key) => median(runsOf(key).map((x) => x.perSecond));
	const ratios = runsOf('extraction').map(
		(x, round) => x.perSecond / runsOf('trivial')[round].perSecond,
	);
	const ratio = median(ratios);
	return {
		ratio,
		markdown: `## Webhook deliveries (${deliveries} per run, ${senders} concurrent senders, median of ${runs} runs)

Each delivery is a distinct \`document.ready\` event that starts one execution. All receivers run in the same n8n
and are measured back to back in every round, in rotating order; rates are medians over the rounds.

| receiver | deliveries/s | started | vs. the trivial trigger |
|---|---|---|---|
${receivers.map((r) => `| ${r.label} | ${rate(r.key).toFixed(1)} | ${r.runs.at(-1).ok}/${deliveries} | ${(rate(r.key) / rate('trivial')).toFixed(2)}× |`).join('\n')}

Extraction Trigger / trivial trigger, median of the ${runs} per-round ratios: **${ratio.toFixed(2)}×** (target ≥ 0.9×;
rounds ranged ${Math.min(...ratios).toFixed(2)}× to ${Math.max(...ratios).toFixed(2)}×).
`,
	};
}

// Run alone: `node bench/webhooks.mjs` (builds, starts the simulators and a throw-away n8n, prints the section).
if (process.argv[1] === fileURLToPath(import.meta.url)) {
	const { prepareSandbox, userFolderFor } = await import('../scripts/n8n/sandbox.mjs');
	const userFolder = userFolderFor('bench-webhooks');
	rmSync(userFolder, { recursive: true, force: true });
	const sb = await prepareSandbox({ userFolder, quiet: true });
	try {
		const { markdown } = await benchWebhooks({
			sb,
			secret: sb.sim.credentials.extractionWebhookApi.secret,
			log: (m) => process.stderr.write(`[bench] ${m}\n`),
			runs: Number(process.env.BENCH_RUNS ?? 5),
		});
		process.stdout.write(markdown);
	} finally {
		await sb.stop();
	}
}
