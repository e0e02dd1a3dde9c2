import type { IDataObject } from 'n8n-workflow';
import { toJson, type XmlElement } from '../../shared/xml';

/**
 * The SAT's schemas, as the facts `comprobante` (the whole CFDI as JSON) needs — one table, in one place. For
 * each family of schemas the node knows (the CFDI and the complements it reads), every version's namespace, the
 * elements a version lets repeat (maxOccurs above 1, or inside a sequence or choice that repeats), and the
 * attributes a version types as a number (xs:decimal and the integer types, directly or through tdCFDI.xsd's
 * t_Importe, t_ImporteMXN, t_TipoCambio). A family's facts are the union over its versions, because the JSON
 * names elements by local name: `Complemento[0].CartaPorte.Mercancias.Mercancia` is the same path in Carta Porte
 * 2.0 and 3.1, so it has one shape.
 *
 * Source: the XSDs the SAT publishes under http://www.sat.gob.mx/sitio_internet/cfd/ (Anexo 20 and each
 * complement's standard), copies in phpcfdi/resources-sat-xml. test/sat/schema.test.js reads copies of them
 * (test/sat/xsd/) and fails when this table says anything else. Where the table departs from a bare reading of
 * the XSDs, on purpose:
 * - codes the schemas type as integers stay text (a number would drop their leading zeros): Nómina 1.1's
 *   `Banco`, `CLABE`, `TipoRegimen`, `RiesgoPuesto`, `TipoPercepcion`, `TipoDeduccion`, `TipoIncapacidad` (text
 *   catalog codes in Nómina 1.2), and 1.2's `CuentaBancaria` (tdCFDI's t_CuentaBancaria, an account number);
 * - CFDI 3.2 types `TipoCambio` as text: it is a rate, a number as in 3.3 and 4.0;
 * - `ComplementoConcepto` and `Addenda`, like `Complemento`, are lists (see HOLDERS).
 */

interface SchemaFamily {
	/** The XSDs, by their file names under http://www.sat.gob.mx/sitio_internet/cfd/. */
	schemas: readonly string[];
	/** Each version's target namespace. */
	namespaces: readonly string[];
	/** Local names of the elements that are always lists. */
	repeated: readonly string[];
	/** Local names of the (unqualified) attributes that are numbers. */
	numbers: readonly string[];
}

/** The namespaces of the versions the node knows, by name. */
export const NAMESPACES = {
	cfdi3: 'http://www.sat.gob.mx/cfd/3',
	cfdi4: 'http://www.sat.gob.mx/cfd/4',
	timbre: 'http://www.sat.gob.mx/TimbreFiscalDigital',
	pagos10: 'http://www.sat.gob.mx/Pagos',
	pagos20: 'http://www.sat.gob.mx/Pagos20',
	nomina11: 'http://www.sat.gob.mx/nomina',
	nomina12: 'http://www.sat.gob.mx/nomina12',
	cartaPorte10: 'http://www.sat.gob.mx/CartaPorte',
	cartaPorte20: 'http://www.sat.gob.mx/CartaPorte20',
	cartaPorte30: 'http://www.sat.gob.mx/CartaPorte30',
	cartaPorte31: 'http://www.sat.gob.mx/CartaPorte31',
	implocal: 'http://www.sat.gob.mx/implocal',
} as const;

export const SCHEMA_FAMILIES = {
	cfdi: {
		schemas: ['3/cfdv32.xsd', '3/cfdv33.xsd', '4/cfdv40.xsd'],
		namespaces: [NAMESPACES.cfdi3, NAMESPACES.cfdi4],
		repeated: [
			'CfdiRelacionado',
			'CfdiRelacionados',
			'Complemento',
			'Concepto',
			'CuentaPredial',
			'InformacionAduanera',
			'Parte',
			'RegimenFiscal',
			'Retencion',
			'Traslado',
		],
		numbers: [
			'Año',
			'Base',
			'Cantidad',
			'Descuento',
			'Importe',
			'MontoFolioFiscalOrig',
			'SubTotal',
			'TasaOCuota',
			'TipoCambio',
			'Total',
			'TotalImpuestosRetenidos',
			'TotalImpuestosTrasladados',
			'ValorUnitario',
			'cantidad',
			'descuento',
			'importe',
			'subTotal',
			'tasa',
			'total',
			'totalImpuestosRetenidos',
			'totalImpuestosTrasladados',
			'valorUnitario',
		],
	},
	timbre: {
		schemas: [
			'TimbreFiscalDigital/TimbreFiscalDigital.xsd',
			'TimbreFiscalDigital/TimbreFiscalDigitalv11.xsd',
		],
		namespaces: [NAMESPACES.timbre],
		repeated: [],
		numbers: [],
	},
	pagos: {
		schemas: ['Pagos/Pagos10.xsd', 'Pagos/Pagos20.xsd'],
		namespaces: [NAMESPACES.pagos10, NAMESPACES.pagos20],
		repeated: [
			'DoctoRelacionado',
			'Impuestos',
			'Pago',
			'Retencion',
			'RetencionDR',
			'RetencionP',
			'Traslado',
			'TrasladoDR',
			'TrasladoP',
		],
		numbers: [
			'BaseDR',
			'BaseP',
			'EquivalenciaDR',
			'ImpPagado',
			'ImpSaldoAnt',
			'ImpSaldoInsoluto',
			'Importe',
			'ImporteDR',
			'ImporteP',
			'Monto',
			'MontoTotalPagos',
			'NumParcialidad',
			'TasaOCuota',
			'TasaOCuotaDR',
			'TasaOCuotaP',
			'TipoCambioDR',
			'TipoCambioP',
			'TotalImpuestosRetenidos',
			'TotalImpuestosTrasladados',
			'TotalRetencionesIEPS',
			'TotalRetencionesISR',
			'TotalRetencionesIVA',
			'TotalTrasladosBaseIVA0',
			'TotalTrasladosBaseIVA16',
			'TotalTrasladosBaseIVA8',
			'TotalTrasladosBaseIVAExento',
			'TotalTrasladosImpuestoIVA0',
			'TotalTrasladosImpuestoIVA16',
			'TotalTrasladosImpuestoIVA8',
		],
	},
	nomina: {
		schemas: ['nomina/nomina11.xsd', 'nomina/nomina12.xsd'],
		namespaces: [NAMESPACES.nomina11, NAMESPACES.nomina12],
		repeated: [
			'Deduccion',
			'HorasExtra',
			'Incapacidad',
			'OtroPago',
			'Percepcion',
			'SubContratacion',
		],
		numbers: [
			'Antiguedad',
			'Año',
			'Descuento',
			'Dias',
			'DiasIncapacidad',
			'HorasExtra',
			'Importe',
			'ImporteExento',
			'ImporteGravado',
			'ImporteMonetario',
			'ImportePagado',
			'IngresoAcumulable',
			'IngresoNoAcumulable',
			'MontoDiario',
			'MontoRecursoPropio',
			'NumAñosServicio',
			'NumDiasPagados',
			'PorcentajeTiempo',
			'PrecioAlOtorgarse',
			'RemanenteSalFav',
			'SalarioBaseCotApor',
			'SalarioDiarioIntegrado',
			'SaldoAFavor',
			'SubsidioCausado',
			'TotalDeducciones',
			'TotalExento',
			'TotalGravado',
			'TotalImpuestosRetenidos',
			'TotalJubilacionPensionRetiro',
			'TotalOtrasDeducciones',
			'TotalOtrosPagos',
			'TotalPagado',
			'TotalParcialidad',
			'TotalPercepciones',
			'TotalSeparacionIndemnizacion',
			'TotalSueldos',
			'TotalUnaExhibicion',
			'UltimoSueldoMensOrd',
			'ValorMercado',
		],
	},
	cartaPorte: {
		schemas: [
			'CartaPorte/CartaPorte.xsd',
			'CartaPorte/CartaPorte20.xsd',
			'CartaPorte/CartaPorte30.xsd',
			'CartaPorte/CartaPorte31.xsd',
		],
		namespaces: [
			NAMESPACES.cartaPorte10,
			NAMESPACES.cartaPorte20,
			NAMESPACES.cartaPorte30,
			NAMESPACES.cartaPorte31,
		],
		repeated: [
			'Arrendatario',
			'CantidadTransporta',
			'Carro',
			'Contenedor',
			'DerechosDePaso',
			'DocumentacionAduanera',
			'GuiasIdentificacion',
			'Mercancia',
			'Notificado',
			'Operador',
			'Operadores',
			'PartesTransporte',
			'Pedimentos',
			'Propietario',
			'RegimenAduaneroCCP',
			'Remolque',
			'RemolqueCCP',
			'TiposFigura',
			'Ubicacion',
		],
		numbers: [
			'AnioEmbarcacion',
			'AnioModeloVM',
			'Calado',
			'Cantidad',
			'CargoPorTasacion',
			'DistanciaRecorrida',
			'Eslora',
			'KilometrajePagado',
			'Manga',
			'NumPiezas',
			'NumTotalMercancias',
			'PesoBruto',
			'PesoBrutoTotal',
			'PesoBrutoVehicular',
			'PesoContenedorVacio',
			'PesoEnKg',
			'PesoGuiaIdentificacion',
			'PesoNeto',
			'PesoNetoMercancia',
			'PesoNetoTotal',
			'PesoTara',
			'PrimaSeguro',
			'Puntal',
			'ToneladasNetasCarro',
			'TotalDistRec',
			'UnidadesDeArqBruto',
			'ValorMercancia',
		],
	},
	impuestosLocales: {
		schemas: ['implocal/implocal.xsd'],
		namespaces: [NAMESPACES.implocal],
		repeated: ['RetencionesLocales', 'TrasladosLocales'],
		numbers: [
			'Importe',
			'TasadeRetencion',
			'TasadeTraslado',
			'TotaldeRetenciones',
			'TotaldeTraslados',
		],
	},
} as const satisfies Record<string, SchemaFamily>;

/**
 * The CFDI's elements that hold complements, any number of any element (`xs:any maxOccurs="unbounded"` in
 * cfdv32, cfdv33, cfdv40). They are lists, and each entry holds a complement at most once — a complement that
 * repeats inside one of them starts another entry — so that a complement is always an object:
 * `Complemento[0].TimbreFiscalDigital.UUID`, `Conceptos.Concepto[0].ComplementoConcepto[0].instEducativas`.
 * (CFDI 3.3 lets Complemento itself repeat; the entries are the same whether a CFDI writes one Complemento with
 * two complements or two Complemento with one each.)
 */
export const HOLDERS: readonly string[] = ['Complemento', 'ComplementoConcepto', 'Addenda'];

interface Facts {
	repeated: ReadonlySet<string>;
	numbers: ReadonlySet<string>;
}

const FACTS_BY_NAMESPACE = new Map<string, Facts>();
for (const family of Object.values(SCHEMA_FAMILIES) as SchemaFamily[]) {
	const facts = { repeated: new Set(family.repeated), numbers: new Set(family.numbers) };
	for (const ns of family.namespaces) FACTS_BY_NAMESPACE.set(ns, facts);
}

const CFDI_NAMESPACES: ReadonlySet<string> = new Set(SCHEMA_FAMILIES.cfdi.namespaces);

const isHolder = (e: XmlElement) => CFDI_NAMESPACES.has(e.ns) && HOLDERS.includes(e.local);

/**
 * `root` with every holder whose complements repeat split into entries that each hold a complement once, in
 * document order. Copies what changes; the tree read is left as it is. Most CFDIs have nothing to split.
 */
function splitHolders(root: XmlElement): XmlElement {
	const order: XmlElement[] = [];
	const pending = [root];
	let split = false;
	for (let e = pending.pop(); e; e = pending.pop()) {
		order.push(e);
		if (isHolder(e) && new Set(e.children.map((c) => c.local)).size < e.children.length)
			split = true;
		for (let k = e.children.length - 1; k >= 0; k--) pending.push(e.children[k]);
	}
	if (!split) return root;
	// Children before their parents: each element's replacements are known when its parent is rebuilt.
	const replaced = new Map<XmlElement, XmlElement[]>();
	for (let k = order.length - 1; k >= 0; k--) {
		const e = order[k];
		const kids = e.children.flatMap((c) => replaced.get(c) ?? [c]);
		const changed = kids.length !== e.children.length || kids.some((c, i) => c !== e.children[i]);
		const self = changed ? { ...e, children: kids } : e;
		if (!isHolder(e)) {
			if (changed) replaced.set(e, [self]);
			continue;
		}
		// The n-th complement of a name goes to the n-th entry (linear in the holder's children).
		const entries: XmlElement[][] = [[]];
		const seen = new Map<string, number>();
		for (const c of self.children) {
			const n = seen.get(c.local) ?? 0;
			seen.set(c.local, n + 1);
			(entries[n] ??= []).push(c);
		}
		if (entries.length > 1 || changed)
			replaced.set(
				e,
				entries.map((children) => ({ ...self, children })),
			);
	}
	return replaced.get(root)?.[0] ?? root;
}

/**
 * The CFDI (its root element) as JSON by the schemas' facts: element and attribute names as the SAT writes them
 * without prefixes; every element its family lets repeat is a list, every other element of a known family one
 * value; every attribute its family types as a number is a number (kept as written when it is not a decimal,
 * which no valid CFDI has). The holders are lists of entries (HOLDERS). An element of a namespace no family
 * knows (a complement the node does not read, an addenda's content) has the generic shape: each of its child
 * elements is a list, its attributes text — the same shape whatever that complement holds. An element a known
 * schema allows once but the CFDI repeats keeps its first one, and `leftOut` says so.
 */
export function comprobanteJson(root: XmlElement): { json: IDataObject; leftOut: string[] } {
	const leftOut = new Set<string>();
	const json = toJson(splitHolders(root), {
		shapeOf: (child, parent) => {
			if (isHolder(parent)) return 'single';
			if (isHolder(child)) return 'list';
			const facts = FACTS_BY_NAMESPACE.get(child.ns);
			if (!facts) return 'list';
			return facts.repeated.has(child.local) ? 'list' : 'single';
		},
		onLeftOut: (child, parent) =>
			leftOut.add(
				`<${parent.name}> holds more than one <${child.name}>, which the SAT's schema allows once: comprobante keeps the first`,
			),
		numberAttribute: (element, name) =>
			!name.includes(':') && (FACTS_BY_NAMESPACE.get(element.ns)?.numbers.has(name) ?? false),
	}) as IDataObject;
	return { json, leftOut: [...leftOut] };
}
