/** @import { IDataObject } from 'n8n-workflow' */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { bookkeeperForm, savedIssuer, useReceipts } from './setup';

/**
 * docs/receipts.md, "For bookkeepers", works when followed: the batch's JSON template, taken from the page as
 * written and pasted in Expression mode, previews and issues the month; and every message the page quotes as
 * what "the node says" is one the node prints, for the input the page describes. The page marks each quoted
 * message as "the node says `…`" (a code span right after those words).
 */

const page = readFileSync(join(__dirname, '..', '..', 'docs', 'receipts.md'), 'utf8');
const section = (() => {
	const start = page.indexOf('## For bookkeepers');
	const end = page.indexOf('\n## ', start + 1);
	return page.slice(start, end);
})();
/** The messages the section quotes, newlines of the page's wrapping undone. */
const quoted = [...section.replace(/\s*\n\s*/g, ' ').matchAll(/the node says `([^`]+)`/g)].map(
	(m) => m[1],
);
/** The batch's JSON template, as the page shows it. */
const template = (() => {
	const match = /### A month's batch[\s\S]*?```json\n([\s\S]*?)```/.exec(section);
	if (!match) throw new Error('the batch section has no ```json template');
	return match[1].replace(/^ {3}/gm, '');
})();

/** The sheet's rows, as Extract From CSV gives them: every cell a string. */
const rows = [
	{
		numero: '151',
		cedula: '1710034065',
		cliente: 'Juan Pérez',
		producto: 'Servicio contable',
		cantidad: '3',
		precio: '40',
		iva: '4',
	},
	{
		numero: '152',
		cedula: '1710034065',
		cliente: 'Juan Pérez',
		producto: 'Libro',
		cantidad: '1',
		precio: '12.5',
		iva: '0',
	},
	{
		numero: '153',
		cedula: '1710034065',
		cliente: 'Juan Pérez',
		producto: 'Libro',
		cantidad: 'tres',
		precio: '12.5',
		iva: '0',
	},
];

const env = useReceipts();

/** Everything the node printed in the runs below: error messages and descriptions, problems, warnings. */
const printed = /** @type {string[]} */ ([]);
const keep = (/** @type {import('../harness/engine').RunResult} */ result) => {
	if (result.error) printed.push(String(result.error.message), String(result.error.description));
	for (const item of result.error ? [] : result.output('Receipts')) {
		const json = /** @type {IDataObject} */ (item.json);
		printed.push(.../** @type {string[]} */ (json.problems ?? []));
		printed.push(.../** @type {string[]} */ (json.warnings ?? []));
	}
	return result;
};

beforeEach(() => env.setCredential(savedIssuer()));

describe('For bookkeepers, followed step by step', () => {
	test('the page quotes the node’s messages in the recognisable form', () => {
		expect(quoted.length).toBeGreaterThanOrEqual(4);
	});

	test('Your first invoice: Preview tells which ID type it chose', async () => {
		const result = keep(
			await env.run(
				{ resource: 'invoice', operation: 'preview', ...bookkeeperForm() },
				undefined,
				false,
				2,
			),
		);
		expect(result.output('Receipts')[0].json.valid).toBe(true);
	});

	test('Your first invoice: a Tax Rate that is not its code’s stops the invoice before anything is sent', async () => {
		const form = bookkeeperForm();
		const items = /** @type {{ item: IDataObject[] }} */ (form.lineItems).item;
		items[0] = { ...items[0], tax_tarifa: 12 };
		const result = keep(
			await env.run({ resource: 'invoice', operation: 'issue', ...form }, undefined, false, 2),
		);
		expect(result.error).toBeDefined();
		expect(env.calls().filter((c) => c.method === 'POST')).toEqual([]);
	});

	test('the batch template, pasted in Expression mode, previews each row: the bad one with its problem', async () => {
		const result = keep(
			await env.run(
				{ resource: 'invoice', operation: 'preview', inputMode: 'json', jsonBody: `=${template}` },
				rows,
				false,
				2,
			),
		);
		expect(result.error).toBeUndefined();
		const out = result.output('Receipts').map((o) => o.json);
		expect(out.map((o) => o.valid)).toEqual([true, true, false]);
		expect(out.slice(0, 2).map((o) => /** @type {any} */ (o.body).totales.importe_total)).toEqual([
			138, 12.5,
		]);
		expect(env.calls().filter((c) => c.method === 'POST')).toEqual([]);
	});

	test('the batch template left in Fixed mode says so on every row', async () => {
		const result = keep(
			await env.run(
				{ resource: 'invoice', operation: 'preview', inputMode: 'json', jsonBody: template },
				rows.slice(0, 1),
				false,
				2,
			),
		);
		expect(result.output('Receipts')[0].json.valid).toBe(false);
	});

	test('then Issue with every field as it is: the good rows are issued and authorized', async () => {
		const result = keep(
			await env.runTimed(
				{ resource: 'invoice', operation: 'issue', inputMode: 'json', jsonBody: `=${template}` },
				rows.slice(0, 2),
				false,
				2,
			),
		);
		expect(result.error).toBeUndefined();
		expect(result.output('Receipts').map((o) => o.json.estado)).toEqual([
			'AUTORIZADO',
			'AUTORIZADO',
		]);
	});

	test('every message the page quotes is one the node printed above', () => {
		expect(printed.length).toBeGreaterThan(0);
		const neverPrinted = quoted.filter(
			(message) => !printed.some((text) => text.includes(message)),
		);
		expect(neverPrinted).toEqual([]);
	});
});
