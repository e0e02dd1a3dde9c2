/** @import { ICredentialType, IDataObject, INodeType } from 'n8n-workflow' */
import { withFakeClock } from '../harness/clock';
import { built, Engine, workflowWith } from '../harness/engine';
/** @import { RunResult } from '../harness/engine' */
import { DEV_ACCESS_KEY_SECRET } from '../simulator/main';
import { DEMO_ISSUER, issuerCredentialFields, ReceiptsSimulator } from '../simulator/receipts';
import { SimulatorServer } from '../simulator/server';

/** A Receipts simulator on a random loopback port and an engine with the built Receipts node and credential. */
export async function startReceipts() {
	const receipts = new ReceiptsSimulator();
	const server = await new SimulatorServer([receipts]).start();
	// Receipt files on another origin, as the real service serves them from another host.
	const filesOrigin = await server.addOrigin();
	receipts.filesBaseUrl = `${filesOrigin}/receipts`;
	const engine = new Engine(
		[built('nodes/Receipts/Receipts.node', 'Receipts')],
		[built('credentials/ReceiptsApi.credentials', 'ReceiptsApi')],
	);
	const setCredential = (data = {}) =>
		engine.credentials.set('receiptsApi', {
			baseUrl: server.url('receipts'),
			apiKey: receipts.apiKey,
			certificatePassword: receipts.certificatePassword,
			accessKeySecret: DEV_ACCESS_KEY_SECRET,
			...data,
		});
	setCredential();
	/**
	 * Runs the Receipts node (`typeVersion` 1 unless given: the version every saved workflow before version 2 has).
	 * @returns {Promise<RunResult>}
	 */
	const run = (parameters, input, continueOnFail = false, typeVersion = 1) =>
		engine.run(
			workflowWith({
				nodeType: 'receipts',
				credentialType: 'receiptsApi',
				parameters,
				input,
				continueOnFail,
				name: 'Receipts',
				typeVersion,
			}),
		);
	/**
	 * `run` on the fake clock (test/harness/clock.js): for every run that waits (Wait for Final State, a
	 * Retry-After, a late answer), so its time is the code's, never the machine's. `clock`: its step and limit.
	 * @returns {Promise<RunResult & { elapsedMs: number }>}
	 */
	const runTimed = async (
		parameters,
		input,
		continueOnFail = false,
		typeVersion = 1,
		clock = {},
	) => {
		const { result, elapsedMs } = await withFakeClock(
			() => run(parameters, input, continueOnFail, typeVersion),
			clock,
		);
		return { ...result, elapsedMs };
	};
	/**
	 * The same node run as an AI agent's tool: n8n runs it under the type `<package>.receiptsTool` (see
	 * TestNodeTypes.toolVariant).
	 * @returns {Promise<RunResult>}
	 */
	const runAsTool = (parameters, input, typeVersion = 1) =>
		engine.run(
			workflowWith({
				nodeType: 'receiptsTool',
				credentialType: 'receiptsApi',
				parameters,
				input,
				name: 'Receipts',
				typeVersion,
			}),
		);
	// What the node sent, leaving out its reads of the tax-rate catalogs (once per execution, before issuing):
	// `catalogReads()` lists those.
	const isCatalogRead = (r) =>
		r.method === 'GET' && /^\/catalog\/(sales|withholdings)-tax-rates\//.test(r.path);
	const calls = () => server.received('receipts').filter((r) => !isCatalogRead(r));
	const catalogReads = () => server.received('receipts').filter(isCatalogRead);
	return {
		receipts,
		server,
		engine,
		run,
		runTimed,
		runAsTool,
		calls,
		catalogReads,
		setCredential,
		filesOrigin,
		stop: () => server.stop(),
	};
}

/**
 * @typedef {Awaited<ReturnType<typeof startReceipts>>} ReceiptsEnv
 */

/**
 * The Receipts environment of a test file: started before its first test, stopped after its last, and
 * reset (receipts, recorded requests, faults, credential) before each test. Filled in by `beforeAll`.
 * @returns {ReceiptsEnv}
 */
export function useReceipts() {
	const env = /** @type {ReceiptsEnv} */ ({});
	beforeAll(async () => Object.assign(env, await startReceipts()));
	afterAll(async () => env.stop());
	beforeEach(() => {
		env.receipts.reset();
		env.receipts.filesBaseUrl = `${env.filesOrigin}/receipts`;
		env.server.clear();
		env.setCredential();
	});
	return env;
}

/**
 * The one request a test expects the node to have made (fails the test if there were more or none).
 * @param {ReceiptsEnv} env
 */
export function onlyCall(env) {
	const calls = env.calls();
	expect(calls).toHaveLength(1);
	return calls[0];
}

/** A plain JSON copy (what n8n stores of an item), for comparing with `toEqual`. */
export const plain = (v) => /** @type {IDataObject} */ (JSON.parse(JSON.stringify(v)));

/**
 * The outcome fields the node puts on every receipt it outputs (docs/receipts.md, "Reading the outcome"), for a receipt
 * the tax authority has not decided yet (`id`) or has authorized (no `id`).
 * @returns {IDataObject}
 */
export const outcomeFields = (id) =>
	id
		? {
				rejected: false,
				next_step: expect.stringContaining(`Read it again with Document → Get (ID ${id})`),
				sri_messages: [],
			}
		: { rejected: false, sri_messages: [] };

/** The issuer of every test body: the simulator's demo issuer (test/simulator/receipts.js). */
export const ISSUER = DEMO_ISSUER;

/** @returns {IDataObject} */
export const retentionBody = () => ({
	ambiente: 1,
	tipo_emision: 1,
	secuencial: 123,
	fecha_emision: '2026-03-31',
	periodo_fiscal: '03/2026',
	emisor: ISSUER,
	sujeto: {
		identificacion: '1710034065001',
		tipo_identificacion: '04',
		razon_social: 'Juan Pérez',
		email: 'juan@example.com',
	},
	items: [
		{
			base_imponible: 100,
			codigo: '1',
			codigo_porcentaje: '312',
			porcentaje: 1.75,
			valor_retenido: 1.75,
			fecha_emision_documento_sustento: '2026-03-15',
			numero_documento_sustento: '001-001-000000045',
			tipo_documento_sustento: '01',
		},
	],
	informacion_adicional: { Pedido: 'PO-77' },
});

/** @returns {IDataObject} */
export const atsRetentionBody = () => ({
	ambiente: 1,
	tipo_emision: 1,
	secuencia: 77,
	periodo_fiscal: '03/2026',
	emisor: { ...ISSUER, regimen_rimpe: 'CONTRIBUYENTE RÉGIMEN RIMPE' },
	sujeto: {
		identificacion: '1790016919001',
		tipo_identificacion: '04',
		razon_social: 'Corporación Ejemplo',
	},
	documentos_soporte: [
		{
			codigo_sustento: '01',
			tipo_documento: '01',
			numero: '001-001-000000045',
			fecha_emision: '2026-03-15',
			total_sin_impuestos: 100,
			total: 115,
			impuestos: [
				{ codigo: '2', codigo_porcentaje: '4', base_imponible: 100, tarifa: 15, valor: 15 },
			],
			retenciones: [
				{
					codigo: '1',
					codigo_porcentaje: '312',
					base_imponible: 100,
					tarifa: 1.75,
					valor_retenido: 1.75,
				},
			],
			pagos: [{ tipo_pago: '01', total: 115 }],
		},
	],
	info_adicional: [{ nombre: 'Pedido', descripcion: 'PO-77' }],
});

/** @returns {IDataObject} */
export const waybillBody = () => ({
	ambiente: 1,
	tipo_emision: 1,
	secuencial: '45',
	emisor: ISSUER,
	fecha_inicio_transporte: '2026-03-20',
	fecha_fin_transporte: '2026-03-21',
	direccion_partida: 'Bodega Norte, Quito',
	transportista: {
		identificacion: '1710034065',
		tipo_identificacion: '05',
		razon_social: 'Transportes Rápidos',
		placa: 'PBA-1234',
		email: 'flota@example.com',
	},
	destinatarios: [
		{
			identificacion: '1790016919001',
			tipo_identificacion: '04',
			razon_social: 'Corporación Ejemplo',
			direccion: 'Av. 9 de Octubre, Guayaquil',
			motivo_traslado: 'Venta',
			ruta: 'Quito - Guayaquil',
			items: [{ descripcion: 'Cajas de café', codigo_principal: 'CAF-001', cantidad: 12.5 }],
		},
	],
	info_adicional: [{ nombre: 'Chofer', valor: 'Luis Mora' }],
});

/** @returns {IDataObject} */
export const settlementBody = (reimbursement = false) => ({
	ambiente: 1,
	tipo_emision: 1,
	secuencial: '9',
	moneda: 'USD',
	fecha_emision: '2026-03-31',
	emisor: ISSUER,
	proveedor: {
		identificacion: '1710034065',
		tipo_identificacion: '05',
		razon_social: 'María Quispe',
		direccion: 'Otavalo',
	},
	items: [
		{
			descripcion: 'Tejidos artesanales',
			codigo_principal: 'TEJ-01',
			cantidad: 2,
			precio_unitario: 50,
			descuento: 0,
			precio_total_sin_impuestos: 100,
			impuestos: [
				reimbursement
					? { codigo: '2', codigo_porcentaje: '6', tarifa: 0, base_imponible: 100, valor: 0 }
					: { codigo: '2', codigo_porcentaje: '4', tarifa: 15, base_imponible: 100, valor: 15 },
			],
		},
	],
	totales: {
		total_sin_impuestos: 100,
		descuento: 0,
		importe_total: reimbursement ? 100 : 115,
		impuestos: [
			reimbursement
				? { codigo: '2', codigo_porcentaje: '6', base_imponible: 100, valor: 0 }
				: { codigo: '2', codigo_porcentaje: '4', base_imponible: 100, valor: 15 },
		],
	},
	pagos: [
		{ forma_pago: '01', total: reimbursement ? 100 : 115, unidad_tiempo: 'dias', plazo: '30' },
	],
	...(reimbursement
		? {
				reembolso: {
					subtotal: 100,
					total_impuestos: 0,
					total: 100,
					documentos: [
						{
							tipo_identificacion_proveedor: '04',
							identificacion_proveedor: '1790016919001',
							pais_origen_proveedor: '593',
							tipo_proveedor: '01',
							tipo: '01',
							codigo_establecimiento: '001',
							codigo_punto_emision: '001',
							secuencia: 321,
							fecha_emision: '2026-03-10',
							numero_autorizacion: '2110201101179214673900110020010000000011234567813',
							impuestos: [
								{ codigo: '2', codigo_porcentaje: '0', tarifa: 0, base_imponible: 100, valor: 0 },
							],
						},
					],
				},
			}
		: {}),
});

export const BUYER = {
	identificacion: '1710034065',
	tipo_identificacion: '05',
	razon_social: 'Juan Pérez',
	email: 'juan@example.com',
	direccion: 'Quito',
};

/**
 * An invoice whose amounts add up: 3 × 12.50 − 1.50 at VAT 15 %, 20.00 at VAT 0 %, paid in two parts.
 * @returns {IDataObject}
 */
export const invoiceBody = () => ({
	ambiente: 1,
	tipo_emision: 1,
	secuencial: 148,
	fecha_emision: '2026-03-31',
	moneda: 'USD',
	emisor: ISSUER,
	comprador: BUYER,
	items: [
		{
			descripcion: 'Café de altura 1 kg',
			codigo_principal: 'CAF-001',
			cantidad: 3,
			precio_unitario: 12.5,
			descuento: 1.5,
			precio_total_sin_impuestos: 36,
			impuestos: [
				{ codigo: '2', codigo_porcentaje: '4', tarifa: 15, base_imponible: 36, valor: 5.4 },
			],
		},
		{
			descripcion: 'Libro de recetas',
			codigo_principal: 'LIB-01',
			cantidad: 1,
			precio_unitario: 20,
			descuento: 0,
			precio_total_sin_impuestos: 20,
			impuestos: [{ codigo: '2', codigo_porcentaje: '0', tarifa: 0, base_imponible: 20, valor: 0 }],
		},
	],
	totales: {
		total_sin_impuestos: 56,
		descuento: 1.5,
		propina: 0,
		importe_total: 61.4,
		impuestos: [
			{ codigo: '2', codigo_porcentaje: '4', base_imponible: 36, valor: 5.4 },
			{ codigo: '2', codigo_porcentaje: '0', base_imponible: 20, valor: 0 },
		],
	},
	pagos: [
		{ medio: 'transferencia', total: 40 },
		{ medio: 'efectivo', total: 21.4 },
	],
	info_adicional: [{ nombre: 'Pedido', valor: 'PO-88' }],
});

/**
 * A credit note for part of that invoice.
 * @returns {IDataObject}
 */
export const creditNoteBody = () => ({
	ambiente: 1,
	tipo_emision: 1,
	secuencial: 12,
	fecha_emision: '2026-04-02',
	moneda: 'USD',
	emisor: ISSUER,
	comprador: BUYER,
	tipo_documento_modificado: '01',
	numero_documento_modificado: '001-002-000000148',
	fecha_emision_documento_modificado: '2026-03-31',
	motivo: 'Devolución de mercadería',
	items: [
		{
			descripcion: 'Café de altura 1 kg',
			codigo_principal: 'CAF-001',
			cantidad: 1,
			precio_unitario: 12.5,
			descuento: 0.5,
			precio_total_sin_impuestos: 12,
			impuestos: [
				{ codigo: '2', codigo_porcentaje: '4', tarifa: 15, base_imponible: 12, valor: 1.8 },
			],
		},
	],
	totales: {
		total_sin_impuestos: 12,
		importe_total: 13.8,
		impuestos: [{ codigo: '2', codigo_porcentaje: '4', base_imponible: 12, valor: 1.8 }],
	},
	informacion_adicional: { Motivo: 'Producto dañado' },
});

/**
 * A debit note charging interest on that invoice.
 * @returns {IDataObject}
 */
export const debitNoteBody = () => ({
	ambiente: 1,
	tipo_emision: 1,
	secuencial: '7',
	fecha_emision: '2026-04-30',
	emisor: ISSUER,
	comprador: BUYER,
	tipo_documento_modificado: '01',
	numero_documento_modificado: '001-002-000000148',
	fecha_emision_documento_modificado: '2026-03-31',
	items: [
		{ motivo: 'Interés por mora', valor: 8.5 },
		{ motivo: 'Gastos de cobranza', valor: 1.5 },
	],
	totales: {
		total_sin_impuestos: 10,
		importe_total: 11.5,
		impuestos: [
			{ codigo: '2', codigo_porcentaje: '4', tarifa: 15, base_imponible: 10, valor: 1.5 },
		],
	},
});

/**
 * The bookkeeper's invoice on the Fields form of node version 2: 3 × "Servicio contable" at 40.00 with IVA 15 %,
 * 1 × "Libro" at 12.50 with IVA 0 %, a buyer with a cédula, paid in cash — only quantities, prices, tax codes, the
 * buyer and the means of payment (the issuer comes from the credential: `savedIssuer`).
 * @returns {IDataObject}
 */
export const bookkeeperForm = (secuencial = '150') => ({
	secuencial,
	comprador: {
		details: { identificacion: BUYER.identificacion, razon_social: BUYER.razon_social },
	},
	lineItems: {
		item: [
			{
				descripcion: 'Servicio contable',
				cantidad: 3,
				precio_unitario: 40,
				tax_codigo: '2',
				tax_codigo_porcentaje: '4',
			},
			{
				descripcion: 'Libro',
				cantidad: 1,
				precio_unitario: 12.5,
				tax_codigo: '2',
				tax_codigo_porcentaje: '0',
			},
		],
	},
	pagos: { payment: [{ medio: 'efectivo' }] },
});

/** What the node computes for `bookkeeperForm`: the items, totals and payment it sends. */
export const bookkeeperAmounts = () => ({
	items: [
		{
			descripcion: 'Servicio contable',
			cantidad: 3,
			precio_unitario: 40,
			descuento: 0,
			precio_total_sin_impuestos: 120,
			impuestos: [
				{ codigo: '2', codigo_porcentaje: '4', tarifa: 15, base_imponible: 120, valor: 18 },
			],
		},
		{
			descripcion: 'Libro',
			cantidad: 1,
			precio_unitario: 12.5,
			descuento: 0,
			precio_total_sin_impuestos: 12.5,
			impuestos: [
				{ codigo: '2', codigo_porcentaje: '0', tarifa: 0, base_imponible: 12.5, valor: 0 },
			],
		},
	],
	totales: {
		total_sin_impuestos: 132.5,
		descuento: 0,
		propina: 0,
		importe_total: 150.5,
		impuestos: [
			{ codigo: '2', codigo_porcentaje: '4', base_imponible: 120, valor: 18 },
			{ codigo: '2', codigo_porcentaje: '0', base_imponible: 12.5, valor: 0 },
		],
	},
	pagos: [{ medio: 'efectivo', total: 150.5 }],
});

/** The issuer saved once in the Receipts credential (its issuer fields). */
export const savedIssuer = () => issuerCredentialFields(DEMO_ISSUER);

/**
 * Issue in JSON mode: the parameters of an Issue operation for `body`.
 * @returns {IDataObject}
 */
export const jsonIssue = (resource, body, extra = {}, operation = 'issue') => ({
	resource,
	operation,
	inputMode: 'json',
	jsonBody: JSON.stringify(body),
	...extra,
});

/** A well-formed XML of the given root, with an optional access key. */
export const xmlOf = (root, clave) =>
	`<?xml version="1.0" encoding="UTF-8"?><${root} id="comprobante" version="2.0.0"><infoTributaria><ambiente>1</ambiente><tipoEmision>1</tipoEmision><razonSocial>Distribuidora Andina S.A.</razonSocial><ruc>1792146739001</ruc>${clave ? `<claveAcceso>${clave}</claveAcceso>` : ''}<secuencial>000000123</secuencial></infoTributaria><infoCompRetencion><fechaEmision>31/03/2026</fechaEmision></infoCompRetencion></${root}>`;

export const KNOWN_ACCESS_KEY = '2110201101179214673900110020010000000011234567813';
