/** @import { IDataObject, INodeExecutionData, IWorkflowBase } from 'n8n-workflow' */
/** @import { RunResult } from '../harness/engine' */
import { INFORMANT } from '../fixtures/sri/month';
import { PACKAGE, workflowWith } from '../harness/engine';
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

/** The step Read XML of a chain (version 1), its JSON without the file: the ATS then reads the JSON. */
export const readXmlStep = () => ({
	name: 'Read XML',
	parameters: {
		resource: 'receipt',
		operation: 'readXml',
		xmlSource: 'binary',
		binaryPropertyName: 'data',
		options: { attachXml: false },
	},
});

/**
 * The step Check Authorization of a chain (version 2, nothing set but `address`, the SRI simulator's): each item's
 * key asked about, its file compared and passed on; `parameters` over its own.
 */
export const checkStep = (address, parameters = {}) => ({
	name: 'Check',
	typeVersion: 2,
	parameters: {
		resource: 'receipt',
		operation: 'checkAuthorization',
		options: { serviceAddress: address },
		...parameters,
	},
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
 * this package (`{ name, type?, parameters, continueOnFail?, typeVersion? }`, type `sri` and version 1 unless
 * given): the harness's `workflowWith` for the first step, the others appended.
 * @param {Array<{ json: IDataObject, binary?: IDataObject }>} items
 * @param {Array<{ name: string, type?: string, parameters: IDataObject, continueOnFail?: boolean, typeVersion?: number }>} steps
 * @returns {IWorkflowBase}
 */
export function chain(items, [first, ...rest]) {
	const workflow = workflowWith({ ...first, nodeType: first.type ?? 'sri' });
	const input = /** @type {{ parameters: IDataObject }} */ (
		workflow.nodes.find((n) => n.name === 'Input')
	);
	input.parameters = { jsCode: `return ${JSON.stringify(items)};` };
	let previous = first.name;
	for (const [k, step] of rest.entries()) {
		workflow.nodes.push({
			id: `step${k}`,
			name: step.name,
			type: `${PACKAGE}.${step.type ?? 'sri'}`,
			typeVersion: step.typeVersion ?? 1,
			position: [600 + 200 * k, 0],
			parameters: /** @type {import("n8n-workflow").INodeParameters} */ (step.parameters),
			...(step.continueOnFail ? { onError: /** @type {const} */ ('continueRegularOutput') } : {}),
		});
		workflow.connections[previous] = { main: [[{ node: step.name, type: 'main', index: 0 }]] };
		previous = step.name;
	}
	return workflow;
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
