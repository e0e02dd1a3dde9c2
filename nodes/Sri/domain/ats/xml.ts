/**
 * The ATS as XML, written with the package's own escaping (no XML library at run time). The order of every
 * element is the schema's (the SRI's ATS schema, at.xsd, release 2020-12-02: each `detalle*` is an xsd:sequence,
 * so order is part of validity), and it lives in one place: SEQUENCES, the sequences of the complex types the
 * annex writes, copied from the schema. A record is written in its sequence's order whatever order its fields
 * were set in; a field the sequence does not name is a bug, and throws.
 */

import { xmlEscape } from '../../../shared/xml';
import type { Json } from '../receipt';

/** A value of the annex: text, repeated text, an element with children, or repeated elements. */
type XmlValue = string | string[] | XmlRecord | XmlRecord[];

/** An element's children by name (undefined: not written). */
export interface XmlRecord {
	[name: string]: XmlValue | undefined;
}

/**
 * The sequences of the schema's complex types, by the element that has the type: `iva` (ivaType), `compras`
 * (comprasType), `detalleCompras` (detalleComprasType), `pagoExterior` (pagoExteriorType), `formasDePago`
 * (formasDePagoType), `air` (airType), `detalleAir` (detalleAirComprasType: detalleAirType then its extension),
 * `reembolsos` (reembolsosType), `reembolso` (reembolsoType), `ventas` (ventasType), `detalleVentas`
 * (detalleVentasType), `ventasEstablecimiento` (ventasEstablecimientoType), `ventaEst` (ventaEstType), `anulados`
 * (anuladosType), `detalleAnulados` (detalleAnuladosType).
 */
export const SEQUENCES: Readonly<Record<string, readonly string[]>> = {
	iva: [
		'TipoIDInformante',
		'IdInformante',
		'razonSocial',
		'Anio',
		'Mes',
		'regimenMicroempresa',
		'numEstabRuc',
		'totalVentas',
		'codigoOperativo',
		'compras',
		'ventas',
		'ventasEstablecimiento',
		'exportaciones',
		'recap',
		'fideicomisos',
		'anulados',
		'rendFinancieros',
	],
	compras: ['detalleCompras'],
	detalleCompras: [
		'codSustento',
		'tpIdProv',
		'idProv',
		'tipoComprobante',
		'tipoProv',
		'denoProv',
		'parteRel',
		'fechaRegistro',
		'establecimiento',
		'puntoEmision',
		'secuencial',
		'fechaEmision',
		'autorizacion',
		'baseNoGraIva',
		'baseImponible',
		'baseImpGrav',
		'baseImpExe',
		'montoIce',
		'montoIva',
		'valRetBien10',
		'valRetServ20',
		'valorRetBienes',
		'valRetServ50',
		'valorRetServicios',
		'valRetServ100',
		'valorRetencionNc',
		'totbasesImpReemb',
		'pagoExterior',
		'formasDePago',
		'air',
		'estabRetencion1',
		'ptoEmiRetencion1',
		'secRetencion1',
		'autRetencion1',
		'fechaEmiRet1',
		'estabRetencion2',
		'ptoEmiRetencion2',
		'secRetencion2',
		'autRetencion2',
		'fechaEmiRet2',
		'docModificado',
		'estabModificado',
		'ptoEmiModificado',
		'secModificado',
		'autModificado',
		'reembolsos',
	],
	reembolsos: ['reembolso'],
	reembolso: [
		'tipoComprobanteReemb',
		'tpIdProvReemb',
		'idProvReemb',
		'establecimientoReemb',
		'puntoEmisionReemb',
		'secuencialReemb',
		'fechaEmisionReemb',
		'autorizacionReemb',
		'baseImponibleReemb',
		'baseImpGravReemb',
		'baseNoGraIvaReemb',
		'baseImpExeReemb',
		'montoIceRemb',
		'montoIvaRemb',
	],
	pagoExterior: [
		'pagoLocExt',
		'tipoRegi',
		'paisEfecPagoGen',
		'paisEfecPagoParFis',
		'denopagoRegFis',
		'paisEfecPago',
		'aplicConvDobTrib',
		'pagExtSujRetNorLeg',
		'pagoRegFis',
	],
	formasDePago: ['formaPago'],
	air: ['detalleAir'],
	detalleAir: [
		'codRetAir',
		'baseImpAir',
		'porcentajeAir',
		'valRetAir',
		'fechaPagoDiv',
		'imRentaSoc',
		'anioUtDiv',
		'numCajBan',
		'precCajBan',
	],
	ventas: ['detalleVentas'],
	detalleVentas: [
		'tpIdCliente',
		'idCliente',
		'parteRelVtas',
		'tipoCliente',
		'denoCli',
		'tipoComprobante',
		'tipoEmision',
		'numeroComprobantes',
		'baseNoGraIva',
		'baseImponible',
		'baseImpGrav',
		'montoIva',
		'compensaciones',
		'montoIce',
		'valorRetIva',
		'valorRetRenta',
		'formasDePago',
	],
	ventasEstablecimiento: ['ventaEst'],
	ventaEst: ['codEstab', 'ventasEstab', 'ivaComp'],
	anulados: ['detalleAnulados'],
	detalleAnulados: [
		'tipoComprobante',
		'establecimiento',
		'puntoEmision',
		'secuencialInicio',
		'secuencialFin',
		'autorizacion',
	],
};

function write(name: string, value: XmlValue, depth: number, out: string[]): void {
	const indent = '\t'.repeat(depth);
	if (typeof value === 'string') {
		out.push(`${indent}<${name}>${xmlEscape(value)}</${name}>`);
		return;
	}
	if (Array.isArray(value)) {
		for (const one of value) write(name, one, depth, out);
		return;
	}
	const sequence = SEQUENCES[name];
	if (!sequence) throw new Error(`the ATS has no element <${name}> with children`);
	const unknown = Object.keys(value).filter((k) => !sequence.includes(k));
	if (unknown.length)
		throw new Error(`<${name}> of the ATS has no ${unknown.map((k) => `<${k}>`).join(', ')}`);
	out.push(`${indent}<${name}>`);
	for (const child of sequence) {
		const v = value[child];
		if (v !== undefined) write(child, v, depth + 1, out);
	}
	out.push(`${indent}</${name}>`);
}

/** The annex's `iva` element as an XML document (UTF-8: every value the annex writes is ASCII). */
export function atsXml(iva: XmlRecord): string {
	const out = ['<?xml version="1.0" encoding="UTF-8"?>'];
	write('iva', iva, 0, out);
	return `${out.join('\n')}\n`;
}

/** Amounts added up per field, in cents. */
export type Totals = Record<string, number>;

/**
 * A record as the bookkeeper reads it: one flat row, which a sheet takes as it is (n8n's Convert to File writes a
 * nested value as columns such as `air.0.codRetAir`). Each element of the record under its own name, as the schema
 * names it; an element with children (`pagoExterior`) as its children's columns; a repeated element
 * (`formasDePago/formaPago`, `air/detalleAir`, `reembolsos/reembolso`) as one column per field, its entries' values
 * in order, separated by ", " (`codRetAir` "312, 332", `valRetAir` "3.50, 8.00"; `formasDePago` "20, 01"). The
 * schema's names do not repeat between a record and its children, so no column hides another.
 */
export function jsonOf(record: XmlRecord): Json {
	const out: Json = {};
	const joined = (values: string[]) => values.join(', ');
	for (const [name, value] of Object.entries(record)) {
		if (value === undefined) continue;
		if (typeof value === 'string') out[name] = value;
		else if (Array.isArray(value)) out[name] = joined(value.map(String));
		else
			for (const [child, inner] of Object.entries(value)) {
				if (inner === undefined) continue;
				if (typeof inner === 'string') out[child] = inner;
				else if (Array.isArray(inner) && inner.every((v) => typeof v === 'string'))
					out[name] = joined(inner as string[]);
				else if (Array.isArray(inner)) {
					const fields = [...new Set((inner as XmlRecord[]).flatMap((r) => Object.keys(r)))];
					for (const field of fields)
						out[field] = joined((inner as XmlRecord[]).map((r) => String(r[field] ?? '')));
				} else Object.assign(out, jsonOf(inner));
			}
	}
	return out;
}
