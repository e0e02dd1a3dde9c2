import { checkDigit, RECEIVED_LIST_COLUMNS, splitKey } from './sri';

/**
 * The report SRI en línea gives a taxpayer of the electronic receipts issued to it (Facturación electrónica →
 * Comprobantes electrónicos recibidos), as the portal downloads it: a header line and one line per receipt, fields
 * separated by tabs, no quoting. No official description exists; the layouts, encodings and quirks are those public
 * parsers of real downloads agree on (see nodes/Sri/domain/receivedList.ts): Windows-1252 or UTF-8, CRLF, a trailing
 * tab where the last field is empty, amounts such as `.31` and `1.5`, an empty total on credit notes.
 */

/** The columns of the current layout, in order. */
export const CURRENT_LAYOUT = RECEIVED_LIST_COLUMNS;

/** The columns of the 2023 layout (lojanet's sample files), in order. */
export const LAYOUT_2023 = Object.freeze([
	'COMPROBANTE',
	'SERIE_COMPROBANTE',
	'RUC_EMISOR',
	'RAZON_SOCIAL_EMISOR',
	'FECHA_EMISION',
	'FECHA_AUTORIZACION',
	'TIPO_EMISION',
	'NUMERO_DOCUMENTO_MODIFICADO',
	'IDENTIFICACION_RECEPTOR',
	'CLAVE_ACCESO',
	'NUMERO_AUTORIZACION',
	'IMPORTE_TOTAL',
]);

/** The labels of the current layout, by document type (the 2023 layout writes plurals: `Notas de Crédito`). */
export const LABELS = Object.freeze({
	'01': 'Factura',
	'03': 'Liquidación de compra de bienes y prestación de servicios',
	'04': 'Nota de Crédito',
	'05': 'Nota de Débito',
	'06': 'Guía de Remisión',
	'07': 'Comprobante de Retención',
});

// Windows-1252's characters at 0x80–0x9F (the WHATWG table), for writing them back as bytes.
const CP1252_HIGH =
	'\u20ac\u0081\u201a\u0192\u201e\u2026\u2020\u2021\u02c6\u2030\u0160\u2039\u0152\u008d\u017d\u008f' +
	'\u0090\u2018\u2019\u201c\u201d\u2022\u2013\u2014\u02dc\u2122\u0161\u203a\u0153\u009d\u017e\u0178';

/** `text` in Windows-1252 (a character it has no byte for becomes `?`, as Windows writes it). */
export function windows1252Bytes(text) {
	const bytes = Buffer.alloc(text.length);
	for (let k = 0; k < text.length; k++) {
		const code = text.charCodeAt(k);
		const high = CP1252_HIGH.indexOf(text[k]);
		bytes[k] =
			code < 0x80 || (code >= 0xa0 && code <= 0xff) ? code : high >= 0 ? 0x80 + high : 0x3f;
	}
	return bytes;
}

/**
 * @typedef {Record<string, string>} ListRow  a row's fields by column name (a column left out is empty)
 * @typedef {object} ListFileOptions
 * @property {readonly string[]} [columns]  the header (default: the current layout)
 * @property {'windows-1252' | 'utf-8'} [encoding]  default windows-1252
 * @property {boolean} [bom]  a UTF-8 byte-order mark
 * @property {string} [eol]  default `\r\n`; the file ends with one
 */

/**
 * The report's bytes: the header, then each row (a ListRow, or its line as written, for a test's odd line).
 * @param {Array<ListRow | string>} rows
 * @param {ListFileOptions} [options]
 */
export function listFile(rows, options = {}) {
	const {
		columns = CURRENT_LAYOUT,
		encoding = 'windows-1252',
		bom = false,
		eol = '\r\n',
	} = options;
	const lines = [
		columns.join('\t'),
		...rows.map((r) => (typeof r === 'string' ? r : columns.map((c) => r[c] ?? '').join('\t'))),
	];
	const text = lines.map((l) => `${l}${eol}`).join('');
	if (encoding === 'utf-8')
		return Buffer.concat([Buffer.from(bom ? [0xef, 0xbb, 0xbf] : []), Buffer.from(text, 'utf8')]);
	return windows1252Bytes(text);
}

/** The first `<name>` of `xml`, as text (entities the fixtures write decoded). */
function tag(xml, name) {
	const m = new RegExp(`<${name}>([^<]*)</${name}>`).exec(xml);
	return m?.[1]
		.replace(/&quot;/g, '"')
		.replace(/&lt;/g, '<')
		.replace(/&gt;/g, '>')
		.replace(/&amp;/g, '&');
}

/** The IVA (tax code 2) of a receipt's totals: `totalImpuesto` lines, or a debit note's `impuestos`. */
function ivaOf(xml) {
	const info =
		/<info(?:Factura|NotaCredito|NotaDebito|LiquidacionCompra)>[\s\S]*?<\/info\w+>/.exec(
			xml,
		)?.[0] ?? '';
	const lines = [...info.matchAll(/<(totalImpuesto|impuesto)>([\s\S]*?)<\/\1>/g)].map((m) => m[2]);
	return lines
		.filter((l) => tag(l, 'codigo') === '2')
		.reduce((sum, l) => sum + Number(tag(l, 'valor') ?? 0), 0);
}

/** An amount as the portal writes most of them: two decimals. */
const money = (n) => n.toFixed(2);

/**
 * The row the portal lists for a receipt (its XML, as the fixtures write it; `key` its access key): the authorization
 * time made up from the sequential, the amounts from its totals. A credit note's total is left empty and a
 * retention's amounts too (the portal's amounts for a retention are not known).
 * @param {string} key
 * @param {string} xml
 * @returns {ListRow}
 */
export function listRowOf(key, xml) {
	const k = splitKey(key);
	const fecha = `${k.date.slice(0, 2)}/${k.date.slice(2, 4)}/${k.date.slice(4)}`;
	const seq = Number(k.sequential);
	const time = [9 + (seq % 8), seq % 60, (seq * 7) % 60].map((n) => String(n).padStart(2, '0'));
	const total = tag(xml, 'importeTotal') ?? tag(xml, 'valorModificacion') ?? tag(xml, 'valorTotal');
	/** @type {ListRow} */
	const amounts =
		k.type === '07' || k.type === '06'
			? {}
			: {
					VALOR_SIN_IMPUESTOS: money(Number(tag(xml, 'totalSinImpuestos') ?? 0)),
					IVA: money(ivaOf(xml)),
					IMPORTE_TOTAL: k.type === '04' ? '' : money(Number(total ?? 0)),
				};
	return {
		RUC_EMISOR: k.ruc,
		RAZON_SOCIAL_EMISOR: tag(xml, 'razonSocial') ?? '',
		TIPO_COMPROBANTE: /** @type {Record<string, string>} */ (LABELS)[k.type],
		SERIE_COMPROBANTE: `${k.estab}-${k.ptoEmi}-${k.sequential}`,
		CLAVE_ACCESO: key,
		FECHA_AUTORIZACION: `${fecha} ${time.join(':')}`,
		FECHA_EMISION: fecha,
		IDENTIFICACION_RECEPTOR:
			tag(xml, 'identificacionComprador') ?? tag(xml, 'identificacionSujetoRetenido') ?? '',
		...amounts,
		NUMERO_DOCUMENTO_MODIFICADO: tag(xml, 'numDocModificado') ?? '',
	};
}

/** The issuer of the list's receipt that the SRI's authorization service does not hold (a fictional parking lot, its RUC failing the checksum so that it is nobody's). */
export const UNKNOWN_ISSUER = Object.freeze({
	ruc: '1790085780001',
	name: 'Parqueaderos Quito Norte S.A.',
});

/**
 * The month's list of the receipts issued to `informant`, as the portal downloads it (Windows-1252, CRLF, the current
 * layout): every production receipt of `receipts` (the month's, test/fixtures/sri/month.js) addressed to it and issued
 * that month by someone else, each once, in the order of their dates — and one more, a parking ticket of USD .31
 * whose key the SRI's authorization service does not know (it answers with no entry), as happens when the service is
 * behind the portal. `rows` and `keys` are what the file lists; `unknownKey` is the parking ticket's.
 * @param {Array<{ key: string, xml: string }>} receipts
 * @param {{ ruc: string }} informant
 * @param {{ year: number, month: number }} period
 */
export function monthList(receipts, informant, { year, month }) {
	const mm = String(month).padStart(2, '0');
	const seen = new Set();
	const held = receipts.filter((r) => {
		const k = splitKey(r.key);
		const mine = listRowOf(r.key, r.xml).IDENTIFICACION_RECEPTOR === informant.ruc;
		const fresh = !seen.has(r.key);
		seen.add(r.key);
		return (
			fresh &&
			mine &&
			k.ruc !== informant.ruc &&
			k.env === '2' &&
			k.date.slice(2) === `${mm}${year}`
		);
	});
	const first48 = `25${mm}${year}01${UNKNOWN_ISSUER.ruc}2001003000004410999999991`;
	const unknownKey = `${first48}${checkDigit(first48)}`;
	/** @type {ListRow[]} */
	const rows = held.map((r) => listRowOf(r.key, r.xml));
	// The debit note's IVA as the portal writes some amounts: one decimal.
	for (const row of rows)
		if (row.TIPO_COMPROBANTE === LABELS['05']) row.IVA = row.IVA.replace(/0$/, '');
	rows.push({
		RUC_EMISOR: UNKNOWN_ISSUER.ruc,
		RAZON_SOCIAL_EMISOR: UNKNOWN_ISSUER.name,
		TIPO_COMPROBANTE: LABELS['01'],
		SERIE_COMPROBANTE: '001-003-000004410',
		CLAVE_ACCESO: unknownKey,
		FECHA_AUTORIZACION: `25/${mm}/${year} 18:42:05`,
		FECHA_EMISION: `25/${mm}/${year}`,
		IDENTIFICACION_RECEPTOR: informant.ruc,
		VALOR_SIN_IMPUESTOS: '.27',
		IVA: '.04',
		IMPORTE_TOTAL: '.31',
		NUMERO_DOCUMENTO_MODIFICADO: '',
	});
	const day = (row) => row.FECHA_EMISION.split('/').reverse().join('');
	rows.sort((a, b) => day(a).localeCompare(day(b)));
	const names = ['ENERO', 'FEBRERO', 'MARZO', 'ABRIL', 'MAYO', 'JUNIO', 'JULIO', 'AGOSTO'];
	names.push('SEPTIEMBRE', 'OCTUBRE', 'NOVIEMBRE', 'DICIEMBRE');
	return {
		fileName: `${informant.ruc}_Recibidos_${names[month - 1]}${year}.txt`,
		bytes: listFile(rows),
		rows,
		keys: rows.map((r) => r.CLAVE_ACCESO),
		unknownKey,
	};
}
