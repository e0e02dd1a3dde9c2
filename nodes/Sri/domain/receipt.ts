import type { IDataObject } from 'n8n-workflow';
import {
	factValue,
	identityMarks,
	receiptIdentity,
	type IdentityMark,
} from '../../shared/sri/receiptIdentity';
import {
	parseXml,
	SRI_RECEIPT_MAX_BYTES,
	toJson,
	type XmlElement,
	type XmlLimits,
} from '../../shared/xml';
import { isoDate, keyDate, keyProblem } from './key';
import {
	kindByRoot,
	NUMERIC_ELEMENTS,
	RECEIPT_KINDS,
	REPEATED_ELEMENTS,
	RETAINED_TAXES,
	TAX_CODES,
	type ReceiptKind,
} from './kinds';

/**
 * A receipt (its XML element) as a bookkeeper copies it into the books: the summary of the output, and the
 * whole receipt as JSON (`comprobante`). One reading for both operations, so Check Authorization and Read XML
 * give the same summary for the same receipt.
 */

/** The SRI's limit for one receipt (320 KB) and limits a receipt never comes near. */
const RECEIPT_LIMITS: Partial<XmlLimits> = {
	maxBytes: SRI_RECEIPT_MAX_BYTES,
	maxDepth: 32,
	maxAttributes: 64,
	maxElements: 50_000,
};

/** The XML Signature namespace: the receipt's `ds:Signature`, left out of `comprobante` (it stays in the file). */
const XMLDSIG_NS = 'http://www.w3.org/2000/09/xmldsig#';

/** A receipt's text (the `comprobante` of an authorization) read; throws an XmlError or an Error naming the root. */
export function parseReceipt(text: string): XmlElement {
	const root = parseXml(text, RECEIPT_LIMITS);
	if (!kindByRoot(root.local))
		throw new Error(
			`holds <${root.name}>, which is not one of the SRI's receipts (${RECEIPT_KINDS.map((k) => `<${k.root}>`).join(', ')})`,
		);
	return root;
}

/** JSON values as `toJson` makes them. */
export type Json = IDataObject;

export const asObject = (value: unknown): Json =>
	value && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : {};

export const asList = (value: unknown): Json[] =>
	(Array.isArray(value) ? value : value === undefined ? [] : [value]).map(asObject);

export const asText = (value: unknown): string | undefined =>
	typeof value === 'string' && value.trim() !== ''
		? value.trim()
		: typeof value === 'number'
			? String(value)
			: undefined;

/** A number of the receipt (`toJson` made it one), or undefined. */
export const asNumber = (value: unknown): number | undefined =>
	typeof value === 'number' && Number.isFinite(value) ? value : undefined;

/** Cents, to add amounts without binary fractions piling up. */
export const round2 = (n: number) => Math.round(n * 100) / 100;

export function sum(values: Array<number | undefined>): number | undefined {
	const present = values.filter((v): v is number => v !== undefined);
	return present.length ? round2(present.reduce((a, b) => a + b, 0)) : undefined;
}

/** A read receipt: its kind, its JSON and its summary. */
export interface ReadReceipt {
	kind: ReceiptKind;
	/** The receipt as JSON (its root element's attributes and children), without its signature. */
	comprobante: Json;
	summary: IDataObject;
	/** `infoTributaria.claveAcceso` (shared/sri/receiptIdentity.ts: the element the SRI reads). */
	claveAcceso?: string;
	/** `infoTributaria.ambiente` (1 or 2). */
	ambiente?: string;
	/** Every other `ambiente` or access key of the receipt, wherever it sits (not what the SRI reads). */
	elsewhere: IdentityMark[];
}

/** The receipt as JSON: element names as the SRI writes them, repeated elements as arrays, amounts as numbers. */
export function receiptJson(root: XmlElement): Json {
	const unsigned: XmlElement = {
		...root,
		children: root.children.filter((c) => !(c.local === 'Signature' && c.ns === XMLDSIG_NS)),
	};
	return asObject(toJson(unsigned, { arrays: REPEATED_ELEMENTS, numbers: NUMERIC_ELEMENTS }));
}

const party = (identificacion: unknown, razonSocial: unknown, tipo: unknown) => {
	const out: IDataObject = {};
	if (asText(identificacion) !== undefined) out.identificacion = asText(identificacion);
	if (asText(razonSocial) !== undefined) out.razon_social = asText(razonSocial);
	if (asText(tipo) !== undefined) out.tipo_identificacion = asText(tipo);
	return Object.keys(out).length ? out : undefined;
};

/**
 * The other party of the receipt, as `comprador` {identificacion, razon_social, tipo_identificacion}: the
 * buyer of an invoice or a note; the retained subject (sujeto retenido) of a retention; the supplier
 * (proveedor) of a purchase settlement, whose issuer is the buyer; the recipient of a waybill when it has one
 * (a waybill with several recipients lists them in `comprobante` only).
 */
function counterparty(kind: ReceiptKind, receipt: Json, info: Json): IDataObject | undefined {
	switch (kind.root) {
		case 'comprobanteRetencion':
			return party(
				info.identificacionSujetoRetenido,
				info.razonSocialSujetoRetenido,
				info.tipoIdentificacionSujetoRetenido,
			);
		case 'liquidacionCompra':
			return party(
				info.identificacionProveedor,
				info.razonSocialProveedor,
				info.tipoIdentificacionProveedor,
			);
		case 'guiaRemision': {
			const recipients = asList(asObject(receipt.destinatarios).destinatario);
			return recipients.length === 1
				? party(
						recipients[0].identificacionDestinatario,
						recipients[0].razonSocialDestinatario,
						undefined,
					)
				: undefined;
		}
		default:
			return party(
				info.identificacionComprador,
				info.razonSocialComprador,
				info.tipoIdentificacionComprador,
			);
	}
}

/** The tax lines of a receipt's totals: `totalConImpuestos.totalImpuesto` (notes of debit: `impuestos.impuesto`). */
export function totalTaxLines(kind: ReceiptKind, info: Json): Json[] {
	return kind.root === 'notaDebito'
		? asList(asObject(info.impuestos).impuesto)
		: asList(asObject(info.totalConImpuestos).totalImpuesto);
}

/** The receipt's total: `importeTotal`; a credit note's `valorModificacion`; a debit note's `valorTotal`. */
export function totalOf(kind: ReceiptKind, info: Json): number | undefined {
	if (kind.root === 'notaCredito') return asNumber(info.valorModificacion);
	if (kind.root === 'notaDebito') return asNumber(info.valorTotal);
	return asNumber(info.importeTotal);
}

const ivaOf = (lines: Json[], codeField = 'codigo', valueField = 'valor') =>
	sum(
		lines.filter((l) => asText(l[codeField]) === TAX_CODES.iva).map((l) => asNumber(l[valueField])),
	);

/** The amounts of the summary, by kind (absent when the receipt has none: a waybill, a version 1 retention). */
function amounts(kind: ReceiptKind, receipt: Json, info: Json): IDataObject {
	if (kind.root === 'guiaRemision') return {};
	if (kind.root === 'comprobanteRetencion') {
		const docs = asList(asObject(receipt.docsSustento).docSustento);
		// Version 2.0.0 lists the retentions per supporting document; version 1.0.0 in `impuestos`.
		const lines = docs.length
			? docs.flatMap((d) => asList(asObject(d.retenciones).retencion))
			: asList(asObject(receipt.impuestos).impuesto);
		const retenido: IDataObject = {};
		for (const line of lines) {
			const tax = RETAINED_TAXES[asText(line.codigo) ?? ''];
			const value = asNumber(line.valorRetenido);
			if (tax && value !== undefined)
				retenido[tax] = round2(((retenido[tax] as number | undefined) ?? 0) + value);
		}
		// A document a retention lists twice (two blocks of withholdings on the same invoice) counts once in the
		// totals of what was withheld on; what was withheld is every line's.
		const once = [
			...new Map(
				docs.map((d) => [
					`${asText(d.codDocSustento) ?? ''}|${asText(d.numDocSustento) ?? ''}|${asText(d.numAutDocSustento) ?? ''}`,
					d,
				]),
			).values(),
		];
		return {
			total_sin_impuestos: sum(once.map((d) => asNumber(d.totalSinImpuestos))),
			iva: sum(
				once.map((d) =>
					ivaOf(
						asList(asObject(d.impuestosDocSustento).impuestoDocSustento),
						'codImpuestoDocSustento',
						'valorImpuesto',
					),
				),
			),
			importe_total: sum(once.map((d) => asNumber(d.importeTotal))),
			retenido,
			total_retenido: sum(lines.map((l) => asNumber(l.valorRetenido))) ?? 0,
		};
	}
	return {
		total_sin_impuestos: asNumber(info.totalSinImpuestos),
		iva: ivaOf(totalTaxLines(kind, info)) ?? (totalTaxLines(kind, info).length ? 0 : undefined),
		importe_total: totalOf(kind, info),
	};
}

/** The document a note modifies: `{ tipo, numero, fecha_emision }`. */
function modifiedDocument(kind: ReceiptKind, info: Json): IDataObject | undefined {
	if (kind.root !== 'notaCredito' && kind.root !== 'notaDebito') return undefined;
	const code = asText(info.codDocModificado);
	const out: IDataObject = {
		tipo: code ? (RECEIPT_KINDS.find((k) => k.codDoc === code)?.tipo ?? code) : undefined,
		numero: asText(info.numDocModificado),
		fecha_emision: isoDate(asText(info.fechaEmisionDocSustento)),
	};
	for (const key of Object.keys(out)) if (out[key] === undefined) delete out[key];
	return Object.keys(out).length ? out : undefined;
}

/**
 * The summary and JSON of a receipt element (its root one of RECEIPT_KINDS'). A receipt without an emission
 * date of its own (a waybill) gives the date of its own access key, else of the key asked about (`fallbackDate`).
 */
export function readReceipt(root: XmlElement, fallbackDate?: string): ReadReceipt {
	const kind = kindByRoot(root.local) as ReceiptKind;
	const comprobante = receiptJson(root);
	const tributaria = asObject(comprobante.infoTributaria);
	const info = asObject(comprobante[kind.info]);
	const estab = asText(tributaria.estab);
	const ptoEmi = asText(tributaria.ptoEmi);
	const secuencial = asText(tributaria.secuencial);
	// The receipt's own key and environment: the elements the SRI reads, the same the AI-agent guard reads.
	const identity = receiptIdentity(root);
	const claveAcceso = factValue(identity.claveAcceso) || undefined;
	const ownKeyDate = claveAcceso && !keyProblem(claveAcceso) ? keyDate(claveAcceso) : undefined;
	const emisor: IDataObject = {};
	if (asText(tributaria.ruc)) emisor.ruc = asText(tributaria.ruc);
	if (asText(tributaria.razonSocial)) emisor.razon_social = asText(tributaria.razonSocial);
	const summary: IDataObject = {
		tipo: kind.tipo,
		version: asText(comprobante.version),
		numero: estab && ptoEmi && secuencial ? `${estab}-${ptoEmi}-${secuencial}` : undefined,
		fecha_emision: isoDate(asText(info.fechaEmision)) ?? ownKeyDate ?? fallbackDate,
		emisor,
		comprador: counterparty(kind, comprobante, info),
		...amounts(kind, comprobante, info),
		documento_modificado: modifiedDocument(kind, info),
	};
	for (const key of Object.keys(summary)) if (summary[key] === undefined) delete summary[key];
	return {
		kind,
		comprobante,
		summary,
		claveAcceso,
		ambiente: factValue(identity.ambiente) || undefined,
		elsewhere: identityMarks(root, identity),
	};
}
