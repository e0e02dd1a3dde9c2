// The least any client can do against a simulated service: POST the given bodies with node:http, keeping
// `parallel` of them in flight all the time, reading each answer whole and nothing more. The physical latency floor
// of bench/public-services.mjs: it pays what no client avoids (its own requests, the simulator's timer slack, the
// loopback), and nothing of n8n's.
//
//   node bench/minimal-client.mjs <job.json>   → prints { ms, statuses } as JSON
//
// job.json: { url, headers, bodies: string[], parallel, connection: 'keep-alive' | 'new' }
// - 'keep-alive': one agent keeps its connections open between questions (what a client can do at best);
// - 'new': a new agent, so a new connection, per question (what n8n's HTTP helper does: it builds its agents
//   for every request).
import http from 'node:http';
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';

/**
 * @param {{ url: string, headers: Record<string, string>, bodies: string[], parallel: number,
 *   connection: 'keep-alive' | 'new' }} job
 * @returns {Promise<{ ms: number, statuses: Record<string, number> }>}
 */
export async function askAll({ url, headers, bodies, parallel, connection }) {
	const shared =
		connection === 'keep-alive'
			? new http.Agent({ keepAlive: true, maxSockets: parallel })
			: undefined;
	/** @type {Record<string, number>} */
	const statuses = {};
	const ask = (body) =>
		new Promise((resolve, reject) => {
			const request = http.request(
				url,
				{
					method: 'POST',
					agent: shared ?? new http.Agent(),
					headers: { ...headers, 'Content-Length': Buffer.byteLength(body) },
				},
				(response) => {
					const chunks = [];
					response.on('data', (chunk) => chunks.push(chunk));
					response.on('end', () => {
						const status = String(response.statusCode);
						statuses[status] = (statuses[status] ?? 0) + 1;
						resolve(Buffer.concat(chunks));
					});
					response.on('error', reject);
				},
			);
			request.on('error', reject);
			request.end(body);
		});
	let next = 0;
	const worker = async () => {
		while (next < bodies.length) await ask(bodies[next++]);
	};
	const started = performance.now();
	await Promise.all(Array.from({ length: Math.min(parallel, bodies.length) }, worker));
	const ms = performance.now() - started;
	shared?.destroy();
	return { ms, statuses };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
	const job = JSON.parse(readFileSync(process.argv[2], 'utf8'));
	process.stdout.write(JSON.stringify(await askAll(job)));
}
