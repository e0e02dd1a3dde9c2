import { splitAccessKey } from '../../shared/sri/accessKey';
import { strictUtf8, windows1252 } from '../../shared/xml';
import { isoDateTime } from './answer';
import { isoDate, keyDate, keyProblem } from './key';
import { RECEIPT_KINDS } from './kinds';

/**
 * The report SRI en línea gives a taxpayer of the electronic receipts issued to it (Facturación electrónica →
 * Comprobantes electrónicos recibidos → the listing downloaded as a .txt), read into one row per receipt.
 *
 * No official description of this report is published. What is read here is what public parsers of real downloads
 * agree on (lojanet's l10n_ec_import_edi for Odoo, with sample files of 2023; solnustec's Odoo wizard; LChumi's
 * Java reader; a C# ERP's test suite with rows of 2026 downloads):
 * - plain text, one receipt per line under a header line of column names, columns separated by a tab, no quoting;
 * - UTF-8 (sometimes with a byte-order mark) or Windows-1252 / ISO-8859-1, depending on the download;
 * - `\r\n` or `\n` line ends, a line break after the last row; empty trailing fields written as a trailing tab, or
 *   missing altogether (a credit note one field short);
 * - two layouts, matched by column name, never by position: the current one (`RUC_EMISOR`, `RAZON_SOCIAL_EMISOR`,
 *   `TIPO_COMPROBANTE`, `SERIE_COMPROBANTE`, `CLAVE_ACCESO`, `FECHA_AUTORIZACION`, `FECHA_EMISION`,
 *   `IDENTIFICACION_RECEPTOR`, `VALOR_SIN_IMPUESTOS`, `IVA`, `IMPORTE_TOTAL`, `NUMERO_DOCUMENTO_MODIFICADO`) and the
 *   one of 2023 (`COMPROBANTE`, `SERIE_COMPROBANTE`, `RUC_EMISOR`, `RAZON_SOCIAL_EMISOR`, `FECHA_EMISION`,
 *   `FECHA_AUTORIZACION`, `TIPO_EMISION`, `NUMERO_DOCUMENTO_MODIFICADO`, `IDENTIFICACION_RECEPTOR`, `CLAVE_ACCESO`,
 *   `NUMERO_AUTORIZACION`, `IMPORTE_TOTAL`); every column but the access key is optional;
 * - dates `dd/MM/yyyy` and `dd/MM/yyyy HH:mm:ss` in Ecuador's time; amounts with a `.`, sometimes without the
 *   leading zero (`.31`) or with one decimal (`2.4`); `IMPORTE_TOTAL` empty on some credit notes.
 *
 * The access key is the receipt's identity: 49 digits, its check digit and its fields checked by the node's one rule
 * (key.ts). A row whose key is not one is not read, and is named with its line number. What the key says (date,
 * type, issuer, number) is compared with the row's columns; a difference is a warning on the row.
 * Every loop here runs once over the file (lines, then each line's fields): time linear in its size.
 */

/** The header's column names, as `columnName` writes them. */
const COLUMN = {
	key: 'CLAVE_ACCESO',
	authorization: 'NUMERO_AUTORIZACION',
	issuer: 'RUC_EMISOR',
	issuerName: 'RAZON_SOCIAL_EMISOR',
	label: 'TIPO_COMPROBANTE',
	label2023: 'COMPROBANTE',
	number: 'SERIE_COMPROBANTE',
	authorizedAt: 'FECHA_AUTORIZACION',
	issuedAt: 'FECHA_EMISION',
	buyer: 'IDENTIFICACION_RECEPTOR',
	base: 'VALOR_SIN_IMPUESTOS',
	iva: 'IVA',
	total: 'IMPORTE_TOTAL',
	modified: 'NUMERO_DOCUMENTO_MODIFICADO',
} as const;

/** A receipt the list names, as the node outputs it (before the file's name, the line and the warnings). */
interface ListedRow {
	fecha_emision: string | null;
	tipo: string;
	cod_doc: string;
	numero: string | null;
	clave_acceso: string;
	emisor_ruc: string | null;
	emisor_razon_social: string | null;
	comprador_identificacion: string | null;
	total_sin_impuestos: number | null;
	iva: number | null;
	importe_total: number | null;
	numero_documento_modificado: string | null;
	fecha_autorizacion: string | null;
}

export interface ListedReceipt {
	row: ListedRow;
	/** The line of the file (the header is line 1). */
	line: number;
	warnings: string[];
}

/** A line that names no receipt the node can fetch: its number, and why (words that follow its column's name). */
export interface LineNotRead {
	line: number;
	problem: string;
}

interface ReadList {
	/** `utf-8` when the bytes are valid UTF-8 (a byte-order mark dropped), else `windows-1252`. */
	encoding: 'utf-8' | 'windows-1252';
	/** The file's lines with a receipt (the header and empty lines are not rows). */
	rows: number;
	receipts: ListedReceipt[];
	notRead: LineNotRead[];
}

/** Counts the work done, for a test to see that it grows with the file's size and no faster. */
interface Meter {
	steps: number;
}

/** A header cell as a column name: trimmed, upper case, without accents, runs of spaces or `_` as one `_`. */
function columnName(cell: string): string {
	return cell
		.normalize('NFD')
		.replace(/[\u0300-\u036f]/g, '')
		.toUpperCase()
		.split(/[\s_]+/)
		.filter(Boolean)
		.join('_');
}

/** The text of the file: UTF-8 when it is valid UTF-8 (its byte-order mark dropped), else Windows-1252. */
function decode(
	bytes: Buffer,
): { text: string; encoding: ReadList['encoding'] } | { problem: string } {
	if (
		(bytes[0] === 0xff && bytes[1] === 0xfe) ||
		(bytes[0] === 0xfe && bytes[1] === 0xff) ||
		(bytes.length > 1 && (bytes[0] === 0 || bytes[1] === 0))
	)
		return {
			problem:
				'is encoded in UTF-16 (a program saved it again as "Unicode"), which the SRI never writes: give the file as SRI en línea downloads it',
		};
	const body =
		bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? bytes.subarray(3) : bytes;
	const utf8 = strictUtf8(body);
	return utf8 === undefined
		? { text: windows1252(body), encoding: 'windows-1252' }
		: { text: utf8, encoding: 'utf-8' };
}

/** The document type code a label of the report names (`Factura`, `Notas de Crédito`, `Nota Credito`…), if any. */
export function labelCode(label: string): string | undefined {
	const words = label
		.normalize('NFD')
		.replace(/[\u0300-\u036f]/g, '')
		.toLowerCase()
		.split(/[^a-z]+/)
		.filter((w) => w && w !== 'de' && w !== 'del' && w !== 'la' && w !== 'el')
		// Plurals of the 2023 layout (`Notas de Crédito`, `Facturas`, `Liquidaciones de compra`, `Retenciones`).
		.map((w) => (/(?:ion|al)es$/.test(w) ? w.slice(0, -2) : w.endsWith('s') ? w.slice(0, -1) : w));
	const [first, second] = words;
	if (first === 'factura') return '01';
	if (first === 'liquidacion') return '03';
	// `Crédito` and `Débito` as mangled encodings leave them: `Cr?dito`, `Cr�dito` (the C# suite's case).
	if (first === 'nota' && second?.startsWith('cr')) return '04';
	if (first === 'nota' && second?.startsWith('d')) return '05';
	if (first === 'guia') return '06';
	if (first === 'retencion' || (first === 'comprobante' && second === 'retencion')) return '07';
	return undefined;
}

/** An amount as the report writes it (`115.00`, `.31`, `2.4`), or undefined when the text is not one. */
function amount(text: string): number | undefined {
	return /^-?(?:\d+(?:\.\d*)?|\.\d+)$/.test(text) ? Number(text) : undefined;
}

/** `EEE-PPP-SSSSSSSSS` of a number as the report writes it (dashes optional, the sequential unpadded), if it is one. */
function documentNumber(text: string): string | undefined {
	const m = /^(\d{3})-?(\d{3})-?(\d{1,9})$/.exec(text);
	return m ? `${m[1]}-${m[2]}-${m[3].padStart(9, '0')}` : undefined;
}

/** `yyyy-mm-dd` as the report writes dates: `dd/mm/yyyy`. */
const asSri = (iso: string) => `${iso.slice(8, 10)}/${iso.slice(5, 7)}/${iso.slice(0, 4)}`;

/** How a file's problem is said when its first line is not this report's header. */
function notThisReport(header: string): string {
	const start = header.length > 80 ? `${header.slice(0, 80)}…` : header;
	if (/CLAVE.ACCESO/.test(header.toUpperCase())) {
		const separator = [';', ',', '|'].find((s) => header.includes(s));
		return `has its columns separated by ${separator ? `"${separator}"` : 'something other than tabs'}, not by tabs as the SRI writes them: a program (a spreadsheet?) saved it again. Give the file as SRI en línea downloads it`;
	}
	return `is not the SRI's list of received receipts: its first line has no CLAVE_ACCESO column (it starts ${JSON.stringify(start)}). Download it from SRI en línea → Facturación electrónica → Comprobantes electrónicos recibidos`;
}

/** The row's access key: CLAVE_ACCESO, or NUMERO_AUTORIZACION when that is the key; or why the row has none. */
function keyOf(
	cell: (name: string) => string,
	warnings: string[],
): { key: string } | { problem: string } {
	const given = cell(COLUMN.key);
	const authorization = cell(COLUMN.authorization).replace(/\s+/g, '');
	const authorizationKey = authorization && !keyProblem(authorization) ? authorization : undefined;
	if (!given) {
		if (authorizationKey) return { key: authorizationKey };
		return {
			problem: authorization
				? `CLAVE_ACCESO is empty, and NUMERO_AUTORIZACION ${JSON.stringify(authorization.slice(0, 60))} is not an access key either: the receipt cannot be fetched from the SRI`
				: 'CLAVE_ACCESO is empty: the receipt cannot be fetched from the SRI',
		};
	}
	const key = given.replace(/\s+/g, '');
	const problem = keyProblem(key);
	if (problem) {
		const rewritten = /e\+?\d+$/i.test(key)
			? ' (it looks like a number a spreadsheet rewrote: give the file as SRI en línea downloads it)'
			: '';
		if (authorizationKey) {
			warnings.push(
				`CLAVE_ACCESO ${JSON.stringify(given.slice(0, 60))} ${problem}${rewritten}: the key is NUMERO_AUTORIZACION's.`,
			);
			return { key: authorizationKey };
		}
		return { problem: `CLAVE_ACCESO ${JSON.stringify(given.slice(0, 60))} ${problem}${rewritten}` };
	}
	if (key !== given) warnings.push(`CLAVE_ACCESO is written with spaces, which were dropped.`);
	if (authorizationKey && authorizationKey !== key)
		warnings.push(
			`NUMERO_AUTORIZACION ${authorizationKey} is not CLAVE_ACCESO: the SRI authorizes a receipt under its own access key, so the row names two receipts. CLAVE_ACCESO is the one fetched.`,
		);
	return { key };
}

/**
 * One row of the list: the receipt its key names, with what the row says of it, and a warning for each thing the key
 * contradicts or the node cannot read. `ownRuc`: the taxpayer's RUC, when given.
 */
function readRow(
	key: string,
	cell: (name: string) => string,
	has: (name: string) => boolean,
	warnings: string[],
	ownRuc: string | undefined,
): ListedRow {
	const parts = splitAccessKey(key);
	const kind = RECEIPT_KINDS.find((k) => k.codDoc === parts.receiptType) ?? RECEIPT_KINDS[0];

	const labelColumn = has(COLUMN.label) ? COLUMN.label : COLUMN.label2023;
	const label = cell(labelColumn);
	const labelled = label ? labelCode(label) : undefined;
	if (label && labelled === undefined)
		warnings.push(
			`${labelColumn} "${label}" is not a document type the node knows: the type is the access key's, ${kind.tipo} (${kind.codDoc}).`,
		);
	else if (labelled && labelled !== kind.codDoc)
		warnings.push(
			`${labelColumn} "${label}" says ${RECEIPT_KINDS.find((k) => k.codDoc === labelled)?.tipo} (${labelled}), but the access key says ${kind.tipo} (${kind.codDoc}, its digits 9–10): the key is the receipt the SRI gives.`,
		);

	const keyIssued = keyDate(key);
	const issuedText = cell(COLUMN.issuedAt);
	// A date, or a date and a time: the date is what counts.
	const issued = isoDate(issuedText.split(' ')[0]);
	if (issuedText && !issued)
		warnings.push(
			`FECHA_EMISION "${issuedText}" is not a date as dd/mm/yyyy: it is the access key's.`,
		);
	else if (issued && keyIssued && issued !== keyIssued)
		warnings.push(
			`FECHA_EMISION ${issuedText} is not the access key's date, ${asSri(keyIssued)} (its digits 1–8).`,
		);

	const issuer = cell(COLUMN.issuer);
	if (issuer && issuer !== parts.ruc)
		warnings.push(
			`RUC_EMISOR ${issuer} is not the access key's issuer, ${parts.ruc} (its digits 11–23).`,
		);

	const keyNumber = `${parts.series.slice(0, 3)}-${parts.series.slice(3)}-${parts.sequential}`;
	const numberText = cell(COLUMN.number);
	const numero = documentNumber(numberText);
	if (numberText && !numero)
		warnings.push(
			`SERIE_COMPROBANTE "${numberText}" is not a number as 001-002-000012345: it is the access key's, ${keyNumber}.`,
		);
	else if (numero && numero !== keyNumber)
		warnings.push(
			`SERIE_COMPROBANTE ${numberText} is not the access key's number, ${keyNumber} (its digits 25–39).`,
		);

	const authorizedText = cell(COLUMN.authorizedAt);
	const authorized = authorizedText ? isoDateTime(authorizedText) : undefined;
	if (authorizedText && !authorized)
		warnings.push(
			`FECHA_AUTORIZACION "${authorizedText}" is not a date and time as dd/mm/yyyy hh:mm:ss: it is left out.`,
		);

	const money = (column: string): number | null => {
		const text = cell(column);
		if (!text) return null;
		const value = amount(text);
		if (value === undefined) warnings.push(`${column} "${text}" is not an amount: it is left out.`);
		return value ?? null;
	};
	const totalSinImpuestos = money(COLUMN.base);
	const iva = money(COLUMN.iva);
	const importeTotal = money(COLUMN.total);
	// A retention's and a waybill's amounts in this report are not known: an empty total is said only of the others.
	if (has(COLUMN.total) && !cell(COLUMN.total) && !['06', '07'].includes(kind.codDoc))
		warnings.push(
			'IMPORTE_TOTAL is empty in the file (the SRI leaves it empty on some credit notes): the total is in the receipt itself, which Check Authorization gives.',
		);

	const buyer = cell(COLUMN.buyer);
	if (ownRuc !== undefined) {
		if (buyer && buyer !== ownRuc && buyer !== ownRuc.slice(0, 10))
			warnings.push(
				`IDENTIFICACION_RECEPTOR ${buyer} is neither your RUC ${ownRuc} nor its first 10 digits: this receipt was issued to someone else.`,
			);
		if (parts.ruc === ownRuc)
			warnings.push(
				`The access key's issuer is your own RUC ${ownRuc}: this is a receipt you issued, not one you received.`,
			);
	}
	if (parts.environment === '1')
		warnings.push(
			"The access key is of the SRI's test environment (its digit 24 is 1): a receipt there has no tax validity.",
		);

	return {
		fecha_emision: issued ?? keyIssued ?? null,
		tipo: kind.tipo,
		cod_doc: kind.codDoc,
		numero: numero ?? keyNumber,
		clave_acceso: key,
		emisor_ruc: issuer || parts.ruc,
		emisor_razon_social: cell(COLUMN.issuerName) || null,
		comprador_identificacion: buyer || null,
		total_sin_impuestos: totalSinImpuestos,
		iva,
		importe_total: importeTotal,
		numero_documento_modificado: cell(COLUMN.modified) || null,
		fecha_autorizacion: authorized ?? null,
	};
}

/**
 * The receipts of one downloaded report (`bytes`, as the file came), in the order of its lines, or why the file is not
 * that report (in words that follow the file's name). Empty lines are skipped; a header without rows is a list of no
 * receipts. `ownRuc`: the taxpayer's 13-digit RUC, to flag rows issued to someone else. Duplicates are kept here: see
 * `keepOnce`.
 */
export function readReceivedList(
	bytes: Buffer,
	options: { ownRuc?: string; meter?: Meter } = {},
): ReadList | { problem: string } {
	const meter = options.meter ?? { steps: 0 };
	const decoded = decode(bytes);
	if ('problem' in decoded) return decoded;
	const { text } = decoded;
	const receipts: ListedReceipt[] = [];
	const notRead: LineNotRead[] = [];
	let columns: Map<string, number> | undefined;
	let width = 0;
	let rows = 0;
	let lineNumber = 0;
	for (let start = 0; start < text.length; ) {
		meter.steps++;
		const end = text.indexOf('\n', start);
		const stop = end < 0 ? text.length : end;
		lineNumber++;
		const line = text.slice(start, stop > start && text[stop - 1] === '\r' ? stop - 1 : stop);
		start = stop + 1;
		if (!line.trim()) continue;
		const fields = line.split('\t');
		meter.steps += fields.length;
		if (!columns) {
			columns = new Map();
			for (const [index, cell] of fields.entries()) {
				const name = columnName(cell);
				if (name && !columns.has(name)) columns.set(name, index);
			}
			width = fields.length;
			if (!columns.has(COLUMN.key) && !columns.has(COLUMN.authorization))
				return { problem: notThisReport(line) };
			continue;
		}
		if (fields.every((f) => !f.trim())) continue;
		rows++;
		const named = columns;
		const cell = (name: string) => {
			const index = named.get(name);
			// A short row lacks its last fields: they are empty.
			return index === undefined ? '' : (fields[index] ?? '').trim();
		};
		const warnings: string[] = [];
		const key = keyOf(cell, warnings);
		if ('problem' in key) {
			notRead.push({ line: lineNumber, problem: key.problem });
			continue;
		}
		if (fields.length > width && fields.slice(width).some((f) => f.trim()))
			warnings.push(
				`The line has ${fields.length} fields where the header names ${width}: the ones beyond are not read.`,
			);
		const row = readRow(key.key, cell, (name) => named.has(name), warnings, options.ownRuc);
		receipts.push({ row, line: lineNumber, warnings });
	}
	if (!columns) return { problem: 'is empty: it holds no line, not even the header' };
	return { encoding: decoded.encoding, rows, receipts, notRead };
}

/** One file's receipts for `keepOnce`, and how messages name the file (`File "recibidos.txt"`). */
interface ListedFile {
	label: string;
	receipts: ListedReceipt[];
}

/** The output fields compared between two rows of the same receipt (all but the line and the warnings). */
const COMPARED = [
	'fecha_emision',
	'numero',
	'emisor_ruc',
	'emisor_razon_social',
	'comprador_identificacion',
	'total_sin_impuestos',
	'iva',
	'importe_total',
	'numero_documento_modificado',
	'fecha_autorizacion',
] as const;

/** How many other places of a receipt a warning names; the rest are counted. */
const PLACES_NAMED = 5;

/**
 * Each receipt once, across the lines of a file and across the files of a run (downloads overlap: a month and one
 * of its days, all types and one type): the first occurrence, in the order of `files` and of their lines, is kept, and
 * a warning on it names where else the receipt is listed, and what those rows say differently. Returns each file's
 * receipts that are kept, in the same order.
 */
export function keepOnce(files: ListedFile[], meter: Meter = { steps: 0 }): ListedReceipt[][] {
	const first = new Map<
		string,
		{ receipt: ListedReceipt; file: number; places: string[]; more: number; differs: Set<string> }
	>();
	const kept = files.map((file, f) =>
		file.receipts.filter((receipt) => {
			meter.steps++;
			const seen = first.get(receipt.row.clave_acceso);
			if (!seen) {
				first.set(receipt.row.clave_acceso, {
					receipt,
					file: f,
					places: [],
					more: 0,
					differs: new Set(),
				});
				return true;
			}
			const where =
				seen.file === f ? `line ${receipt.line}` : `${file.label}, line ${receipt.line}`;
			if (seen.places.length < PLACES_NAMED) seen.places.push(where);
			else seen.more++;
			for (const field of COMPARED)
				if (receipt.row[field] !== seen.receipt.row[field]) seen.differs.add(field);
			return false;
		}),
	);
	for (const seen of first.values()) {
		if (!seen.places.length) continue;
		const more = seen.more ? ` and ${seen.more} more` : '';
		const differs = seen.differs.size
			? `; what they say differs in ${[...seen.differs].join(', ')}: the receipt itself (Check Authorization) tells which is right`
			: '';
		seen.receipt.warnings.push(
			`Listed again at ${seen.places.join(', ')}${more}: kept once, here${differs}.`,
		);
	}
	return kept;
}
