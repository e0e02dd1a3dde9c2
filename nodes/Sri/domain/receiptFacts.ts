import { cents } from '../../shared/decimal';
import { chooseEntry, readDocument } from './answer';
import { isoDate, keyProblem } from './key';
import { ambienteOf, kindByRoot, RECEIPT_KINDS, TAX_CODES, type Ambiente } from './kinds';
import {
	asList,
	asObject,
	asText,
	parseReceipt,
	receiptJson,
	totalTaxLines,
	type Json,
} from './receipt';

/**
 * A receipt in a declaration's terms (the ATS; a monthly IVA worksheet would read the same): who issued it and to
 * whom, its number, date, bases and taxes in cents, its payment forms, the document a note modifies, and for a
 * retention what it withheld on which document. Read from the receipt's `comprobante` JSON, the one the SRI
 * (Ecuador) node makes of every receipt (receipt.ts `receiptJson`: Read XML's and Check Authorization's), so a file
 * and the JSON of the node that read it give the same facts. Pure.
 */

/** The four bases of IVA of a purchase or sale, as the ATS names them. */
export type IvaBase = 'baseNoGraIva' | 'baseImponible' | 'baseImpGrav' | 'baseImpExe';

/**
 * The base an IVA line (tax `codigo` 2) falls in, by its `codigoPorcentaje` (Ficha técnica, IVA table: 0 → 0 %,
 * 6 → no objeto de IVA, 7 → exento de IVA; 2, 3, 4, 5, 8, 10 → 12 %, 14 %, 15 %, 5 %, diferenciado, 13 %): no
 * objeto → `baseNoGraIva`, 0 % → `baseImponible`, exento → `baseImpExe`, any other rate → `baseImpGrav` (the
 * ATS schema's element order; Odoo Enterprise and Trescloud's ATS exporters read them the same way).
 */
export function ivaBaseOf(codigoPorcentaje: string): IvaBase {
	if (codigoPorcentaje === '0') return 'baseImponible';
	if (codigoPorcentaje === '6') return 'baseNoGraIva';
	if (codigoPorcentaje === '7') return 'baseImpExe';
	return 'baseImpGrav';
}

/** Every base at zero cents. */
export const noBases = (): Record<IvaBase, number> => ({
	baseNoGraIva: 0,
	baseImponible: 0,
	baseImpGrav: 0,
	baseImpExe: 0,
});

interface Party {
	id: string;
	name: string;
	/** The receipt's identification type (Ficha técnica, table 6): 04 RUC, 05 cédula, 06 passport, 07, 08. */
	idType?: string;
}

/** One line of a retention: what was withheld, on which base, at which percentage. */
interface RetentionLine {
	/** Tax: 1 renta, 2 IVA, 6 ISD. */
	codigo: string;
	codigoRetencion: string;
	base: number;
	porcentaje: number;
	valor: number;
}

/**
 * Where a document a retention withholds on was paid (retention 2.0.0, `docSustento`: `pagoLocExt` 01 local, 02
 * abroad; abroad, `tipoRegi` 01 general regime, 02 tax haven, 03 preferential regime, `paisEfecPago` the country's
 * code, and SI/NO for `aplicConvDobTrib`, `pagExtSujRetNorLeg`, `pagoRegFis`), as the retention writes it.
 */
interface PaymentPlace {
	pagoLocExt: string;
	tipoRegi?: string;
	paisEfecPago?: string;
	aplicConvDobTrib?: string;
	pagExtSujRetNorLeg?: string;
	pagoRegFis?: string;
}

/** A document a retention withholds on (its docSustento), with the lines withheld on it. */
export interface RetainedDocument {
	codDoc: string;
	/** `001001000000123` (its establishment, emission point and sequential, digits only). */
	number: string;
	/** `numAutDocSustento` (retention 2.0.0): the document's access key or authorization. */
	authorization?: string;
	/** `codSustento` the retention declares for it (retention 2.0.0). */
	codSustento?: string;
	/** `fechaRegistroContable` (retention 2.0.0), ISO. */
	registered?: string;
	/** `fechaEmisionDocSustento`: the document's emission date, ISO. */
	issued?: string;
	/** Where it was paid (retention 2.0.0). */
	payment?: PaymentPlace;
	lines: RetentionLine[];
}

/**
 * A document reimbursed through an invoice or a purchase settlement (its `reembolsos/reembolsoDetalle`, SRI's
 * Ficha técnica, the receipts' XSDs: the supplier's identification type, identification, country and kind, the
 * document's type, series, sequential, date and authorization, and its taxes in `detalleImpuestos`).
 */
export interface ReimbursedDocument {
	supplier: { id: string; idType: string; country?: string; kind?: string };
	codDoc: string;
	estab: string;
	ptoEmi: string;
	secuencial: string;
	/** `fechaEmisionDocReembolso` as written (`dd/mm/yyyy`), and as an ISO date when it is one. */
	dateText: string;
	date?: string;
	authorization: string;
	/** Its bases of IVA by percentage code, its IVA and ICE, in cents. */
	bases: Record<IvaBase, number>;
	iva: number;
	ice: number;
}

/** What an invoice or purchase settlement says of the expenses it reimburses. */
interface Reimbursement {
	/** `codDocReembolso`: 41 for a receipt issued for a reimbursement (the SRI's catalog, Tabla 4). */
	codDoc: string;
	/** `totalBaseImponibleReembolso`, in cents, when the receipt gives it. */
	declaredBases?: number;
	documents: ReimbursedDocument[];
}

/** What an invoice says of an export (`comercioExterior EXPORTADOR` and the customs terms around it). */
interface Exportation {
	paisDestino?: string;
	incoTerm?: string;
}

export interface ReceiptFacts {
	/** The n8n input item it came from (0-based). */
	item: number;
	/** `codDoc`: 01, 03, 04, 05, 06, 07. */
	codDoc: string;
	/** The kind in the node's words: `factura`, `nota_credito`… */
	tipo: string;
	/** The 49-digit access key, when the receipt has a valid one. */
	key?: string;
	/** What the annex writes as its authorization: the access key, else the authorization number. */
	authorization?: string;
	ambiente?: Ambiente;
	issuer: Party;
	/** The other party: buyer; retained subject of a retention; supplier of a purchase settlement. */
	party?: Party;
	estab: string;
	ptoEmi: string;
	secuencial: string;
	/** `001-001-000000123`. */
	number: string;
	/** Emission date, ISO (a waybill's: its access key's). */
	date?: string;
	/** Bases of IVA, in cents. */
	bases: Record<IvaBase, number>;
	/** IVA and ICE, in cents. */
	iva: number;
	ice: number;
	/** The receipt's total, in cents. */
	total?: number;
	/** Payment forms (`pagos/pago/formaPago`), each once, in the receipt's order. */
	payments: string[];
	/** The document a credit or debit note modifies. */
	modified?: { codDoc: string; estab: string; ptoEmi: string; secuencial: string };
	/** A retention: what it withheld, per document. */
	retained?: RetainedDocument[];
	/** `parteRel` of a retention 2.0.0 (the issuer's word on its relation with the retained subject). */
	relatedParty?: boolean;
	/** The expenses an invoice or purchase settlement reimburses (`codDocReembolso`, `reembolsos`). */
	reimbursement?: Reimbursement;
	/** An invoice of an export (`comercioExterior EXPORTADOR`). */
	exportation?: Exportation;
}

/** An amount of the receipt in cents: a number, or a number written as text (JSON an upstream node rebuilt). */
function centsOf(value: unknown): number {
	return cents(value) ?? 0;
}

function numberOf(value: unknown): number | undefined {
	const n = typeof value === 'number' ? value : typeof value === 'string' ? Number(value) : NaN;
	return Number.isFinite(n) && String(value).trim() !== '' ? n : undefined;
}

const digits = (value: unknown) => (asText(value) ?? '').replace(/\D/g, '');

/** `001-001-000000123` or `001001000000123` as its three parts, or undefined. */
function splitNumber(
	value: unknown,
): { estab: string; ptoEmi: string; secuencial: string } | undefined {
	const d = digits(value);
	if (d.length !== 15) return undefined;
	return { estab: d.slice(0, 3), ptoEmi: d.slice(3, 6), secuencial: d.slice(6) };
}

/** What a retention withheld, per document: 2.0.0 lists them per `docSustento`, 1.0.0 per `impuesto` line. */
function retainedDocuments(receipt: Json): RetainedDocument[] {
	const line = (l: Json): RetentionLine => ({
		codigo: asText(l.codigo) ?? '',
		codigoRetencion: asText(l.codigoRetencion) ?? '',
		base: centsOf(l.baseImponible),
		porcentaje: numberOf(l.porcentajeRetener) ?? NaN,
		valor: centsOf(l.valorRetenido),
	});
	const byDocument = new Map<string, RetainedDocument>();
	const docs = asList(asObject(receipt.docsSustento).docSustento);
	if (docs.length) {
		// A document listed twice (two blocks of withholdings on the same invoice) is one document withheld on by
		// every line of both, as Read XML counts it (receipt.ts).
		for (const d of docs) {
			const codDoc = asText(d.codDocSustento) ?? '';
			const number = digits(d.numDocSustento);
			const lines = asList(asObject(d.retenciones).retencion).map(line);
			const at = `${codDoc}|${number}`;
			const known = byDocument.get(at);
			if (known) known.lines.push(...lines);
			else
				byDocument.set(at, {
					codDoc,
					number,
					authorization: digits(d.numAutDocSustento) || undefined,
					codSustento: asText(d.codSustento),
					registered: isoDate(asText(d.fechaRegistroContable)),
					issued: isoDate(asText(d.fechaEmisionDocSustento)),
					payment: paymentPlace(d),
					lines,
				});
		}
		return [...byDocument.values()];
	}
	for (const l of asList(asObject(receipt.impuestos).impuesto)) {
		const codDoc = asText(l.codDocSustento) ?? '';
		const number = digits(l.numDocSustento);
		const at = `${codDoc}|${number}`;
		const doc = byDocument.get(at) ?? {
			codDoc,
			number,
			issued: isoDate(asText(l.fechaEmisionDocSustento)),
			lines: [],
		};
		doc.lines.push(line(l));
		byDocument.set(at, doc);
	}
	return [...byDocument.values()];
}

/** Where a retention's supporting document was paid, when the retention says (retention 2.0.0). */
function paymentPlace(doc: Json): PaymentPlace | undefined {
	const pagoLocExt = asText(doc.pagoLocExt);
	if (!pagoLocExt) return undefined;
	const upper = (v: unknown) => asText(v)?.toUpperCase();
	return {
		pagoLocExt,
		tipoRegi: asText(doc.tipoRegi),
		paisEfecPago: asText(doc.paisEfecPago),
		aplicConvDobTrib: upper(doc.aplicConvDobTrib),
		pagExtSujRetNorLeg: upper(doc.pagExtSujRetNorLeg),
		pagoRegFis: upper(doc.pagoRegFis),
	};
}

/**
 * The expenses an invoice or a purchase settlement reimburses: `codDocReembolso` and `totalBaseImponibleReembolso`
 * of its `info…`, and each `reembolsos/reembolsoDetalle` with its taxes (`detalleImpuestos/detalleImpuesto`: tax
 * `codigo` 2 IVA by `codigoPorcentaje`, 3 ICE; `baseImponibleReembolso`, `impuestoReembolso`).
 */
function reimbursementOf(receipt: Json, info: Json): Reimbursement | undefined {
	const details = asList(asObject(receipt.reembolsos).reembolsoDetalle);
	const codDoc = asText(info.codDocReembolso);
	if (!codDoc && !details.length) return undefined;
	const declared = info.totalBaseImponibleReembolso;
	return {
		codDoc: codDoc ?? '',
		declaredBases: declared === undefined ? undefined : centsOf(declared),
		documents: details.map((d) => {
			const bases = noBases();
			let iva = 0;
			let ice = 0;
			for (const tax of asList(asObject(d.detalleImpuestos).detalleImpuesto)) {
				const codigo = asText(tax.codigo);
				if (codigo === TAX_CODES.iva) {
					bases[ivaBaseOf(asText(tax.codigoPorcentaje) ?? '')] += centsOf(
						tax.baseImponibleReembolso,
					);
					iva += centsOf(tax.impuestoReembolso);
				} else if (codigo === TAX_CODES.ice) ice += centsOf(tax.impuestoReembolso);
			}
			const dateText = asText(d.fechaEmisionDocReembolso) ?? '';
			return {
				supplier: {
					id: asText(d.identificacionProveedorReembolso) ?? '',
					idType: asText(d.tipoIdentificacionProveedorReembolso) ?? '',
					country: asText(d.codPaisPagoProveedorReembolso),
					kind: asText(d.tipoProveedorReembolso),
				},
				codDoc: asText(d.codDocReembolso) ?? '',
				estab: asText(d.estabDocReembolso) ?? '',
				ptoEmi: asText(d.ptoEmiDocReembolso) ?? '',
				secuencial: asText(d.secuencialDocReembolso) ?? '',
				dateText,
				date: isoDate(dateText),
				authorization: digits(d.numeroautorizacionDocReemb),
				bases,
				iva,
				ice,
			};
		}),
	};
}

/**
 * The receipt `comprobante` (its JSON, as `readReceipt` gives it) of kind `root`, in the annex's terms; or what
 * it lacks for the annex, in words that follow "the receipt".
 */
export function receiptFacts(
	root: string,
	comprobante: Json,
	item: number,
): ReceiptFacts | { problem: string } {
	const kind = kindByRoot(root);
	if (!kind) return { problem: `is a <${root}>, not one of the SRI's receipts` };
	const tributaria = asObject(comprobante.infoTributaria);
	const info = asObject(comprobante[kind.info]);
	const missing: string[] = [];
	const need = (value: string | undefined, name: string) => {
		if (value === undefined) missing.push(name);
		return value ?? '';
	};
	const ruc = need(asText(tributaria.ruc), 'infoTributaria.ruc');
	const estab = need(asText(tributaria.estab), 'infoTributaria.estab');
	const ptoEmi = need(asText(tributaria.ptoEmi), 'infoTributaria.ptoEmi');
	const secuencial = need(asText(tributaria.secuencial), 'infoTributaria.secuencial');
	const claveAcceso = asText(tributaria.claveAcceso);
	const key = claveAcceso && !keyProblem(claveAcceso) ? claveAcceso : undefined;
	const fechaEmision = asText(info.fechaEmision);
	const date =
		isoDate(fechaEmision) ??
		(kind.root === 'guiaRemision' && key
			? isoDate(`${key.slice(0, 2)}/${key.slice(2, 4)}/${key.slice(4, 8)}`)
			: undefined);
	if (!date && kind.root !== 'guiaRemision')
		missing.push(
			fechaEmision
				? `a date in fechaEmision ("${fechaEmision}" is not dd/mm/yyyy)`
				: 'fechaEmision',
		);
	if (missing.length) return { problem: `has no ${missing.join(', ')}` };

	const bases = noBases();
	let iva = 0;
	let ice = 0;
	for (const line of totalTaxLines(kind, info)) {
		const codigo = asText(line.codigo);
		if (codigo === TAX_CODES.iva) {
			bases[ivaBaseOf(asText(line.codigoPorcentaje) ?? '')] += centsOf(line.baseImponible);
			iva += centsOf(line.valor);
		} else if (codigo === TAX_CODES.ice) ice += centsOf(line.valor);
	}
	const party = (id: unknown, name: unknown, idType: unknown): Party | undefined => {
		const identification = asText(id);
		return identification
			? { id: identification, name: asText(name) ?? '', idType: asText(idType) }
			: undefined;
	};
	const payments = [
		...new Set(
			asList(asObject(info.pagos).pago)
				.map((p) => asText(p.formaPago))
				.filter((p): p is string => p !== undefined)
				.map((p) => p.padStart(2, '0')),
		),
	];
	const modifiedNumber = splitNumber(info.numDocModificado);
	const codDocModificado = asText(info.codDocModificado);
	const total =
		kind.root === 'notaCredito'
			? info.valorModificacion
			: kind.root === 'notaDebito'
				? info.valorTotal
				: info.importeTotal;
	const document: ReceiptFacts = {
		item,
		codDoc: kind.codDoc,
		tipo: kind.tipo,
		key,
		authorization: key,
		ambiente: ambienteOf(asText(tributaria.ambiente)),
		issuer: { id: ruc, name: asText(tributaria.razonSocial) ?? '', idType: '04' },
		party:
			kind.root === 'comprobanteRetencion'
				? party(
						info.identificacionSujetoRetenido,
						info.razonSocialSujetoRetenido,
						info.tipoIdentificacionSujetoRetenido,
					)
				: kind.root === 'liquidacionCompra'
					? party(
							info.identificacionProveedor,
							info.razonSocialProveedor,
							info.tipoIdentificacionProveedor,
						)
					: kind.root === 'guiaRemision'
						? undefined
						: party(
								info.identificacionComprador,
								info.razonSocialComprador,
								info.tipoIdentificacionComprador,
							),
		estab,
		ptoEmi,
		secuencial,
		number: `${estab}-${ptoEmi}-${secuencial}`,
		date,
		bases,
		iva,
		ice,
		total: total === undefined ? undefined : centsOf(total),
		payments,
		modified:
			modifiedNumber && codDocModificado
				? { codDoc: codDocModificado, ...modifiedNumber }
				: undefined,
	};
	if (kind.root === 'factura' || kind.root === 'liquidacionCompra')
		document.reimbursement = reimbursementOf(comprobante, info);
	if (kind.root === 'factura' && asText(info.comercioExterior)?.toUpperCase() === 'EXPORTADOR')
		document.exportation = {
			paisDestino: asText(info.paisDestino),
			incoTerm: asText(info.incoTermFactura),
		};
	if (kind.root === 'comprobanteRetencion') {
		document.retained = retainedDocuments(comprobante);
		const parteRel = asText(info.parteRel)?.toUpperCase();
		if (parteRel === 'SI' || parteRel === 'NO') document.relatedParty = parteRel === 'SI';
	}
	return document;
}

/** What a receipt XML file says once read: its receipt (root and JSON) and what its authorization says. */
type FileReading =
	| { root: string; comprobante: Json; estado?: string; numeroAutorizacion?: string }
	| { noEntry: true }
	| { estado?: string; noReceipt: true };

/**
 * A receipt XML file read with the node's one reader (answer.ts `readDocument`, receipt.ts `receiptJson`): a bare
 * receipt, or an authorization file (its authorized entry, else its latest: answer.ts `chooseEntry`), into the
 * JSON a declaration reads — not Read XML's summary, which a declaration does not use. Throws an XmlError or an
 * Error for a file that is not one, as Read XML does.
 */
export function readReceiptFile(input: string | Buffer): FileReading {
	const document = readDocument(input);
	if (document.kind === 'receipt')
		return { root: document.receipt.local, comprobante: receiptJson(document.receipt) };
	const entry = chooseEntry(document.answer.autorizaciones);
	if (!entry) return { noEntry: true };
	if (entry.comprobante === undefined) return { estado: entry.estado, noReceipt: true };
	const root =
		typeof entry.comprobante === 'string' ? parseReceipt(entry.comprobante) : entry.comprobante;
	return {
		root: root.local,
		comprobante: receiptJson(root),
		estado: entry.estado,
		numeroAutorizacion: entry.numeroAutorizacion,
	};
}

/** The root element of a receipt kind named as the node names it in its output (`tipo`: `nota_credito`). */
export function rootOfTipo(tipo: unknown): string | undefined {
	return RECEIPT_KINDS.find((k) => k.tipo === tipo)?.root;
}
