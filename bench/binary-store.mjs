#!/usr/bin/env node
// What keeping a downloaded file costs in memory, by the way it is handed to n8n's binary store
// (`this.helpers.prepareBinaryData` ends in n8n-core's BinaryDataService.store, which takes a Buffer or a stream):
// - `buffer`: the whole answer read into one Buffer first (what the package does: its download reads the body
//   against its size cap and checks its first bytes before anything is kept);
// - `stream`: the answer's own stream handed over as it arrives.
// For each of n8n's binary data modes, `filesystem` (2.x's default) and `default` (memory, 1.x's default), on the
// n8n-core of this repository (2.x) or another (`--core <folder of n8n-core>`, e.g. the 1.x runtime's), each run in
// a process of its own: the peak growth of the process's memory (RSS, sampled every 5 ms) while a 200 MB file
// served on loopback is stored.
//
//   node bench/binary-store.mjs
//   node bench/binary-store.mjs --core ~/.cache/n8n-nodes-latam-fiscal/n8n-runtime/n8n-1.123.81/node_modules/n8n-core
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, get } from 'node:http';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const FILE_BYTES = 200 * 1024 * 1024;
const { values: args } = parseArgs({
	options: {
		core: { type: 'string' },
		child: { type: 'string' },
		mode: { type: 'string' },
	},
});

if (!args.child) {
	const self = fileURLToPath(import.meta.url);
	for (const mode of ['filesystem', 'default']) {
		for (const way of ['buffer', 'stream']) {
			const folder = mkdtempSync(join(tmpdir(), 'binary-store-'));
			try {
				const out = execFileSync(
					process.execPath,
					[self, '--child', way, '--mode', mode, ...(args.core ? ['--core', args.core] : [])],
					{
						encoding: 'utf8',
						env: {
							...process.env,
							N8N_USER_FOLDER: folder,
							N8N_DEFAULT_BINARY_DATA_MODE: mode,
							N8N_BINARY_DATA_STORAGE_PATH: join(folder, 'binaryData'),
							N8N_ENCRYPTION_KEY: 'bench-only',
							N8N_ENFORCE_SETTINGS_FILE_PERMISSIONS: 'false',
						},
					},
				);
				process.stdout.write(out);
			} finally {
				rmSync(folder, { recursive: true, force: true });
			}
		}
	}
} else {
	const require = createRequire(args.core ? join(args.core, 'package.json') : import.meta.url);
	const core = require(args.core ?? 'n8n-core');
	const { Container } = require(
		require.resolve('@n8n/di', { paths: [args.core ?? process.cwd()] }),
	);
	const service = Container.get(core.BinaryDataService);
	await service.init(/** @type {any} */ (Container.get(core.BinaryDataConfig)));

	const chunk = Buffer.alloc(256 * 1024, 0x41);
	const server = createServer((_, res) => {
		res.writeHead(200, { 'content-type': 'application/pdf' });
		let sent = 0;
		const pump = () => {
			while (sent < FILE_BYTES) {
				sent += chunk.length;
				if (!res.write(chunk)) return void res.once('drain', pump);
			}
			res.end();
		};
		pump();
	});
	await new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(undefined)));
	const port = /** @type {import('node:net').AddressInfo} */ (server.address()).port;

	global.gc?.();
	const baseline = process.memoryUsage().rss;
	let peak = baseline;
	const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 5);
	const started = performance.now();
	const response = await new Promise((resolve) =>
		get(`http://127.0.0.1:${port}/file.pdf`, resolve),
	);
	/** @type {Buffer | import('node:http').IncomingMessage} */
	let body = response;
	if (args.child === 'buffer') {
		const parts = [];
		for await (const part of response) parts.push(part);
		body = Buffer.concat(parts);
	}
	const stored = await service.store(
		{ type: 'execution', workflowId: 'w1', executionId: '1' },
		body,
		{ mimeType: 'application/pdf', fileName: 'file.pdf', data: '' },
	);
	const ms = performance.now() - started;
	peak = Math.max(peak, process.memoryUsage().rss);
	clearInterval(sampler);
	server.close();
	console.log(
		`${`mode ${args.mode}, ${args.child}:`.padEnd(28)} peak memory +${Math.round((peak - baseline) / 1024 / 1024)} MB for a ${FILE_BYTES / 1024 / 1024} MB file (${Math.round(ms)} ms; kept ${stored.id ? `in the store as ${String(stored.id).split(':')[0]}` : 'in memory, base64'})`,
	);
}
