import { zipEntries, zipEntryData, type ZipEntry, type ZipLimits } from '../../../shared/zip';
import { UUID } from '../expression';

/**
 * What a package of the SAT's bulk download holds (phpcfdi/sat-ws-descarga-masiva's package readers describe the
 * shapes seen in production): a ZIP whose root-level entries are
 * - CFDI packages: one XML per CFDI, named `<UUID>.xml` (since 2020 sometimes `<UUID>.xml.xml`), the UUID that of
 *   its stamp (TimbreFiscalDigital);
 * - metadata packages: text files (`<id>_01.txt`, `<id>-0001.txt`…) whose first line is the header
 *   (`Uuid~RfcEmisor~NombreEmisor~RfcReceptor~NombreReceptor~RfcPac~FechaEmision~FechaCertificacionSat~Monto~
 *   EfectoComprobante~Estatus~FechaCancelacion`), fields separated by `~`, lines by CRLF (a bare LF inside a
 *   name is dropped), fields matched by the header's names (trailing ones may be missing or extra); since 2022 a
 *   `<id>_tercero.txt` (`Uuid~RfcACuentaTerceros~NombreACuentaTerceros`) joined to the rows by UUID.
 * Other entries (folders, `__MACOSX/`, empty files) are left out. Plain functions, no n8n types.
 */

/** What the entries of a package are. */
interface PackageEntries {
	kind: 'cfdi' | 'metadata' | 'empty';
	/** The CFDIs' XML files, or the metadata's text files (third-party files apart). */
	entries: ZipEntry[];
	/** Metadata: the third-party files. */
	thirdParty: ZipEntry[];
}

const root = (e: ZipEntry) => !e.name.includes('/') && !e.name.includes('\\') && e.size > 0;
const lower = (e: ZipEntry) => e.name.toLowerCase();

/** The entries of the package `zip` that carry data, and which kind it is. Throws a ZipError (zip.ts). */
export function packageEntries(zip: Buffer, limits: ZipLimits): PackageEntries {
	const all = zipEntries(zip, limits).filter(root);
	const xml = all.filter((e) => lower(e).endsWith('.xml'));
	const txt = all.filter((e) => lower(e).endsWith('.txt'));
	if (xml.length) return { kind: 'cfdi', entries: xml, thirdParty: [] };
	if (!txt.length) return { kind: 'empty', entries: [], thirdParty: [] };
	const thirdParty = txt.filter((e) => lower(e).endsWith('_tercero.txt'));
	return { kind: 'metadata', entries: txt.filter((e) => !thirdParty.includes(e)), thirdParty };
}

/**
 * The UUID of a CFDI's stamp, read from its XML without parsing it (the node that reads CFDIs does that): the
 * `UUID` attribute of the first `…:TimbreFiscalDigital` element, upper case; undefined when there is none.
 */
export function stampUuid(xml: Buffer): string | undefined {
	const name = 'TimbreFiscalDigital';
	for (let at = xml.indexOf(name); at !== -1; at = xml.indexOf(name, at + name.length)) {
		const before = xml[at - 1];
		const after = xml[at + name.length];
		// An element's name: after "<" or a prefix's ":", before a space (a schema file's name is not one).
		if (
			(before !== 0x3a && before !== 0x3c) ||
			(after !== 0x20 && after !== 0x0a && after !== 0x0d && after !== 0x09)
		)
			continue;
		const end = xml.indexOf('>', at);
		const tag = xml.toString('utf8', at, end === -1 ? xml.length : end);
		const m = /(?:^|\s)UUID\s*=\s*["']([0-9A-Fa-f-]{36})["']/.exec(tag);
		return m && UUID.test(m[1]) ? m[1].toUpperCase() : undefined;
	}
	return undefined;
}

/** One CFDI of a package: its UUID (undefined when its XML names none) and the name its file gets. */
export function cfdiOfEntry(
	zip: Buffer,
	entry: ZipEntry,
): { uuid?: string; fileName: string; data: Buffer } {
	const data = zipEntryData(zip, entry);
	let fromName = entry.name;
	for (let k = 0; k < 2 && fromName.toLowerCase().endsWith('.xml'); k++)
		fromName = fromName.slice(0, -4);
	const uuid = stampUuid(data) ?? (UUID.test(fromName) ? fromName.toUpperCase() : undefined);
	return { uuid, fileName: uuid ? `${uuid}.xml` : entry.name, data };
}

/** A metadata row, typed. */
interface MetadataRow {
	[column: string]: string | number | null | string[];
}

/** A text file of a package, as text: UTF-8, or ISO-8859-1 when it is not UTF-8. */
function textOf(data: Buffer): string {
	const text = data.toString('utf8');
	return text.includes('\ufffd') && !Buffer.from(text, 'utf8').equals(data)
		? data.toString('latin1')
		: text;
}

/** The lines of a metadata file: by CRLF when it has one (a bare LF inside a field dropped), else by LF. */
function linesOf(text: string): string[] {
	const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
	const lines = body.includes('\r\n')
		? body.split('\r\n').map((line) => line.replace(/\n/g, ''))
		: body.split('\n').map((line) => line.replace(/\r$/, ''));
	return lines.filter((line) => line.trim() !== '');
}

/** `RfcACuentaTerceros` → `rfc_a_cuenta_terceros`. */
function snake(name: string): string {
	return name
		.trim()
		.replace(/([a-z0-9])([A-Z])/g, '$1_$2')
		.replace(/([A-Z])([A-Z][a-z])/g, '$1_$2')
		.toLowerCase();
}

/** The SAT's columns, by their header names (lower case), as the row's keys. */
const COLUMNS: Readonly<Record<string, string>> = {
	uuid: 'uuid',
	rfcemisor: 'rfc_emisor',
	nombreemisor: 'nombre_emisor',
	rfcreceptor: 'rfc_receptor',
	nombrereceptor: 'nombre_receptor',
	rfcpac: 'rfc_pac',
	fechaemision: 'fecha_emision',
	fechacertificacionsat: 'fecha_certificacion_sat',
	monto: 'monto',
	efectocomprobante: 'efecto_comprobante',
	estatus: 'estatus',
	fechacancelacion: 'fecha_cancelacion',
	rfcacuentaterceros: 'rfc_a_cuenta_terceros',
	nombreacuentaterceros: 'nombre_a_cuenta_terceros',
};

const keyOf = (header: string) => COLUMNS[header.trim().toLowerCase()] ?? snake(header);

/** `2025-03-14 09:12:00` → `2025-03-14T09:12:00`; empty → null; anything else kept, with a warning. */
function dateTime(value: string, column: string, warnings: string[]): string | null {
	const text = value.trim();
	if (!text) return null;
	const m = /^(\d{4}-\d{2}-\d{2})[ T](\d{2}:\d{2}:\d{2})/.exec(text);
	if (m) return `${m[1]}T${m[2]}`;
	warnings.push(`${column} ${JSON.stringify(text)} is not a date-time: kept as the SAT wrote it`);
	return text;
}

/** One row of a metadata file, its values typed. */
function typedRow(headers: string[], fields: string[]): MetadataRow {
	const row: MetadataRow = {};
	const warnings: string[] = [];
	headers.forEach((header, k) => {
		const key = keyOf(header);
		const value = (fields[k] ?? '').trim();
		if (key === 'monto') {
			const plain = /^-?\d+(?:\.\d+)?$/.test(value);
			row.monto = plain ? Number(value) : null;
			if (!plain && value) warnings.push(`Monto ${JSON.stringify(value)} is not an amount`);
		} else if (key === 'estatus') {
			row.estatus = value === '1' ? 'vigente' : value === '0' ? 'cancelado' : value || null;
			if (value !== '1' && value !== '0')
				warnings.push(`Estatus ${JSON.stringify(value)} is neither 1 (vigente) nor 0 (cancelado)`);
		} else if (key.startsWith('fecha_')) row[key] = dateTime(value, header, warnings);
		else if (key === 'uuid') row.uuid = value.toUpperCase();
		else row[key] = value === '' ? null : value;
	});
	if (fields.length > headers.length)
		warnings.push(`the row has ${fields.length - headers.length} more fields than the header`);
	row.warnings = warnings;
	return row;
}

/** The rows of one metadata file: its header, then each line. */
function* rowsOf(data: Buffer): Generator<{ headers: string[]; fields: string[] }> {
	const lines = linesOf(textOf(data));
	if (!lines.length) return;
	const headers = lines[0].split('~');
	for (let k = 1; k < lines.length; k++) yield { headers, fields: lines[k].split('~') };
}

/**
 * The rows of a metadata package, typed (`uuid`, `rfc_emisor`, `nombre_emisor`, `rfc_receptor`,
 * `nombre_receptor`, `rfc_pac`, `fecha_emision` and `fecha_certificacion_sat` as ISO date-times without zone,
 * `monto` a number, `efecto_comprobante`, `estatus` `vigente` or `cancelado`, `fecha_cancelacion` a date-time or
 * null; a column the node does not know, in snake case), each with its third party (`rfc_a_cuenta_terceros`,
 * `nombre_a_cuenta_terceros`, null when none) and `warnings`. One at a time: the caller stops when it has enough.
 */
export function* metadataRows(zip: Buffer, content: PackageEntries): Generator<MetadataRow> {
	const third = new Map<string, { rfc: string | null; name: string | null }>();
	for (const entry of content.thirdParty)
		for (const { headers, fields } of rowsOf(zipEntryData(zip, entry))) {
			const row = typedRow(headers, fields);
			if (typeof row.uuid === 'string' && row.uuid)
				third.set(row.uuid, {
					rfc: (row.rfc_a_cuenta_terceros as string | null) ?? null,
					name: (row.nombre_a_cuenta_terceros as string | null) ?? null,
				});
		}
	for (const entry of content.entries)
		for (const { headers, fields } of rowsOf(zipEntryData(zip, entry))) {
			const row = typedRow(headers, fields);
			const party = typeof row.uuid === 'string' ? third.get(row.uuid) : undefined;
			const { warnings, ...columns } = row;
			yield {
				...columns,
				rfc_a_cuenta_terceros: party?.rfc ?? (columns.rfc_a_cuenta_terceros as string) ?? null,
				nombre_a_cuenta_terceros:
					party?.name ?? (columns.nombre_a_cuenta_terceros as string) ?? null,
				warnings,
			};
		}
}
