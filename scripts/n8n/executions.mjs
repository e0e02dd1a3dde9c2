// Reading what a running n8n did, and sending webhook deliveries the way a service (or a replaying attacker)
// does: shared by the trigger e2e tests, single-process and queue mode.
//
//   const ex = executionsClient(n8n.url, api.headers);     // api: sandbox.mjs ownerApiKey
//   const list = await ex.settled('wf1', { atLeast: 2 });  // executions once their count stops changing
//   const run = await ex.get(list[0].id);                  // with data: nodeOutput(run, 'Node name')
//   await replay(url, delivery);                           // the exact bytes and signature headers again
import assert from 'node:assert/strict';

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/**
 * An execution as n8n's public API answers it (GET /api/v1/executions, n8n's openapi.yml), as far as these
 * scripts read it. IDs are strings on both lines.
 * @typedef {object} Execution
 * @property {string} id
 * @property {boolean} finished
 * @property {import('n8n-workflow').ExecutionStatus} status
 * @property {string | null} stoppedAt
 */
/**
 * With includeData=true (GET /api/v1/executions/<id>?includeData=true): the run data too, what `execute
 * --rawOutput` prints under `data` (boot.mjs parseCliJson).
 * @typedef {Execution & { data: import('n8n-workflow').IRunExecutionData }} ExecutionWithData
 */

/** n8n's public API on executions (GET /api/v1/executions...), with polling for webhook-started runs. */
export function executionsClient(url, headers) {
	const list = async (workflowId) => {
		const res = await fetch(
			`${url}/api/v1/executions?workflowId=${encodeURIComponent(workflowId)}&limit=250`,
			{ headers },
		);
		assert.equal(res.status, 200, `executions API answered ${res.status}`);
		return /** @type {{ data: Execution[] }} */ (await res.json()).data;
	};
	const get = async (id) => {
		const res = await fetch(`${url}/api/v1/executions/${id}?includeData=true`, { headers });
		assert.equal(res.status, 200, `execution ${id}: API answered ${res.status}`);
		return /** @type {ExecutionWithData} */ (await res.json());
	};
	return {
		list,
		get,
		/**
		 * The executions of a workflow once their number has stopped changing for `quietMs` and every one has
		 * ended. A webhook answers before its run is stored (and in queue mode before a worker picks it up).
		 */
		async settled(workflowId, { atLeast = 0, quietMs = 1500, timeoutMs = 60_000 } = {}) {
			const deadline = Date.now() + timeoutMs;
			let last = -1;
			let since = Date.now();
			for (;;) {
				const now = await list(workflowId);
				const ended = now.every((e) => e.finished || e.stoppedAt);
				if (now.length !== last) {
					last = now.length;
					since = Date.now();
				}
				if (now.length >= atLeast && ended && Date.now() - since >= quietMs) return now;
				if (Date.now() > deadline) return now;
				await sleep(250);
			}
		},
		/**
		 * Waits until execution `id` has ended; resolves with it, data included. Checks without the data every
		 * 100 ms (a run's data can be megabytes), then reads it. n8n 2.41.1 may mark a run ended before its data is
		 * stored (seen on a loaded machine with a run of 2.7 MB: its data read back with no node in it): an ended
		 * run with neither a node nor an error is read again until its data is there.
		 */
		async finished(id, { timeoutMs = 120_000 } = {}) {
			const deadline = Date.now() + timeoutMs;
			for (;;) {
				const res = await fetch(`${url}/api/v1/executions/${id}`, { headers });
				if (res.status === 200) {
					const execution = /** @type {Execution} */ (await res.json());
					if (execution.stoppedAt && execution.status !== 'running' && execution.status !== 'new') {
						const whole = await get(id);
						const result = whole.data?.resultData;
						if (result?.error || Object.keys(result?.runData ?? {}).length) return whole;
						if (Date.now() > deadline) return whole;
					}
				}
				if (Date.now() > deadline)
					throw new Error(`execution ${id} did not end within ${timeoutMs} ms`);
				await sleep(100);
			}
		},
	};
}

/**
 * Items a node emitted on output `output` (first run), from an execution with data or a CLI run.
 * @param {Pick<ExecutionWithData, 'data'>} execution
 * @param {string} nodeName
 */
export function nodeOutput(execution, nodeName, output = 0) {
	return execution.data.resultData.runData[nodeName]?.[0]?.data?.main?.[output] ?? [];
}

/**
 * Whether a node ran at all in that execution.
 * @param {Pick<ExecutionWithData, 'data'>} execution
 * @param {string} nodeName
 */
export const nodeRan = (execution, nodeName) =>
	execution.data.resultData.runData[nodeName] !== undefined;

/**
 * POSTs a delivery again exactly as it was sent: the same bytes and the same signature and timestamp headers
 * (`delivery` is what the extraction simulator's deliver() returns). Resolves with { status, text }.
 */
export async function replay(url, delivery, extraHeaders = {}) {
	const res = await fetch(url, {
		method: 'POST',
		headers: {
			'content-type': 'application/json',
			'x-svc-signature': delivery.signature,
			'x-svc-timestamp': String(delivery.timestamp),
			...extraHeaders,
		},
		body: delivery.rawBody,
	});
	return { status: res.status, text: await res.text() };
}

/** POSTs raw bytes with the given headers (an unsigned or hand-made delivery). */
export async function post(url, body, headers = {}) {
	const res = await fetch(url, {
		method: 'POST',
		headers: { 'content-type': 'application/json', ...headers },
		body: typeof body === 'string' ? body : JSON.stringify(body),
	});
	return { status: res.status, text: await res.text() };
}

/** Waits until `check()` (sync or async) is true, checking every 100 ms; rejects naming `what` after `timeoutMs`. */
export async function until(check, what, { timeoutMs = 60_000 } = {}) {
	const deadline = Date.now() + timeoutMs;
	while (!(await check())) {
		if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms`);
		await sleep(100);
	}
}

/** Waits until a production webhook URL is served (published webhooks register a few seconds after start). */
export async function untilServed(url, { timeoutMs = 60_000 } = {}) {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const res = await fetch(url, {
			method: 'POST',
			body: '{}',
			headers: { 'content-type': 'application/json' },
		}).catch(() => undefined);
		if (res && res.status !== 404) return;
		if (Date.now() > deadline) throw new Error(`${url} still answers 404 after ${timeoutMs} ms`);
		await sleep(300);
	}
}

/** Waits until a webhook URL is no longer served (404): deactivation completes a moment after the API answers. */
export async function untilGone(url, { timeoutMs = 30_000 } = {}) {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const res = await fetch(url, {
			method: 'POST',
			body: '{}',
			headers: { 'content-type': 'application/json' },
		}).catch(() => undefined);
		if (res?.status === 404) return;
		if (Date.now() > deadline)
			throw new Error(`${url} still served ${timeoutMs} ms after deactivation`);
		await sleep(200);
	}
}
