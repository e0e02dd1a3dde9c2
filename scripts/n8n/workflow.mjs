// Small builders for the workflows that the e2e tests and the benchmarks import into a real n8n.
import { randomUUID } from 'node:crypto';

/** A node of a workflow (typeVersion 1 unless `extra` says otherwise). */
export const node = (name, type, parameters, extra = {}) => ({
	id: randomUUID(),
	name,
	type,
	typeVersion: 1,
	position: [0, 0],
	parameters,
	...extra,
});

/** Connections of nodes in a line: a → b → c. */
export const chain = (...names) =>
	Object.fromEntries(
		names
			.slice(0, -1)
			.map((n, i) => [n, { main: [[{ node: names[i + 1], type: 'main', index: 0 }]] }]),
	);

/** An item as n8n gives a file it read (Read/Write Files, an attachment): `content` in binary field `data`. */
export const fileItem = (content, fileName, json = {}, mimeType = 'application/xml') => ({
	json,
	binary: {
		data: { data: Buffer.from(content).toString('base64'), mimeType, fileName },
	},
});

/** A Code node (version 2) named `name` that outputs `items` as they are (files included, as base64). */
export const itemsNode = (name, items) =>
	node(
		name,
		'n8n-nodes-base.code',
		{ jsCode: `return ${JSON.stringify(items)};` },
		{ typeVersion: 2 },
	);

/**
 * Manual Trigger "Start" → Code `input` (outputs `items`) → `nodes`, in a line: the shape of most e2e workflows.
 * @param {string} id
 * @param {string} name
 * @param {[input: string, items: unknown[]]} input
 * @param {...any} nodes
 */
export function itemsWorkflow(id, name, [input, items], ...nodes) {
	return {
		id,
		name,
		settings: { executionOrder: 'v1' },
		nodes: [node('Start', 'n8n-nodes-base.manualTrigger', {}), itemsNode(input, items), ...nodes],
		connections: chain('Start', input, ...nodes.map((n) => n.name)),
	};
}

/**
 * Manual Trigger "Start" → Code "Rows" (`count` items, each `{ json: <row> }` where `row` is a JavaScript
 * expression of `i`) → `target`, renamed "Target" → the nodes of `after`, in a line.
 */
export function rowsWorkflow(id, count, row, target, ...after) {
	return {
		id,
		name: id,
		settings: { executionOrder: 'v1' },
		nodes: [
			node('Start', 'n8n-nodes-base.manualTrigger', {}),
			node(
				'Rows',
				'n8n-nodes-base.code',
				{ jsCode: `return Array.from({ length: ${count} }, (_, i) => ({ json: ${row} }));` },
				{ typeVersion: 2 },
			),
			{ ...target, name: 'Target' },
			...after,
		],
		connections: chain('Start', 'Rows', 'Target', ...after.map((n) => n.name)),
	};
}

/** A retention body for JSON mode whose secuencial comes from the item (`{{ $json.seq }}`). */
export function retentionFromItem() {
	const body = {
		ambiente: 1,
		tipo_emision: 1,
		secuencial: 0,
		fecha_emision: '2026-11-30',
		periodo_fiscal: '11/2026',
		emisor: {
			ruc: '1792146739001',
			razon_social: 'Distribuidora Andina S.A.',
			establecimiento: { codigo: '001', punto_emision: '002' },
		},
		sujeto: {
			identificacion: '1790016919001',
			tipo_identificacion: '04',
			razon_social: 'Corporación Ejemplo',
		},
		items: [
			{
				codigo: '1',
				codigo_porcentaje: '312',
				base_imponible: 100,
				valor_retenido: 1.75,
				fecha_emision_documento_sustento: '2026-11-15',
				tipo_documento_sustento: '01',
			},
		],
	};
	return `=${JSON.stringify(body).replace('"secuencial":0', '"secuencial":{{ $json.seq }}')}`;
}

/** Partners Plan → Get by the item's `id`, `parallel` requests at a time. */
export const partnersGetById = (parallel) =>
	node(
		'Target',
		'n8n-nodes-latam-fiscal.partners',
		{
			resource: 'plan',
			operation: 'get',
			plan: { __rl: true, mode: 'id', value: '={{ $json.id }}' },
			options: { parallelRequests: parallel },
		},
		{ credentials: { partnersApi: { id: 'x', name: 'x' } } },
	);
