/** @import { IDataObject } from 'n8n-workflow' */
import { startExtraction } from '../extraction/setup';
import { byId, startPartners } from '../partners/setup';
import { startReceipts } from '../receipts/setup';

/**
 * Every write is checked, for every item, before the first request (shared/router.ts, `validate`): eight items
 * whose last one (item 7, as n8n counts) is bad stop the run with that item's problems and nothing sent — not
 * items 1–7 sent and the run stopped at item 7. One case per write that had no check of its own before: the six
 * Partners writes, Document Extraction's Taxpayer → Register and Receipts' Webhook → Subscribe.
 */

/** @type {Awaited<ReturnType<typeof startPartners>>} */
let partners;
/** @type {Awaited<ReturnType<typeof startExtraction>>} */
let extraction;
/** @type {Awaited<ReturnType<typeof startReceipts>>} */
let receipts;
beforeAll(async () => {
	[partners, extraction, receipts] = await Promise.all([
		startPartners(),
		startExtraction(),
		startReceipts(),
	]);
});
afterAll(async () => {
	await Promise.all([partners.stop(), extraction.stop(), receipts.stop()]);
});

/** Seven good items, then `bad`. */
const items = (good, bad) => [...Array.from({ length: 7 }, (_, n) => good(n)), bad];
const uuid = (n) => `00000000-0000-4000-8000-00000000000${n}`;
const vigencies = { vigency: [{ vigency: 'Mensual', folios: 100, price: 199.5 }] };

/**
 * [write, node, parameters, input items, the error's message, a problem also named (the description)].
 * @type {Array<[string, 'partners' | 'extraction' | 'receipts', IDataObject, IDataObject[], string, string | null]>}
 */
const CASES = [
	[
		'Partners: Client → Create',
		'partners',
		{
			resource: 'client',
			operation: 'create',
			name: 'Tienda Azul',
			email: '={{ $json.email }}',
			tax_id: 'EKU9003173C9',
			legal_name: 'ESCUELA KEMPER URGATE',
			postal_code: '={{ $json.cp }}',
			invoice_use_key: 'G03',
			tax_regime: '601',
			plan: byId(uuid(9)),
			vigency: uuid(8),
		},
		items((n) => ({ email: `c${n}@tienda.mx`, cp: '26015' }), { email: 'broken', cp: '123' }),
		'[item 8] client.email: "broken" is not an e-mail address',
		'tax_information.postal_code: "123" is not a postal code',
	],
	[
		'Partners: Client → Update',
		'partners',
		{
			resource: 'client',
			operation: 'update',
			client: byId('={{ $json.id }}'),
			updateFields: { email: '={{ $json.email }}' },
		},
		items((n) => ({ id: uuid(n), email: `c${n}@tienda.mx` }), { id: '../x', email: 'a@b' }),
		'[item 8] client: "../x" is not an ID: it contains "/", which would change which address is called',
		'client.email: "a@b" is not an e-mail address',
	],
	[
		'Partners: Client → Resend Credentials',
		'partners',
		{ resource: 'client', operation: 'resendCredentials', client: byId('={{ $json.id }}') },
		items((n) => ({ id: uuid(n) }), { id: '..' }),
		'[item 8] client: ".." is not an ID (it would change which address is called)',
		null,
	],
	[
		'Partners: Plan → Create',
		'partners',
		{ resource: 'plan', operation: 'create', name: '={{ $json.name }}', vigencies },
		items((n) => ({ name: `Plan ${n}` }), { name: '' }),
		'[item 8] name: is required',
		null,
	],
	[
		'Partners: Plan → Update',
		'partners',
		{
			resource: 'plan',
			operation: 'update',
			plan: byId('={{ $json.id }}'),
			name: '={{ $json.name }}',
			vigencies,
		},
		items((n) => ({ id: uuid(n), name: `Plan ${n}` }), { id: '', name: '' }),
		'[item 8] plan: is required: choose it from the list or enter its ID',
		'name: is required',
	],
	[
		'Partners: Plan → Change Status',
		'partners',
		{ resource: 'plan', operation: 'changeStatus', plan: byId('={{ $json.id }}') },
		items((n) => ({ id: uuid(n) }), { id: 'a b' }),
		'[item 8] plan: "a b" is not an ID: it contains a space, which would change which address is called',
		null,
	],
	[
		'Document Extraction: Taxpayer → Register',
		'extraction',
		{ resource: 'taxpayer', operation: 'register', taxpayer: '={{ $json.taxpayer }}' },
		items((n) => ({ taxpayer: JSON.stringify({ identification: `179001234500${n}` }) }), {
			taxpayer: '[1]',
		}),
		'[item 8] taxpayer: must be an object, got a list',
		'taxpayer: give at least one field',
	],
	[
		'Receipts: Webhook → Subscribe',
		'receipts',
		{
			resource: 'webhook',
			operation: 'subscribe',
			event_name: 'receipt-issued',
			webhook_url: '={{ $json.url }}',
		},
		items((n) => ({ url: `https://example.com/hook/${n}` }), { url: 'ftp://example.com/hook' }),
		'[item 8] webhook_url: "ftp://example.com/hook" is not an http(s) URL',
		null,
	],
];

describe('a bad item 7 stops the run with nothing sent', () => {
	test.each(CASES)('%s', async (_, node, parameters, input, message, also) => {
		const env = { partners, extraction, receipts }[node];
		env.server.clear();
		const result = await env.run(parameters, input);
		expect(result.error?.message).toBe(message);
		expect(result.error?.description).toMatch(/Nothing was sent to the service/);
		if (also) expect(result.error?.description).toContain(also);
		// Nothing reached any service: no write, no token request, no Ecuador API call.
		expect(env.server.received()).toEqual([]);
	});
});
