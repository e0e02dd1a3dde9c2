/** @import { IExecuteFunctions } from 'n8n-workflow' */
import { builtModule, Engine, standIn, workflowWith } from '../harness/engine';

/**
 * itemParameter (shared/parameters.ts) reads `{{ $json.<field> }}` over a text field straight from the item, and
 * gives whatever n8n's own evaluation gives: checked here through n8n-core's engine, beside getNodeParameter, for
 * each item, and counting how often n8n's evaluation was asked.
 */
const { itemParameter, parameterReader } = builtModule('nodes/shared/parameters.js');

/** A node that outputs, per item, itemParameter's value, n8n's value and how many evaluations itemParameter asked. */
class Probe {
	description = standIn({
		displayName: 'Probe',
		name: 'probe',
		properties: [{ displayName: 'Field', name: 'field', type: 'string', default: '' }],
	});

	/** @this {IExecuteFunctions} */
	async execute() {
		return [
			this.getInputData().map((_, i) => {
				let evaluated = 0;
				const counted = Object.create(this, {
					getNodeParameter: {
						value: (/** @type {any[]} */ ...args) => {
							if (!args[3]?.rawExpressions) evaluated++;
							return /** @type {any} */ (this.getNodeParameter)(...args);
						},
					},
				});
				return {
					json: {
						ours: itemParameter.call(counted, 'field', i, ''),
						n8n: this.getNodeParameter('field', i, ''),
						evaluated,
					},
				};
			}),
		];
	}
}

/**
 * A node that reads its parameter with parameterReader, once for the run as a declaration does (a collection's
 * field by its dotted path), and outputs per item the reader's value, n8n's, and the evaluations asked in all.
 */
class ReaderProbe {
	description = standIn({
		displayName: 'Reader Probe',
		name: 'readerProbe',
		properties: [
			{
				displayName: 'Options',
				name: 'options',
				type: 'collection',
				default: {},
				options: [{ displayName: 'Field', name: 'field', type: 'string', default: '' }],
			},
		],
	});

	/** @this {IExecuteFunctions} */
	async execute() {
		let evaluated = 0;
		const counted = Object.create(this, {
			getNodeParameter: {
				value: (/** @type {any[]} */ ...args) => {
					if (!args[3]?.rawExpressions) evaluated++;
					return /** @type {any} */ (this.getNodeParameter)(...args);
				},
			},
		});
		const read = parameterReader.call(counted, 'options.field', '');
		const rows = this.getInputData().map((_, i) => ({
			ours: read(i),
			n8n: this.getNodeParameter('options.field', i, ''),
		}));
		return [rows.map((r) => ({ json: { ...r, evaluated } }))];
	}
}

const engine = new Engine([new Probe(), new ReaderProbe()], []);
const input = [
	{ uuid: 'AAA-1', total: 1160, padded: '  x  ', nested: { a: 'in' } },
	{ uuid: 'BBB-2', total: 0, padded: '', nested: { a: 'in' } },
];

/** @returns {Promise<Array<{ ours: unknown, n8n: unknown, evaluated: number }>>} */
async function probe(field) {
	const { output, error } = await engine.run(
		workflowWith({ nodeType: 'probe', parameters: { field }, input }),
	);
	expect(error).toBeUndefined();
	return output('Node').map((item) => /** @type {any} */ (item.json));
}

test.each(['={{ $json.uuid }}', '={{$json.uuid}}', '={{  $json.uuid\t}}'])(
	'%j over a text field is each item’s text, as n8n gives it, without asking n8n',
	async (field) => {
		const rows = await probe(field);
		expect(rows.map((r) => r.ours)).toEqual(['AAA-1', 'BBB-2']);
		for (const r of rows) {
			expect(r.ours).toEqual(r.n8n);
			expect(r.evaluated).toBe(0);
		}
	},
);

test('a text with spaces comes out as n8n gives it (nothing trimmed)', async () => {
	const rows = await probe('={{ $json.padded }}');
	expect(rows).toEqual([
		{ ours: '  x  ', n8n: '  x  ', evaluated: 0 },
		{ ours: '', n8n: '', evaluated: 0 },
	]);
});

test.each([
	['a number', '={{ $json.total }}'],
	['a missing field', '={{ $json.absent }}'],
	['a field below another', '={{ $json.nested.a }}'],
	['brackets', '={{ $json["uuid"] }}'],
	['text around the expression', '=CFDI {{ $json.uuid }}'],
	['another expression', '={{ $json.uuid.toLowerCase() }}'],
	['a fixed value', 'AAA-1'],
])('%s goes to n8n and comes out as n8n gives it', async (_, field) => {
	const rows = await probe(field);
	for (const r of rows) {
		expect(r.ours).toEqual(r.n8n);
		expect(r.evaluated).toBe(1);
	}
});

describe('parameterReader: one reader for every item of a run (the declarations)', () => {
	/** @returns {Promise<Array<{ ours: unknown, n8n: unknown, evaluated: number }>>} */
	async function readAll(field) {
		const { output, error } = await engine.run(
			workflowWith({ nodeType: 'readerProbe', parameters: { options: { field } }, input }),
		);
		expect(error).toBeUndefined();
		return output('Node').map((item) => /** @type {any} */ (item.json));
	}

	test('a fixed value is read once for the whole run', async () => {
		const rows = await readAll('85');
		expect(rows.map((r) => r.ours)).toEqual(['85', '85']);
		expect(rows[0].evaluated).toBe(1);
	});

	test('{{ $json.<field> }} over text is read from each item, without asking n8n', async () => {
		const rows = await readAll('={{ $json.uuid }}');
		expect(rows.map((r) => [r.ours, r.n8n])).toEqual([
			['AAA-1', 'AAA-1'],
			['BBB-2', 'BBB-2'],
		]);
		expect(rows[0].evaluated).toBe(0);
	});

	test.each([
		['a number', '={{ $json.total }}'],
		['another expression', '={{ $json.uuid.toLowerCase() }}'],
	])('%s is asked of n8n for each item, as n8n gives it', async (_, field) => {
		const rows = await readAll(field);
		for (const r of rows) expect(r.ours).toEqual(r.n8n);
		expect(rows[0].evaluated).toBe(2);
	});
});
