import { randomBytes } from 'node:crypto';
/** @import { RouteTable, ServiceSimulator, SimRequest, SimResponse } from './server' */

/**
 * Stateful simulator of the electronic receipts service (receipts service spec, plus what the real service
 * documents publicly where the spec is silent).
 *
 * - Stores issued receipts; generates a valid 49-digit `clave_acceso` (SRI modulo 11) when omitted.
 * - Moves a receipt through CREADO → ENVIADO → RECIBIDO → AUTORIZADO | NO AUTORIZADO | DEVUELTO | ERROR
 *   on a schedule the test controls: each receipt gets a plan (a list of steps) when it is issued,
 *   authorized or reissued — the next plan queued with `planNext()`, else `defaultPlan`. One step is taken
 *   on every read of that receipt (`advanceOnRead`, default on) or with `advance(id)`; `setState()` jumps.
 *   With `decideAfterMs`, the plan runs on the clock instead: its steps are spread evenly until that many
 *   milliseconds after the issue, whoever reads.
 * - The real service also answers `PRE-AUTORIZADO` (not final) and messages of `tipo` `ADVERTENCIA`
 *   (warnings): plans may use them (`{ estado: 'PRE-AUTORIZADO' }`, `mensajes`).
 * - `GET /edocs/{id}` may not know a new receipt yet (`edocsVisibleAfterMs`: 404 until then).
 * - What the SRI keeps unique (SRI, Ficha técnica comprobantes electrónicos esquema offline v2.32, sección 11:
 *   "validación unicidad" — clave acceso única, secuencial único): a receipt sent under an access key another
 *   receipt holds at the SRI is returned (DEVUELTO, `envio_sri.mensajes` 43 CLAVE ACCESO REGISTRADA); one under
 *   another key but a number another receipt holds — same type, issuer RUC, environment, establishment, emission
 *   point and sequential — is returned with 45 ERROR SECUENCIAL REGISTRADO. The messages are written as the SRI's
 *   reception service answers them (open-source SRI clients' recorded answers: no informacion_adicional).
 *   A receipt holds its key and number once the service has submitted it (signed) — also while the SRI decides,
 *   since the service sends receipts in the order they were issued — unless it was rejected: the same section's
 *   note 1 lets a rejected receipt (returned or not authorized) be sent again, corrected, under the same key and
 *   sequential, and the SRI does not store returned ones. A receipt never signed holds nothing either. The check
 *   is made on every submission: issue, reissue and authorize (a returned duplicate reissued as it is is returned
 *   again).
 * - Enforces X-Key on every route (401 otherwise) and X-Password on the signing routes (not on /webhooks): missing → 400;
 *   wrong → the receipt is stored but cannot be signed (estado CREADO with a `firma` failure, status 400),
 *   as the spec says. With `signing = 'sync'` (default) the issue answer already carries `firma`; with
 *   'async' the answer is a plain CREADO and `firma` shows on later reads (`signingDelayMs` after).
 * - Refuses the reissue of an authorized receipt (400): the spec says so for waybills; the public documentation
 *   has a reissue for every kind but the ATS retention.
 * - Invoices, credit notes and debit notes (`/invoices`, `/credit-notes`, `/debit-notes`) as the service's public
 *   documentation describes them: issue, issue from XML, get, reissue.
 * - `POST /edocs/send-email/{id}` (X-Key only; optional `{destinatarios: [...]}`; answers `{id, result}`) records
 *   the e-mail in `correos_enviados`; without recipients it mails the receipt's own party e-mail, and refuses
 *   when there is none.
 * - The receipt's `url_formato_impresion` / `url_documento_electronico` point at `filesBaseUrl` + `/ver/{id}/pdf|xml`,
 *   served without a key (as the real service's links are) unless `filesRequireKey`; `filesServeLoginPage`
 *   answers an HTML page instead, as a login wall would. Tests put `filesBaseUrl` on another origin of the
 *   server (SimulatorServer.addOrigin) to stand for the real service's other host.
 * - Catalogs (`/catalog/id-types`, `/document-types`, `/sales-tax-rates/{tipo}`, `/withholdings-tax-rates/{tipo}`),
 *   `{count, results[]}` with the documented entry fields.
 * - Parses the XML variants enough to return `id`, `clave_acceso`, `es_valida`.
 * - Records webhook subscriptions; `deliver(event, receiptId)` POSTs the event payload (with `api-key`)
 *   to each subscribed URL. With `autoDeliver`, reaching a final state delivers by itself. Deliveries are not
 *   signed (the spec shows no signature; the real service's documentation says so), so `forge(event, body)`
 *   sends what anyone who once saw a delivery (its URL and the `api-key` it carries) can send: any body, to
 *   the subscribed URLs, indistinguishable from the service's own deliveries.
 *
 * The HTTP status codes and error bodies are not in the spec; this simulator answers 401 `{error}` for a
 * bad key, 400 `{error, mensajes[]}` (messages without `identificador`, see `invalid`) for refused data and 404 `{error}` for unknown ids.
 */

/**
 * @typedef {'CREADO' | 'ENVIADO' | 'RECIBIDO' | 'PRE-AUTORIZADO' | 'AUTORIZADO' | 'NO AUTORIZADO' | 'DEVUELTO' | 'ERROR'} Estado
 */
/**
 * @typedef {'atsRetention' | 'retention' | 'waybill' | 'purchaseSettlement' | 'invoice' | 'creditNote' | 'debitNote'} ReceiptKindName
 */
/**
 * @typedef {object} Mensaje
 * @property {string} identificador
 * @property {string} mensaje
 * @property {'ERROR' | 'INFORMATIVO' | 'ADVERTENCIA'} tipo
 * @property {string} [informacion_adicional]
 */
/**
 * @typedef {Estado | { estado: Estado; mensajes?: Mensaje[] }} Step
 */

/**
 * @typedef {object} SimReceipt
 * @property {string} id
 * @property {ReceiptKindName} kind
 * @property {Record<string, unknown>} body
 * @property {string} clave_acceso
 * @property {Estado} estado
 * @property {Step[]} plan
 * @property {{ estado: string; mensajes: Mensaje[]; fecha: string }} [envio_sri]
 * @property {{ numero?: string; fecha?: string; estado: string; mensajes: Mensaje[] }} [autorizacion]
 * @property {{ result: string; error: string; status: number }} [firma]
 * @property {Array<{ fecha_envio: string; destinatarios: string }>} correos_enviados
 * @property {boolean} [es_valida]
 * @property {number} reissues
 * @property {number} issuedAt When the current issue process started (ms), for `decideAfterMs` and `edocsVisibleAfterMs`.
 * @property {number} createdBy Sequence number of the request that created it (SimRequest.seq), or 0 when seeded.
 * @property {number} stepsTaken Steps of the plan already taken in this issue process (clock mode).
 * @property {Step[]} [timedPlan] Clock mode: the plan of this issue process.
 * @property {number} [firmaVisibleAt] Signing failed; with async signing it shows from this time on (ms).
 * @property {boolean} [submitted] The service has sent it to the SRI (signed): it holds its access key and number there unless rejected.
 */

/**
 * @typedef {object} Subscription
 * @property {string} id
 * @property {string} event_name
 * @property {string} webhook_url
 * @property {SimRequest['headers']} headers
 */

/** @type {Record<ReceiptKindName, string>} */
const KIND_CODE = {
	atsRetention: '07',
	retention: '07',
	waybill: '06',
	purchaseSettlement: '03',
	invoice: '01',
	creditNote: '04',
	debitNote: '05',
};
/** @type {Record<ReceiptKindName, string>} */
const KIND_NAME = {
	atsRetention: 'retencion_ats',
	retention: 'retencion',
	waybill: 'guia_remision',
	purchaseSettlement: 'liquidacion_compra',
	invoice: 'factura',
	creditNote: 'nota_credito',
	debitNote: 'nota_debito',
};
/** @type {Record<ReceiptKindName, string>} */
const XML_ROOT = {
	atsRetention: 'comprobanteRetencion',
	retention: 'comprobanteRetencion',
	waybill: 'guiaRemision',
	purchaseSettlement: 'liquidacionCompra',
	invoice: 'factura',
	creditNote: 'notaCredito',
	debitNote: 'notaDebito',
};
/**
 * Paths of the kinds (the receipts service spec, and the service's public documentation for invoices and notes).
 * @type {Record<ReceiptKindName, string>}
 */
const KIND_PATH = {
	atsRetention: '/ats-retentions',
	retention: '/retentions',
	waybill: '/waybills',
	purchaseSettlement: '/purchase-settlements',
	invoice: '/invoices',
	creditNote: '/credit-notes',
	debitNote: '/debit-notes',
};
/** @type {Record<ReceiptKindName, string[]>} */
const REQUIRED = {
	atsRetention: [
		'ambiente',
		'tipo_emision',
		'secuencia',
		'periodo_fiscal',
		'emisor',
		'documentos_soporte',
		'sujeto',
	],
	retention: [
		'ambiente',
		'tipo_emision',
		'secuencial',
		'periodo_fiscal',
		'emisor',
		'sujeto',
		'items',
	],
	waybill: [
		'secuencial',
		'emisor',
		'fecha_inicio_transporte',
		'fecha_fin_transporte',
		'direccion_partida',
		'transportista',
		'ambiente',
		'tipo_emision',
		'destinatarios',
	],
	purchaseSettlement: [
		'secuencial',
		'emisor',
		'moneda',
		'ambiente',
		'tipo_emision',
		'totales',
		'proveedor',
		'items',
		'pagos',
	],
	invoice: [
		'secuencial',
		'emisor',
		'moneda',
		'ambiente',
		'tipo_emision',
		'comprador',
		'totales',
		'items',
		'pagos',
	],
	creditNote: [
		'secuencial',
		'emisor',
		'moneda',
		'ambiente',
		'tipo_emision',
		'comprador',
		'totales',
		'items',
		'fecha_emision_documento_modificado',
		'numero_documento_modificado',
		'tipo_documento_modificado',
		'motivo',
	],
	debitNote: [
		'secuencial',
		'emisor',
		'ambiente',
		'tipo_emision',
		'comprador',
		'totales',
		'items',
		'fecha_emision_documento_modificado',
		'numero_documento_modificado',
		'tipo_documento_modificado',
	],
};
/** @type {Estado[]} */
export const FINAL_STATES = ['AUTORIZADO', 'NO AUTORIZADO', 'DEVUELTO', 'ERROR'];

/**
 * SRI modulo 11 (weights 2..7 from the right; 11 → 0, 10 → 1), written apart from the node's code.
 * @returns {number}
 */
export function mod11(digits) {
	const weights = [2, 3, 4, 5, 6, 7];
	let sum = 0;
	[...digits].reverse().forEach((d, i) => (sum += Number(d) * weights[i % 6]));
	const v = 11 - (sum % 11);
	return v === 11 ? 0 : v === 10 ? 1 : v;
}

/** @returns {string} */
export function makeAccessKey(opts) {
	const d =
		opts.date && /^\d{4}-\d{2}-\d{2}/.test(opts.date) ? opts.date : new Date().toISOString();
	const date = `${d.slice(8, 10)}${d.slice(5, 7)}${d.slice(0, 4)}`;
	const ruc = String(opts.ruc ?? '')
		.replace(/\D/g, '')
		.padStart(13, '0')
		.slice(-13);
	const serie = String(opts.serie ?? '001001')
		.replace(/\D/g, '')
		.padStart(6, '0')
		.slice(-6);
	const seq = String(opts.secuencial ?? '1')
		.replace(/\D/g, '')
		.padStart(9, '0')
		.slice(-9);
	const code = String(randomBytes(4).readUInt32BE(0) % 100000000).padStart(8, '0');
	const first48 = `${date}${KIND_CODE[opts.kind]}${ruc}${String(opts.ambiente ?? 1).slice(0, 1)}${serie}${seq}${code}${String(opts.tipoEmision ?? 1).slice(0, 1)}`;
	return `${first48}${mod11(first48)}`;
}

/** @type {Mensaje[]} */
const NOT_AUTHORIZED_MESSAGES = [
	{
		identificador: '39',
		mensaje: 'FIRMA INVALIDA',
		tipo: 'ERROR',
		informacion_adicional: 'La firma es invalida',
	},
];
/** @type {Mensaje} */
const DUPLICATE_KEY_MESSAGE = {
	identificador: '43',
	mensaje: 'CLAVE ACCESO REGISTRADA',
	tipo: 'ERROR',
};
/** @type {Mensaje} */
const DUPLICATE_SEQUENTIAL_MESSAGE = {
	identificador: '45',
	mensaje: 'ERROR SECUENCIAL REGISTRADO',
	tipo: 'ERROR',
};
/** @type {Mensaje[]} */
const RETURNED_MESSAGES = [
	{
		identificador: '35',
		mensaje: 'ARCHIVO NO CUMPLE ESTRUCTURA XML',
		tipo: 'ERROR',
		informacion_adicional: 'Se encontró el siguiente error en la estructura del comprobante',
	},
];

/**
 * The issuer of the tests' receipts: every test body's `emisor` (test/receipts/setup.js), and as the Receipts
 * credential's fields where a test saves it there. Its RUC passes the SRI's check digit (a private company's,
 * third digit 9). The sandbox's credential has its own (scripts/n8n/sandbox.mjs, SANDBOX_ISSUER).
 */
export const DEMO_ISSUER = {
	ruc: '1792146739001',
	razon_social: 'Distribuidora Andina S.A.',
	nombre_comercial: 'Andina',
	direccion: 'Av. Amazonas N34-451, Quito',
	obligado_contabilidad: true,
	establecimiento: { codigo: '001', punto_emision: '002', direccion: 'Av. Amazonas N34-451' },
};

/**
 * An issuer as the Receipts credential's fields hold it.
 * @param {typeof DEMO_ISSUER} issuer
 */
export const issuerCredentialFields = (issuer) => ({
	issuerRuc: issuer.ruc,
	issuerLegalName: issuer.razon_social,
	issuerTradeName: issuer.nombre_comercial,
	issuerAddress: issuer.direccion,
	issuerEstablishment: issuer.establecimiento.codigo,
	issuerEmissionPoint: issuer.establecimiento.punto_emision,
	issuerEstablishmentAddress: issuer.establecimiento.direccion,
	issuerKeepsAccounting: issuer.obligado_contabilidad ? 'yes' : 'no',
});

/**
 * When the real service's receipts are decided: "3–5 seconds after the issue request" under normal conditions
 * (Dátil Link documentation); the middle of that range.
 */
export const DOCUMENTED_DECISION_MS = 4000;

export class ReceiptsSimulator {
	prefix = 'receipts';
	apiKey = 'rk_test_0123456789abcdef';
	certificatePassword = 'firma-secreta-2026';
	/**
	 * Steps each new receipt goes through when no plan was queued.
	 * @type {Step[]}
	 */
	defaultPlan = ['ENVIADO', 'RECIBIDO', 'AUTORIZADO'];
	/** Take one step of the plan on every read of the receipt. */
	advanceOnRead = true;
	/** Deliver events to subscribers by itself when a receipt reaches a final state or fails signing. */
	autoDeliver = false;
	/**
	 * Clock mode: the plan's steps are spread evenly until this long after the issue (ms).
	 * @type {number | undefined}
	 */
	decideAfterMs = undefined;

	/**
	 * The real service decides as its documentation says, whoever reads and however often: "under normal
	 * conditions authorization takes 3–5 seconds after the issue request" (Dátil Link documentation). For
	 * people trying the package (`npm run dev`, the browser test); the tests that count reads keep
	 * `advanceOnRead`, and the engine tests the fake clock.
	 */
	decideAsDocumented() {
		this.decideAfterMs = DOCUMENTED_DECISION_MS;
	}
	/** GET /edocs/{id} answers 404 for a receipt younger than this (ms). */
	edocsVisibleAfterMs = 0;
	/**
	 * 'sync': a signing failure shows in the issue answer; 'async': only on reads, `signingDelayMs` later.
	 * @type {'sync' | 'async'}
	 */
	signing = 'sync';
	signingDelayMs = 0;
	/** Where the printable form and the XML are served (`<filesBaseUrl>/ver/{id}/pdf`); set by whoever starts the server. */
	filesBaseUrl = 'https://files.receipts.example';
	/** The file addresses answer 401 without the account key. */
	filesRequireKey = false;
	/** The file addresses answer an HTML login page (200) instead of the file. */
	filesServeLoginPage = false;
	/**
	 * Every e-mail sent with POST /edocs/send-email/{id}.
	 * @type {Array<{ id: string; destinatarios: string[] }>}
	 */
	emails = [];
	receipts = /** @type {Map<string, SimReceipt>} */ (new Map());
	/** @type {Subscription[]} */
	subscriptions = [];
	/** @type {Array<{ url: string; event: string; payload: Record<string, unknown>; status: number; forged?: boolean }>} */
	deliveries = [];
	/** @type {Step[][]} */
	plans = [];
	/**
	 * Invoice issue answers by Idempotency-key (the service's public documentation, Idempotencia): a request with
	 * a key seen before gets the first answer again and creates nothing.
	 * @type {Map<string, SimResponse>}
	 */
	idempotencyKeys = new Map();
	/** How many requests were answered from `idempotencyKeys` instead of being processed. */
	idempotentReplays = 0;

	reset() {
		this.receipts.clear();
		this.idempotencyKeys.clear();
		this.idempotentReplays = 0;
		this.subscriptions.length = 0;
		this.deliveries.length = 0;
		this.plans.length = 0;
		this.defaultPlan = ['ENVIADO', 'RECIBIDO', 'AUTORIZADO'];
		this.advanceOnRead = true;
		this.autoDeliver = false;
		this.decideAfterMs = undefined;
		this.edocsVisibleAfterMs = 0;
		this.signing = 'sync';
		this.signingDelayMs = 0;
		this.filesRequireKey = false;
		this.filesServeLoginPage = false;
		this.emails.length = 0;
	}

	/**
	 * Receipts created by the request with sequence number `seq` (SimRequest.seq).
	 * @returns {SimReceipt[]}
	 */
	createdByRequest(seq) {
		return [...this.receipts.values()].filter((r) => r.createdBy === seq);
	}

	/** Queues the plan of the next receipt issued, authorized or reissued. */
	planNext(...steps) {
		this.plans.push(steps);
	}

	/**
	 * Stores a receipt directly (for Get/Authorize/Reissue tests).
	 * @returns {SimReceipt}
	 */
	seed(kind, body = {}, estado = 'CREADO') {
		const receipt = this.create(kind, body, true);
		this.setState(receipt.id, estado);
		receipt.plan = [];
		return receipt;
	}

	/**
	 * Takes `steps` steps of a receipt's plan.
	 * @returns {SimReceipt}
	 */
	advance(id, steps = 1) {
		const receipt = this.receipts.get(id);
		if (!receipt) throw new Error(`no receipt ${id}`);
		for (let n = 0; n < steps && receipt.plan.length; n++) {
			const step = /** @type {any} */ (receipt.plan.shift());
			this.setState(
				id,
				typeof step === 'string' ? step : step.estado,
				typeof step === 'string' ? undefined : step.mensajes,
			);
		}
		return receipt;
	}

	/**
	 * Puts a receipt in a state, with the status objects the spec describes for it.
	 * @returns {SimReceipt}
	 */
	setState(id, estado, mensajes) {
		const r = this.receipts.get(id);
		if (!r) throw new Error(`no receipt ${id}`);
		const now = new Date().toISOString();
		r.estado = estado;
		if (estado !== 'CREADO') r.submitted = true;
		if (estado === 'ENVIADO' || estado === 'RECIBIDO')
			r.envio_sri = { estado: 'RECIBIDA', mensajes: mensajes ?? [], fecha: now };
		if (estado === 'PRE-AUTORIZADO') {
			r.envio_sri = { estado: 'RECIBIDA', mensajes: [], fecha: now };
			r.autorizacion = { estado: 'PRE-AUTORIZADO', mensajes: mensajes ?? [] };
		}
		if (estado === 'AUTORIZADO') {
			r.envio_sri = { estado: 'RECIBIDA', mensajes: [], fecha: now };
			r.autorizacion = {
				numero: r.clave_acceso,
				fecha: now,
				estado: 'AUTORIZADO',
				mensajes: mensajes ?? [],
			};
			r.correos_enviados = [{ fecha_envio: now, destinatarios: 'cliente@example.com' }];
		}
		if (estado === 'NO AUTORIZADO') {
			r.envio_sri = { estado: 'RECIBIDA', mensajes: [], fecha: now };
			r.autorizacion = {
				fecha: now,
				estado: 'NO AUTORIZADO',
				mensajes: mensajes ?? NOT_AUTHORIZED_MESSAGES,
			};
		}
		if (estado === 'DEVUELTO')
			r.envio_sri = { estado: 'DEVUELTA', mensajes: mensajes ?? RETURNED_MESSAGES, fecha: now };
		if (estado === 'ERROR')
			r.envio_sri = {
				estado: 'ERROR',
				mensajes: mensajes ?? [
					{ identificador: '70', mensaje: 'CLAVE DE ACCESO EN PROCESAMIENTO', tipo: 'ERROR' },
				],
				fecha: now,
			};
		if (this.autoDeliver) {
			if (estado === 'AUTORIZADO' || estado === 'NO AUTORIZADO')
				void this.deliver('receipt-issued', id);
			if (estado === 'DEVUELTO') void this.deliver('issue-error', id);
		}
		return r;
	}

	/**
	 * The event payload of a receipt, as the spec's Events section lists it (including `api-key`).
	 * @returns {Record<string, unknown>}
	 */
	payload(id) {
		const r = this.receipts.get(id);
		if (!r) throw new Error(`no receipt ${id}`);
		const party = this.partyOf(r) ?? undefined;
		/** @type {Record<string, unknown>} */
		const out = {
			...r.body,
			id: r.id,
			tipo: KIND_NAME[r.kind],
			clave_acceso: r.clave_acceso,
			estado: r.estado,
			comprador: party,
			'api-key': this.apiKey,
		};
		if (r.firma) {
			out.firma = r.firma;
			out['certificate-password'] = null;
		} else if (r.estado === 'DEVUELTO') {
			out.envio_sri = r.envio_sri;
		} else {
			out.autorizacion = r.autorizacion;
		}
		return out;
	}

	/**
	 * POSTs the event payload of `receiptId` to each subscription of `event`.
	 * @returns {Promise<Array<{ url: string; status: number; body: unknown }>>}
	 */
	async deliver(event, receiptId) {
		return await this.notify(event, this.payload(receiptId));
	}

	/**
	 * A forged notification: `body` (e.g. a receipt's genuine payload with a state the service does not hold, or
	 * a receipt it never issued) POSTed exactly like a delivery of `event`, to each of its subscriptions or to
	 * `opts.url`. Recorded in `deliveries` with `forged: true`.
	 * @returns {Promise<Array<{ url: string; status: number; body: unknown }>>}
	 */
	async forge(event, body, opts = {}) {
		return await this.notify(event, body, { ...opts, forged: true });
	}

	/**
	 * POSTs `payload` as JSON to each subscription of `event` (or to `opts.url`).
	 * @returns {Promise<Array<{ url: string; status: number; body: unknown }>>}
	 */
	async notify(event, payload, opts = {}) {
		const urls = opts.url
			? [opts.url]
			: this.subscriptions.filter((s) => s.event_name === event).map((s) => s.webhook_url);
		/** @type {Array<{ url: string; status: number; body: unknown }>} */
		const results = [];
		for (const url of urls) {
			let status = 0;
			/** @type {unknown} */
			let body;
			try {
				const response = await fetch(url, {
					method: 'POST',
					headers: { 'content-type': 'application/json' },
					body: JSON.stringify(payload),
				});
				status = response.status;
				const text = await response.text();
				try {
					body = JSON.parse(text);
				} catch {
					body = text;
				}
			} catch (error) {
				body = /** @type {Error} */ (error).message;
			}
			this.deliveries.push({
				url,
				event,
				payload,
				status,
				...(opts.forged ? { forged: true } : {}),
			});
			results.push({ url, status, body });
		}
		return results;
	}

	/** @returns {SimReceipt} */
	create(kind, body, skipPlan = false, createdBy = 0) {
		const emisor = /** @type {Record<string, unknown>} */ (body.emisor ?? {});
		const est = /** @type {Record<string, unknown>} */ (emisor.establecimiento ?? {});
		const clave =
			typeof body.clave_acceso === 'string' && body.clave_acceso
				? body.clave_acceso
				: makeAccessKey({
						kind,
						date: String(body.fecha_emision ?? ''),
						ruc: String(emisor.ruc ?? ''),
						ambiente: body.ambiente,
						serie: `${String(est.codigo ?? '001')}${String(est.punto_emision ?? '001')}`,
						secuencial: body.secuencial ?? body.secuencia,
						tipoEmision: body.tipo_emision,
					});
		/** @type {SimReceipt} */
		const receipt = {
			id: randomBytes(16).toString('hex'),
			kind,
			body,
			clave_acceso: clave,
			estado: 'CREADO',
			plan: skipPlan ? [] : (this.plans.shift() ?? [...this.defaultPlan]),
			correos_enviados: [],
			reissues: 0,
			issuedAt: Date.now(),
			createdBy,
			stepsTaken: 0,
		};
		this.receipts.set(receipt.id, receipt);
		return receipt;
	}

	/**
	 * What the SRI keeps unique besides the access key: the receipt's number for its type, issuer and environment
	 * (undefined when the body does not give them).
	 * @returns {string | undefined}
	 */
	sriNumber(r) {
		const emisor = /** @type {Record<string, unknown>} */ (r.body.emisor ?? {});
		const est = /** @type {Record<string, unknown>} */ (emisor.establecimiento ?? {});
		const seq = Number(r.body.secuencial ?? r.body.secuencia);
		if (!emisor.ruc || !Number.isInteger(seq) || seq < 1) return undefined;
		return [
			KIND_CODE[r.kind],
			emisor.ruc,
			r.body.ambiente ?? 1,
			est.codigo ?? '001',
			est.punto_emision ?? '001',
			seq,
		]
			.map(String)
			.join('|');
	}

	/**
	 * The SRI's refusal of a receipt whose access key or number another receipt holds there, or undefined.
	 * @returns {Mensaje | undefined}
	 */
	uniquenessRefusal(r) {
		const holders = [...this.receipts.values()].filter(
			(o) => o !== r && o.submitted && o.estado !== 'DEVUELTO' && o.estado !== 'NO AUTORIZADO',
		);
		if (holders.some((o) => o.clave_acceso === r.clave_acceso)) return DUPLICATE_KEY_MESSAGE;
		const number = this.sriNumber(r);
		if (number && holders.some((o) => this.sriNumber(o) === number))
			return DUPLICATE_SEQUENTIAL_MESSAGE;
		return undefined;
	}

	/** Clock mode: takes the steps whose time has come. */
	catchUp(r) {
		if (this.decideAfterMs === undefined) return;
		if (!r.timedPlan) {
			r.timedPlan = [...r.plan];
			r.plan = [];
		}
		const total = r.timedPlan.length;
		const elapsed = Date.now() - r.issuedAt;
		while (r.stepsTaken < total && elapsed >= ((r.stepsTaken + 1) / total) * this.decideAfterMs) {
			const step = r.timedPlan[r.stepsTaken++];
			this.setState(
				r.id,
				typeof step === 'string' ? step : step.estado,
				typeof step === 'string' ? undefined : step.mensajes,
			);
		}
	}

	/**
	 * The `firma` failure, once it shows (async signing shows it `signingDelayMs` after the issue).
	 * @returns {SimReceipt['firma']}
	 */
	firmaOf(r) {
		return r.firma && (r.firmaVisibleAt === undefined || Date.now() >= r.firmaVisibleAt)
			? r.firma
			: undefined;
	}

	/** @returns {string} */
	numero(r) {
		const est = /** @type {Record<string, unknown>} */ (
			/** @type {Record<string, unknown> | undefined} */ (r.body.emisor)?.establecimiento ?? {}
		);
		const seq = String(r.body.secuencial ?? r.body.secuencia ?? '1').padStart(9, '0');
		return `${String(est.codigo ?? '001')}-${String(est.punto_emision ?? '001')}-${seq}`;
	}

	urls(r) {
		return {
			url_formato_impresion: `${this.filesBaseUrl}/ver/${r.id}/pdf`,
			url_documento_electronico: `${this.filesBaseUrl}/ver/${r.id}/xml`,
		};
	}

	/**
	 * Whom a receipt is for: the buyer, the retained subject, the supplier or the first waybill recipient.
	 * @returns {Record<string, unknown> | null}
	 */
	partyOf(r) {
		return /** @type {Record<string, unknown> | null} */ (
			r.body.comprador ??
				r.body.sujeto ??
				r.body.proveedor ??
				/** @type {unknown[] | undefined} */ (r.body.destinatarios)?.[0] ??
				null
		);
	}

	/**
	 * The printable form (a one-page PDF naming the access key) or the authorization XML of a receipt.
	 * @returns {Buffer}
	 */
	file(r, format) {
		if (format === 'xml') {
			const auth = r.autorizacion;
			return Buffer.from(
				`<?xml version="1.0" encoding="UTF-8"?><autorizacion><estado>${r.estado}</estado><numeroAutorizacion>${auth?.numero ?? ''}</numeroAutorizacion>` +
					`<fechaAutorizacion>${auth?.fecha ?? ''}</fechaAutorizacion><ambiente>${String(r.body.ambiente ?? 1)}</ambiente>` +
					`<comprobante><![CDATA[<${XML_ROOT[r.kind]} id="comprobante"><infoTributaria><claveAcceso>${r.clave_acceso}</claveAcceso><codDoc>${KIND_CODE[r.kind]}</codDoc></infoTributaria></${XML_ROOT[r.kind]}>]]></comprobante></autorizacion>`,
			);
		}
		const text = `BT /F1 10 Tf 20 50 Td (RIDE ${KIND_NAME[r.kind]} ${r.clave_acceso} ${r.estado}) Tj ET`;
		return Buffer.from(
			`%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj\n` +
				`3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 600 100]/Contents 4 0 R/Resources<</Font<</F1 5 0 R>>>>>>endobj\n` +
				`4 0 obj<</Length ${text.length}>>stream\n${text}\nendstream endobj\n5 0 obj<</Type/Font/Subtype/Type1/BaseFont/Helvetica>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n`,
		);
	}

	/**
	 * The whole receipt (GET /waybills/{id}, GET /ats-retentions/{id}).
	 * @returns {Record<string, unknown>}
	 */
	full(r) {
		return {
			...r.body,
			id: r.id,
			clave_acceso: r.clave_acceso,
			estado: r.estado,
			numero: this.numero(r),
			envio_sri: r.envio_sri ?? null,
			autorizacion: r.autorizacion ?? null,
			correos_enviados: r.correos_enviados,
			...(this.firmaOf(r) ? { firma: this.firmaOf(r) } : {}),
			...this.urls(r),
		};
	}

	/**
	 * GET /edocs/{id}.
	 * @returns {Record<string, unknown>}
	 */
	edoc(r) {
		const firma = this.firmaOf(r);
		return {
			id: r.id,
			tipo: KIND_CODE[r.kind],
			estado: r.estado,
			clave_acceso: r.clave_acceso,
			ambiente: Number(r.body.ambiente ?? 1),
			autorizacion: r.autorizacion ?? null,
			...(r.envio_sri && r.envio_sri.mensajes.length ? { envio_sri: r.envio_sri } : {}),
			...(firma ? { firma } : {}),
			...this.urls(r),
		};
	}

	/** @returns {boolean} */
	keyOk(req) {
		return req.headers['x-key'] === this.apiKey;
	}

	/**
	 * undefined when signing may go on; a 400 when X-Password is missing; 'wrong' when it does not match.
	 * @returns {SimResponse | 'wrong' | undefined}
	 */
	password(req) {
		const given = req.headers['x-password'];
		if (given === undefined || given === '')
			return { status: 400, body: { error: 'X-Password header is required to sign the receipt' } };
		return given === this.certificatePassword ? undefined : 'wrong';
	}

	/** Starts the issue process of a stored receipt: signing (may fail) and its plan. */
	startIssue(r, wrongPassword) {
		r.estado = 'CREADO';
		r.autorizacion = undefined;
		r.envio_sri = undefined;
		r.firma = undefined;
		r.firmaVisibleAt = undefined;
		r.issuedAt = Date.now();
		r.stepsTaken = 0;
		r.timedPlan = undefined;
		if (wrongPassword) {
			r.firma = {
				result: 'error',
				error: 'Contraseña de la firma electrónica incorrecta',
				status: 400,
			};
			if (this.signing === 'async') r.firmaVisibleAt = Date.now() + this.signingDelayMs;
			r.plan = [];
			r.submitted = false;
			if (this.autoDeliver) void this.deliver('issue-error', r.id);
			return;
		}
		const refusal = this.uniquenessRefusal(r);
		if (refusal) r.plan = [{ estado: 'DEVUELTO', mensajes: [refusal] }];
		r.submitted = true;
	}

	/**
	 * What an issue operation answers: the request plus id and clave_acceso, and the initial state.
	 * @returns {Record<string, unknown>}
	 */
	issued(r, echo, extra = {}) {
		const firma = this.signing === 'sync' ? r.firma : undefined;
		return {
			...echo,
			id: r.id,
			clave_acceso: r.clave_acceso,
			estado: r.estado,
			...extra,
			...(firma ? { firma } : {}),
		};
	}

	/** @returns {SimResponse | SimReceipt} */
	read(req, kind) {
		if (!this.keyOk(req)) return unauthorized;
		const r = this.receipts.get(req.params.id);
		if (!r || (kind && r.kind !== kind)) return notFound(req.params.id);
		if (!kind && Date.now() - r.issuedAt < this.edocsVisibleAfterMs) return notFound(req.params.id);
		if (this.decideAfterMs !== undefined) this.catchUp(r);
		else if (this.advanceOnRead) this.advance(r.id);
		return r;
	}

	register(router) {
		const issue = (kind) => (req) => {
			if (!this.keyOk(req)) return unauthorized;
			const pw = this.password(req);
			if (pw && pw !== 'wrong') return pw;
			if (!req.body || typeof req.body !== 'object' || Array.isArray(req.body))
				return invalid([`body: JSON object expected`]);
			const body = /** @type {Record<string, unknown>} */ (req.body);
			const missing = REQUIRED[kind].filter(
				(k) => body[k] === undefined || body[k] === null || body[k] === '',
			);
			if (missing.length) return invalid(missing.map((k) => `${k}: campo requerido`));
			const r = this.create(kind, body, false, req.seq);
			this.startIssue(r, pw === 'wrong');
			return { status: 201, body: this.issued(r, body) };
		};
		const issueXml = (kind) => (req) => {
			if (!this.keyOk(req)) return unauthorized;
			const pw = this.password(req);
			if (pw && pw !== 'wrong') return pw;
			const xml = /** @type {{ xml?: unknown } | undefined} */ (req.body)?.xml;
			if (typeof xml !== 'string' || !xml.trim()) return invalid(['xml: campo requerido']);
			const parsed = parseXml(xml, XML_ROOT[kind]);
			const r = this.create(
				kind,
				{ ...parsed.fields, ...(parsed.clave ? { clave_acceso: parsed.clave } : {}) },
				false,
				req.seq,
			);
			r.es_valida = parsed.valid;
			this.startIssue(r, pw === 'wrong');
			const extra =
				kind === 'purchaseSettlement'
					? {
							numero: this.numero(r),
							anulado: false,
							pre_autorizado: false,
							envio_sri: r.envio_sri ?? null,
							autorizacion: r.autorizacion ?? null,
						}
					: {};
			return {
				status: 201,
				body: this.issued(r, parsed.fields, { es_valida: parsed.valid, ...extra }),
			};
		};

		/**
		 * Invoice issue honours an `Idempotency-key` of 16–48 characters (documented on POST /invoices/issue and
		 * /invoices/issue/xml only): the first answer is kept and given to every later request with the key. A key
		 * of another length is refused as a validation error (the service documents the length, not its answer to
		 * another one). A refused API key or password is not kept: it was refused before the key was read.
		 * @param {(req: SimRequest) => SimResponse} handler
		 * @returns {(req: SimRequest) => SimResponse}
		 */
		const keyed = (handler) => (req) => {
			const header = req.headers['idempotency-key'];
			if (header === undefined || !this.keyOk(req)) return handler(req);
			const key = Array.isArray(header) ? header.join(',') : header;
			if (key.length < 16 || key.length > 48)
				return invalid(['Idempotency-key: debe tener entre 16 y 48 caracteres']);
			const seen = this.idempotencyKeys.get(key);
			if (seen) {
				this.idempotentReplays++;
				return seen;
			}
			const answer = handler(req);
			if (answer.status !== 401 && answer.status !== 403) this.idempotencyKeys.set(key, answer);
			return answer;
		};

		router.add('POST', '/ats-retentions/issue', issue('atsRetention'));
		router.add('POST', '/ats-retentions/issue/xml', issueXml('atsRetention'));
		router.add('GET', '/ats-retentions/:id', (req) => {
			const r = this.read(req, 'atsRetention');
			return 'kind' in r ? { status: 200, body: this.full(r) } : r;
		});
		router.add('POST', '/retentions/issue', issue('retention'));
		router.add('POST', '/retentions/issue/xml', issueXml('retention'));
		router.add('POST', '/waybills/issue', issue('waybill'));
		router.add('POST', '/waybills/issue/xml', issueXml('waybill'));
		router.add('GET', '/waybills/:id', (req) => {
			const r = this.read(req, 'waybill');
			return 'kind' in r ? { status: 200, body: this.full(r) } : r;
		});
		router.add('POST', '/purchase-settlements/issue', issue('purchaseSettlement'));
		router.add('POST', '/purchase-settlements/issue/xml', issueXml('purchaseSettlement'));
		router.add('POST', '/invoices/issue', keyed(issue('invoice')));
		router.add('POST', '/invoices/issue/xml', keyed(issueXml('invoice')));
		for (const kind of /** @type {const} */ (['invoice', 'creditNote', 'debitNote'])) {
			if (kind !== 'invoice') {
				router.add('POST', `${KIND_PATH[kind]}/issue`, issue(kind));
				router.add('POST', `${KIND_PATH[kind]}/issue/xml`, issueXml(kind));
			}
			router.add('GET', `${KIND_PATH[kind]}/:id`, (req) => {
				const r = this.read(req, kind);
				return 'kind' in r ? { status: 200, body: this.full(r) } : r;
			});
		}
		const reissue = (kind) => (req) => {
			if (!this.keyOk(req)) return unauthorized;
			const pw = this.password(req);
			if (pw && pw !== 'wrong') return pw;
			const r = this.receipts.get(req.params.id);
			if (!r || r.kind !== kind) return notFound(req.params.id);
			if (r.estado === 'AUTORIZADO') {
				const error =
					kind === 'waybill'
						? 'La guía de remisión ya se encuentra AUTORIZADA y no puede reemitirse'
						: 'El comprobante ya se encuentra AUTORIZADO y no puede reemitirse';
				return { status: 400, body: { error, mensajes: [] } };
			}
			const body = /** @type {Record<string, unknown>} */ (req.body ?? {});
			const missing = REQUIRED[kind].filter(
				(k) => body[k] === undefined || body[k] === null || body[k] === '',
			);
			if (missing.length) return invalid(missing.map((k) => `${k}: campo requerido`));
			r.body = body;
			r.reissues++;
			r.plan = this.plans.shift() ?? [...this.defaultPlan];
			this.startIssue(r, pw === 'wrong');
			return { status: 200, body: this.issued(r, body) };
		};
		for (const kind of /** @type {const} */ ([
			'waybill',
			'retention',
			'purchaseSettlement',
			'invoice',
			'creditNote',
			'debitNote',
		]))
			router.add('POST', `${KIND_PATH[kind]}/:id/reissue`, reissue(kind));
		router.add('POST', '/edocs/:id/issue', (req) => {
			if (!this.keyOk(req)) return unauthorized;
			const pw = this.password(req);
			if (pw && pw !== 'wrong') return pw;
			const r = this.receipts.get(req.params.id);
			if (!r) return notFound(req.params.id);
			if (r.estado !== 'AUTORIZADO') {
				r.plan = this.plans.shift() ?? [...this.defaultPlan];
				this.startIssue(r, pw === 'wrong');
			}
			const party = this.partyOf(r);
			const firma = this.signing === 'sync' ? r.firma : undefined;
			return {
				status: 200,
				body: {
					...this.edoc(r),
					emisor: r.body.emisor ?? null,
					numero: this.numero(r),
					receptor: party,
					...(firma ? { firma } : {}),
				},
			};
		});
		router.add('POST', '/edocs/send-email/:id', (req) => {
			// X-Key only: e-mailing signs nothing (the service's public documentation, Envío por correo).
			if (!this.keyOk(req)) return unauthorized;
			const r = this.receipts.get(req.params.id);
			if (!r) return notFound(req.params.id);
			const given = /** @type {{ destinatarios?: unknown } | undefined} */ (req.body)
				?.destinatarios;
			if (
				given !== undefined &&
				(!Array.isArray(given) ||
					given.some((d) => typeof d !== 'string' || !/^[^\s@]+@[^\s@]+$/.test(d)))
			) {
				return invalid(['destinatarios: lista de correos electrónicos']);
			}
			const own = this.partyOf(r)?.email;
			const destinatarios =
				/** @type {string[] | undefined} */ (given) ??
				(typeof own === 'string' && own ? [own] : []);
			if (!destinatarios.length)
				return invalid(['El comprobante no tiene correo electrónico del receptor']);
			r.correos_enviados.push({
				fecha_envio: new Date().toISOString(),
				destinatarios: destinatarios.join(', '),
			});
			this.emails.push({ id: r.id, destinatarios });
			return { status: 200, body: { id: r.id, result: 'Correo enviado' } };
		});
		// The files the receipts link to: public, as the real service's links are (unless `filesRequireKey`).
		router.add('GET', '/ver/:id/:format', (req) => {
			if (this.filesRequireKey && !this.keyOk(req)) return unauthorized;
			const r = this.receipts.get(req.params.id);
			if (!r || !['pdf', 'xml'].includes(req.params.format)) return notFound(req.params.id);
			if (this.filesServeLoginPage)
				return {
					status: 200,
					headers: { 'content-type': 'text/html; charset=utf-8' },
					raw: Buffer.from('<!DOCTYPE html><html><body>Inicie sesión</body></html>'),
				};
			const format = /** @type {'pdf' | 'xml'} */ (req.params.format);
			return {
				status: 200,
				headers: { 'content-type': format === 'pdf' ? 'application/pdf' : 'application/xml' },
				raw: this.file(r, format),
			};
		});
		// Catalogs: documented by the real service (X-Key, `{count, results[]}`); the spec does not show them.
		/** @returns {SimResponse} */
		const catalog = (results) =>
			results
				? { status: 200, body: { count: results.length, results } }
				: { status: 404, body: { error: 'Tipo de impuesto no encontrado' } };
		router.add('GET', '/catalog/id-types', (req) =>
			this.keyOk(req) ? catalog(CATALOG.idTypes) : unauthorized,
		);
		router.add('GET', '/catalog/document-types', (req) =>
			this.keyOk(req) ? catalog(CATALOG.documentTypes) : unauthorized,
		);
		router.add('GET', '/catalog/sales-tax-rates/:tipo', (req) =>
			this.keyOk(req) ? catalog(CATALOG.salesTaxRates[req.params.tipo]) : unauthorized,
		);
		router.add('GET', '/catalog/withholdings-tax-rates/:tipo', (req) =>
			this.keyOk(req) ? catalog(CATALOG.withholdingRates[req.params.tipo]) : unauthorized,
		);
		router.add('GET', '/edocs/:id', (req) => {
			const r = this.read(req);
			return 'kind' in r ? { status: 200, body: this.edoc(r) } : r;
		});
		router.add('POST', '/webhooks', (req) => {
			// X-Key only: the spec sends X-Password on issuing operations, and subscribing issues nothing.
			if (!this.keyOk(req)) return unauthorized;
			const body = /** @type {{ event_name?: unknown; webhook_url?: unknown }} */ (req.body ?? {});
			if (!['receipt-issued', 'issue-error'].includes(String(body.event_name)))
				return invalid(['event_name: debe ser receipt-issued o issue-error']);
			if (typeof body.webhook_url !== 'string' || !/^https?:\/\//.test(body.webhook_url))
				return invalid(['webhook_url: URL inválida']);
			/** @type {Subscription} */
			const sub = {
				id: `sub_${this.subscriptions.length + 1}`,
				event_name: String(body.event_name),
				webhook_url: body.webhook_url,
				headers: req.headers,
			};
			this.subscriptions.push(sub);
			return {
				status: 201,
				body: { id: sub.id, event_name: sub.event_name, webhook_url: sub.webhook_url },
			};
		});
	}
}

/** The catalogs' answers, with the entry fields of the service's public documentation (Catálogo). */
const CATALOG = {
	idTypes: [
		{ nombre: 'RUC', codigo: '04' },
		{ nombre: 'CEDULA', codigo: '05' },
		{ nombre: 'PASAPORTE', codigo: '06' },
		{ nombre: 'CONSUMIDOR FINAL', codigo: '07' },
		{ nombre: 'IDENTIFICACIONDELEXTERIOR', codigo: '08' },
		{ nombre: 'PLACA', codigo: '09' },
	],
	documentTypes: [
		{ nombre: 'FACTURA', codigo: '01' },
		{ nombre: 'LIQ. COMPRAS', codigo: '03' },
		{ nombre: 'NOTA CREDITO', codigo: '04' },
		{ nombre: 'NOTA DEBITO', codigo: '05' },
		{ nombre: 'GUIA REMISION', codigo: '06' },
		{ nombre: 'COMPROBANTE RETENCION', codigo: '07' },
	],
	salesTaxRates: /** @type {Record<string, unknown[]>} */ ({
		2: [
			{ nombre: 'IVA 15%', tarifa: '15.00', codigo_porcentaje: '4' },
			{ nombre: 'IVA 0%', tarifa: '0.00', codigo_porcentaje: '0' },
			{ nombre: 'IVA 5%', tarifa: '5.00', codigo_porcentaje: '5' },
			{ nombre: 'IVA NO OBJETO DE IMPUESTO', tarifa: '0.00', codigo_porcentaje: '6' },
			{ nombre: 'IVA EXENTO', tarifa: '0.00', codigo_porcentaje: '7' },
		],
		3: [{ nombre: 'ICE CIGARRILLOS RUBIOS', tarifa: '0.00', codigo_porcentaje: '3011' }],
		5: [{ nombre: 'IRBPNR', tarifa: '0.02', codigo_porcentaje: '5001' }],
	}),
	withholdingRates: /** @type {Record<string, unknown[]>} */ ({
		1: [
			{
				nombre: 'TRANSFERENCIA DE BIENES MUEBLES DE NATURALEZA CORPORAL',
				codigo: '312',
				porcentaje: '1.75',
			},
			{ nombre: 'HONORARIOS PROFESIONALES', codigo: '303', porcentaje: '10.00' },
		],
		2: [
			{ nombre: 'RETENCIÓN DE IVA 70%', codigo: '2', porcentaje: '70.00' },
			{ nombre: 'RETENCIÓN DE IVA 30%', codigo: '1', porcentaje: '30.00' },
			{ nombre: 'RETENCIÓN EN 0%', codigo: '7', porcentaje: '0.00' },
			{ nombre: 'RETENCIÓN DE IVA 10%', codigo: '9', porcentaje: '10.00' },
			{ nombre: 'RETENCIÓN DE IVA 20%', codigo: '10', porcentaje: '20.00' },
			{ nombre: 'NO PROCEDE RETENCIÓN', codigo: '8', porcentaje: '0.00' },
		],
		6: [{ nombre: 'RETENCIÓN ISD 5%', codigo: '4580', porcentaje: '5.00' }],
	}),
};

/** @type {SimResponse} */
const unauthorized = { status: 401, body: { error: 'Invalid API key' } };
/** @returns {SimResponse} */
const notFound = (id) => ({ status: 404, body: { error: `Comprobante ${id} no encontrado` } });
/** @returns {SimResponse} */
// The service's own field checks carry no `identificador`: the spec gives that field to tax-authority messages,
// whose codes (SRI, Ficha técnica, sección 11) the node explains; a made-up number would read as one of them.
const invalid = (lines) => ({
	status: 400,
	body: {
		error: 'Datos inválidos',
		mensajes: lines.map((mensaje) => ({ mensaje, tipo: 'ERROR' })),
	},
});

/**
 * Just enough XML reading: root element, a few leaf values, and whether the document is closed.
 * @returns {{ valid: boolean; clave?: string; fields: Record<string, unknown> }}
 */
export function parseXml(xml, root) {
	const text = xml.replace(/^\uFEFF/, '').trim();
	const rootMatch = /^(?:<\?xml[^>]*\?>\s*)?<([A-Za-z_][\w.-]*)[^>]*>/.exec(text);
	const leaf = (tag) => new RegExp(`<${tag}>([^<]*)</${tag}>`).exec(text)?.[1]?.trim();
	const clave = leaf('claveAcceso');
	const claveOk =
		!clave || (/^\d{49}$/.test(clave) && mod11(clave.slice(0, 48)) === Number(clave[48]));
	const valid = !!rootMatch && rootMatch[1] === root && text.endsWith(`</${root}>`) && claveOk;
	/** @type {Record<string, unknown>} */
	const fields = {};
	const ambiente = leaf('ambiente');
	if (ambiente) fields.ambiente = Number(ambiente);
	const tipoEmision = leaf('tipoEmision');
	if (tipoEmision) fields.tipo_emision = Number(tipoEmision);
	const secuencial = leaf('secuencial');
	if (secuencial) fields.secuencial = secuencial;
	const ruc = leaf('ruc');
	const razonSocial = leaf('razonSocial');
	if (ruc || razonSocial) fields.emisor = { ruc, razon_social: razonSocial };
	const fecha = leaf('fechaEmision');
	if (fecha) {
		const m = /^(\d{2})\/(\d{2})\/(\d{4})$/.exec(fecha);
		fields.fecha_emision = m ? `${m[3]}-${m[2]}-${m[1]}T00:00:00-05:00` : fecha;
	}
	const version = /version="([^"]+)"/.exec(text.slice(0, 300))?.[1];
	if (version) fields.version = version;
	return { valid, clave: clave && claveOk ? clave : undefined, fields };
}
