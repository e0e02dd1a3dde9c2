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

/**
 * The tax columns of a row: for each tax a concepto may carry (c_Impuesto 002 IVA, 003 IEPS, 001 ISR) and each
 * direction (Traslados, Retenciones), its base, factor (Tasa, Cuota, Exento), rate and amount, named so that a
 * sheet sums by rate (`SUMIFS(iva_base, iva_tasa, 0.16)`).
 */
const TAX_COLUMNS = [
	{
		lines: 'traslados',
		code: '002',
		tax: 'IVA',
		prefix: 'iva',
		rate: 'tasa',
		amount: 'iva_trasladado',
	},
	{
		lines: 'traslados',
		code: '003',
		tax: 'IEPS',
		prefix: 'ieps',
		rate: 'tasa_o_cuota',
		amount: 'ieps_trasladado',
	},
	{
		lines: 'retenciones',
		code: '002',
		tax: 'IVA',
		prefix: 'iva_retenido',
		rate: 'tasa',
		amount: 'iva_retenido',
	},
	{
		lines: 'retenciones',
		code: '001',
		tax: 'ISR',
		prefix: 'isr_retenido',
		rate: 'tasa',
		amount: 'isr_retenido',
	},
	{
		lines: 'retenciones',
		code: '003',
		tax: 'IEPS',
		prefix: 'ieps_retenido',
		rate: 'tasa_o_cuota',
		amount: 'ieps_retenido',
	},
] as const;

/** Millionths, to add amounts without binary fractions piling up (a CFDI amount has at most 6 decimals). */
const add = (values: unknown[]): number =>
	values.reduce<number>((sum, v) => sum + (typeof v === 'number' ? Math.round(v * 1e6) : 0), 0) /
	1e6;

/**
 * The columns of one tax of a concepto, from its tax lines (`traslados` or `retenciones` of the concepto):
 * - no line of that tax: base, factor and rate empty (null), amount 0 — the concepto carries none of it;
 * - its lines share one factor and rate (usually one line): that factor and rate, their bases and amounts added
 *   (an exempt line, TipoFactor Exento, has no rate and no amount: rate empty, amount 0);
 * - lines at different factors or rates (which the SAT's rules do not expect within one concepto): factor and
 *   rate empty, bases and amounts added, and a warning naming them — one row cannot put its base under two rates.
 */
function taxColumns(
	lines: IDataObject[],
	column: (typeof TAX_COLUMNS)[number],
	conceptoNumber: number,
	warnings: string[],
): IDataObject {
	const own = lines.filter((line) => line.impuesto === column.code);
	const p = column.prefix;
	const factors = new Set(own.map((l) => `${l.tipo_factor ?? ''} ${l.tasa_o_cuota ?? ''}`));
	const one = factors.size === 1;
	if (own.length && !one)
		warnings.push(
			`Concepto ${conceptoNumber} has ${column.tax} ${column.lines === 'traslados' ? 'transferred' : 'withheld'} at more than one rate (${own.map((l) => `${l.tipo_factor ?? '?'} ${l.tasa_o_cuota ?? ''}`.trim()).join(', ')}): ${p}_tipo_factor and ${p}_${column.rate} are left empty, ${p}_base and ${column.amount} add them up`,
		);
	return {
		[`${p}_base`]:
			own.length && own.some((l) => typeof l.base === 'number')
				? add(own.map((l) => l.base))
				: null,
		[`${p}_tipo_factor`]: own.length && one ? (own[0].tipo_factor ?? null) : null,
		[`${p}_${column.rate}`]: own.length && one ? (own[0].tasa_o_cuota ?? null) : null,
		[column.amount]: add(own.map((l) => l.importe)),
	};
}

/** CFDI 3.2 states its taxes for the whole CFDI only (cfdv32.xsd has no taxes in Concepto). */
const TAXES_UNKNOWN_32 =
	"CFDI 3.2 states its taxes for the whole CFDI only, not per concepto: the tax columns of its rows are empty (see the CFDI's impuestos)";

/**
 * One Item per Concepto: a row per concepto, for a spreadsheet or a ledger — the CFDI's identity (UUID, serie,
 * folio, date, parties, currency) beside each concepto's own fields (its `objeto_imp` included), then for each tax
 * of the line its base, factor and rate and amount as columns (TAX_COLUMNS) instead of the lists a spreadsheet
 * cannot hold, and the warnings as one text (`; ` between them, empty when none): the CFDI's, then the row's own. A
 * CFDI 3.2 has no taxes per concepto: its tax columns are empty (never 0) and its rows say so. A CFDI without
 * conceptos (which the SAT's schema does not allow) gives one row with the CFDI's identity only.
 */
export function conceptoRows(cfdi: CfdiInput): IDataObject[] {
	const { summary, conceptos } = cfdi.reading;
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
	if (!conceptos.length)
		return [{ ...identity, concepto_numero: null, warnings: cfdi.reading.warnings.join('; ') }];
	const unknown = summary.version === '3.2';
	return conceptos.map((concepto, n) => {
		const { traslados, retenciones, ...fields } = concepto;
		const warnings = [...cfdi.reading.warnings];
		const lines = {
			traslados: (Array.isArray(traslados) ? traslados : []) as IDataObject[],
			retenciones: (Array.isArray(retenciones) ? retenciones : []) as IDataObject[],
		};
		const taxes: IDataObject = {};
		for (const column of TAX_COLUMNS) {
			const values = taxColumns(lines[column.lines], column, n + 1, warnings);
			for (const key of Object.keys(values)) taxes[key] = unknown ? null : values[key];
		}
		if (unknown) warnings.push(TAXES_UNKNOWN_32);
		return {
			...identity,
			concepto_numero: n + 1,
			...fields,
			...taxes,
			warnings: warnings.join('; '),
		};
	});
}
