import type { IDataObject, INodeExecutionData } from 'n8n-workflow';
import type { CfdiInput } from './xmlInput';

/**
 * What both operations output for a CFDI read from its XML: `status` (Check CFDI Status's fields, none for Read
 * CFDI XML) first, then the summary, `conceptos`, `comprobante` and `warnings` — the same for both, so Check CFDI
 * Status given a file says what Read CFDI XML says about it (`extra.warnings`, what the SAT's answer flags, come
 * first). `extra.file`: what version 2 says of the file (`file_name`, `matches_file`). The input item's files go along (a workflow can
 * still write or mail the XML after this node).
 */
export function cfdiOutput(
	cfdi: CfdiInput,
	status: IDataObject = {},
	extra: { file?: IDataObject; warnings?: string[] } = {},
): INodeExecutionData[] {
	const { summary, conceptos, comprobante } = cfdi.reading;
	const warnings = [...(extra.warnings ?? []), ...cfdi.reading.warnings];
	const json: IDataObject = {
		...status,
		...(extra.file ?? {}),
		...summary,
		conceptos,
		comprobante,
		warnings,
	};
	return [{ json, ...(cfdi.binary ? { binary: cfdi.binary } : {}) }];
}

/** The amounts of a concepto's tax lines of the tax named `name` (IVA, ISR, IEPS), added up. */
function taxTotal(lines: unknown, name: string): number {
	if (!Array.isArray(lines)) return 0;
	const cents = (lines as IDataObject[])
		.filter((line) => line.nombre === name && typeof line.importe === 'number')
		.reduce((sum, line) => sum + Math.round((line.importe as number) * 1e6), 0);
	return cents / 1e6;
}

/**
 * One Item per Concepto: a row per concepto, for a spreadsheet — the CFDI's identity (UUID, serie, folio, date,
 * parties, currency) beside each concepto's own fields, its taxes as one column per tax (IVA and IEPS
 * transferred; ISR, IVA and IEPS withheld) instead of the lists a spreadsheet cannot hold, and the CFDI's
 * warnings as one text (`; ` between them, empty when none). A CFDI without conceptos (which the SAT's schema
 * does not allow) gives one row with the CFDI's identity only.
 */
export function conceptoRows(cfdi: CfdiInput): IDataObject[] {
	const { summary, conceptos } = cfdi.reading;
	const warnings = cfdi.reading.warnings.join('; ');
	const emisor = (summary.emisor ?? {}) as IDataObject;
	const receptor = (summary.receptor ?? {}) as IDataObject;
	const identity: IDataObject = {
		uuid: summary.uuid,
		version: summary.version,
		tipo: summary.tipo,
		serie: summary.serie,
		folio: summary.folio,
		fecha: summary.fecha,
		emisor_rfc: emisor.rfc,
		emisor_nombre: emisor.nombre,
		receptor_rfc: receptor.rfc,
		receptor_nombre: receptor.nombre,
		moneda: summary.moneda,
		tipo_cambio: summary.tipo_cambio,
	};
	if (!conceptos.length) return [{ ...identity, concepto_numero: null, warnings }];
	return conceptos.map((concepto, n) => {
		const { traslados, retenciones, ...fields } = concepto;
		return {
			...identity,
			concepto_numero: n + 1,
			...fields,
			iva_trasladado: taxTotal(traslados, 'IVA'),
			ieps_trasladado: taxTotal(traslados, 'IEPS'),
			isr_retenido: taxTotal(retenciones, 'ISR'),
			iva_retenido: taxTotal(retenciones, 'IVA'),
			ieps_retenido: taxTotal(retenciones, 'IEPS'),
			warnings,
		};
	});
}
