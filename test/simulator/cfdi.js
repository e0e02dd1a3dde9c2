import { createHash } from 'node:crypto';

/**
 * CFDI XML as the SAT's stamping leaves it, for the tests, the simulators and `npm run dev`: CFDI 4.0, 3.3 and
 * 3.2 (Anexo 20; element and attribute names from the SAT's XSDs cfdv40, cfdv33, cfdv32), with a seal, a
 * certificate, the stamp (TimbreFiscalDigital 1.1, or 1.0 for 3.2) and, for a payment CFDI, the payments
 * complement (Pagos 2.0). Amounts are computed in cents, so the totals add up unless a test breaks them on
 * purpose (`tamper`). The seal and certificate are made-up base64 (nothing verifies them here); the seal is
 * derived from the UUID so that its last 8 characters are stable.
 */

/**
 * @typedef {object} ConceptoSpec
 * @property {string} [clave] ClaveProdServ (default 43232408).
 * @property {string} descripcion
 * @property {number} cantidad
 * @property {number} valorUnitario In pesos, at most 2 decimals.
 * @property {number} [descuento]
 * @property {boolean} [iva] IVA 16 % transferred (default true).
 * @property {number} [isrRetenido] ISR withheld, as a rate (e.g. 0.1).
 * @property {boolean} [ivaRetenido] Two thirds of the IVA withheld (services of an individual).
 * @property {string} [unidad] Unidad (default "Pieza"); ClaveUnidad is H87.
 */

/**
 * @typedef {object} PagoSpec
 * @property {string} fechaPago
 * @property {number} monto
 * @property {Array<{ idDocumento: string; serie?: string; folio?: string; parcialidad: number; saldoAnterior: number; pagado: number }>} documentos
 */

/**
 * @typedef {object} CfdiSpec
 * @property {'4.0' | '3.3' | '3.2'} [version]
 * @property {string} [uuid] The stamp's UUID (default: one made from `serie`/`folio`).
 * @property {boolean} [stamped] Whether it has the stamp (default true).
 * @property {'I' | 'E' | 'T' | 'N' | 'P'} [tipo] Default I; P gives a payment CFDI (conceptos and totals 0).
 * @property {string} [serie]
 * @property {string} [folio]
 * @property {string} [fecha] Default 2026-10-15T10:30:00.
 * @property {{ rfc: string; nombre: string; regimen?: string }} [emisor]
 * @property {{ rfc: string; nombre: string; usoCfdi?: string }} [receptor]
 * @property {string} [moneda]
 * @property {ConceptoSpec[]} [conceptos]
 * @property {PagoSpec[]} [pagos]
 * @property {(xml: string) => string} [tamper] Changes the finished XML (a wrong total, a missing node…).
 */

/**
 * @typedef {object} Cfdi
 * @property {string} xml
 * @property {string} uuid
 * @property {string} version
 * @property {string} emisorRfc
 * @property {string} receptorRfc
 * @property {string} total As the CFDI writes it (`1160.00`).
 * @property {string} sello
 * @property {number} subtotal
 * @property {number} trasladados
 * @property {number} retenidos
 */

export const DEFAULT_EMISOR = {
	rfc: 'EKU9003173C9',
	nombre: 'ESCUELA KEMPER URGATE',
	regimen: '601',
};
export const DEFAULT_RECEPTOR = {
	rfc: 'URE180429TM6',
	nombre: 'UNIVERSIDAD ROBOTICA ESPAÑOLA',
	usoCfdi: 'G03',
};

const esc = (/** @type {string} */ s) =>
	s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** Cents as a CFDI amount with 2 decimals. */
const money = (/** @type {number} */ cents) =>
	`${cents < 0 ? '-' : ''}${Math.floor(Math.abs(cents) / 100)}.${String(Math.abs(cents) % 100).padStart(2, '0')}`;
const cents = (/** @type {number} */ pesos) => Math.round(pesos * 100);

/** Made-up base64 of `length` characters derived from `seed` (stable across runs). */
export function fakeBase64(seed, length) {
	let out = '';
	for (let n = 0; out.length < length; n++)
		out += createHash('sha512').update(`${seed}:${n}`).digest('base64').replace(/=+$/, '');
	return out.slice(0, length - 2) + '==';
}

/** A UUID whose last group starts with `code` (the SAT simulator reads it: see sat.js, OUTCOMES). */
export function uuidWith(code, n = 1) {
	return `6F1C0D2A-5B3E-4C7D-9A8B-${code}${n.toString(16).toUpperCase().padStart(8, '0')}`;
}

/** @param {CfdiSpec} spec @returns {Cfdi} */
export function cfdiXml(spec = {}) {
	const version = spec.version ?? '4.0';
	const tipo = spec.tipo ?? 'I';
	const emisor = { ...DEFAULT_EMISOR, ...(spec.emisor ?? {}) };
	const receptor = { ...DEFAULT_RECEPTOR, ...(spec.receptor ?? {}) };
	const serie = spec.serie ?? 'A';
	const folio = spec.folio ?? '1001';
	const uuid = spec.uuid ?? uuidWith('A000', Number.parseInt(folio, 10) || 1);
	const fecha = spec.fecha ?? '2026-10-15T10:30:00';
	const moneda = tipo === 'P' ? 'XXX' : (spec.moneda ?? 'MXN');
	const conceptos =
		tipo === 'P'
			? [{ clave: '84111506', descripcion: 'Pago', cantidad: 1, valorUnitario: 0, iva: false }]
			: (spec.conceptos ?? [
					{ descripcion: 'Licencia de software', cantidad: 2, valorUnitario: 500 },
					{ descripcion: 'Soporte técnico', cantidad: 1, valorUnitario: 160.5, unidad: 'Servicio' },
				]);
	const sello = fakeBase64(`sello:${uuid}`, 344);
	const certificado = fakeBase64('certificado', 1600);

	let subtotal = 0;
	let descuento = 0;
	/** @type {Map<string, { base: number; importe: number }>} */
	const traslados = new Map();
	let ivaRetenido = 0;
	let isrRetenido = 0;
	const lines = conceptos.map((c) => {
		const importe = Math.round(c.cantidad * cents(c.valorUnitario));
		const desc = cents(c.descuento ?? 0);
		const base = importe - desc;
		subtotal += importe;
		descuento += desc;
		const iva = c.iva === false ? undefined : Math.round(base * 0.16);
		const isr = c.isrRetenido ? Math.round(base * c.isrRetenido) : undefined;
		const ivaRet = c.ivaRetenido && iva !== undefined ? Math.round((iva * 2) / 3) : undefined;
		if (iva !== undefined) {
			const t = traslados.get('002|0.160000') ?? { base: 0, importe: 0 };
			t.base += base;
			t.importe += iva;
			traslados.set('002|0.160000', t);
		}
		if (isr !== undefined) isrRetenido += isr;
		if (ivaRet !== undefined) ivaRetenido += ivaRet;
		return { c, importe, desc, base, iva, isr, ivaRet };
	});
	const trasladados = [...traslados.values()].reduce((a, t) => a + t.importe, 0);
	const retenidos = isrRetenido + ivaRetenido;
	const total = subtotal - descuento + trasladados - retenidos;

	let xml;
	if (version === '3.2') {
		xml = cfdi32({
			serie,
			folio,
			fecha,
			sello,
			certificado,
			subtotal,
			total,
			emisor,
			receptor,
			lines,
			trasladados,
			uuid,
			stamped: spec.stamped !== false,
			moneda,
		});
	} else {
		const v4 = version === '4.0';
		const ns = v4 ? 'http://www.sat.gob.mx/cfd/4' : 'http://www.sat.gob.mx/cfd/3';
		const schema = v4
			? 'http://www.sat.gob.mx/cfd/4 http://www.sat.gob.mx/sitio_internet/cfd/4/cfdv40.xsd'
			: 'http://www.sat.gob.mx/cfd/3 http://www.sat.gob.mx/sitio_internet/cfd/3/cfdv33.xsd';
		const pagosNs = tipo === 'P' ? ' xmlns:pago20="http://www.sat.gob.mx/Pagos20"' : '';
		const pagosSchema =
			tipo === 'P'
				? ' http://www.sat.gob.mx/Pagos20 http://www.sat.gob.mx/sitio_internet/cfd/Pagos/Pagos20.xsd'
				: '';
		const impuestosConcepto = (/** @type {typeof lines[number]} */ l) => {
			if (l.iva === undefined && l.isr === undefined) return '';
			const t =
				l.iva === undefined
					? ''
					: `<cfdi:Traslados><cfdi:Traslado Base="${money(l.base)}" Impuesto="002" TipoFactor="Tasa" TasaOCuota="0.160000" Importe="${money(l.iva)}"/></cfdi:Traslados>`;
			const r = [
				l.isr === undefined
					? ''
					: `<cfdi:Retencion Base="${money(l.base)}" Impuesto="001" TipoFactor="Tasa" TasaOCuota="${(l.c.isrRetenido ?? 0).toFixed(6)}" Importe="${money(l.isr)}"/>`,
				l.ivaRet === undefined
					? ''
					: `<cfdi:Retencion Base="${money(l.base)}" Impuesto="002" TipoFactor="Tasa" TasaOCuota="0.106667" Importe="${money(l.ivaRet)}"/>`,
			].join('');
			return `<cfdi:Impuestos>${t}${r ? `<cfdi:Retenciones>${r}</cfdi:Retenciones>` : ''}</cfdi:Impuestos>`;
		};
		const conceptosXml = lines
			.map(
				(l) =>
					`<cfdi:Concepto ClaveProdServ="${l.c.clave ?? '43232408'}" NoIdentificacion="SKU-${l.c.descripcion.length}" Cantidad="${l.c.cantidad}" ClaveUnidad="${tipo === 'P' ? 'ACT' : 'H87'}"${tipo === 'P' ? '' : ` Unidad="${esc(l.c.unidad ?? 'Pieza')}"`} Descripcion="${esc(l.c.descripcion)}" ValorUnitario="${tipo === 'P' ? '0' : money(cents(l.c.valorUnitario))}" Importe="${tipo === 'P' ? '0' : money(l.importe)}"${l.desc ? ` Descuento="${money(l.desc)}"` : ''}${v4 ? ` ObjetoImp="${l.iva === undefined && l.isr === undefined ? '01' : '02'}"` : ''}>${impuestosConcepto(l)}</cfdi:Concepto>`,
			)
			.join('');
		const retencionesXml = [
			isrRetenido ? `<cfdi:Retencion Impuesto="001" Importe="${money(isrRetenido)}"/>` : '',
			ivaRetenido ? `<cfdi:Retencion Impuesto="002" Importe="${money(ivaRetenido)}"/>` : '',
		].join('');
		const trasladosXml = [...traslados.entries()]
			.map(([key, t]) => {
				const [impuesto, tasa] = key.split('|');
				return `<cfdi:Traslado${v4 ? ` Base="${money(t.base)}"` : ''} Impuesto="${impuesto}" TipoFactor="Tasa" TasaOCuota="${tasa}" Importe="${money(t.importe)}"/>`;
			})
			.join('');
		const impuestosXml =
			trasladosXml || retencionesXml
				? `<cfdi:Impuestos${retenidos ? ` TotalImpuestosRetenidos="${money(retenidos)}"` : ''}${trasladados ? ` TotalImpuestosTrasladados="${money(trasladados)}"` : ''}>${retencionesXml ? `<cfdi:Retenciones>${retencionesXml}</cfdi:Retenciones>` : ''}${trasladosXml ? `<cfdi:Traslados>${trasladosXml}</cfdi:Traslados>` : ''}</cfdi:Impuestos>`
				: '';
		const pagosXml = tipo === 'P' ? pagos20(spec.pagos ?? []) : '';
		const stamp =
			spec.stamped === false
				? ''
				: `<tfd:TimbreFiscalDigital xmlns:tfd="http://www.sat.gob.mx/TimbreFiscalDigital" xsi:schemaLocation="http://www.sat.gob.mx/TimbreFiscalDigital http://www.sat.gob.mx/sitio_internet/cfd/TimbreFiscalDigital/TimbreFiscalDigitalv11.xsd" Version="1.1" UUID="${uuid}" FechaTimbrado="${fecha.slice(0, 17)}59" RfcProvCertif="SAT970701NN3" SelloCFD="${sello}" NoCertificadoSAT="00001000000509846663" SelloSAT="${fakeBase64(`sat:${uuid}`, 344)}"/>`;
		const complemento =
			pagosXml || stamp ? `<cfdi:Complemento>${pagosXml}${stamp}</cfdi:Complemento>` : '';
		xml =
			`<?xml version="1.0" encoding="UTF-8"?>\n` +
			`<cfdi:Comprobante xmlns:cfdi="${ns}" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"${pagosNs} xsi:schemaLocation="${schema}${pagosSchema}" Version="${version}" Serie="${esc(serie)}" Folio="${esc(folio)}" Fecha="${fecha}" Sello="${sello}"${tipo === 'P' ? '' : ' FormaPago="03"'} NoCertificado="00001000000504465028" Certificado="${certificado}" SubTotal="${tipo === 'P' ? '0' : money(subtotal)}"${descuento ? ` Descuento="${money(descuento)}"` : ''} Moneda="${moneda}" Total="${tipo === 'P' ? '0' : money(total)}" TipoDeComprobante="${tipo}"${v4 ? ` Exportacion="01"` : ''}${tipo === 'P' ? '' : ' MetodoPago="PUE"'} LugarExpedicion="42501">` +
			`<cfdi:Emisor Rfc="${esc(emisor.rfc)}" Nombre="${esc(emisor.nombre)}" RegimenFiscal="${emisor.regimen ?? '601'}"/>` +
			`<cfdi:Receptor Rfc="${esc(receptor.rfc)}" Nombre="${esc(receptor.nombre)}"${v4 ? ' DomicilioFiscalReceptor="65000" RegimenFiscalReceptor="601"' : ''} UsoCFDI="${tipo === 'P' ? 'CP01' : (receptor.usoCfdi ?? 'G03')}"/>` +
			`<cfdi:Conceptos>${conceptosXml}</cfdi:Conceptos>` +
			impuestosXml +
			complemento +
			`</cfdi:Comprobante>\n`;
	}
	if (spec.tamper) xml = spec.tamper(xml);
	return {
		xml,
		uuid,
		version,
		emisorRfc: emisor.rfc,
		receptorRfc: receptor.rfc,
		total: tipo === 'P' ? '0' : money(total),
		sello,
		subtotal: tipo === 'P' ? 0 : subtotal / 100,
		trasladados: trasladados / 100,
		retenidos: retenidos / 100,
	};
}

/** The payments complement 2.0 of a payment CFDI. @param {PagoSpec[]} pagos */
function pagos20(pagos) {
	const total = pagos.reduce((a, p) => a + cents(p.monto), 0);
	return (
		`<pago20:Pagos Version="2.0"><pago20:Totales MontoTotalPagos="${money(total)}"/>` +
		pagos
			.map(
				(p) =>
					`<pago20:Pago FechaPago="${p.fechaPago}" FormaDePagoP="03" MonedaP="MXN" TipoCambioP="1" Monto="${money(cents(p.monto))}">` +
					p.documentos
						.map(
							(d) =>
								`<pago20:DoctoRelacionado IdDocumento="${d.idDocumento}"${d.serie ? ` Serie="${d.serie}"` : ''}${d.folio ? ` Folio="${d.folio}"` : ''} MonedaDR="MXN" EquivalenciaDR="1" NumParcialidad="${d.parcialidad}" ImpSaldoAnt="${money(cents(d.saldoAnterior))}" ImpPagado="${money(cents(d.pagado))}" ImpSaldoInsoluto="${money(cents(d.saldoAnterior) - cents(d.pagado))}" ObjetoImpDR="01"/>`,
						)
						.join('') +
					`</pago20:Pago>`,
			)
			.join('') +
		`</pago20:Pagos>`
	);
}

/** A CFDI 3.2: lower-case attributes, the rate as a percentage, the stamp 1.0. */
function cfdi32(o) {
	const conceptos = o.lines
		.map(
			(l) =>
				`<cfdi:Concepto cantidad="${l.c.cantidad}" unidad="${esc(l.c.unidad ?? 'Pieza')}" noIdentificacion="SKU-${l.c.descripcion.length}" descripcion="${esc(l.c.descripcion)}" valorUnitario="${money(cents(l.c.valorUnitario))}" importe="${money(l.importe)}"/>`,
		)
		.join('');
	const stamp = o.stamped
		? `<cfdi:Complemento><tfd:TimbreFiscalDigital xmlns:tfd="http://www.sat.gob.mx/TimbreFiscalDigital" version="1.0" UUID="${o.uuid}" FechaTimbrado="${o.fecha.slice(0, 17)}59" selloCFD="${o.sello}" noCertificadoSAT="00001000000104886706" selloSAT="${fakeBase64(`sat:${o.uuid}`, 172)}"/></cfdi:Complemento>`
		: '';
	return (
		`<?xml version="1.0" encoding="UTF-8"?>\n` +
		`<cfdi:Comprobante xmlns:cfdi="http://www.sat.gob.mx/cfd/3" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:schemaLocation="http://www.sat.gob.mx/cfd/3 http://www.sat.gob.mx/sitio_internet/cfd/3/cfdv32.xsd" version="3.2" serie="${esc(o.serie)}" folio="${esc(o.folio)}" fecha="${o.fecha}" sello="${o.sello}" formaDePago="Pago en una sola exhibición" noCertificado="00001000000202864530" certificado="${o.certificado}" subTotal="${money(o.subtotal)}" Moneda="${o.moneda}" total="${money(o.total)}" tipoDeComprobante="ingreso" metodoDePago="03" LugarExpedicion="Pachuca, Hidalgo">` +
		`<cfdi:Emisor rfc="${esc(o.emisor.rfc)}" nombre="${esc(o.emisor.nombre)}"><cfdi:RegimenFiscal Regimen="Régimen General de Ley Personas Morales"/></cfdi:Emisor>` +
		`<cfdi:Receptor rfc="${esc(o.receptor.rfc)}" nombre="${esc(o.receptor.nombre)}"/>` +
		`<cfdi:Conceptos>${conceptos}</cfdi:Conceptos>` +
		`<cfdi:Impuestos totalImpuestosTrasladados="${money(o.trasladados)}"><cfdi:Traslados><cfdi:Traslado impuesto="IVA" tasa="16.00" importe="${money(o.trasladados)}"/></cfdi:Traslados></cfdi:Impuestos>` +
		stamp +
		`</cfdi:Comprobante>\n`
	);
}
