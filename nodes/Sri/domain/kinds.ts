/**
 * The SRI's electronic receipts as their XML schemas define them (SRI, Ficha técnica de comprobantes
 * electrónicos, esquema offline, and its XSDs: factura 1.0.0, 1.1.0, 2.0.0, 2.1.0; notaCredito 1.0.0, 1.1.0;
 * notaDebito 1.0.0; comprobanteRetencion 1.0.0, 2.0.0; guiaRemision 1.0.0, 1.1.0; liquidacionCompra 1.0.0,
 * 1.1.0). Every version of a kind has the same root element and the same `info…` element: what differs
 * between versions is what the reader finds inside, and it reads by element name.
 */

export interface ReceiptKind {
	/** The receipt's root element: `factura`. */
	root: string;
	/** `tipo` in the output: the root in snake case (`nota_credito`), one rule for every kind. */
	tipo: string;
	/** The document type code (`codDoc`, and digits 9–10 of the access key). */
	codDoc: string;
	/** The element of the kind's own data: `infoFactura`. */
	info: string;
}

/** The six kinds, by root element. */
export const RECEIPT_KINDS: readonly ReceiptKind[] = [
	{ root: 'factura', tipo: 'factura', codDoc: '01', info: 'infoFactura' },
	{
		root: 'liquidacionCompra',
		tipo: 'liquidacion_compra',
		codDoc: '03',
		info: 'infoLiquidacionCompra',
	},
	{ root: 'notaCredito', tipo: 'nota_credito', codDoc: '04', info: 'infoNotaCredito' },
	{ root: 'notaDebito', tipo: 'nota_debito', codDoc: '05', info: 'infoNotaDebito' },
	{ root: 'guiaRemision', tipo: 'guia_remision', codDoc: '06', info: 'infoGuiaRemision' },
	{
		root: 'comprobanteRetencion',
		tipo: 'comprobante_retencion',
		codDoc: '07',
		info: 'infoCompRetencion',
	},
];

export function kindByRoot(root: string): ReceiptKind | undefined {
	return RECEIPT_KINDS.find((k) => k.root === root);
}

/** The document type codes an access key may carry (SRI, Ficha técnica, table of receipt types). */
export const DOCUMENT_TYPE_CODES: readonly string[] = RECEIPT_KINDS.map((k) => k.codDoc);

/**
 * Elements a schema lets repeat (maxOccurs above 1, or inside a repeated sequence), in any kind or version:
 * always arrays in `comprobante`, even when a receipt has one, so a workflow reads `detalles.detalle[0]`
 * whatever the receipt holds.
 */
export const REPEATED_ELEMENTS: readonly string[] = [
	'campoAdicional',
	'compensacion',
	'compensacionReembolso',
	'destinatario',
	'destino',
	'detAdicional',
	'detalle',
	'detalleImpuesto',
	'docSustento',
	'impuesto',
	'impuestoDocSustento',
	'motivo',
	'pago',
	'reembolsoDetalle',
	'retencion',
	'rubro',
	'totalImpuesto',
];

/**
 * Elements whose schema type is a decimal (amounts, quantities, rates, terms): numbers in `comprobante`.
 * Codes (`codigo`, `codigoPorcentaje`, `secuencial`, `ruc`, `estab`) are text in the schemas, and stay text.
 */
export const NUMERIC_ELEMENTS: readonly string[] = [
	'baseImponible',
	'baseImponibleReembolso',
	'cantidad',
	'descuento',
	'descuentoAdicional',
	'fleteInternacional',
	'gastosAduaneros',
	'gastosTransporteOtros',
	'imRentaSoc',
	'importeTotal',
	'impuestoReembolso',
	'plazo',
	'porcentajeRetener',
	'precCajBan',
	'precioSinSubsidio',
	'precioTotalSinImpuesto',
	'precioUnitario',
	'propina',
	'seguroInternacional',
	'tarifa',
	'total',
	'totalBaseImponibleReembolso',
	'totalComprobantesReembolso',
	'totalDescuento',
	'totalImpuestoReembolso',
	'totalSinImpuestos',
	'totalSubsidio',
	'valor',
	'valorDevolucionIva',
	'valorImpuesto',
	'valorModificacion',
	'valorRetIva',
	'valorRetRenta',
	'valorRetenido',
	'valorTotal',
];

/** Tax codes (`codigo` of a tax line; SRI, Ficha técnica, its tables of tax codes). */
export const TAX_CODES = { renta: '1', iva: '2', ice: '3', irbpnr: '5', isd: '6' } as const;

/** The retained taxes of a retention, by `codigo` (SRI, Ficha técnica, retention codes): renta, IVA, ISD. */
export const RETAINED_TAXES: Readonly<Record<string, 'renta' | 'iva' | 'isd'>> = {
	[TAX_CODES.renta]: 'renta',
	[TAX_CODES.iva]: 'iva',
	[TAX_CODES.isd]: 'isd',
};

/** `ambiente` in the output: the receipt's digit (1, 2) or the authorization's word (PRUEBAS, PRODUCCIÓN). */
export type Ambiente = 'pruebas' | 'produccion';

export function ambienteOf(value: string | undefined): Ambiente | undefined {
	const v = (value ?? '')
		.trim()
		.normalize('NFD')
		.replace(/[\u0300-\u036f]/g, '')
		.toUpperCase();
	if (v === '1' || v === 'PRUEBAS') return 'pruebas';
	if (v === '2' || v === 'PRODUCCION') return 'produccion';
	return undefined;
}
