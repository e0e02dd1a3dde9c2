/** @import { IDataObject } from 'n8n-workflow' */
import { usePartners } from './setup';

/**
 * Input that cannot slip through, for Partners: numbers as JSON numbers or plain decimal text, and numeric
 * options in range. Each case stops before any request reaches the service (the token request included).
 */
const env = usePartners();

const vigency = (v) => ({ vigencies: { vigency: [{ vigency: 'Mensual', folios: 100, price: 199.5, ...v }] } });
const planCreate = (extra = {}) => ({ resource: 'plan', operation: 'create', name: 'Pyme', ...vigency({}), ...extra });

/** @type {Array<[label: string, parameters: IDataObject, message: RegExp]>} */
const refused = [
	['plan folios with a space in front', planCreate(vigency({ folios: '={{ " 100" }}' })), /^\[item 1\] vigencies\[0\]\.folios: must be a whole number, got " 100"$/],
	['plan price with an exponent', planCreate(vigency({ price: '={{ "2e2" }}' })), /^\[item 1\] vigencies\[0\]\.price: must be a number, got "2e2"$/],
	['plan price with spaces around', planCreate(vigency({ price: '={{ " 199.5" }}' })), /^\[item 1\] vigencies\[0\]\.price: must be a number, got " 199\.5"$/],
	['plan vigency as a list', planCreate(vigency({ vigency: '={{ ["Mensual"] }}' })), /^\[item 1\] vigencies\[0\]\.vigency: must be one of .*, got a list$/],
	['plan extra users as empty text', planCreate({ services: { extra_user: '={{ "" }}' } }), /^\[item 1\] services\.extra_user: must be a number or left out, got ""$/],
	['Get Many Limit 0.5', { resource: 'plan', operation: 'getMany', returnAll: false, limit: 0.5 }, /^\[item 1\] Limit: must be a whole number of at least 1, got 0\.5$/],
	['Get Many Limit 0', { resource: 'client', operation: 'getMany', returnAll: false, limit: 0 }, /^\[item 1\] Limit: must be a whole number of at least 1, got 0$/],
	['Get Many Limit "10 rows"', { resource: 'subscription', operation: 'getMany', returnAll: false, limit: '={{ "10 rows" }}' }, /^\[item 1\] Limit: must be a whole number of at least 1, got "10 rows"$/],
	['Parallel Requests 0.5', { resource: 'plan', operation: 'getMany', returnAll: true, options: { parallelRequests: 0.5 } }, /^Options → Parallel Requests: must be a whole number from 1 to 20, got 0\.5 \(read once per execution, from the first item\)$/],
	['Parallel Requests "5s"', { resource: 'plan', operation: 'getMany', returnAll: true, options: { parallelRequests: '={{ "5s" }}' } }, /^Options → Parallel Requests: must be a whole number from 1 to 20, got "5s" /],
];

describe('Partners: refused before anything is sent', () => {
	test.each(refused)('%s', async (_label, parameters, message) => {
		const result = await env.run(parameters);
		expect(env.server.received()).toHaveLength(0);
		expect(result.error?.message).toMatch(message);
		expect(result.error?.description).toMatch(/Nothing was sent to the service/);
	});

	test('numbers given as plain decimal text are sent as those numbers', async () => {
		const result = await env.run(planCreate({ ...vigency({ folios: '={{ "120" }}', price: '={{ "199.50" }}' }), services: { extra_user: '={{ "2" }}' } }));
		expect(result.error).toBeUndefined();
		const body = /** @type {IDataObject} */ (env.calls()[0].body);
		expect(/** @type {IDataObject[]} */ (body.vigencies)[0]).toMatchObject({ folios: 120, price: 199.5 });
		expect(/** @type {IDataObject} */ (body.services).extra_user).toBe(2);
	});
});
