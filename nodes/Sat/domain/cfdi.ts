import type { IDataObject } from 'n8n-workflow';
import { decimalOf } from '../../shared/decimal';
import { checkDigit, checkRfc } from '../../shared/tax/rfc';
import {
	attribute,
	child,
	children,
	descendants,
	parseXml,
	type XmlElement,
	type XmlLimits,
} from '../../shared/xml';
import { moneyText, toMicros } from './amounts';
import type { CfdiVersion, ExpressionInput } from './expression';
import { comprobanteJson, NAMESPACES } from './schema';

/**
 * A CFDI's XML read into what a bookkeeper copies into the books: a summary, its conceptos, the whole CFDI as
 * JSON and what a careful reader would flag. Element and attribute names are the SAT's (Anexo 20: the XSDs
 * `cfdv40.xsd`, `cfdv33.xsd`, `cfdv32.xsd`; `TimbreFiscalDigitalv11.xsd` and `TimbreFiscalDigital.xsd` 1.0;
 * the payments complement `Pagos20.xsd` and `Pagos10.xsd`; the local taxes complement `implocal.xsd`):
 * - CFDI 4.0 in `http://www.sat.gob.mx/cfd/4`, CFDI 3.3 and 3.2 in `http://www.sat.gob.mx/cfd/3` (3.2 writes its
 *   attributes in lower case: `version`, `total`, `rfc`…);
 * - the stamp `tfd:TimbreFiscalDigital` (`http://www.sat.gob.mx/TimbreFiscalDigital`) inside `cfdi:Complemento`.
 * Nothing is sent anywhere; the XML is read by the package's XML reader (shared/xml.ts), which refuses DTDs and
 * entities and has limits.
 */

const CFDI_NAMESPACES = {
	'4': NAMESPACES.cfdi4,
	'3': NAMESPACES.cfdi3,
	tfd: NAMESPACES.timbre,
	pagos20: NAMESPACES.pagos20,
	pagos10: NAMESPACES.pagos10,
	implocal: NAMESPACES.implocal,
} as const;

/** Retention CFDIs (CFDI de retenciones e información de pagos) are another document, which the SAT's status service does not answer for. */
const RETENTION_NAMESPACE = /^http:\/\/www\.sat\.gob\.mx\/esquemas\/retencionpago\//;

/** c_TipoDeComprobante (Anexo 20 catalogs) in the words the summary uses. */
const TIPOS: Readonly<Record<string, string>> = {
	I: 'ingreso',
	E: 'egreso',
	T: 'traslado',
	N: 'nomina',
	P: 'pago',
};

/** c_Impuesto (Anexo 20 catalogs). CFDI 3.2 writes the tax's name instead of its code. */
const TAXES: Readonly<Record<string, string>> = { '001': 'ISR', '002': 'IVA', '003': 'IEPS' };

/** CFDI 3.2's tax names (cfdv32.xsd: ISR, IVA, IEPS) as the c_Impuesto codes 3.3 and 4.0 write. */
const TAX_CODES_32: Readonly<Record<string, string>> = { ISR: '001', IVA: '002', IEPS: '003' };

/** Why a file is not a CFDI this node reads (the XML itself was well-formed). */
export class NotACfdiError extends Error {
	constructor(message: string) {
		super(message);
		this.name = 'NotACfdiError';
	}
}

/** A CFDI, read. */
export interface CfdiReading {
	version: CfdiVersion;
	/** The summary's fields (see `summarize`), in output order, `uuid` first. */
	summary: IDataObject;
	conceptos: IDataObject[];
	/** The whole CFDI as JSON: the SAT's names, repeated elements as arrays, amounts as numbers. */
	comprobante: IDataObject;
	warnings: string[];
	/** What the SAT's status service is asked with (`uuid` is '' when the CFDI has no stamp). */
	expression: ExpressionInput;
}

/** Limits for a CFDI: the reader's defaults (10 MB, 100 levels, 200,000 elements), more than any real CFDI. */
const CFDI_XML_LIMITS: Partial<XmlLimits> = {};

/** Reads `input` (the XML as text or bytes). Throws an XmlError (not XML) or a NotACfdiError (not a CFDI). */
export function readCfdi(
	input: string | Buffer,
	limits: Partial<XmlLimits> = CFDI_XML_LIMITS,
): CfdiReading {
	return readComprobante(parseXml(input, limits));
}

/** The version of a `Comprobante` root, or a NotACfdiError that says what the XML is instead. */
export function versionOf(root: XmlElement): CfdiVersion {
	if (RETENTION_NAMESPACE.test(root.ns))
		throw new NotACfdiError(
			`it is a retention CFDI (<${root.name}> in ${root.ns}), which this node does not read: Read CFDI XML and Check CFDI Status take CFDI 4.0, 3.3 and 3.2 invoices (ingreso, egreso, traslado, nómina, pago)`,
		);
	if (
		root.local !== 'Comprobante' ||
		(root.ns !== CFDI_NAMESPACES['4'] && root.ns !== CFDI_NAMESPACES['3'])
	)
		throw new NotACfdiError(
			`it is not a CFDI: its root element is <${root.name}>${root.ns ? ` in the namespace ${root.ns}` : ' without a namespace'}, where a CFDI has <cfdi:Comprobante> in ${CFDI_NAMESPACES['4']} (4.0) or ${CFDI_NAMESPACES['3']} (3.3, 3.2)`,
		);
	const declared = attribute(root, 'Version') ?? attribute(root, 'version');
	if (root.ns === CFDI_NAMESPACES['4'] && declared === '4.0') return '4.0';
	if (root.ns === CFDI_NAMESPACES['3'] && declared === '3.3') return '3.3';
	if (root.ns === CFDI_NAMESPACES['3'] && attribute(root, 'version') === '3.2') return '3.2';
	throw new NotACfdiError(
		`its <${root.name}> says version ${declared === undefined ? '(none)' : JSON.stringify(declared)} in ${root.ns}: this node reads CFDI 4.0 (${CFDI_NAMESPACES['4']}) and 3.3 or 3.2 (${CFDI_NAMESPACES['3']})`,
	);
}

/** An attribute of a CFDI element by its 4.0/3.3 name, or by its 3.2 name for a 3.2 CFDI. */
type Attr = (element: XmlElement | undefined, name: string, name32?: string) => string | undefined;

function attrReader(version: CfdiVersion): Attr {
	return (element, name, name32) => {
		if (!element) return undefined;
		const value = attribute(element, version === '3.2' && name32 !== undefined ? name32 : name);
		return value === undefined ? undefined : value.trim();
	};
}

/** A decimal text as an exact count of millionths (a CFDI amount has at most 6 decimals), or undefined. */
function micros(text: string | undefined): bigint | undefined {
	const d = decimalOf(text);
	return d === undefined ? undefined : toMicros(d);
}

/** Totals that differ by more than this (one cent) are flagged. */
const TOLERANCE = 10_000n;

const sum = (values: Array<bigint | undefined>): bigint =>
	values.reduce<bigint>((a, b) => a + (b ?? 0n), 0n);

/** What the summary reads and checks, for one CFDI. */
class Reader {
	readonly attr: Attr;
	readonly warnings: string[] = [];

	constructor(
		readonly root: XmlElement,
		readonly version: CfdiVersion,
	) {
		this.attr = attrReader(version);
	}

	/** The children named `local` in the CFDI's own namespace. */
	kids(element: XmlElement | undefined, local: string): XmlElement[] {
		return element ? children(element, local, this.root.ns) : [];
	}

	kid(element: XmlElement | undefined, local: string): XmlElement | undefined {
		return element ? child(element, local, this.root.ns) : undefined;
	}

	/**
	 * An amount attribute as a number (null when absent). A value that is not a decimal is kept as written and
	 * flagged: it is not a valid CFDI amount.
	 */
	amount(element: XmlElement | undefined, name: string, name32?: string): number | string | null {
		const text = this.attr(element, name, name32);
		if (text === undefined || text === '') return null;
		if (/^-?\d+(\.\d+)?$/.test(text)) return Number(text);
		this.warnings.push(
			`${element?.local ?? ''}@${this.version === '3.2' && name32 ? name32 : name} is ${JSON.stringify(text)}, which is not an amount`,
		);
		return text;
	}

	/** An attribute's text, null when absent or empty. */
	text(element: XmlElement | undefined, name: string, name32?: string): string | null {
		const value = this.attr(element, name, name32);
		return value === undefined || value === '' ? null : value;
	}
}

/** The RFC warnings of one party: not an RFC at all, or a failing check digit (some real RFCs fail it). */
function rfcWarning(who: 'Emisor' | 'Receptor', rfc: string | null): string | undefined {
	if (rfc === null) return `${who} has no RFC`;
	const check = checkRfc(rfc);
	if (check.error) return `${who} RFC ${JSON.stringify(rfc)} ${check.error}`;
	if (check.warning)
		return `${who} RFC ${check.normalized}: its check digit is ${check.normalized.slice(-1)}, but ${checkDigit(check.normalized)} was expected. About 1.5 % of real RFCs fail this check: verify the RFC with the supplier or in the SAT's RFC lookup`;
	return undefined;
}

/** One tax line (Traslado or Retencion) of a concepto or of the CFDI. */
function taxLine(r: Reader, e: XmlElement): IDataObject {
	if (r.version === '3.2') {
		const name = r.text(e, 'impuesto') ?? null;
		const rate = r.attr(e, 'tasa');
		// CFDI 3.2 writes the rate as a percentage (16.00); 3.3 and 4.0 as a fraction (0.160000).
		const tasa = rate !== undefined && /^\d+(\.\d+)?$/.test(rate) ? Number(rate) / 100 : null;
		// The code 3.3 and 4.0 would write (IVA → 002), so one column holds every version's; a name outside the
		// 3.2 schema's three is kept as written.
		const upper = name?.toUpperCase() ?? '';
		const code = Object.hasOwn(TAX_CODES_32, upper) ? TAX_CODES_32[upper] : name;
		return {
			impuesto: code,
			nombre: code !== null && Object.hasOwn(TAXES, code) ? TAXES[code] : name,
			tipo_factor: null,
			tasa_o_cuota: tasa,
			base: null,
			importe: r.amount(e, 'importe'),
		};
	}
	const code = r.text(e, 'Impuesto');
	return {
		impuesto: code,
		nombre: code !== null && Object.hasOwn(TAXES, code) ? TAXES[code] : null,
		tipo_factor: r.text(e, 'TipoFactor'),
		tasa_o_cuota: r.amount(e, 'TasaOCuota'),
		base: r.amount(e, 'Base'),
		importe: r.amount(e, 'Importe'),
	};
}

/** The Traslado and Retencion lines under an `Impuestos` element (of a concepto or of the CFDI). */
function taxesOf(
	r: Reader,
	impuestos: XmlElement | undefined,
): { traslados: XmlElement[]; retenciones: XmlElement[] } {
	return {
		traslados: r.kids(r.kid(impuestos, 'Traslados'), 'Traslado'),
		retenciones: r.kids(r.kid(impuestos, 'Retenciones'), 'Retencion'),
	};
}

function concepto(r: Reader, e: XmlElement): IDataObject {
	const { traslados, retenciones } = taxesOf(r, r.kid(e, 'Impuestos'));
	// CFDI 3.2 has no taxes per concepto (cfdv32.xsd): unknown, never 0.
	const importeOf = (lines: XmlElement[]) =>
		r.version === '3.2'
			? null
			: Number(moneyText(sum(lines.map((t) => micros(r.attr(t, 'Importe', 'importe'))))));
	return {
		clave_prod_serv: r.text(e, 'ClaveProdServ'),
		no_identificacion: r.text(e, 'NoIdentificacion', 'noIdentificacion'),
		descripcion: r.text(e, 'Descripcion', 'descripcion'),
		cantidad: r.amount(e, 'Cantidad', 'cantidad'),
		clave_unidad: r.text(e, 'ClaveUnidad'),
		unidad: r.text(e, 'Unidad', 'unidad'),
		valor_unitario: r.amount(e, 'ValorUnitario', 'valorUnitario'),
		importe: r.amount(e, 'Importe', 'importe'),
		descuento: r.amount(e, 'Descuento') ?? 0,
		objeto_imp: r.text(e, 'ObjetoImp'),
		impuestos_trasladados: importeOf(traslados),
		impuestos_retenidos: importeOf(retenciones),
		traslados: traslados.map((t) => taxLine(r, t)),
		retenciones: retenciones.map((t) => taxLine(r, t)),
	};
}

/** Every stamp, wherever it is under `Complemento` (3.3 may have several Complemento elements), in document order. */
function stampsOf(r: Reader): XmlElement[] {
	return r
		.kids(r.root, 'Complemento')
		.flatMap((complemento) => descendants(complemento, 'TimbreFiscalDigital', CFDI_NAMESPACES.tfd));
}

/** The payments complement (Pagos 2.0 or 1.0), in the summary's words. */
function paymentsOf(r: Reader): IDataObject[] | undefined {
	for (const complemento of r.kids(r.root, 'Complemento')) {
		for (const ns of [CFDI_NAMESPACES.pagos20, CFDI_NAMESPACES.pagos10]) {
			const pagos = child(complemento, 'Pagos', ns);
			if (!pagos) continue;
			const amount = (e: XmlElement, name: string) => r.amount(e, name);
			const text = (e: XmlElement, name: string) => r.text(e, name);
			return children(pagos, 'Pago', ns).map((pago) => {
				const monto = amount(pago, 'Monto');
				const doctos = children(pago, 'DoctoRelacionado', ns);
				return {
					fecha_pago: text(pago, 'FechaPago'),
					forma_pago: text(pago, 'FormaDePagoP'),
					moneda: text(pago, 'MonedaP'),
					tipo_cambio: amount(pago, 'TipoCambioP'),
					monto,
					num_operacion: text(pago, 'NumOperacion'),
					documentos_relacionados: doctos.map((docto) => ({
						id_documento: text(docto, 'IdDocumento'),
						serie: text(docto, 'Serie'),
						folio: text(docto, 'Folio'),
						moneda: text(docto, 'MonedaDR'),
						// Pagos 2.0: EquivalenciaDR; Pagos 1.0: TipoCambioDR.
						equivalencia: amount(docto, 'EquivalenciaDR') ?? amount(docto, 'TipoCambioDR'),
						num_parcialidad: amount(docto, 'NumParcialidad'),
						imp_saldo_ant: amount(docto, 'ImpSaldoAnt'),
						// Pagos 1.0 (Pagos10.xsd, ImpPagado): required only with more than one DoctoRelacionado or
						// a TipoCambioDR; a single document without either was paid the payment's Monto.
						imp_pagado:
							amount(docto, 'ImpPagado') ??
							(ns === CFDI_NAMESPACES.pagos10 &&
							doctos.length === 1 &&
							r.attr(docto, 'TipoCambioDR') === undefined
								? monto
								: null),
						imp_saldo_insoluto: amount(docto, 'ImpSaldoInsoluto'),
					})),
				};
			});
		}
	}
	return undefined;
}

/** Local taxes (implocal complement): transferred minus withheld, in millionths. */
function localTaxes(r: Reader): bigint {
	let net = 0n;
	for (const complemento of r.kids(r.root, 'Complemento')) {
		for (const local of children(complemento, 'ImpuestosLocales', CFDI_NAMESPACES.implocal)) {
			net +=
				(micros(attribute(local, 'TotaldeTraslados')) ?? 0n) -
				(micros(attribute(local, 'TotaldeRetenciones')) ?? 0n);
		}
	}
	return net;
}

/** Flags totals that do not add up: conceptos vs SubTotal and Descuento, tax lines vs their totals, Total. */
function checkTotals(r: Reader, conceptos: XmlElement[], impuestos: XmlElement | undefined): void {
	const a = (e: XmlElement | undefined, name: string, name32?: string) =>
		micros(r.attr(e, name, name32));
	const flag = (what: string, stated: bigint | undefined, computed: bigint, from: string) => {
		if (stated === undefined) return;
		const diff = stated - computed;
		if (diff > TOLERANCE || diff < -TOLERANCE)
			r.warnings.push(
				`${what} is ${moneyText(stated)}, but ${from} add up to ${moneyText(computed)}`,
			);
	};
	const count = `${conceptos.length} concepto${conceptos.length === 1 ? '' : 's'}`;
	const subtotal = a(r.root, 'SubTotal', 'subTotal');
	const descuento = a(r.root, 'Descuento', 'descuento') ?? 0n;
	flag(
		'SubTotal',
		subtotal,
		sum(conceptos.map((c) => a(c, 'Importe', 'importe'))),
		`the Importe of its ${count}`,
	);
	if (r.version !== '3.2')
		flag(
			'Descuento',
			descuento,
			sum(conceptos.map((c) => a(c, 'Descuento'))),
			`the Descuento of its ${count}`,
		);
	const { traslados, retenciones } = taxesOf(r, impuestos);
	const trasladados = a(impuestos, 'TotalImpuestosTrasladados', 'totalImpuestosTrasladados');
	const retenidos = a(impuestos, 'TotalImpuestosRetenidos', 'totalImpuestosRetenidos');
	const trasladosSum = sum(traslados.map((t) => a(t, 'Importe', 'importe')));
	const retencionesSum = sum(retenciones.map((t) => a(t, 'Importe', 'importe')));
	flag('TotalImpuestosTrasladados', trasladados, trasladosSum, 'its Traslado lines');
	flag('TotalImpuestosRetenidos', retenidos, retencionesSum, 'its Retencion lines');
	if (subtotal !== undefined) {
		const local = localTaxes(r);
		const computed =
			subtotal - descuento + (trasladados ?? trasladosSum) - (retenidos ?? retencionesSum) + local;
		flag(
			'Total',
			a(r.root, 'Total', 'total'),
			computed,
			`SubTotal − Descuento + taxes transferred − taxes withheld${local !== 0n ? ' + local taxes' : ''}`,
		);
	}
}

/** The summary, conceptos, JSON and warnings of a parsed CFDI (its root element). */
function readComprobante(root: XmlElement): CfdiReading {
	const version = versionOf(root);
	const r = new Reader(root, version);
	const emisor = r.kid(root, 'Emisor');
	const receptor = r.kid(root, 'Receptor');
	const conceptoElements = r.kids(r.kid(root, 'Conceptos'), 'Concepto');
	const impuestos = r.kid(root, 'Impuestos');
	const stamps = stampsOf(r);
	const stamp = stamps[0];
	const tipoCode = r.text(root, 'TipoDeComprobante', 'tipoDeComprobante');

	const emisorRfc = r.text(emisor, 'Rfc', 'rfc');
	const receptorRfc = r.text(receptor, 'Rfc', 'rfc');
	const { traslados, retenciones } = taxesOf(r, impuestos);
	const uuid = stamp ? (attribute(stamp, 'UUID')?.trim() ?? null) : null;

	const summary: IDataObject = {
		uuid,
		version,
		tipo: tipoCode === null ? null : Object.hasOwn(TIPOS, tipoCode) ? TIPOS[tipoCode] : tipoCode,
		serie: r.text(root, 'Serie', 'serie'),
		folio: r.text(root, 'Folio', 'folio'),
		fecha: r.text(root, 'Fecha', 'fecha'),
		emisor: {
			rfc: emisorRfc,
			nombre: r.text(emisor, 'Nombre', 'nombre'),
			regimen_fiscal:
				version === '3.2'
					? (r.kids(emisor, 'RegimenFiscal').map((e) => r.text(e, 'Regimen'))[0] ?? null)
					: r.text(emisor, 'RegimenFiscal'),
		},
		receptor: {
			rfc: receptorRfc,
			nombre: r.text(receptor, 'Nombre', 'nombre'),
			uso_cfdi: r.text(receptor, 'UsoCFDI'),
		},
		moneda: r.text(root, 'Moneda'),
		tipo_cambio: r.amount(root, 'TipoCambio'),
		subtotal: r.amount(root, 'SubTotal', 'subTotal'),
		descuento: r.amount(root, 'Descuento', 'descuento') ?? 0,
		total: r.amount(root, 'Total', 'total'),
		impuestos: {
			total_trasladados: r.amount(
				impuestos,
				'TotalImpuestosTrasladados',
				'totalImpuestosTrasladados',
			),
			total_retenidos: r.amount(impuestos, 'TotalImpuestosRetenidos', 'totalImpuestosRetenidos'),
			trasladados: traslados.map((t) => taxLine(r, t)),
			retenidos: retenciones.map((t) => taxLine(r, t)),
		},
		metodo_pago: r.text(root, 'MetodoPago', 'metodoDePago'),
		forma_pago: r.text(root, 'FormaPago', 'formaDePago'),
		timbre: {
			uuid,
			fecha_timbrado: stamp ? (attribute(stamp, 'FechaTimbrado')?.trim() ?? null) : null,
			rfc_prov_certif: stamp ? (attribute(stamp, 'RfcProvCertif')?.trim() ?? null) : null,
		},
	};
	const pagos = paymentsOf(r);
	if (pagos) summary.pagos = pagos;

	const conceptos = conceptoElements.map((e) => concepto(r, e));
	if (!stamp)
		r.warnings.push(
			'The XML has no stamp (TimbreFiscalDigital): the SAT has not certified it, so it is not a valid CFDI yet and its status cannot be checked',
		);
	else if (!uuid) r.warnings.push('The stamp (TimbreFiscalDigital) has no UUID');
	if (stamps.length > 1) {
		const uuids = stamps.map((t) => attribute(t, 'UUID')?.trim() || '(none)');
		const distinct = [...new Set(uuids)];
		r.warnings.push(
			distinct.length > 1
				? `The CFDI has ${stamps.length} stamps (TimbreFiscalDigital) with different UUIDs: ${distinct.join(', ')}. The first, ${uuids[0]}, is the uuid read and asked about; only one can be the SAT's — ask the issuer which`
				: `The CFDI has ${stamps.length} stamps (TimbreFiscalDigital), all with the UUID ${uuids[0]}`,
		);
	}
	for (const [who, rfc] of [
		['Emisor', emisorRfc],
		['Receptor', receptorRfc],
	] as const) {
		const warning = rfcWarning(who, rfc);
		if (warning) r.warnings.push(warning);
	}
	if (!conceptoElements.length) r.warnings.push('The CFDI has no Conceptos');
	checkTotals(r, conceptoElements, impuestos);
	const { json: comprobante, leftOut } = comprobanteJson(root);
	r.warnings.push(...leftOut);

	return {
		version,
		summary,
		conceptos,
		comprobante,
		warnings: r.warnings,
		expression: {
			version,
			uuid: uuid ?? '',
			issuerRfc: emisorRfc ?? '',
			receiverRfc: receptorRfc ?? '',
			total: r.attr(root, 'Total', 'total') ?? '',
			seal: version === '3.2' ? undefined : (r.attr(root, 'Sello') ?? undefined),
		},
	};
}
