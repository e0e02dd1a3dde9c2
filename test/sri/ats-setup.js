/** @import { IDataObject, INodeExecutionData, IWorkflowBase } from 'n8n-workflow' */
/** @import { RunResult } from '../harness/engine' */
import { INFORMANT } from '../fixtures/sri/month';
import { xsdErrors } from './xsd';

/** The month the tests declare (the fixture month's receipts are made for it). */
export const MONTH = Object.freeze({ year: 2026, month: 10 });

/** Monthly Annex → Build of the fixture month's informant and MONTH, a Tax Support chosen; `overrides` win. */
export const atsParameters = (overrides = {}) => ({
	resource: 'monthlyAnnex',
	operation: 'build',
	informantRuc: INFORMANT.ruc,
	informantName: INFORMANT.name,
	filing: 'monthly',
	period: 'chosen',
	yearMonth: `${MONTH.year}-${String(MONTH.month).padStart(2, '0')}`,
	taxSupport: '01',
	electronicSales: 'include',
	options: {},
	...overrides,
});

/** An item carrying `file` as the binary field `field`, as Read/Write Files or an e-mail attachment gives it. */
export const fileItem = (file, json = {}, field = 'data', fileName = 'comprobante.xml') => ({
	json,
	binary: {
		[field]: {
			data: Buffer.from(file).toString('base64'),
			mimeType: 'application/xml',
			fileName,
		},
	},
});

/**
 * A workflow Manual Trigger → Code (emits `items`, files included) → `steps` one after the other, each a node of
 * this package (`{ name, type?, parameters, continueOnFail? }`, type `sri` unless given).
 * @param {Array<{ json: IDataObject, binary?: IDataObject }>} items
 * @param {Array<{ name: string, type?: string, parameters: IDataObject, continueOnFail?: boolean }>} steps
 * @returns {IWorkflowBase}
 */
export function chain(items, steps) {
	const names = ['Start', 'Input', ...steps.map((s) => s.name)];
	return /** @type {IWorkflowBase} */ (
		/** @type {unknown} */ ({
			id: 'wf',
			name: 'test ats',
			active: false,
			settings: { executionOrder: 'v1' },
			nodes: [
				{
					id: 't',
					name: 'Start',
					type: 'n8n-nodes-base.manualTrigger',
					typeVersion: 1,
					position: [0, 0],
					parameters: {},
				},
				{
					id: 'c',
					name: 'Input',
					type: 'n8n-nodes-base.code',
					typeVersion: 2,
					position: [200, 0],
					parameters: { jsCode: `return ${JSON.stringify(items)};` },
				},
				...steps.map((s, k) => ({
					id: `s${k}`,
					name: s.name,
					type: `n8n-nodes-latam-fiscal.${s.type ?? 'sri'}`,
					typeVersion: 1,
					position: [400 + 200 * k, 0],
					parameters: s.parameters,
					...(s.continueOnFail ? { onError: 'continueRegularOutput' } : {}),
				})),
			],
			connections: Object.fromEntries(
				names
					.slice(0, -1)
					.map((n, k) => [n, { main: [[{ node: names[k + 1], type: 'main', index: 0 }]] }]),
			),
		})
	);
}

/**
 * The ATS a run of node `node` built: its one output item, its file checked against the SRI's schema with
 * `xmllint` (test/sri/xsd.js) — every ATS the tests build goes through here — and its JSON.
 * @param {RunResult} result
 * @returns {{ json: IDataObject, xml: string, fileName: string | undefined, item: INodeExecutionData }}
 */
export function annexOf(result, node = 'ATS') {
	if (result.error) throw result.error;
	const items = result.output(node);
	expect(items).toHaveLength(1);
	const file = items[0].binary?.data;
	expect(file?.mimeType).toBe('application/xml');
	const xml = Buffer.from(String(file?.data), 'base64').toString('utf8');
	expect(xsdErrors(xml)).toEqual([]);
	return { json: items[0].json, xml, fileName: file?.fileName, item: items[0] };
}

/** The text of every `<name>` element of `xml`, in order. */
export const elements = (xml, name) =>
	[...xml.matchAll(new RegExp(`<${name}>([^<]*)</${name}>`, 'g'))].map((m) => m[1]);

/** The `<detalleCompras>` / `<detalleVentas>` blocks of `xml`, as text. */
export const blocks = (xml, name) =>
	[...xml.matchAll(new RegExp(`<${name}>[\\s\\S]*?</${name}>`, 'g'))].map((m) => m[0]);

/** The text of `<name>` inside `block`, or undefined. */
export const field = (block, name) => new RegExp(`<${name}>([^<]*)</${name}>`).exec(block)?.[1];

/** Cents of an amount written with two decimals. */
export const centsOf = (text) => Math.round(Number(text) * 100);
