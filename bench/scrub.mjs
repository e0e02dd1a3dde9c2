#!/usr/bin/env node
// The scrubber's cost on large answers (nodes/shared/redact.ts, as built in dist/): every answer and every
// output item passes it, so it must stay linear in the answer's size. Measures, with the secrets of a Receipts
// run (API key, certificate password, a typed SAT password):
// - a parsed JSON answer of about 1 MB and about 10 MB (many records of short and long texts, a few with a secret);
// - one text of about 10 MB (an HTML error page) with a few secrets in it;
// - about 10 MB of near misses (each secret's spellings, all but their last character) and 10 MB of base64.
// Prints milliseconds (median of BENCH_RUNS runs, default 5) and the 10 MB / 1 MB ratio (about 10 when linear).
//
//   npm run build && node bench/scrub.mjs
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const root = join(fileURLToPath(new URL('.', import.meta.url)), '..');
/** @type {{ redact: <T>(value: T, secrets: string[]) => T; scrubText: (text: string, secrets: string[]) => string }} */
const { redact, scrubText } = require(join(root, 'dist', 'nodes', 'shared', 'redact.js'));

const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const SECRETS = ['rk_live_ñandú+/Key&2026', 'firma "2026"/ñ? &p=2', 'sat-ciec-pässword'];
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** A JSON answer of about `mb` megabytes: records with short and long texts; one in 500 quotes a secret. */
function answerOf(mb) {
	const records = [];
	let size = 0;
	for (let i = 0; size < mb * 1024 * 1024; i++) {
		const record = {
			id: `rec_${i}`,
			name: `Producto número ${i} con descripción`,
			amount: i * 1.5,
			notes:
				i % 500 === 0
					? `eco del servicio: ${SECRETS[i % SECRETS.length]} fin`
					: 'Lorem ipsum dolor sit amet, consectetur adipiscing elit; señal & ruido <ok> '.repeat(
							6,
						),
			tags: ['a', 'b', `t${i % 7}`],
			nested: { code: `C${i}`, ok: i % 2 === 0, url: `https://files.example.com/ver/${i}/pdf` },
		};
		size += JSON.stringify(record).length;
		records.push(record);
	}
	return JSON.parse(JSON.stringify({ count: records.length, results: records }));
}

function timeIt(fn) {
	const times = [];
	for (let r = 0; r < RUNS; r++) {
		const started = performance.now();
		fn();
		times.push(performance.now() - started);
	}
	return median(times);
}

redact({ warm: 'up' }, SECRETS); // the secrets' forms are computed once per set (a small cache)
const small = answerOf(1);
const large = answerOf(10);
const page = `<html><body>${'<p>Error interno, intente de nuevo &amp; más tarde</p>'.repeat(200_000)}${SECRETS.join(' ')}</body></html>`;

// The worst a service could send: every secret's spellings nearly complete, again and again (each attempt fails at
// its last character), and one long run of base64.
const nearMisses = SECRETS.map((s) => `${s.slice(0, -1)}&amp;%2F\\u00f1 `)
	.join('')
	.repeat(Math.ceil((10 * 1024 * 1024) / 80));
const base64Run = Buffer.alloc(7.5 * 1024 * 1024, 'ñandú key').toString('base64');

const oneMb = timeIt(() => redact(small, SECRETS));
const tenMb = timeIt(() => redact(large, SECRETS));
const text = timeIt(() => scrubText(page, SECRETS));
const misses = timeIt(() => scrubText(nearMisses, SECRETS));
const run = timeIt(() => scrubText(base64Run, SECRETS));
const leaked = JSON.stringify(redact(large, SECRETS));
console.log(`scrub a parsed JSON answer of ~1 MB:   ${oneMb.toFixed(1)} ms`);
console.log(
	`scrub a parsed JSON answer of ~10 MB:  ${tenMb.toFixed(1)} ms (×${(tenMb / oneMb).toFixed(1)} the 1 MB one)`,
);
console.log(
	`scrub one text of ${(page.length / 1024 / 1024).toFixed(1)} MB (an HTML page): ${text.toFixed(1)} ms`,
);
console.log(
	`scrub ${(nearMisses.length / 1024 / 1024).toFixed(1)} MB of near misses: ${misses.toFixed(1)} ms`,
);
console.log(
	`scrub one base64 text of ${(base64Run.length / 1024 / 1024).toFixed(1)} MB: ${run.toFixed(1)} ms`,
);
console.log(
	`secrets left in the 10 MB answer: ${SECRETS.filter((s) => leaked.includes(s)).length}`,
);
