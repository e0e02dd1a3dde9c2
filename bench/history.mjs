// Why the read ratios of BENCHMARKS.md up to 2026-11-24 were wrong, and what the method changed: a fixed part of the
// report. The measurements it cites were made once, on 2026-11-26, with throw-away scripts on the bench's machine;
// bench/run.mjs does not repeat them (it measures with the method they led to).
export const METHOD_HISTORY = `### What changed on 2026-11-26, and why the earlier read ratios were wrong

BENCHMARKS.md of 2026-11-24 put Partners reads at 0.81× the credentialed HTTP Request node with Parallel Requests = 1
and 0.73× with 5 (floor 0.39×); the same reads measured separately in a real n8n, the simulator in its own process,
gave 0.52× and 0.47× (floor 0.43×). Measured on 2026-11-26 on the bench's machine (2 cores shared with other work):

- **A late answer costs only one side of the ratio.** n8n's HTTP Request node sends all 1,000 requests at once and
  works through the answers as they arrive; this package's nodes keep 1 or 5 requests in flight and wait for their
  answers. Making the simulator answer every request 2 ms later (a timer, no CPU) made 1,000 reads 4.0 s slower with
  Parallel Requests = 1 and 0.7 s slower with 5, the credentialed HTTP Request node 0.3 s slower and the floor not at
  all (median of 4 rounds in one n8n). Whatever delays answers inflates this package's ratios, and nothing else.
- **The old bench delayed the answers itself.** It ran the simulators inside its own process and, during every
  measured run, sampled n8n's memory every 100 ms with a synchronous \`pgrep\`, which stops that process, simulators
  included, until \`pgrep\` returns (6–10 ms on a quiet machine, far more on a busy one). The simulators' event loop
  ran late by a median 28–54 ms at the 99th percentile of a run (up to 350 ms), against 9–18 ms in a process of
  their own.
- **So does a busy machine**, and the old method neither prevented nor showed it. The old method itself, run again
  within the same hour, gave Parallel Requests = 1 a median 0.59× in one set of 8 interleaved rounds and 0.89× in
  another (5: 0.50× and 0.71×), as the machine's load changed; with the simulators in their own process but no protection from the load, 1.11× and 0.73× while n8n
  waited for a CPU about 40 % of the time (load average 12–16), against 0.54× and 0.42× when it waited 3 %. The
  2026-11-24 figures carry this inflation: its floor (1.29 ms per item) shows n8n itself was not short of CPU, while
  this package's reads took about 1 ms more per answer (2.68 ms per item, against 1.5–1.7 ms here on a calm machine).
- **Not the cause: the route or the sizes.** Both sides make one \`GET /v1/products/{id}\` per item, on a connection
  of its own, and get the same 454-byte answer; the requests differ only by their Accept header (443 and 530 bytes).
  The last column of the item-by-item tables shows it on every run.

What the method does since: the simulators run in a process of their own and nothing samples or blocks anything
while a run is measured; n8n and the simulators get a raised scheduling priority for the item-by-item section, and
the section reports how long n8n still waited for a CPU (trust its ratios when that share is small); the runs happen
in one running n8n, as users run it, which makes a warm-up meaningful and a run cost about 2 s instead of 10, so 10
rounds fit where 3 runs did; cases run in rotating order and each ratio is taken within a round, reported as the
median with its range; and the wording says what the HTTP Request node does (all requests at once) instead of calling
Parallel Requests = 1 against it "sequential". With priority, on the same day: 0.60× and 0.51× (n8n waited 3 %),
0.62× and 0.57× in a separate set of 8 rounds.
`;
