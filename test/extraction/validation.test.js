import { everythingOf, leaks } from '../harness/hostile';
import { createParams, NODE, startExtraction } from './setup';
/** @import { ExtractionEnv } from './setup' */

/**
 * Input that cannot slip through, for Extraction: the numeric options of Wait for Completion and Parallel
 * Requests must be numbers in the form's range, or the run stops naming the option, with nothing sent (a
 * "5s" from an expression used to become a 100 ms interval; a Timeout of "abc" the default).
 */

/** @type {ExtractionEnv} */
let env;
beforeAll(async () => (env = await startExtraction()));
afterAll(async () => env.stop());
beforeEach(() => env.reset());

/** @type {Array<[label: string, parameters: Record<string, unknown>, message: RegExp]>} */
const refused = [
	[
		'Poll Interval "5s"',
		{ waitForCompletion: true, options: { pollInterval: '={{ "5s" }}' } },
		/^\[item 1\] Options → Poll Interval \(Seconds\): must be a number from 0\.01 to 3600, got "5s"$/,
	],
	[
		'Poll Interval 0',
		{ waitForCompletion: true, options: { pollInterval: 0 } },
		/^\[item 1\] Options → Poll Interval \(Seconds\): must be a number from 0\.01 to 3600, got 0$/,
	],
	[
		'Poll Interval in hexadecimal',
		{ waitForCompletion: true, options: { pollInterval: '={{ "0xF" }}' } },
		/^\[item 1\] Options → Poll Interval \(Seconds\): must be a number from 0\.01 to 3600, got "0xF"$/,
	],
	[
		'Timeout "abc"',
		{ waitForCompletion: true, waitTimeout: '={{ "abc" }}' },
		/^\[item 1\] Timeout \(Seconds\): must be a number from 0 to 86400, got "abc"$/,
	],
	[
		'Timeout -1',
		{ waitForCompletion: true, waitTimeout: -1 },
		/^\[item 1\] Timeout \(Seconds\): must be a number from 0 to 86400, got -1$/,
	],
	[
		'Timeout of a week',
		{ waitForCompletion: true, waitTimeout: 604800 },
		/^\[item 1\] Timeout \(Seconds\): must be a number from 0 to 86400, got 604800$/,
	],
	[
		'Timeout not finite',
		{ waitForCompletion: true, waitTimeout: '={{ 1/0 }}' },
		/^\[item 1\] Timeout \(Seconds\): must be a number from 0 to 86400, got Infinity$/,
	],
	[
		'Timeout of a week, saved under the old name',
		{ waitForCompletion: true, timeout: 604800 },
		/^\[item 1\] Timeout \(Seconds\) \(a field of an earlier version of this node; set Timeout \(Seconds\) instead\): must be a number from 0 to 86400, got 604800$/,
	],
];

describe('Extraction: numeric options are refused before anything is sent', () => {
	test.each(refused)('Create with %s', async (_label, extra, message) => {
		const result = await env.run(createParams(extra));
		expect(env.calls()).toHaveLength(0);
		expect(result.error?.message).toMatch(message);
		expect(result.error?.description).toMatch(/Nothing was sent to the service/);
	});

	test.each(refused)('Get with %s', async (_label, extra, message) => {
		const job = env.sim.seedJob();
		const result = await env.run({
			resource: 'extraction',
			operation: 'get',
			extractionId: job.publicId,
			...extra,
		});
		expect(env.calls()).toHaveLength(0);
		expect(result.error?.message).toMatch(message);
	});

	test('the second item’s wrong Poll Interval stops the batch before the first job is created', async () => {
		const result = await env.run(
			createParams({ waitForCompletion: true, options: { pollInterval: '={{ $json.every }}' } }),
			[{ every: 1 }, { every: '1m' }],
		);
		expect(env.calls()).toHaveLength(0);
		expect(result.error?.message).toBe(
			'[item 2] Options → Poll Interval (Seconds): must be a number from 0.01 to 3600, got "1m"',
		);
	});

	test.each([
		['0.5', 0.5, /got 0\.5 \(read once per execution, from the first item\)$/],
		['0', 0, /got 0 /],
		['"5s"', '={{ "5s" }}', /got "5s" /],
	])(
		'Get with Parallel Requests %s: refused before any read',
		async (_label, parallelRequests, says) => {
			const job = env.sim.seedJob();
			const result = await env.run(
				{
					resource: 'extraction',
					operation: 'get',
					extractionId: job.publicId,
					options: { parallelRequests },
				},
				[{}, {}],
			);
			expect(env.calls()).toHaveLength(0);
			expect(result.error?.message).toMatch(
				/^Options → Parallel Requests: must be a whole number from 1 to 20, /,
			);
			expect(result.error?.message).toMatch(says);
		},
	);

	test('options given as plain decimal text are read as those numbers', async () => {
		const job = env.sim.seedJob({ status: 'COMPLETED' });
		const result = await env.run({
			resource: 'extraction',
			operation: 'get',
			extractionId: job.publicId,
			waitForCompletion: true,
			waitTimeout: '={{ "5" }}',
			options: { parallelRequests: '={{ "2" }}', pollInterval: '={{ "0.1" }}' },
		});
		expect(result.error).toBeUndefined();
		expect(result.output(NODE)[0].json.status).toBe('COMPLETED');
	});
});

describe('a password typed in the form never shows, not even when the item fails before anything is sent', () => {
	test.each([
		['a wrong RFC', { rfc: 'NOT-AN-RFC' }],
		['a Period To before Period From', { periodFrom: '2026-10-31', periodTo: '2026-10-01' }],
	])(
		'Create with %s: the error names the field, and the SAT password is cut out of it and of the node n8n attaches',
		async (_, wrong) => {
			const typed = 'Typed-SAT-pässword/2026';
			const result = await env.run(createParams({ satPassword: typed, ...wrong }));
			expect(result.error?.message).toMatch(/^\[item 1\] /);
			expect(env.calls()).toHaveLength(0);
			const node = /** @type {{ parameters: Record<string, unknown> }} */ (
				/** @type {any} */ (result.error).node
			);
			expect(node.parameters.satPassword).toBe('[redacted]');
			expect(leaks(everythingOf(result), [typed])).toEqual([]);
		},
	);

	test('Taxpayer → Register with a wrong Secret Field path: its typed value is cut out the same way', async () => {
		const typed = 'ec-portal-clave-9!';
		const result = await env.run({
			resource: 'taxpayer',
			operation: 'register',
			taxpayer: '{"identification":"1790012345001"}',
			secretFields: { field: [{ path: '__proto__.x', value: typed }] },
		});
		expect(result.error?.message).toMatch(/secretFields\[0\]\.path/);
		expect(env.calls()).toHaveLength(0);
		expect(leaks(everythingOf(result), [typed])).toEqual([]);
	});

	test('a password given by an expression is not a typed secret: the expression is left as it is', async () => {
		const result = await env.run(
			createParams({ satPassword: '={{ "from-" + "vars" }}', rfc: 'NOT-AN-RFC' }),
		);
		const node = /** @type {{ parameters: Record<string, unknown> }} */ (
			/** @type {any} */ (result.error).node
		);
		expect(node.parameters.satPassword).toBe('={{ "from-" + "vars" }}');
	});
});
