import { createHash } from 'node:crypto';
import { fakeBase64 } from './cfdi';

/**
 * A month of CFDIs a company received, as the SAT's stamping leaves them (CFDI 4.0 and Pagos 2.0: element and
 * attribute names from the SAT's XSDs cfdv40 and Pagos20), for the DIOT's tests, `npm run dev`'s example (last
 * month's received CFDIs in the sandbox's file folder) and the benchmark. The parties are the SAT's published test
 * RFCs. Every amount is written by hand below, and what the DIOT of the month must say is computed by hand in
 * `HAND_COMPUTED`, the arithmetic in comments: the tests compare the node's file with it.
 *
 * The month (`period`, `YYYY-MM`) is a parameter: dates are days of that month, of the month before and of the
 * month after, so the same CFDIs serve a fixed month in the tests and "last month" in the sandbox.
 */

/** The company filing the DIOT: the receiver of the CFDIs. */
export const TAXPAYER = {
	rfc: 'EKU9003173C9',
	nombre: 'ESCUELA KEMPER URGATE',
	regimen: '601',
	cp: '42501',
};

/** The foreign supplier's data, which no CFDI holds: the DIOT node takes them as per-item values. */
export const FOREIGN_SUPPLIER = { taxId: '98-7654321', country: 'USA' };

/**
 * @typedef {object} TaxSpec
 * @property {string} base
 * @property {string} [impuesto] Default 002 (IVA).
 * @property {string} [tasa] TasaOCuota (`0.160000`); absent for Exento.
 * @property {string} [importe]
 * @property {boolean} [exento]
 */
/**
 * @typedef {object} ConceptoSpec
 * @property {string} clave ClaveProdServ.
 * @property {string} descripcion
 * @property {string} cantidad
 * @property {string} valorUnitario
 * @property {string} importe
 * @property {string} [objetoImp] Default 02.
 * @property {TaxSpec[]} [traslados]
 * @property {TaxSpec[]} [retenciones]
 */
/**
 * @typedef {object} DocSpec
 * @property {string} of The name of the invoice paid (its UUID is derived from it).
 * @property {string} [moneda] MonedaDR, default MXN.
 * @property {string} [equivalencia] EquivalenciaDR, default 1.
 * @property {number} parcialidad
 * @property {string} saldoAnterior
 * @property {string} pagado
 * @property {string} insoluto
 * @property {string} [objetoImp] ObjetoImpDR, default 02.
 * @property {TaxSpec[]} [traslados]
 * @property {TaxSpec[]} [retenciones]
 */
/**
 * @typedef {object} PagoSpec
 * @property {string} fecha FechaPago.
 * @property {string} [formaPago] FormaDePagoP, default 03 (transfer).
 * @property {string} [moneda] MonedaP, default MXN.
 * @property {string} [tipoCambio] TipoCambioP, default 1.
 * @property {string} monto
 * @property {DocSpec[]} docs
 */
/**
 * @typedef {object} CfdiSpec
 * @property {string} name What the CFDI is, in the tests (`ure-pue-16`); its UUID is derived from it and the month.
 * @property {'I' | 'E' | 'P'} tipo
 * @property {'PUE' | 'PPD'} [metodo]
 * @property {string} fecha
 * @property {string} serie
 * @property {string} folio
 * @property {{ rfc: string; nombre: string; regimen: string }} emisor
 * @property {{ rfc: string; nombre: string; regimen: string; cp: string; uso: string }} [receptor] Default the taxpayer.
 * @property {string} [moneda]
 * @property {string} [tipoCambio]
 * @property {ConceptoSpec[]} [conceptos]
 * @property {{ tipo: string; of: string[] }} [relacionados] CfdiRelacionados: TipoRelacion and the related CFDIs' names.
 * @property {string} [lugar] LugarExpedicion (the issuer's postal code), default 06600 (Ciudad de México).
 * @property {string} [formaPago] FormaPago, default 99 (to be defined) for PPD, else 03 (transfer).
 * @property {string} [uso] UsoCFDI, default the receiver's.
 * @property {PagoSpec[]} [pagos]
 * @property {string} [outcome] What the SAT's status service answers for it (test/simulator/sat.js OUTCOMES): default Vigente.
 */

const URE = { rfc: 'URE180429TM6', nombre: 'UNIVERSIDAD ROBOTICA ESPAÑOLA', regimen: '601' };
const XIA = { rfc: 'XIA190128J61', nombre: 'XENON INDUSTRIAL ARTICLES', regimen: '601' };
const IIA = { rfc: 'IIA040805DZ4', nombre: 'INDISTRIA ILUMINADORA DE ALMACENES', regimen: '601' };
const CACX = { rfc: 'CACX7605101P8', nombre: 'XOCHILT CASAS CHAVEZ', regimen: '612' };
const KIJ = { rfc: 'KIJ0906199R1', nombre: 'KIJ, S.A DE C.V.', regimen: '601' };
const FUNK = { rfc: 'FUNK671228PH6', nombre: 'KARLA FUENTE NOLASCO', regimen: '612' };
const MISC = { rfc: 'MISC491214B86', nombre: 'CECILIA MIRANDA SANCHEZ', regimen: '612' };
const EWE = { rfc: 'EWE1709045U0', nombre: 'ESCUELA WILSON ESQUIVEL', regimen: '601' };
const NORTHWIND = { rfc: 'XEXX010101000', nombre: 'NORTHWIND CLOUD SERVICES LLC', regimen: '616' };

/**
 * The builders of a CFDI's spec, shared by this month and the DIOT's tests (test/sat/diot.test.js): every CFDI of the
 * tests is written through them, so a spec has one shape.
 */

/** IVA (002) transferred at `tasa` on `base`: a concepto's line, or a paid document's (TrasladoDR). */
export const iva = (base, tasa, importe) => ({ base, tasa, importe });
const iva16 = (base, importe) => iva(base, '0.160000', importe);

/**
 * A concepto: `cantidad` × `valorUnitario` = `importe`, as written, and its taxes (`traslados`, `retenciones`,
 * `objetoImp`).
 * @param {string} clave
 * @param {string} descripcion
 * @param {[string, string, string]} amounts
 * @param {Partial<ConceptoSpec>} [taxes]
 * @returns {ConceptoSpec}
 */
export const concepto = (clave, descripcion, [cantidad, valorUnitario, importe], taxes = {}) => ({
	clave,
	descripcion,
	cantidad,
	valorUnitario,
	importe,
	...taxes,
});

/**
 * An invoice paid in one exhibition (PUE) unless `extra` says otherwise (`metodo: 'PPD'`, `tipo: 'E'` for a credit
 * note, a currency, a receiver, related CFDIs).
 * @param {string} name
 * @param {CfdiSpec['emisor']} emisor
 * @param {string} fecha
 * @param {[string, string]} number Serie and folio.
 * @param {ConceptoSpec[]} conceptos
 * @param {Partial<CfdiSpec>} [extra]
 * @returns {CfdiSpec}
 */
export const invoice = (name, emisor, fecha, [serie, folio], conceptos, extra = {}) => ({
	name,
	tipo: 'I',
	metodo: 'PUE',
	fecha,
	serie,
	folio,
	emisor,
	conceptos,
	...extra,
});

/**
 * A payment CFDI (Pagos 2.0) of `pagos`.
 * @param {string} name
 * @param {CfdiSpec['emisor']} emisor
 * @param {string} fecha
 * @param {[string, string]} number Serie and folio.
 * @param {PagoSpec[]} pagos
 * @param {Partial<CfdiSpec>} [extra] E.g. its place of issue (`lugar`).
 * @returns {CfdiSpec}
 */
export const paymentCfdi = (name, emisor, fecha, [serie, folio], pagos, extra = {}) => ({
	name,
	tipo: 'P',
	fecha,
	serie,
	folio,
	emisor,
	pagos,
	...extra,
});

/**
 * One installment of invoice `of`: `[ImpSaldoAnt, ImpPagado, ImpSaldoInsoluto]` and its taxes (ImpuestosDR) and
 * currency.
 * @param {string} of
 * @param {number} parcialidad
 * @param {[string, string, string]} balances
 * @param {Partial<DocSpec>} [taxes]
 * @returns {DocSpec}
 */
export const paidDoc = (of, parcialidad, [saldoAnterior, pagado, insoluto], taxes = {}) => ({
	of,
	parcialidad,
	saldoAnterior,
	pagado,
	insoluto,
	...taxes,
});

/** `YYYY-MM` moved by `delta` months. */
export function shiftPeriod(period, delta) {
	const [y, m] = period.split('-').map(Number);
	const k = y * 12 + (m - 1) + delta;
	return `${Math.floor(k / 12)}-${String((k % 12) + 1).padStart(2, '0')}`;
}

/** The month before the one `now` falls in, in Mexico City (the DIOT node's default month), as `YYYY-MM`. */
export function lastPeriod(now = Date.now()) {
	const current = new Intl.DateTimeFormat('en-CA', {
		timeZone: 'America/Mexico_City',
		year: 'numeric',
		month: '2-digit',
	})
		.format(now)
		.slice(0, 7);
	return shiftPeriod(current, -1);
}

/**
 * The month's CFDIs, in the order a folder lists them, with what each is for. `period` is the month the DIOT
 * reports.
 * @returns {CfdiSpec[]}
 */
function month(period) {
	const p = period;
	const before = shiftPeriod(period, -1);
	const after = shiftPeriod(period, 1);
	return [
		invoice(
			'ure-pue-16',
			URE,
			`${p}-03T10:15:00`,
			['A', '4821'],
			[
				concepto('43211503', 'Computadora portátil 14 pulgadas', ['10', '1250.00', '12500.00'], {
					traslados: [iva16('12500.00', '2000.00')],
				}),
				concepto(
					'43232408',
					'Licencia anual de software de inventarios',
					['1', '845.37', '845.37'],
					{
						traslados: [iva16('845.37', '135.26')],
					},
				),
			],
		),
		invoice(
			'ure-credit-note',
			URE,
			`${p}-18T16:40:00`,
			['NC', '112'],
			[
				concepto(
					'43211503',
					'Devolución: computadora portátil 14 pulgadas',
					['1', '1250.00', '1250.00'],
					{
						traslados: [iva16('1250.00', '200.00')],
					},
				),
			],
			{ tipo: 'E', relacionados: { tipo: '03', of: ['ure-pue-16'] } },
		),
		invoice(
			'ure-last-month',
			URE,
			`${before}-28T09:00:00`,
			['A', '4790'],
			[
				concepto('43211708', 'Monitor de 27 pulgadas', ['1', '3000.00', '3000.00'], {
					traslados: [iva16('3000.00', '480.00')],
				}),
			],
		),
		invoice(
			'xia-pue-8-exento',
			XIA,
			`${p}-07T12:00:00`,
			['F', '20931'],
			[
				concepto(
					'31161500',
					'Tornillería de acero inoxidable (caja)',
					['4', '2300.00', '9200.00'],
					{
						traslados: [iva('9200.00', '0.080000', '736.00')],
					},
				),
				concepto(
					'55101500',
					'Libro técnico de instalaciones eléctricas',
					['1', '560.00', '560.00'],
					{
						traslados: [{ base: '560.00', exento: true }],
					},
				),
			],
			// Issued in Tijuana (Baja California): its 8 % goes to the northern border region.
			{ lugar: '22000' },
		),
		paymentCfdi(
			'xia-payment-of-missing-invoice',
			XIA,
			`${p}-14T11:30:00`,
			['CP', '877'],
			[
				{
					fecha: `${p}-14T11:00:00`,
					monto: '4320.00',
					docs: [
						paidDoc('xia-invoice-not-in-the-folder', 1, ['4320.00', '4320.00', '0.00'], {
							traslados: [iva('4000.00', '0.080000', '320.00')],
						}),
					],
				},
			],
			{ lugar: '22000' },
		),
		invoice(
			'xia-cancelled',
			XIA,
			`${p}-21T10:00:00`,
			['F', '20977'],
			[
				concepto(
					'31161500',
					'Tornillería de acero galvanizado (caja)',
					['1', '1000.00', '1000.00'],
					{
						traslados: [iva('1000.00', '0.080000', '80.00')],
					},
				),
			],
			{ outcome: 'C001', lugar: '22000' },
		),
		invoice(
			'iia-pue-0-no-objeto',
			IIA,
			`${p}-12T08:45:00`,
			['B', '301'],
			[
				concepto('50221101', 'Maíz blanco (kg)', ['100', '38.45', '3845.00'], {
					traslados: [iva('3845.00', '0.000000', '0.00')],
				}),
				concepto('84111506', 'Reembolso de gastos de envío', ['1', '1200.50', '1200.50'], {
					objetoImp: '01',
				}),
			],
		),
		invoice(
			'cacx-fees-withheld',
			CACX,
			`${p}-15T13:20:00`,
			['H', '58'],
			[
				concepto('84111500', 'Honorarios por asesoría contable', ['1', '15000.00', '15000.00'], {
					traslados: [iva16('15000.00', '2400.00')],
					retenciones: [
						{ base: '15000.00', impuesto: '001', tasa: '0.100000', importe: '1500.00' },
						{ base: '15000.00', impuesto: '002', tasa: '0.106667', importe: '1600.00' },
					],
				}),
			],
		),
		invoice(
			'kij-ppd-two-installments',
			KIJ,
			`${before}-20T10:00:00`,
			['M', '1502'],
			[
				concepto(
					'72101500',
					'Mantenimiento preventivo de montacargas',
					['1', '50000.00', '50000.00'],
					{
						traslados: [iva16('50000.00', '8000.00')],
					},
				),
			],
			{ metodo: 'PPD' },
		),
		paymentCfdi(
			'kij-payment-1-of-2',
			KIJ,
			`${p}-10T12:05:00`,
			['P', '640'],
			[
				{
					fecha: `${p}-10T12:00:00`,
					monto: '29000.00',
					docs: [
						paidDoc('kij-ppd-two-installments', 1, ['58000.00', '29000.00', '29000.00'], {
							traslados: [iva16('25000.00', '4000.00')],
						}),
					],
				},
			],
		),
		paymentCfdi(
			'kij-payment-2-of-2',
			KIJ,
			`${after}-04T09:30:00`,
			['P', '671'],
			[
				{
					fecha: `${after}-04T09:00:00`,
					monto: '29000.00',
					docs: [
						paidDoc('kij-ppd-two-installments', 2, ['29000.00', '29000.00', '0.00'], {
							traslados: [iva16('25000.00', '4000.00')],
						}),
					],
				},
			],
		),
		invoice(
			'funk-ppd-usd',
			FUNK,
			`${p}-02T17:10:00`,
			['T', '88'],
			[
				concepto(
					'82111800',
					'Traducción técnica de manuales (inglés-español)',
					['1', '2000.00', '2000.00'],
					{ traslados: [iva16('2000.00', '320.00')] },
				),
			],
			{ metodo: 'PPD', moneda: 'USD', tipoCambio: '18.3500' },
		),
		paymentCfdi(
			'funk-payment-usd',
			FUNK,
			`${p}-24T10:20:00`,
			['TP', '31'],
			[
				{
					fecha: `${p}-24T10:00:00`,
					moneda: 'USD',
					tipoCambio: '18.9025',
					monto: '2320.00',
					docs: [
						paidDoc('funk-ppd-usd', 1, ['2320.00', '2320.00', '0.00'], {
							moneda: 'USD',
							traslados: [iva16('2000.00', '320.00')],
						}),
					],
				},
			],
		),
		invoice(
			'northwind-foreign',
			NORTHWIND,
			`${p}-01T00:00:00`,
			['INV', '2025118'],
			[
				concepto(
					'81112003',
					'Servidores en la nube, suscripción mensual',
					['1', '500.00', '500.00'],
					{
						traslados: [iva16('500.00', '80.00')],
					},
				),
			],
			{ moneda: 'USD', tipoCambio: '18.2000' },
		),
		invoice(
			'misc-publico-en-general',
			MISC,
			`${p}-20T19:45:00`,
			['T', '9913'],
			[
				concepto('44121600', 'Artículos de papelería', ['1', '431.03', '431.03'], {
					traslados: [iva16('431.03', '68.96')],
				}),
			],
			{
				receptor: {
					rfc: 'XAXX010101000',
					nombre: 'PUBLICO EN GENERAL',
					regimen: '616',
					cp: '42501',
					uso: 'S01',
				},
			},
		),
		invoice(
			'ewe-ppd-unpaid',
			EWE,
			`${p}-28T10:00:00`,
			['C', '2210'],
			[
				concepto(
					'86101700',
					'Curso de capacitación en seguridad industrial',
					['1', '20000.00', '20000.00'],
					{ traslados: [iva16('20000.00', '3200.00')] },
				),
			],
			{ metodo: 'PPD' },
		),
		invoice(
			'issued-by-the-taxpayer',
			{ rfc: TAXPAYER.rfc, nombre: TAXPAYER.nombre, regimen: TAXPAYER.regimen },
			`${p}-09T10:00:00`,
			['E', '1207'],
			[
				concepto('86111600', 'Curso de robótica educativa', ['1', '8000.00', '8000.00'], {
					traslados: [iva16('8000.00', '1280.00')],
				}),
			],
			{ receptor: { ...URE, cp: '65000', uso: 'G03' } },
		),
	];
}

/** A UUID derived from a CFDI's name and month (upper case, version 4 shape), stable across runs. */
export function uuidOf(name, period) {
	const h = createHash('sha256').update(`received:${period}:${name}`).digest('hex').toUpperCase();
	return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-A${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

/** A decimal text as cents (`"1250.00"` → 125000). */
const cents = (/** @type {string} */ s) => Math.round(Number(s) * 100);
const money = (/** @type {number} */ c) =>
	`${Math.floor(c / 100)}.${String(Math.abs(c) % 100).padStart(2, '0')}`;
const esc = (/** @type {string} */ s) =>
	s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** A tax line as an attribute list (`Base="…" Impuesto="002" …`), with `suffix` for Pagos (`DR`). */
function taxAttributes(/** @type {TaxSpec} */ t, suffix = '') {
	return t.exento
		? `Base${suffix}="${t.base}" Impuesto${suffix}="${t.impuesto ?? '002'}" TipoFactor${suffix}="Exento"`
		: `Base${suffix}="${t.base}" Impuesto${suffix}="${t.impuesto ?? '002'}" TipoFactor${suffix}="Tasa" TasaOCuota${suffix}="${t.tasa}" Importe${suffix}="${t.importe}"`;
}

/** The stamp of a CFDI. */
function stamp(uuid, fecha, sello) {
	return `<tfd:TimbreFiscalDigital xmlns:tfd="http://www.sat.gob.mx/TimbreFiscalDigital" xsi:schemaLocation="http://www.sat.gob.mx/TimbreFiscalDigital http://www.sat.gob.mx/sitio_internet/cfd/TimbreFiscalDigital/TimbreFiscalDigitalv11.xsd" Version="1.1" UUID="${uuid}" FechaTimbrado="${fecha.slice(0, 17)}48" RfcProvCertif="SAT970701NN3" SelloCFD="${sello}" NoCertificadoSAT="00001000000509846663" SelloSAT="${fakeBase64(`sat:${uuid}`, 344)}"/>`;
}

/**
 * The XML of one CFDI received in `period`, its UUID derived from its name (`uuidOf`) and its total as written.
 * @param {CfdiSpec} spec
 * @param {string} period
 */
export function receivedCfdi(spec, period) {
	const uuid = uuidOf(spec.name, period);
	const sello = fakeBase64(`sello:${uuid}`, 344);
	const receptor = spec.receptor ?? { ...TAXPAYER, uso: spec.tipo === 'E' ? 'G02' : 'G03' };
	const usoCfdi = spec.tipo === 'P' ? 'CP01' : (spec.uso ?? receptor.uso);
	const formaPago = spec.formaPago ?? (spec.metodo === 'PPD' ? '99' : '03');
	const lugar = spec.lugar ?? (spec.emisor.rfc === 'XEXX010101000' ? '01000' : '06600');
	const pago = spec.tipo === 'P';
	const conceptos = pago
		? [
				{
					clave: '84111506',
					descripcion: 'Pago',
					cantidad: '1',
					valorUnitario: '0',
					importe: '0',
					objetoImp: '01',
				},
			]
		: (spec.conceptos ?? []);

	// The CFDI's own taxes: the conceptos' lines added up per tax, factor and rate (Anexo 20's rule for 4.0).
	/** @type {Map<string, { base: number; importe: number; t: TaxSpec }>} */
	const traslados = new Map();
	/** @type {Map<string, number>} */
	const retenciones = new Map();
	let subtotal = 0;
	for (const c of conceptos) {
		subtotal += cents(c.importe);
		for (const t of c.traslados ?? []) {
			const key = `${t.impuesto ?? '002'}|${t.exento ? 'Exento' : t.tasa}`;
			const sum = traslados.get(key) ?? { base: 0, importe: 0, t };
			sum.base += cents(t.base);
			sum.importe += t.importe ? cents(t.importe) : 0;
			traslados.set(key, sum);
		}
		for (const r of c.retenciones ?? [])
			retenciones.set(
				r.impuesto ?? '002',
				(retenciones.get(r.impuesto ?? '002') ?? 0) + cents(r.importe ?? '0'),
			);
	}
	const trasladados = [...traslados.values()].reduce((a, t) => a + t.importe, 0);
	const retenidos = [...retenciones.values()].reduce((a, r) => a + r, 0);
	const total = subtotal + trasladados - retenidos;

	const conceptosXml = conceptos
		.map((c) => {
			const objeto = c.objetoImp ?? '02';
			const t = (c.traslados ?? []).map((x) => `<cfdi:Traslado ${taxAttributes(x)}/>`).join('');
			const r = (c.retenciones ?? []).map((x) => `<cfdi:Retencion ${taxAttributes(x)}/>`).join('');
			const impuestos =
				t || r
					? `<cfdi:Impuestos>${t ? `<cfdi:Traslados>${t}</cfdi:Traslados>` : ''}${r ? `<cfdi:Retenciones>${r}</cfdi:Retenciones>` : ''}</cfdi:Impuestos>`
					: '';
			return `<cfdi:Concepto ClaveProdServ="${c.clave}" Cantidad="${c.cantidad}" ClaveUnidad="${pago ? 'ACT' : 'H87'}"${pago ? '' : ' Unidad="Pieza"'} Descripcion="${esc(c.descripcion)}" ValorUnitario="${c.valorUnitario}" Importe="${c.importe}" ObjetoImp="${objeto}">${impuestos}</cfdi:Concepto>`;
		})
		.join('');
	const trasladosXml = [...traslados.values()]
		.map(({ base, importe, t }) =>
			t.exento
				? `<cfdi:Traslado Base="${money(base)}" Impuesto="${t.impuesto ?? '002'}" TipoFactor="Exento"/>`
				: `<cfdi:Traslado Base="${money(base)}" Impuesto="${t.impuesto ?? '002'}" TipoFactor="Tasa" TasaOCuota="${t.tasa}" Importe="${money(importe)}"/>`,
		)
		.join('');
	const retencionesXml = [...retenciones.entries()]
		.map(
			([impuesto, importe]) =>
				`<cfdi:Retencion Impuesto="${impuesto}" Importe="${money(importe)}"/>`,
		)
		.join('');
	const impuestosXml =
		trasladosXml || retencionesXml
			? `<cfdi:Impuestos${retenidos ? ` TotalImpuestosRetenidos="${money(retenidos)}"` : ''}${trasladosXml && [...traslados.values()].some((t) => !t.t.exento) ? ` TotalImpuestosTrasladados="${money(trasladados)}"` : ''}>${retencionesXml ? `<cfdi:Retenciones>${retencionesXml}</cfdi:Retenciones>` : ''}${trasladosXml ? `<cfdi:Traslados>${trasladosXml}</cfdi:Traslados>` : ''}</cfdi:Impuestos>`
			: '';
	const relacionados = spec.relacionados
		? `<cfdi:CfdiRelacionados TipoRelacion="${spec.relacionados.tipo}">${spec.relacionados.of.map((n) => `<cfdi:CfdiRelacionado UUID="${uuidOf(n, period)}"/>`).join('')}</cfdi:CfdiRelacionados>`
		: '';
	const pagosXml = pago ? pagos20(spec.pagos ?? [], period) : '';
	const moneda = pago ? 'XXX' : (spec.moneda ?? 'MXN');
	return {
		uuid,
		total: pago ? '0' : money(total),
		xml:
			`<?xml version="1.0" encoding="UTF-8"?>\n` +
			`<cfdi:Comprobante xmlns:cfdi="http://www.sat.gob.mx/cfd/4" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"${pago ? ' xmlns:pago20="http://www.sat.gob.mx/Pagos20"' : ''} xsi:schemaLocation="http://www.sat.gob.mx/cfd/4 http://www.sat.gob.mx/sitio_internet/cfd/4/cfdv40.xsd${pago ? ' http://www.sat.gob.mx/Pagos20 http://www.sat.gob.mx/sitio_internet/cfd/Pagos/Pagos20.xsd' : ''}" Version="4.0" Serie="${spec.serie}" Folio="${spec.folio}" Fecha="${spec.fecha}" Sello="${sello}"${pago ? '' : ` FormaPago="${formaPago}"`} NoCertificado="00001000000504465028" Certificado="${fakeBase64('certificado', 1600)}" SubTotal="${pago ? '0' : money(subtotal)}" Moneda="${moneda}"${spec.tipoCambio && !pago ? ` TipoCambio="${spec.tipoCambio}"` : ''} Total="${pago ? '0' : money(total)}" TipoDeComprobante="${spec.tipo}" Exportacion="01"${pago ? '' : ` MetodoPago="${spec.metodo}"`} LugarExpedicion="${lugar}">` +
			relacionados +
			`<cfdi:Emisor Rfc="${esc(spec.emisor.rfc)}" Nombre="${esc(spec.emisor.nombre)}" RegimenFiscal="${spec.emisor.regimen}"/>` +
			`<cfdi:Receptor Rfc="${esc(receptor.rfc)}" Nombre="${esc(receptor.nombre)}" DomicilioFiscalReceptor="${receptor.cp}" RegimenFiscalReceptor="${receptor.regimen}" UsoCFDI="${usoCfdi}"/>` +
			`<cfdi:Conceptos>${conceptosXml}</cfdi:Conceptos>` +
			impuestosXml +
			`<cfdi:Complemento>${pagosXml}${stamp(uuid, spec.fecha, sello)}</cfdi:Complemento>` +
			`</cfdi:Comprobante>\n`,
	};
}

/** The payments complement 2.0 (Pagos20.xsd), its totals in pesos as the SAT requires. */
function pagos20(/** @type {PagoSpec[]} */ pagos, period) {
	let totalPesos = 0;
	let base16 = 0;
	let iva16Total = 0;
	let base8 = 0;
	let iva8Total = 0;
	const pagosXml = pagos
		.map((p) => {
			const rate = Number(p.tipoCambio ?? '1');
			totalPesos += Math.round(cents(p.monto) * rate);
			/** @type {Map<string, { base: number; importe: number; tasa: string }>} */
			const byRate = new Map();
			const docs = p.docs
				.map((d) => {
					for (const t of d.traslados ?? []) {
						const sum = byRate.get(t.tasa ?? '') ?? { base: 0, importe: 0, tasa: t.tasa ?? '' };
						// ImpuestosP are in the payment's currency: BaseP = Σ BaseDR ÷ EquivalenciaDR.
						const equivalencia = Number(d.equivalencia ?? '1');
						sum.base += Math.round(cents(t.base) / equivalencia);
						sum.importe += Math.round(cents(t.importe ?? '0') / equivalencia);
						byRate.set(t.tasa ?? '', sum);
					}
					const traslados = (d.traslados ?? [])
						.map((t) => `<pago20:TrasladoDR ${taxAttributes(t, 'DR')}/>`)
						.join('');
					const retenciones = (d.retenciones ?? [])
						.map((t) => `<pago20:RetencionDR ${taxAttributes(t, 'DR')}/>`)
						.join('');
					const objeto = d.objetoImp ?? '02';
					return (
						`<pago20:DoctoRelacionado IdDocumento="${uuidOf(d.of, period)}" MonedaDR="${d.moneda ?? 'MXN'}" EquivalenciaDR="${d.equivalencia ?? '1'}" NumParcialidad="${d.parcialidad}" ImpSaldoAnt="${d.saldoAnterior}" ImpPagado="${d.pagado}" ImpSaldoInsoluto="${d.insoluto}" ObjetoImpDR="${objeto}">` +
						(objeto === '02'
							? `<pago20:ImpuestosDR>${retenciones ? `<pago20:RetencionesDR>${retenciones}</pago20:RetencionesDR>` : ''}${traslados ? `<pago20:TrasladosDR>${traslados}</pago20:TrasladosDR>` : ''}</pago20:ImpuestosDR>`
							: '') +
						`</pago20:DoctoRelacionado>`
					);
				})
				.join('');
			for (const t of byRate.values()) {
				const pesosBase = Math.round(t.base * rate);
				const pesosIva = Math.round(t.importe * rate);
				if (t.tasa === '0.160000') {
					base16 += pesosBase;
					iva16Total += pesosIva;
				} else if (t.tasa === '0.080000') {
					base8 += pesosBase;
					iva8Total += pesosIva;
				}
			}
			const impuestosP = [...byRate.values()]
				.map(
					(t) =>
						`<pago20:TrasladoP BaseP="${money(t.base)}" ImpuestoP="002" TipoFactorP="Tasa" TasaOCuotaP="${t.tasa}" ImporteP="${money(t.importe)}"/>`,
				)
				.join('');
			return (
				`<pago20:Pago FechaPago="${p.fecha}" FormaDePagoP="${p.formaPago ?? '03'}" MonedaP="${p.moneda ?? 'MXN'}" TipoCambioP="${p.tipoCambio ?? '1'}" Monto="${p.monto}">` +
				docs +
				(impuestosP
					? `<pago20:ImpuestosP><pago20:TrasladosP>${impuestosP}</pago20:TrasladosP></pago20:ImpuestosP>`
					: '') +
				`</pago20:Pago>`
			);
		})
		.join('');
	const totals = [
		base8
			? ` TotalTrasladosBaseIVA8="${money(base8)}" TotalTrasladosImpuestoIVA8="${money(iva8Total)}"`
			: '',
		base16
			? ` TotalTrasladosBaseIVA16="${money(base16)}" TotalTrasladosImpuestoIVA16="${money(iva16Total)}"`
			: '',
	].join('');
	return `<pago20:Pagos Version="2.0"><pago20:Totales${totals} MontoTotalPagos="${money(totalPesos)}"/>${pagosXml}</pago20:Pagos>`;
}

/**
 * @typedef {object} ReceivedCfdi
 * @property {string} name
 * @property {string} fileName As the SAT's download names it: `<UUID>.xml` (a duplicate: `<UUID> (1).xml`).
 * @property {string} xml
 * @property {string} uuid
 * @property {string} emisorRfc
 * @property {string} receptorRfc
 * @property {string} total As the CFDI writes it.
 * @property {string} outcome What the SAT's status service answers (sat.js OUTCOMES code).
 */

/**
 * The month's received CFDIs, files in the order a folder lists them (by name), plus one downloaded twice (the
 * first invoice again under another file name).
 * @param {string} period `YYYY-MM`
 * @returns {ReceivedCfdi[]}
 */
export function receivedMonth(period) {
	const files = asFiles(month(period), period);
	const first = files[0];
	files.push({
		...first,
		name: `${first.name} (downloaded twice)`,
		fileName: `${first.uuid} (1).xml`,
	});
	return files.sort((a, b) => a.fileName.localeCompare(b.fileName));
}

/**
 * CFDIs as the files of a folder, named `<UUID>.xml` as the SAT's download names them.
 * @param {CfdiSpec[]} specs
 * @param {string} period
 * @returns {ReceivedCfdi[]}
 */
function asFiles(specs, period) {
	return specs.map((spec) => {
		const { uuid, xml, total } = receivedCfdi(spec, period);
		return {
			name: spec.name,
			fileName: `${uuid}.xml`,
			xml,
			uuid,
			emisorRfc: spec.emisor.rfc,
			receptorRfc: (spec.receptor ?? TAXPAYER).rfc,
			total,
			outcome: spec.outcome ?? 'A000',
		};
	});
}

/** A DIOT line from its fields by number (1–54); the others empty. */
function line(/** @type {Record<number, string | number>} */ fields) {
	return Array.from({ length: 54 }, (_, k) => String(fields[k + 1] ?? '')).join('|');
}

/**
 * What the DIOT of `period` must say about the month (taxpayer EKU9003173C9; Type of Operation 85, and 03 for
 * CACX7605101P8's fees; 8 % in the northern region; the foreign supplier in the USA with tax ID 98-7654321;
 * fiscal effect 01), computed by hand. Amounts in whole pesos by the Código Fiscal de la Federación's rule (art.
 * 20: up to 50 centavos down, from 51 up), each rounded once, after adding up.
 */
export function handComputed(period) {
	const uuid = (/** @type {string} */ name) => uuidOf(name, period);
	return {
		/** The file's lines, in the node's order: national suppliers by RFC, then foreign, then the global line. */
		lines: [
			// CACX7605101P8, operation 03: fees 15,000.00 at 16 % → field 12 = 15000; IVA 2,400.00 → field 22 = 2400;
			// IVA withheld 1,600.00 (10.6667 %) → field 48 = 1600 (ISR withheld is not in the DIOT).
			line({ 1: '04', 2: '03', 3: 'CACX7605101P8', 12: 15000, 22: 2400, 48: 1600, 54: '01' }),
			// FUNK671228PH6: a PPD invoice in USD, paid whole in the month in USD at 18.9025:
			// base 2,000.00 × 18.9025 = 37,805.00 → 37805; IVA 320.00 × 18.9025 = 6,048.80 → 6049 (80 centavos: up).
			// (The invoice's own rate, 18.35, is not used: IVA is credited as paid.)
			line({ 1: '04', 2: '85', 3: 'FUNK671228PH6', 12: 37805, 22: 6049, 54: '01' }),
			// IIA040805DZ4: 100 × 38.45 = 3,845.00 at 0 % → field 51 = 3845; a refund of expenses not subject to
			// IVA (ObjetoImp 01) 1,200.50 → field 52 = 1200 (50 centavos: down).
			line({ 1: '04', 2: '85', 3: 'IIA040805DZ4', 51: 3845, 52: 1200, 54: '01' }),
			// KIJ0906199R1: the PPD invoice of last month (50,000.00 + 8,000.00 IVA) paid in two installments of
			// 29,000.00; only the first is in the month: its ImpuestosDR base 25,000.00 → 25000, IVA 4,000.00 → 4000.
			line({ 1: '04', 2: '85', 3: 'KIJ0906199R1', 12: 25000, 22: 4000, 54: '01' }),
			// URE180429TM6: 12,500.00 + 845.37 = 13,345.37 at 16 % → field 12 = 13345; the credit note's
			// 1,250.00 → field 13 = 1250; IVA 2,000.00 + 135.26 − 200.00 (the credit note's) = 1,935.26 → 1935.
			// The invoice of last month and the second copy of the first are left out.
			line({ 1: '04', 2: '85', 3: 'URE180429TM6', 12: 13345, 13: 1250, 22: 1935, 54: '01' }),
			// XIA190128J61, northern border: 9,200.00 at 8 % plus the 4,000.00 its payment CFDI says it was paid for
			// an invoice not in the folder = 13,200.00 → field 8; IVA 736.00 + 320.00 = 1,056.00 → field 18;
			// the exempt book 560.00 → field 50. Its cancelled invoice (1,000.00) is left out.
			line({ 1: '04', 2: '85', 3: 'XIA190128J61', 8: 13200, 18: 1056, 50: 560, 54: '01' }),
			// NORTHWIND CLOUD SERVICES LLC (foreign, USA, operation 07): 500.00 USD × 18.20 = 9,100.00 → field 16
			// (intangibles and services); IVA 80.00 × 18.20 = 1,456.00 → field 26.
			line({
				1: '05',
				2: '07',
				4: '98-7654321',
				5: 'NORTHWIND CLOUD SERVICES LLC',
				6: 'USA',
				16: 9100,
				26: 1456,
				54: '01',
			}),
			// The global line: a CFDI to the public in general (XAXX010101000): 431.03 → 431; IVA 68.96 → 69, not
			// creditable for lacking requirements (field 37: the CFDI names no receiver), field 54 02.
			line({ 1: '15', 2: '87', 3: 'XAXX010101000', 12: 431, 37: 69, 54: '02' }),
		],
		/** The CFDIs each line came from (a paid PPD invoice is in its payment's line). */
		cfdis: {
			CACX7605101P8: [uuid('cacx-fees-withheld')],
			FUNK671228PH6: [uuid('funk-payment-usd'), uuid('funk-ppd-usd')],
			IIA040805DZ4: [uuid('iia-pue-0-no-objeto')],
			KIJ0906199R1: [uuid('kij-payment-1-of-2'), uuid('kij-ppd-two-installments')],
			URE180429TM6: [uuid('ure-pue-16'), uuid('ure-credit-note')],
			XIA190128J61: [uuid('xia-pue-8-exento'), uuid('xia-payment-of-missing-invoice')],
			'98-7654321': [uuid('northwind-foreign')],
			XAXX010101000: [uuid('misc-publico-en-general')],
		},
		/** The CFDIs left out, each with the words its warning must hold. */
		leftOut: {
			'ure-last-month': `dated ${shiftPeriod(period, -1)}-28, not in ${period}`,
			'ure-pue-16': 'a duplicate of',
			'xia-cancelled': 'cancelled (Cancelado',
			'kij-payment-2-of-2': `paid on ${shiftPeriod(period, 1)}-04, not in ${period}`,
			'ewe-ppd-unpaid': `a PPD invoice (paid in installments or later) with no payment dated in ${period}`,
			'issued-by-the-taxpayer': 'issued by the taxpayer EKU9003173C9 itself',
		},
		/**
		 * Other warnings: a payment of an invoice that is not among the items; where the credit note went; the IVA of
		 * a CFDI to the public in general, not creditable.
		 */
		notes: {
			'xia-payment-of-missing-invoice': `pays invoice ${uuid('xia-invoice-not-in-the-folder')}, which is not among the input items`,
			'ure-credit-note': `credit note, a return (TipoRelacion 03 of ${uuid('ure-pue-16')}): in fields 13, 22`,
			'misc-publico-en-general':
				'issued to the public in general (XAXX010101000), not to the taxpayer: its IVA cannot be credited',
		},
	};
}

const JUFA = { rfc: 'JUFA7608212V6', nombre: 'ADRIANA JUAREZ FERNANDEZ', regimen: '612' };

/**
 * A month as a real company files it (issue 43), each CFDI a case the DIOT must read with what it relates to: a PPD
 * invoice, its credit note and the payment that nets it; an advance of last month applied with a type-07 note; a
 * credit note for last month's purchase; a foreign supplier without a tax ID; an 8 % CFDI from Chiapas; a supplier
 * whose IVA is not creditable and one whose IVA is creditable by proportion; a cash purchase above MXN 2,000.
 * `REAL_MONTH_SUPPLIERS` is the form's Suppliers table for it; `realMonthComputed` what the DIOT must say.
 * @param {string} period
 * @returns {CfdiSpec[]}
 */
function realMonthSpecs(period) {
	const p = period;
	const before = shiftPeriod(period, -1);
	const iva16 = (base, importe) => iva(base, '0.160000', importe);
	const service = (descripcion, importe, tax) =>
		concepto('80101500', descripcion, ['1', importe, importe], { traslados: [tax] });
	return [
		// A PPD invoice of 1,000.00 + 160.00, a credit note of 100.00 + 16.00 related to it before any payment, and a
		// payment of the 1,044.00 left, whose ImpuestosDR carry the reduced balance (900.00 + 144.00).
		invoice(
			'kij-ppd',
			KIJ,
			`${p}-02T10:00:00`,
			['M', '2001'],
			[service('Mantenimiento de montacargas', '1000.00', iva16('1000.00', '160.00'))],
			{ metodo: 'PPD' },
		),
		invoice(
			'kij-ppd-credit-note',
			KIJ,
			`${p}-05T10:00:00`,
			['NC', '2002'],
			[service('Bonificación por retraso', '100.00', iva16('100.00', '16.00'))],
			{ tipo: 'E', relacionados: { tipo: '01', of: ['kij-ppd'] } },
		),
		paymentCfdi(
			'kij-ppd-payment',
			KIJ,
			`${p}-20T12:05:00`,
			['P', '2003'],
			[
				{
					fecha: `${p}-20T12:00:00`,
					monto: '1044.00',
					docs: [
						paidDoc('kij-ppd', 1, ['1044.00', '1044.00', '0.00'], {
							traslados: [iva16('900.00', '144.00')],
						}),
					],
				},
			],
		),
		// An advance of 2,000.00 + 320.00 paid last month; this month the invoice of the whole, 5,000.00 + 800.00,
		// and the type-07 note applying the advance (FormaPago 30): 3,000.00 + 480.00 paid now.
		invoice(
			'iia-advance',
			IIA,
			`${before}-15T10:00:00`,
			['A', '70'],
			[
				concepto('84111506', 'Anticipo del bien o servicio', ['1', '2000.00', '2000.00'], {
					traslados: [iva16('2000.00', '320.00')],
				}),
			],
		),
		invoice(
			'iia-final',
			IIA,
			`${p}-08T10:00:00`,
			['A', '71'],
			[service('Luminarias industriales instaladas', '5000.00', iva16('5000.00', '800.00'))],
			{ relacionados: { tipo: '07', of: ['iia-advance'] } },
		),
		invoice(
			'iia-advance-applied',
			IIA,
			`${p}-08T10:05:00`,
			['NA', '72'],
			[
				concepto('84111506', 'Aplicación de anticipo', ['1', '2000.00', '2000.00'], {
					traslados: [iva16('2000.00', '320.00')],
				}),
			],
			{ tipo: 'E', formaPago: '30', relacionados: { tipo: '07', of: ['iia-final'] } },
		),
		// A purchase of last month, and this month its credit note: no purchase of the month to set it against.
		invoice(
			'ure-bought-last-month',
			URE,
			`${before}-25T10:00:00`,
			['A', '5001'],
			[service('Curso de robótica', '1250.00', iva16('1250.00', '200.00'))],
		),
		invoice(
			'ure-credit-note-of-last-month',
			URE,
			`${p}-06T10:00:00`,
			['NC', '5002'],
			[service('Devolución: curso de robótica', '1250.00', iva16('1250.00', '200.00'))],
			{ tipo: 'E', relacionados: { tipo: '01', of: ['ure-bought-last-month'] } },
		),
		// A foreign supplier whose tax ID the bookkeeper has not given.
		invoice(
			'northwind-no-tax-id',
			NORTHWIND,
			`${p}-01T00:00:00`,
			['INV', '2025200'],
			[service('Servidores en la nube', '500.00', iva16('500.00', '80.00'))],
			{ moneda: 'USD', tipoCambio: '18.2000' },
		),
		// 8 % from Tuxtla Gutiérrez (Chiapas): the southern border region.
		invoice(
			'xia-chiapas-8',
			XIA,
			`${p}-12T10:00:00`,
			['S', '9001'],
			[
				concepto('31161500', 'Tornillería (caja)', ['1', '1000.00', '1000.00'], {
					traslados: [iva('1000.00', '0.080000', '80.00')],
				}),
			],
			{ lugar: '29000' },
		),
		// A supplier whose IVA is not creditable (the company's exempt activities), one creditable by proportion.
		invoice(
			'jufa-exempt-activities',
			JUFA,
			`${p}-14T10:00:00`,
			['J', '31'],
			[service('Asesoría para actividades exentas', '2000.00', iva16('2000.00', '320.00'))],
		),
		invoice(
			'funk-proportional',
			FUNK,
			`${p}-16T10:00:00`,
			['T', '120'],
			[service('Traducción de contratos', '4000.00', iva16('4000.00', '640.00'))],
		),
		// Paid in cash (FormaPago 01): 2,320.00, above MXN 2,000.
		invoice(
			'misc-cash',
			MISC,
			`${p}-18T10:00:00`,
			['T', '9950'],
			[service('Papelería y consumibles', '2000.00', iva16('2000.00', '320.00'))],
			{ formaPago: '01' },
		),
	];
}

/** The form's Suppliers table for the real month: what no CFDI says, one row per supplier. */
export const REAL_MONTH_SUPPLIERS = [
	{ rfc: 'JUFA7608212V6', ivaTreatment: 'exempt' },
	{ rfc: 'FUNK671228PH6', ivaTreatment: 'proportional', ivaProportion: '0.75' },
	// Its country is known; its tax ID not yet.
	{ rfc: 'NORTHWIND CLOUD SERVICES LLC', country: 'USA' },
];

/**
 * The real month's files, as a folder lists them.
 * @param {string} period
 * @returns {ReceivedCfdi[]}
 */
export function realMonth(period) {
	return asFiles(realMonthSpecs(period), period).sort((a, b) =>
		a.fileName.localeCompare(b.fileName),
	);
}

/**
 * What the DIOT of the real month must say, computed by hand (Suppliers table `REAL_MONTH_SUPPLIERS`, everything
 * else the form's defaults): its lines, and the words of the warning or problem about each case.
 */
export function realMonthComputed(period) {
	const uuid = (/** @type {string} */ name) => uuidOf(name, period);
	return {
		lines: [
			// Proportion 0.75: IVA 640.00 → 480 creditable (field 23), 160 not creditable by proportion (field 36).
			line({ 1: '04', 2: '85', 3: 'FUNK671228PH6', 12: 4000, 23: 480, 36: 160, 54: '01' }),
			// 5,000.00 − the advance applied 2,000.00 = 3,000.00; IVA 800.00 − 320.00 = 480.00: what was paid now.
			line({ 1: '04', 2: '85', 3: 'IIA040805DZ4', 12: 3000, 22: 480, 54: '01' }),
			// Not creditable, for the company's exempt activities: field 38.
			line({ 1: '04', 2: '85', 3: 'JUFA7608212V6', 12: 2000, 38: 320, 54: '01' }),
			// The payment's ImpuestosDR: 900.00 and IVA 144.00, the IVA actually paid; the credit note is not a return.
			line({ 1: '04', 2: '85', 3: 'KIJ0906199R1', 12: 900, 22: 144, 54: '01' }),
			// Paid in cash: its IVA stays creditable (the default), and a warning says why it may not be.
			line({ 1: '04', 2: '85', 3: 'MISC491214B86', 12: 2000, 22: 320, 54: '01' }),
			// 8 % from Chiapas: the southern border region, fields 10 and 20.
			line({ 1: '04', 2: '85', 3: 'XIA190128J61', 10: 1000, 20: 80, 54: '01' }),
		],
		/** Each case, with the words of its warning. */
		warnings: {
			'kij-ppd-credit-note': `credit note, not a return (TipoRelacion 01 of ${uuid('kij-ppd')}, paid in installments): 1160.00 was still owed`,
			'iia-advance': `left out, dated ${shiftPeriod(period, -1)}-15, not in ${period}`,
			'iia-advance-applied': `credit note, applies an advance (TipoRelacion 07 of ${uuid('iia-final')}): it nets the invoice`,
			'ure-bought-last-month': `left out, dated ${shiftPeriod(period, -1)}-25, not in ${period}`,
			'ure-credit-note-of-last-month': `credit note, a return (TipoRelacion 01 of ${uuid('ure-bought-last-month')}): in fields 13, 22`,
			'misc-cash': 'paid in cash (FormaPago 01) 2320.00 pesos, above MXN 2,000',
		},
		/** Each case, with the words of its problem. */
		problems: {
			'ure-credit-note-of-last-month': `credit note ${uuid('ure-credit-note-of-last-month')}: not in the file, in to_settle`,
			'northwind-no-tax-id':
				'is foreign (RFC XEXX010101000) and the file needs its tax ID (Tax ID, field 4)',
		},
	};
}
