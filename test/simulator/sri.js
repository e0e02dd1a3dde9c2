/** @import { RouteTable, SimRequest, SimResponse } from './server' */

/**
 * The SRI's public web service for authorizations, offline scheme, as its WSDL and the SRI's Ficha técnica
 * (esquema offline, §7) describe it: `POST …/comprobantes-electronicos-ws/AutorizacionComprobantesOffline`, a
 * SOAP 1.1 envelope with `autorizacionComprobante/claveAccesoComprobante`, `Content-Type: text/xml` and a
 * `SOAPAction` header; the answer `autorizacionComprobanteResponse/RespuestaAutorizacionComprobante` with
 * `claveAccesoConsultada`, `numeroComprobantes` and zero, one or several `autorizacion` entries, the receipt
 * inside each as text. Both of the SRI's hosts are one here: mounted under `/sri`, so a node's Service Address
 * is `http://127.0.0.1:<port>/sri`, and the environment is the key's (digit 24), as at the SRI.
 *
 * The key chooses the answer, so a test, `npm run dev` and the e2e suite pick an outcome by the key they ask
 * about, with no state: its numeric code (digits 40–47) names a scenario of `SCENARIOS`, whose sample receipt
 * (`receiptXml`, built from the key) the simulator holds. A key with any other code is one it does not hold: it
 * answers as the SRI answers a key it does not know (numeroComprobantes 0, no entry). `keyFor` builds a valid key
 * (check digit included) for a scenario, type and environment. A test may also answer a key its own way
 * (`answers`) or hold another receipt for a key (`receipts`: authorized, whatever its code).
 */

/** Numeric codes (digits 40–47 of a key) → what the simulator answers. */
export const SCENARIOS = Object.freeze({
	/** AUTORIZADO, the receipt in CDATA (a code not listed here is a key the simulator does not hold: no entry). */
	authorized: '10000001',
	/** AUTORIZADO, the receipt entity-escaped (`&lt;factura …`). */
	escaped: '10000002',
	/** NO AUTORIZADO with messages (52 Error en diferencias), the receipt included. */
	notAuthorized: '10000003',
	/** Two entries: NO AUTORIZADO first, then AUTORIZADO. */
	several: '10000004',
	/** The SRI does not know the key: numeroComprobantes 0, no entry. */
	unknown: '10000005',
	/** EN PROCESO, message 70, no receipt. */
	inProcess: '10000006',
	/** A SOAP fault, HTTP 500. */
	fault: '10000007',
	/** An HTML maintenance page, HTTP 503. */
	maintenance: '10000008',
	/** AUTORIZADO, after `slowMs`. */
	slow: '10000009',
	/** AUTORIZADO, but the receipt inside carries another access key. */
	otherKey: '10000010',
	/** AUTORIZADO, amounts that do not add up. */
	badTotals: '10000011',
	/** An HTML maintenance page answered with HTTP 200. */
	maintenance200: '10000012',
	/** Two NO AUTORIZADO entries, the later one second. */
	twoRejections: '10000013',
});

/** @typedef {keyof typeof SCENARIOS} Scenario */

/** Document types (digits 9–10 of a key) → receipt root element. */
export const ROOTS = Object.freeze({
	'01': 'factura',
	'03': 'liquidacionCompra',
	'04': 'notaCredito',
	'05': 'notaDebito',
	'06': 'guiaRemision',
	'07': 'comprobanteRetencion',
});

/**
 * The columns of the current layout of the list SRI en línea downloads of the receipts issued to a taxpayer
 * (test/simulator/sri-received-list.js writes such lists), in order.
 */
export const RECEIVED_LIST_COLUMNS = Object.freeze([
	'RUC_EMISOR',
	'RAZON_SOCIAL_EMISOR',
	'TIPO_COMPROBANTE',
	'SERIE_COMPROBANTE',
	'CLAVE_ACCESO',
	'FECHA_AUTORIZACION',
	'FECHA_EMISION',
	'IDENTIFICACION_RECEPTOR',
	'VALOR_SIN_IMPUESTOS',
	'IVA',
	'IMPORTE_TOTAL',
	'NUMERO_DOCUMENTO_MODIFICADO',
]);

/** The issuer of the simulator's receipts unless told otherwise (passes the company RUC check). */
export const ISSUER_RUC = '1790016919001';

/** Modulo 11 over 48 digits, weights 2..7 from the right (SRI, Ficha técnica: access key). */
export function checkDigit(first48) {
	let sum = 0;
	let weight = 2;
	for (let i = first48.length - 1; i >= 0; i--) {
		sum += Number(first48[i]) * weight;
		weight = weight === 7 ? 2 : weight + 1;
	}
	const digit = 11 - (sum % 11);
	return digit === 11 ? 0 : digit === 10 ? 1 : digit;
}

/**
 * A valid access key: `scenario` (default authorized), document type `type` ('01'…'07'), environment `env`
 * ('1' test, '2' production), sequential `sequential`, date `date` (ddmmyyyy), issuer `ruc`.
 * @param {{ scenario?: Scenario, type?: string, env?: string, sequential?: number, date?: string, ruc?: string, series?: string }} [opts]
 * @returns {string}
 */
export function keyFor(opts = {}) {
	const {
		scenario = 'authorized',
		type = '01',
		env = '2',
		sequential = 123,
		date = '21102026',
		ruc = ISSUER_RUC,
		series = '001001',
	} = opts;
	const first48 = `${date}${type}${ruc}${env}${series}${String(sequential).padStart(9, '0')}${SCENARIOS[scenario]}1`;
	return `${first48}${checkDigit(first48)}`;
}

/** The parts of a key (SRI layout). */
export function splitKey(key) {
	return {
		date: key.slice(0, 8),
		type: key.slice(8, 10),
		ruc: key.slice(10, 23),
		env: key.slice(23, 24),
		estab: key.slice(24, 27),
		ptoEmi: key.slice(27, 30),
		sequential: key.slice(30, 39),
		code: key.slice(39, 47),
	};
}

const escapeXml = (s) =>
	String(s)
		.replace(/&/g, '&amp;')
		.replace(/</g, '&lt;')
		.replace(/>/g, '&gt;')
		.replace(/"/g, '&quot;');

/** `<name>value</name>` for each entry (values escaped; an array value: the element once per value). */
function fields(entries) {
	return Object.entries(entries)
		.filter(([, v]) => v !== undefined)
		.map(([k, v]) =>
			Array.isArray(v) ? v.map((x) => `<${k}>${x}</${k}>`).join('') : `<${k}>${v}</${k}>`,
		)
		.join('');
}

const money = (n) => n.toFixed(2);
const SIGNATURE =
	'<ds:Signature xmlns:ds="http://www.w3.org/2000/09/xmldsig#" Id="Signature620397"><ds:SignedInfo Id="Signature-SignedInfo814463"><ds:CanonicalizationMethod Algorithm="http://www.w3.org/TR/2001/REC-xml-c14n-20010315"/><ds:SignatureMethod Algorithm="http://www.w3.org/2000/09/xmldsig#rsa-sha1"/><ds:Reference URI="#comprobante"><ds:DigestMethod Algorithm="http://www.w3.org/2000/09/xmldsig#sha1"/><ds:DigestValue>c2ltdWxhdG9y</ds:DigestValue></ds:Reference></ds:SignedInfo><ds:SignatureValue>c2ltdWxhdGVkIHNpZ25hdHVyZQ==</ds:SignatureValue><ds:KeyInfo><ds:X509Data><ds:X509Certificate>c2ltdWxhdG9y</ds:X509Certificate></ds:X509Data></ds:KeyInfo></ds:Signature>';

/** The default version of each kind's sample (the latest the SRI publishes). */
const LATEST = {
	factura: '2.1.0',
	liquidacionCompra: '1.1.0',
	notaCredito: '1.1.0',
	notaDebito: '1.0.0',
	guiaRemision: '1.1.0',
	comprobanteRetencion: '2.0.0',
};

/**
 * A sample receipt for `key` (its date, type, RUC, environment, series and sequential), in the structure of
 * the SRI's XSD of its kind and `version`: an invoice of two items (20.00 at IVA 15 %, 5.00 at 0 %: 28.00), a
 * credit and a debit note of 10.00 + IVA, a retention of a 100.00 + IVA invoice (1.75 renta, 4.50 IVA), a
 * waybill, a purchase settlement. `badTotals` makes the invoice's total 29.00; `claveAcceso` puts another key
 * inside.
 * @param {string} key
 * @param {{ version?: string, badTotals?: boolean, claveAcceso?: string }} [opts]
 * @returns {string}
 */
export function receiptXml(key, opts = {}) {
	const k = splitKey(key);
	const root = /** @type {Record<string, string>} */ (ROOTS)[k.type] ?? 'factura';
	const version = opts.version ?? /** @type {Record<string, string>} */ (LATEST)[root];
	const fecha = `${k.date.slice(0, 2)}/${k.date.slice(2, 4)}/${k.date.slice(4)}`;
	const tributaria = `<infoTributaria>${fields({
		ambiente: k.env,
		tipoEmision: '1',
		razonSocial: 'Distribuidora Andina S.A.',
		nombreComercial: 'Andina',
		ruc: k.ruc,
		claveAcceso: opts.claveAcceso ?? key,
		codDoc: k.type,
		estab: k.estab,
		ptoEmi: k.ptoEmi,
		secuencial: k.sequential,
		dirMatriz: 'Av. Amazonas N34-120 y Atahualpa, Quito',
		contribuyenteRimpe:
			root === 'factura' && version === '2.1.0' ? 'CONTRIBUYENTE RÉGIMEN RIMPE' : undefined,
	})}</infoTributaria>`;
	const buyer = {
		tipoIdentificacionComprador: '05',
		razonSocialComprador: 'María José Pérez &amp; Hijos',
		identificacionComprador: '1713175071',
	};
	const vat = (base, rate = 15, code = '4') =>
		fields({
			codigo: '2',
			codigoPorcentaje: code,
			tarifa: money(rate),
			baseImponible: money(base),
			valor: money((base * rate) / 100),
		});
	const totalVat = (base, rate = 15, code = '4') =>
		fields({
			codigo: '2',
			codigoPorcentaje: code,
			baseImponible: money(base),
			valor: money((base * rate) / 100),
		});
	const adicional =
		'<infoAdicional><campoAdicional nombre="Email">compras@andina.ec</campoAdicional><campoAdicional nombre="Dirección">Quito</campoAdicional></infoAdicional>';
	const items = (codeField) =>
		`<detalles><detalle>${fields({
			[codeField]: 'P-001',
			descripcion: 'Resma de papel A4',
			...(codeField === 'codigoPrincipal' ? {} : {}),
			cantidad: '2.000000',
			precioUnitario: '10.000000',
			descuento: '0.00',
			precioTotalSinImpuesto: '20.00',
		})}<impuestos><impuesto>${vat(20)}</impuesto></impuestos></detalle><detalle>${fields({
			[codeField]: 'P-002',
			descripcion: 'Libro de texto',
			cantidad: '1.000000',
			precioUnitario: '5.500000',
			descuento: '0.50',
			precioTotalSinImpuesto: '5.00',
		})}<impuestos><impuesto>${vat(5, 0, '0')}</impuesto></impuestos></detalle></detalles>`;
	const pagos = (total) =>
		`<pagos><pago>${fields({ formaPago: '01', total: money(total) })}</pago></pagos>`;
	let body;
	if (root === 'factura' || root === 'liquidacionCompra') {
		const invoice = root === 'factura';
		const info = invoice ? 'infoFactura' : 'infoLiquidacionCompra';
		const party = invoice
			? buyer
			: {
					tipoIdentificacionProveedor: '05',
					razonSocialProveedor: 'Juan Carlos Quispe',
					identificacionProveedor: '1713175071',
					direccionProveedor: 'Riobamba',
				};
		body =
			`<${info}>${fields({
				fechaEmision: fecha,
				dirEstablecimiento: 'Av. Amazonas N34-120, Quito',
				obligadoContabilidad: 'SI',
				...party,
				totalSinImpuestos: '25.00',
				totalDescuento: '0.50',
			})}<totalConImpuestos><totalImpuesto>${totalVat(20)}</totalImpuesto><totalImpuesto>${totalVat(5, 0, '0')}</totalImpuesto></totalConImpuestos>${fields(
				{
					propina: invoice ? '0.00' : undefined,
					importeTotal: opts.badTotals ? '29.00' : '28.00',
					moneda: 'DOLAR',
				},
			)}${invoice && version === '1.0.0' ? '' : pagos(28)}</${info}>` +
			items(invoice ? 'codigoPrincipal' : 'codigoPrincipal');
	} else if (root === 'notaCredito') {
		body =
			`<infoNotaCredito>${fields({
				fechaEmision: fecha,
				dirEstablecimiento: 'Av. Amazonas N34-120, Quito',
				...buyer,
				obligadoContabilidad: 'SI',
				codDocModificado: '01',
				numDocModificado: '001-001-000000120',
				fechaEmisionDocSustento: '01/10/2026',
				totalSinImpuestos: '10.00',
				valorModificacion: '11.50',
				moneda: 'DOLAR',
			})}<totalConImpuestos><totalImpuesto>${totalVat(10)}</totalImpuesto></totalConImpuestos><motivo>Devolución de mercadería</motivo></infoNotaCredito>` +
			`<detalles><detalle>${fields({
				codigoInterno: 'P-001',
				descripcion: 'Resma de papel A4',
				cantidad: '1.000000',
				precioUnitario: '10.000000',
				descuento: '0.00',
				precioTotalSinImpuesto: '10.00',
			})}<impuestos><impuesto>${vat(10)}</impuesto></impuestos></detalle></detalles>`;
	} else if (root === 'notaDebito') {
		body = `<infoNotaDebito>${fields({
			fechaEmision: fecha,
			dirEstablecimiento: 'Av. Amazonas N34-120, Quito',
			...buyer,
			obligadoContabilidad: 'SI',
			codDocModificado: '01',
			numDocModificado: '001-001-000000120',
			fechaEmisionDocSustento: '01/10/2026',
			totalSinImpuestos: '10.00',
		})}<impuestos><impuesto>${vat(10)}</impuesto></impuestos>${fields({ valorTotal: '11.50' })}${pagos(11.5)}</infoNotaDebito><motivos><motivo>${fields({ razon: 'Interés por mora', valor: '10.00' })}</motivo></motivos>`;
	} else if (root === 'comprobanteRetencion') {
		const subject = {
			tipoIdentificacionSujetoRetenido: '04',
			...(version === '2.0.0' ? { parteRel: 'NO' } : {}),
			razonSocialSujetoRetenido: 'Papelería Central Cía. Ltda.',
			identificacionSujetoRetenido: '1768152560001',
			periodoFiscal: `${k.date.slice(2, 4)}/${k.date.slice(4)}`,
		};
		const info = `<infoCompRetencion>${fields({
			fechaEmision: fecha,
			dirEstablecimiento: 'Av. Amazonas N34-120, Quito',
			obligadoContabilidad: 'SI',
			...subject,
		})}</infoCompRetencion>`;
		const renta = {
			codigo: '1',
			codigoRetencion: '312',
			baseImponible: '100.00',
			porcentajeRetener: '1.75',
			valorRetenido: '1.75',
		};
		const iva = {
			codigo: '2',
			codigoRetencion: '1',
			baseImponible: '15.00',
			porcentajeRetener: '30',
			valorRetenido: '4.50',
		};
		const sustento = {
			codDocSustento: '01',
			numDocSustento: '001001000000120',
			fechaEmisionDocSustento: '01/10/2026',
		};
		body =
			version === '1.0.0'
				? `${info}<impuestos><impuesto>${fields({ ...renta, ...sustento })}</impuesto><impuesto>${fields({ ...iva, ...sustento })}</impuesto></impuestos>`
				: `${info}<docsSustento><docSustento>${fields({
						codSustento: '01',
						...sustento,
						numAutDocSustento: '0110202601176815256000120010010000001201234567811',
						pagoLocExt: '01',
						totalSinImpuestos: '100.00',
						importeTotal: '115.00',
					})}<impuestosDocSustento><impuestoDocSustento>${fields({
						codImpuestoDocSustento: '2',
						codigoPorcentaje: '4',
						baseImponible: '100.00',
						tarifa: '15',
						valorImpuesto: '15.00',
					})}</impuestoDocSustento></impuestosDocSustento><retenciones><retencion>${fields(renta)}</retencion><retencion>${fields(iva)}</retencion></retenciones>${pagos(115)}</docSustento></docsSustento>`;
	} else {
		body = `<infoGuiaRemision>${fields({
			dirEstablecimiento: 'Av. Amazonas N34-120, Quito',
			dirPartida: 'Bodega Norte, Quito',
			razonSocialTransportista: 'Transportes del Sur S.A.',
			tipoIdentificacionTransportista: '04',
			rucTransportista: '1768152560001',
			obligadoContabilidad: 'SI',
			fechaIniTransporte: fecha,
			fechaFinTransporte: fecha,
			placa: 'PBA1234',
		})}</infoGuiaRemision><destinatarios><destinatario>${fields({
			identificacionDestinatario: '1713175071',
			razonSocialDestinatario: 'María José Pérez',
			dirDestinatario: 'Cuenca',
			motivoTraslado: 'Venta',
		})}<detalles><detalle>${fields({ codigoInterno: 'P-001', descripcion: 'Resma de papel A4', cantidad: '20' })}</detalle></detalles></destinatario></destinatarios>`;
	}
	return `<?xml version="1.0" encoding="UTF-8"?><${root} id="comprobante" version="${version}">${tributaria}${body}${adicional}${SIGNATURE}</${root}>`;
}

/**
 * One `autorizacion` entry.
 * @param {{ estado: string, key: string, fecha?: string, comprobante?: string, escaped?: boolean, mensajes?: Array<Record<string, string>> }} e
 */
export function entryXml(e) {
	const env = splitKey(e.key).env;
	const comprobante =
		e.comprobante === undefined
			? ''
			: `<comprobante>${e.escaped ? escapeXml(e.comprobante) : `<![CDATA[${e.comprobante}]]>`}</comprobante>`;
	const mensajes = (e.mensajes ?? [])
		.map(
			(m) =>
				`<mensaje>${fields({
					identificador: m.identificador,
					mensaje: m.mensaje && escapeXml(m.mensaje),
					informacionAdicional: m.informacionAdicional && escapeXml(m.informacionAdicional),
					tipo: m.tipo,
				})}</mensaje>`,
		)
		.join('');
	return `<autorizacion>${fields({
		estado: e.estado,
		numeroAutorizacion: e.estado === 'AUTORIZADO' ? e.key : undefined,
		fechaAutorizacion: e.fecha ?? '2026-10-21T10:15:42.127-05:00',
		ambiente: env === '1' ? 'PRUEBAS' : 'PRODUCCIÓN',
	})}${comprobante}<mensajes>${mensajes}</mensajes></autorizacion>`;
}

/** The SOAP answer for `key` with `entries` (their XML). */
export function answerXml(key, entries) {
	return (
		'<soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body>' +
		'<ns2:autorizacionComprobanteResponse xmlns:ns2="http://ec.gob.sri.ws.autorizacion">' +
		`<RespuestaAutorizacionComprobante><claveAccesoConsultada>${escapeXml(key)}</claveAccesoConsultada>` +
		`<numeroComprobantes>${entries.length}</numeroComprobantes><autorizaciones>${entries.join('')}</autorizaciones>` +
		'</RespuestaAutorizacionComprobante></ns2:autorizacionComprobanteResponse></soap:Body></soap:Envelope>'
	);
}

/** A SOAP 1.1 fault, as a JAX-WS service sends one. */
export function faultXml(faultstring, faultcode = 'soap:Server') {
	return `<soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body><soap:Fault><faultcode>${faultcode}</faultcode><faultstring>${escapeXml(faultstring)}</faultstring></soap:Fault></soap:Body></soap:Envelope>`;
}

export const MAINTENANCE_PAGE =
	'<!DOCTYPE html><html><head><title>SRI - Servicio en mantenimiento</title></head><body><h1>Estimado contribuyente</h1><p>El servicio se encuentra en mantenimiento. Intente más tarde.</p></body></html>';

const xmlAnswer = (status, text) => ({
	status,
	headers: { 'content-type': 'text/xml;charset=UTF-8' },
	raw: Buffer.from(text, 'utf8'),
});

export class SriSimulator {
	prefix = 'sri';
	/** How late the `slow` scenario answers, in milliseconds. */
	slowMs = 60_000;
	/**
	 * A test's own answers, by key (raw SimResponse), instead of the scenario's.
	 * @type {Map<string, SimResponse>}
	 */
	answers = new Map();
	/**
	 * A test's own receipt text, by key, in the scenario's answer instead of the sample (a key of no scenario's
	 * code is then authorized).
	 * @type {Map<string, string>}
	 */
	receipts = new Map();
	/**
	 * The lists of received receipts the portal offers, as it downloads them (bytes), by `<ruc> <yyyy-mm>`: what
	 * `GET /sri/received-list?ruc=…&month=…` answers. Any other RUC or month gets a list of no receipts.
	 * @type {Map<string, Buffer>}
	 */
	receivedLists = new Map();

	reset() {
		this.slowMs = 60_000;
		this.answers.clear();
		this.receipts.clear();
		this.receivedLists.clear();
	}

	/** The keys asked about so far, given the server's requests. */
	static keysAsked(requests) {
		return requests
			.filter((r) => r.service === 'sri')
			.map(
				(r) =>
					/<claveAccesoComprobante>([^<]*)<\/claveAccesoComprobante>/.exec(
						r.raw.toString('utf8'),
					)?.[1],
			);
	}

	/** @param {RouteTable} r */
	register(r) {
		r.add('POST', '/comprobantes-electronicos-ws/AutorizacionComprobantesOffline', (req) =>
			this.answer(req),
		);
		r.add('GET', '/received-list', (req) => this.receivedList(req));
	}

	/**
	 * The portal's download of the receipts issued to `ruc` in `month` (SRI en línea → Facturación electrónica →
	 * Comprobantes electrónicos recibidos, a reCAPTCHA away from any program at the SRI itself: here, a plain GET), as
	 * its .txt comes: a held list, or one of no receipts (its header line only).
	 * @param {SimRequest} req
	 * @returns {SimResponse}
	 */
	receivedList(req) {
		const { ruc = '', month = '' } = req.query;
		if (!/^\d{13}$/.test(ruc) || !/^\d{4}-(0[1-9]|1[0-2])$/.test(month))
			return {
				status: 400,
				headers: { 'content-type': 'text/plain' },
				raw: Buffer.from('ruc (13 digits) and month (yyyy-mm) are required'),
			};
		const raw =
			this.receivedLists.get(`${ruc} ${month}`) ??
			Buffer.from(`${RECEIVED_LIST_COLUMNS.join('\t')}\r\n`, 'latin1');
		return {
			status: 200,
			headers: {
				'content-type': 'text/plain;charset=windows-1252',
				'content-disposition': `attachment; filename="${ruc}_Recibidos_${month}.txt"`,
			},
			raw,
		};
	}

	/**
	 * @param {SimRequest} req
	 * @returns {SimResponse}
	 */
	answer(req) {
		const text = req.raw.toString('utf8');
		if (!/^text\/xml\b/i.test(String(req.headers['content-type'] ?? '')))
			return {
				status: 415,
				raw: Buffer.from('Unsupported Media Type'),
				headers: { 'content-type': 'text/plain' },
			};
		if (req.headers.soapaction === undefined)
			return xmlAnswer(500, faultXml('No SOAPAction header', 'soap:Client'));
		const m =
			/<(?:\w+:)?autorizacionComprobante\b[^>]*>\s*<claveAccesoComprobante>([^<]*)<\/claveAccesoComprobante>/.exec(
				text,
			);
		if (!m)
			return xmlAnswer(
				500,
				faultXml('Unmarshalling Error: no autorizacionComprobante', 'soap:Client'),
			);
		const key = m[1];
		const own = this.answers.get(key);
		if (own) return own;
		if (!/^\d{49}$/.test(key)) return xmlAnswer(200, answerXml(key, []));
		const k = splitKey(key);
		const named = /** @type {Scenario | undefined} */ (
			Object.keys(SCENARIOS).find((s) => SCENARIOS[/** @type {Scenario} */ (s)] === k.code)
		);
		// A key the simulator does not hold (no scenario's code, no receipt of a test's) is one the SRI does not
		// know: it answers with no entry, as the SRI does, never with a receipt of its own making.
		if (named === undefined && !this.receipts.has(key)) return xmlAnswer(200, answerXml(key, []));
		const scenario = named ?? 'authorized';
		const receipt =
			this.receipts.get(key) ??
			receiptXml(key, {
				badTotals: scenario === 'badTotals',
				claveAcceso:
					scenario === 'otherKey' ? keyFor({ sequential: Number(k.sequential) + 1 }) : undefined,
			});
		const test =
			k.env === '1'
				? [
						{
							identificador: '60',
							mensaje: 'ESTE PROCESO FUE REALIZADO EN EL AMBIENTE DE PRUEBAS',
							tipo: 'ADVERTENCIA',
						},
					]
				: [];
		const authorized = (extra = {}) =>
			entryXml({ estado: 'AUTORIZADO', key, comprobante: receipt, mensajes: test, ...extra });
		const rejected = (fecha) =>
			entryXml({
				estado: 'NO AUTORIZADO',
				key,
				fecha,
				comprobante: receipt,
				mensajes: [
					{
						identificador: '52',
						mensaje: 'ERROR EN DIFERENCIAS',
						informacionAdicional: 'La suma de los valores no coincide con el importe total',
						tipo: 'ERROR',
					},
					...test,
				],
			});
		switch (scenario) {
			case 'escaped':
				return xmlAnswer(200, answerXml(key, [authorized({ escaped: true })]));
			case 'notAuthorized':
				return xmlAnswer(200, answerXml(key, [rejected()]));
			case 'several':
				return xmlAnswer(
					200,
					answerXml(key, [rejected('2026-10-21T09:02:11.004-05:00'), authorized()]),
				);
			case 'twoRejections':
				return xmlAnswer(
					200,
					answerXml(key, [
						rejected('2026-10-21T09:02:11.004-05:00'),
						rejected('2026-10-21T11:40:03.500-05:00'),
					]),
				);
			case 'unknown':
				return xmlAnswer(200, answerXml(key, []));
			case 'inProcess':
				return xmlAnswer(
					200,
					answerXml(key, [
						entryXml({
							estado: 'EN PROCESO',
							key,
							mensajes: [
								{ identificador: '70', mensaje: 'CLAVE DE ACCESO EN PROCESAMIENTO', tipo: 'ERROR' },
							],
						}),
					]),
				);
			case 'fault':
				return xmlAnswer(500, faultXml('java.lang.NullPointerException'));
			case 'maintenance':
				return {
					status: 503,
					headers: { 'content-type': 'text/html' },
					raw: Buffer.from(MAINTENANCE_PAGE),
				};
			case 'maintenance200':
				return {
					status: 200,
					headers: { 'content-type': 'text/html' },
					raw: Buffer.from(MAINTENANCE_PAGE),
				};
			case 'slow':
				return { ...xmlAnswer(200, answerXml(key, [authorized()])), lateMs: this.slowMs };
			default:
				return xmlAnswer(200, answerXml(key, [authorized()]));
		}
	}
}
