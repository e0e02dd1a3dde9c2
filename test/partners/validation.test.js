/** @import { IDataObject } from 'n8n-workflow' */
import { randomUUID } from 'node:crypto';
import { usePartners } from './setup';

/**
 * Input that cannot slip through, for Partners: numbers as JSON numbers or plain decimal text, numeric options
 * in range, and — run by an AI agent — at most a few IDs per Suspend, Reactivate or Delete. Each case stops
 * before any request reaches the service (the token request included).
 */
const env = usePartners();

const vigency = (v) => ({
	vigencies: { vigency: [{ vigency: 'Mensual', folios: 100, price: 199.5, ...v }] },
});
const planCreate = (extra = {}) => ({
	resource: 'plan',
	operation: 'create',
	name: 'Pyme',
	...vigency({}),
	...extra,
});

/** @type {Array<[label: string, parameters: IDataObject, message: RegExp]>} */
const refused = [
	[
		'plan folios with a space in front',
		planCreate(vigency({ folios: '={{ " 100" }}' })),
		/^\[item 1\] vigencies\[0\]\.folios: must be a whole number, got " 100"$/,
	],
	[
		'plan price with an exponent',
		planCreate(vigency({ price: '={{ "2e2" }}' })),
		/^\[item 1\] vigencies\[0\]\.price: must be a number, got "2e2"$/,
	],
	[
		'plan price with spaces around',
		planCreate(vigency({ price: '={{ " 199.5" }}' })),
		/^\[item 1\] vigencies\[0\]\.price: must be a number, got " 199\.5"$/,
	],
	[
		'plan vigency as a list',
		planCreate(vigency({ vigency: '={{ ["Mensual"] }}' })),
		/^\[item 1\] vigencies\[0\]\.vigency: must be one of .*, got a list$/,
	],
	[
		'plan extra users as empty text',
		planCreate({ services: { extra_user: '={{ "" }}' } }),
		/^\[item 1\] services\.extra_user: must be a number or left out, got ""$/,
	],
	[
		'Get Many Limit 0.5',
		{ resource: 'plan', operation: 'getMany', returnAll: false, limit: 0.5 },
		/^\[item 1\] Limit: must be a whole number of at least 1, got 0\.5$/,
	],
	[
		'Get Many Limit 0',
		{ resource: 'client', operation: 'getMany', returnAll: false, limit: 0 },
		/^\[item 1\] Limit: must be a whole number of at least 1, got 0$/,
	],
	[
		'Get Many Limit "10 rows"',
		{ resource: 'subscription', operation: 'getMany', returnAll: false, limit: '={{ "10 rows" }}' },
		/^\[item 1\] Limit: must be a whole number of at least 1, got "10 rows"$/,
	],
	[
		'Parallel Requests 0.5',
		{ resource: 'plan', operation: 'getMany', returnAll: true, options: { parallelRequests: 0.5 } },
		/^Options → Parallel Requests: must be a whole number from 1 to 20, got 0\.5 \(read once per execution, from the first item\)$/,
	],
	[
		'Parallel Requests "5s"',
		{
			resource: 'plan',
			operation: 'getMany',
			returnAll: true,
			options: { parallelRequests: '={{ "5s" }}' },
		},
		/^Options → Parallel Requests: must be a whole number from 1 to 20, got "5s" /,
	],
];

describe('Partners: refused before anything is sent', () => {
	test.each(refused)('%s', async (_label, parameters, message) => {
		const result = await env.run(parameters);
		expect(env.server.received()).toHaveLength(0);
		expect(result.error?.message).toMatch(message);
		expect(result.error?.description).toMatch(/Nothing was sent to the service/);
	});

	test('numbers given as plain decimal text are sent as those numbers', async () => {
		const result = await env.run(
			planCreate({
				...vigency({ folios: '={{ "120" }}', price: '={{ "199.50" }}' }),
				services: { extra_user: '={{ "2" }}' },
			}),
		);
		expect(result.error).toBeUndefined();
		const body = /** @type {IDataObject} */ (env.calls()[0].body);
		expect(/** @type {IDataObject[]} */ (body.vigencies)[0]).toMatchObject({
			folios: 120,
			price: 199.5,
		});
		expect(/** @type {IDataObject} */ (body.services).extra_user).toBe(2);
	});
});

describe('Partners run by an AI agent: at most 5 IDs per Suspend, Reactivate or Delete', () => {
	const ids = (n) => Array.from({ length: n }, () => randomUUID());

	test.each([
		['Client → Suspend', 'client', 'suspend', 'clientIds'],
		['Client → Reactivate', 'client', 'reactivate', 'clientIds'],
		['Plan → Delete', 'plan', 'delete', 'planIds'],
	])(
		'%s with 6 IDs is refused as a tool, nothing sent; 5 are sent; the node in a workflow sends 6',
		async (_label, resource, operation, parameter) => {
			const six = await env.runAsTool({ resource, operation, [parameter]: ids(6) });
			expect(env.server.received()).toHaveLength(0);
			expect(six.error?.message).toBe(
				`[item 1] ${parameter}: an AI agent may change at most 5 per call, and this call names 6`,
			);
			expect(six.error?.description).toMatch(/Nothing was sent/);

			await env.runAsTool({ resource, operation, [parameter]: ids(5).join(', ') });
			expect(env.calls()).toHaveLength(1);
			expect(/** @type {IDataObject} */ (env.calls()[0].body).uuids).toHaveLength(5);

			env.server.clear();
			await env.run({ resource, operation, [parameter]: ids(6) });
			expect(env.calls()).toHaveLength(1);
			expect(/** @type {IDataObject} */ (env.calls()[0].body).uuids).toHaveLength(6);
		},
	);

	test('a batch: the second item’s list is refused before the first item is sent', async () => {
		const result = await env.runAsTool(
			{ resource: 'client', operation: 'suspend', clientIds: '={{ $json.ids }}' },
			[{ ids: ids(2) }, { ids: ids(7) }],
		);
		expect(env.server.received()).toHaveLength(0);
		expect(result.error?.message).toBe(
			'[item 2] clientIds: an AI agent may change at most 5 per call, and this call names 7',
		);
	});
});
