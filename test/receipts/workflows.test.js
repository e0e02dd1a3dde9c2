/** @import { IDataObject, IExecuteFunctions, INodeExecutionData, INodeType, INodeTypeDescription } from 'n8n-workflow' */
import { fixture } from '../harness/engine';
import { startReceipts } from './setup';
/** @import { ReceiptsEnv } from './setup' */

/**
 * The importable fixtures in examples/, run through the engine against the simulator. n8n's own If
 * and No Operation nodes are not part of the harness; minimal stand-ins (string "equals" conditions only)
 * are registered here so the branch runs as a user would see it.
 */

class IfStandIn {
	description = /** @type {INodeTypeDescription} */ (/** @type {unknown} */ ({
		displayName: 'If',
		name: 'if',
		group: ['transform'],
		version: [1, 2],
		description: '',
		defaults: {},
		inputs: ['main'],
		outputs: ['main', 'main'],
		properties: [{ displayName: 'Conditions', name: 'conditions', type: 'filter', default: {} }],
	}));

	/**
	 * @this {IExecuteFunctions}
	 * @returns {Promise<INodeExecutionData[][]>}
	 */
	async execute() {
		/** @type {INodeExecutionData[]} */
		const yes = [];
		/** @type {INodeExecutionData[]} */
		const no = [];
		this.getInputData().forEach((item, i) => {
			const filter = /** @type {{ conditions: Array<{ leftValue: unknown; rightValue: unknown; operator: { operation: string } }> }} */ (this.getNodeParameter('conditions', i));
			const pass = filter.conditions.every((c) => c.operator.operation === 'equals' && c.leftValue === c.rightValue);
			(pass ? yes : no).push({ ...item, pairedItem: { item: i } });
		});
		return [yes, no];
	}
}

class NoOpStandIn {
	description = /** @type {INodeTypeDescription} */ (/** @type {unknown} */ ({ displayName: 'No Operation', name: 'noOp', group: ['transform'], version: 1, description: '', defaults: {}, inputs: ['main'], outputs: ['main'], properties: [] }));

	/**
	 * @this {IExecuteFunctions}
	 * @returns {Promise<INodeExecutionData[][]>}
	 */
	async execute() {
		return [this.getInputData()];
	}
}

/** @type {ReceiptsEnv} */
let env;
beforeAll(async () => {
	env = await startReceipts();
	const types = /** @type {{ types: Map<string, INodeType> }} */ (/** @type {unknown} */ (env.engine.nodeTypes)).types;
	types.set('n8n-nodes-base.if', new IfStandIn());
	types.set('n8n-nodes-base.noOp', new NoOpStandIn());
});
afterAll(async () => env.stop());
beforeEach(() => {
	env.receipts.reset();
	env.server.clear();
});

const fast = (wf, node) => {
	const params = /** @type {IDataObject} */ (/** @type {any} */ (wf.nodes.find((n) => n.name === node)).parameters);
	params.options = { .../** @type {IDataObject} */ (params.options), pollInterval: 0.01 };
	return wf;
};

test('receipts-retention-wait-branch.json: issues each row from JSON, waits, and branches on AUTORIZADO', async () => {
	env.receipts.planNext('ENVIADO', 'AUTORIZADO');
	env.receipts.planNext('RECIBIDO', { estado: 'NO AUTORIZADO', mensajes: [{ identificador: '56', mensaje: 'ESTABLECIMIENTO CERRADO', tipo: 'ERROR' }] });
	const result = await env.engine.run(fast(fixture('receipts-retention-wait-branch.json'), 'Issue retention'));
	expect(result.error).toBeUndefined();
	const issued = env.calls().filter((c) => c.method === 'POST');
	expect(issued.map((c) => /** @type {IDataObject} */ (c.body).secuencial)).toEqual([101, 102]);
	expect(/** @type {IDataObject} */ (issued[1].body).items).toEqual([
		expect.objectContaining({ base_imponible: 80.5, valor_retenido: 1.41, numero_documento_sustento: '002-001-000000310' }),
	]);
	expect(result.output('Authorized').map((i) => i.json.estado)).toEqual(['AUTORIZADO']);
	expect(result.output('Not authorized: reasons').map((i) => i.json)).toEqual([
		{ id: expect.any(String), estado: 'NO AUTORIZADO', timedOut: false, reasons: '56: ESTABLECIMIENTO CERRADO' },
	]);
});

test('receipts-authorize-pending.json: authorizes each receipt and waits for its final state', async () => {
	const ids = [env.receipts.seed('retention', { ambiente: 1 }, 'CREADO').id, env.receipts.seed('waybill', { ambiente: 1 }, 'CREADO').id];
	const wf = fast(fixture('receipts-authorize-pending.json'), 'Authorize and wait');
	/** @type {any} */ (wf.nodes.find((n) => n.name === 'Receipt IDs')).parameters = { jsCode: `return ${JSON.stringify(ids.map((id) => ({ json: { id } })))};` };
	env.receipts.planNext('AUTORIZADO');
	env.receipts.planNext('DEVUELTO');
	const result = await env.engine.run(wf);
	expect(result.error).toBeUndefined();
	expect(result.output('Authorize and wait').map((i) => [i.json.id, i.json.estado])).toEqual([
		[ids[0], 'AUTORIZADO'],
		[ids[1], 'DEVUELTO'],
	]);
});

test('receipts-invoice-email-ride.json: invoices each row, waits, e-mails the RIDE of the authorized one and downloads it', async () => {
	env.receipts.planNext('RECIBIDO', 'AUTORIZADO');
	env.receipts.planNext({ estado: 'DEVUELTO', mensajes: [{ identificador: '45', mensaje: 'SECUENCIAL REGISTRADO', tipo: 'ERROR' }] });
	const result = await env.engine.run(fast(fixture('receipts-invoice-email-ride.json'), 'Issue invoice'));
	expect(result.error).toBeUndefined();
	const issued = env.calls().filter((c) => c.method === 'POST' && c.path === '/invoices/issue');
	expect(issued.map((c) => /** @type {IDataObject} */ (c.body).secuencial)).toEqual([2001, 2002]);
	expect(/** @type {IDataObject} */ (issued[1].body).totales).toMatchObject({ total_sin_impuestos: 19.05, importe_total: 21.91 });
	const [authorized] = [...env.receipts.receipts.values()].filter((r) => r.estado === 'AUTORIZADO');
	expect(env.receipts.emails).toEqual([{ id: authorized.id, destinatarios: ['compras@andes.ec', 'contabilidad@andes.ec'] }]);
	const [pdf] = result.output('Download the RIDE');
	expect(pdf.json).toMatchObject({ id: authorized.id, estado: 'AUTORIZADO', fileName: `${authorized.clave_acceso}.pdf`, mimeType: 'application/pdf' });
	expect(pdf.binary?.data.mimeType).toBe('application/pdf');
	expect(result.output('Not authorized').map((i) => i.json.estado)).toEqual(['DEVUELTO']);
});
