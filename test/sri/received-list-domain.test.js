import { keepOnce, labelCode, readReceivedList } from '../../nodes/Sri/domain/receivedList';
import { INFORMANT, monthOfReceipts, PARTIES } from '../fixtures/sri/month';
import { checkDigit, keyFor } from '../simulator/sri';
import {
	CURRENT_LAYOUT,
	LAYOUT_2023,
	listFile,
	monthList,
	UNKNOWN_ISSUER,
} from '../simulator/sri-received-list';

/**
 * The list SRI en línea downloads of the receipts issued to a taxpayer, read by the SRI node's domain
 * (nodes/Sri/domain/receivedList.ts): both layouts, both encodings, the quirks of real downloads, the rows that name
 * no receipt, what the access key contradicts, receipts listed twice, and time linear in the file's size.
 */

const ME = '0990000000001';
const ISSUER = '1790000000001';
/** The note's two sample receipts: an invoice and a credit note of COMERCIAL EJEMPLO S.A. to ME, March 2026. */
const invoiceKey = keyFor({ date: '15032026', ruc: ISSUER, series: '001002', sequential: 12345 });
const noteKey = keyFor({
	type: '04',
	date: '20032026',
	ruc: ISSUER,
	series: '001002',
	sequential: 678,
});

/** The current layout's row of the invoice, by column. */
const invoiceRow = {
	RUC_EMISOR: ISSUER,
	RAZON_SOCIAL_EMISOR: 'COMERCIAL EJEMPLO S.A.',
	TIPO_COMPROBANTE: 'Factura',
	SERIE_COMPROBANTE: '001-002-000012345',
	CLAVE_ACCESO: invoiceKey,
	FECHA_AUTORIZACION: '15/03/2026 10:21:07',
	FECHA_EMISION: '15/03/2026',
	IDENTIFICACION_RECEPTOR: ME,
	VALOR_SIN_IMPUESTOS: '100.00',
	IVA: '15.00',
	IMPORTE_TOTAL: '115.00',
	NUMERO_DOCUMENTO_MODIFICADO: '',
};
/** The credit note, its total empty as the SRI leaves it, its amounts as the portal writes some: `2.4`, `.36`. */
const noteRow = {
	...invoiceRow,
	TIPO_COMPROBANTE: 'Nota de Crédito',
	SERIE_COMPROBANTE: '001-002-000000678',
	CLAVE_ACCESO: noteKey,
	FECHA_AUTORIZACION: '20/03/2026 08:02:44',
	FECHA_EMISION: '20/03/2026',
	VALOR_SIN_IMPUESTOS: '2.4',
	IVA: '.36',
	IMPORTE_TOTAL: '',
	NUMERO_DOCUMENTO_MODIFICADO: '001-002-000012345',
};

const invoiceOut = {
	fecha_emision: '2026-03-15',
	tipo: 'factura',
	cod_doc: '01',
	numero: '001-002-000012345',
	clave_acceso: invoiceKey,
	emisor_ruc: ISSUER,
	emisor_razon_social: 'COMERCIAL EJEMPLO S.A.',
	comprador_identificacion: ME,
	total_sin_impuestos: 100,
	iva: 15,
	importe_total: 115,
	numero_documento_modificado: null,
	fecha_autorizacion: '2026-03-15T10:21:07-05:00',
};
const noteOut = {
	...invoiceOut,
	fecha_emision: '2026-03-20',
	tipo: 'nota_credito',
	cod_doc: '04',
	numero: '001-002-000000678',
	clave_acceso: noteKey,
	total_sin_impuestos: 2.4,
	iva: 0.36,
	importe_total: null,
	numero_documento_modificado: '001-002-000012345',
	fecha_autorizacion: '2026-03-20T08:02:44-05:00',
};
const EMPTY_TOTAL =
	'IMPORTE_TOTAL is empty in the file (the SRI leaves it empty on some credit notes): the total is in the receipt itself, which Check Authorization gives.';

/** The receipts of a file that must be the list. */
function read(bytes, options = {}) {
	const list = readReceivedList(bytes, options);
	if ('problem' in list) throw new Error(`not read: ${list.problem}`);
	return list;
}

/** A valid key whose digits at `at` are `digits`, its check digit recomputed. */
function withDigits(key, at, digits) {
	const first48 = `${key.slice(0, at)}${digits}${key.slice(at + digits.length, 48)}`;
	return `${first48}${checkDigit(first48)}`;
}

describe('the current layout, as the portal downloads it', () => {
	test('Windows-1252, CRLF, a trailing tab, a credit note without its total, amounts as .36 and 2.4', () => {
		const bytes = listFile([invoiceRow, noteRow]);
		// What the portal writes: "Crédito" as the single byte E9, CRLF, the invoice's line ending in a tab.
		expect(bytes.includes(Buffer.from([0x43, 0x72, 0xe9, 0x64]))).toBe(true);
		expect(bytes.toString('latin1')).toContain('\t115.00\t\r\n');
		const list = read(bytes);
		expect(list.encoding).toBe('windows-1252');
		expect(list.rows).toBe(2);
		expect(list.notRead).toEqual([]);
		expect(list.receipts).toEqual([
			{ row: invoiceOut, line: 2, warnings: [] },
			{ row: noteOut, line: 3, warnings: [EMPTY_TOTAL] },
		]);
	});

	test('the same list in UTF-8, with or without a byte-order mark, and with LF: the same receipts', () => {
		const expected = read(listFile([invoiceRow, noteRow])).receipts;
		for (const options of [
			{ encoding: /** @type {const} */ ('utf-8') },
			{ encoding: /** @type {const} */ ('utf-8'), bom: true },
			{ encoding: /** @type {const} */ ('utf-8'), eol: '\n' },
		]) {
			const list = read(listFile([invoiceRow, noteRow], options));
			expect(list.encoding).toBe('utf-8');
			expect(list.receipts).toEqual(expected);
		}
	});

	test('Latin-1 text no UTF-8 reader would take: "Crédito", "Ñandú", and Windows-1252’s own ’ and €', () => {
		const row = {
			...noteRow,
			RAZON_SOCIAL_EMISOR: 'Servicios Ñandú & Asociados S.A. (O’Brien) €',
		};
		const bytes = listFile([row]);
		expect(bytes.includes(Buffer.from([0x92]))).toBe(true);
		const [receipt] = read(bytes).receipts;
		expect(receipt.row.emisor_razon_social).toBe('Servicios Ñandú & Asociados S.A. (O’Brien) €');
		expect(receipt.row.tipo).toBe('nota_credito');
		expect(receipt.warnings).toEqual([EMPTY_TOTAL]);
	});

	test('short rows are padded, extra columns noted, header names trimmed and in any case, empty lines skipped', () => {
		const header = CURRENT_LAYOUT.map((c, k) => (k === 4 ? ' clave  acceso ' : c.toLowerCase()));
		const fields = CURRENT_LAYOUT.map((c) => /** @type {Record<string, string>} */ (invoiceRow)[c]);
		const lines = [
			header.join('\t'),
			'',
			fields.slice(0, 9).join('\t'),
			'\t\t\t',
			`${fields.join('\t')}\textra`,
			'   ',
		];
		const list = read(Buffer.from(`${lines.join('\n')}\n`));
		expect(list.rows).toBe(2);
		expect(list.receipts.map((r) => r.line)).toEqual([3, 5]);
		// Line 3 stops after VALOR_SIN_IMPUESTOS: IVA, the total and the modified document are empty.
		expect(list.receipts[0].row).toEqual({ ...invoiceOut, iva: null, importe_total: null });
		expect(list.receipts[0].warnings).toEqual([EMPTY_TOTAL]);
		expect(list.receipts[1].row).toEqual(invoiceOut);
		expect(list.receipts[1].warnings).toEqual([
			'The line has 13 fields where the header names 12: the ones beyond are not read.',
		]);
	});

	test('a list of no receipts: its header line only (and a line break), or with empty lines', () => {
		for (const text of [
			`${CURRENT_LAYOUT.join('\t')}\r\n`,
			`${CURRENT_LAYOUT.join('\t')}\r\n\r\n\r\n`,
		])
			expect(read(Buffer.from(text))).toEqual({
				encoding: 'utf-8',
				rows: 0,
				receipts: [],
				notRead: [],
			});
	});
});

describe('the 2023 layout (COMPROBANTE, TIPO_EMISION, NUMERO_AUTORIZACION)', () => {
	const row2023 = (row) => ({
		...row,
		COMPROBANTE: row.TIPO_COMPROBANTE === 'Factura' ? 'Factura' : 'Notas de Crédito',
		TIPO_EMISION: 'NORMAL',
		NUMERO_AUTORIZACION: row.CLAVE_ACCESO,
	});

	test('read by the columns’ names: the same receipts, without the amounts it lacks; the note one field short', () => {
		const note = LAYOUT_2023.map((c) => /** @type {Record<string, string>} */ (row2023(noteRow))[c])
			.slice(0, -1)
			.join('\t');
		const bytes = listFile([row2023(invoiceRow), note], { columns: LAYOUT_2023 });
		const list = read(bytes);
		expect(list.notRead).toEqual([]);
		expect(list.receipts).toEqual([
			{
				row: { ...invoiceOut, total_sin_impuestos: null, iva: null },
				line: 2,
				warnings: [],
			},
			{
				row: { ...noteOut, total_sin_impuestos: null, iva: null },
				line: 3,
				warnings: [EMPTY_TOTAL],
			},
		]);
	});

	test('NUMERO_AUTORIZACION is the key when CLAVE_ACCESO is empty or is not one; both different: a warning', () => {
		const bad = `${invoiceKey.slice(0, 48)}${(Number(invoiceKey[48]) + 1) % 10}`;
		const list = read(
			listFile(
				[
					{ ...row2023(invoiceRow), CLAVE_ACCESO: '' },
					{ ...row2023(invoiceRow), CLAVE_ACCESO: bad },
					{ ...row2023(invoiceRow), NUMERO_AUTORIZACION: noteKey },
				],
				{ columns: LAYOUT_2023 },
			),
		);
		expect(list.receipts.map((r) => r.row.clave_acceso)).toEqual([
			invoiceKey,
			invoiceKey,
			invoiceKey,
		]);
		expect(list.receipts[0].warnings).toEqual([]);
		expect(list.receipts[1].warnings[0]).toMatch(
			new RegExp(
				`^CLAVE_ACCESO "${bad}" has check digit \\d but the SRI modulo-11 check gives \\d: the key is mistyped: the key is NUMERO_AUTORIZACION's\\.$`,
			),
		);
		expect(list.receipts[2].warnings).toEqual([
			`NUMERO_AUTORIZACION ${noteKey} is not CLAVE_ACCESO: the SRI authorizes a receipt under its own access key, so the row names two receipts. CLAVE_ACCESO is the one fetched.`,
		]);
	});
});

describe('rows that name no receipt: reported with their line, never dropped in silence', () => {
	test('a key too short, mistyped, of no document type, empty, rewritten by a spreadsheet', () => {
		const list = read(
			listFile([
				{ ...invoiceRow, CLAVE_ACCESO: invoiceKey.slice(1) },
				invoiceRow,
				{
					...invoiceRow,
					CLAVE_ACCESO: `${invoiceKey.slice(0, 48)}${(Number(invoiceKey[48]) + 1) % 10}`,
				},
				{ ...invoiceRow, CLAVE_ACCESO: withDigits(invoiceKey, 8, '02') },
				{ ...invoiceRow, CLAVE_ACCESO: '' },
				{ ...invoiceRow, CLAVE_ACCESO: '1,50320E+48' },
			]),
		);
		expect(list.rows).toBe(6);
		expect(list.receipts.map((r) => r.line)).toEqual([3]);
		expect(list.notRead.map((n) => n.line)).toEqual([2, 4, 5, 6, 7]);
		expect(list.notRead[0].problem).toBe(
			`CLAVE_ACCESO "${invoiceKey.slice(1)}" must be exactly 49 digits, got 48 digits`,
		);
		expect(list.notRead[1].problem).toMatch(
			/" has check digit \d but the SRI modulo-11 check gives \d/,
		);
		expect(list.notRead[2].problem).toMatch(/" has document type 02 \(digits 9–10\)/);
		expect(list.notRead[3].problem).toBe(
			'CLAVE_ACCESO is empty: the receipt cannot be fetched from the SRI',
		);
		expect(list.notRead[4].problem).toBe(
			'CLAVE_ACCESO "1,50320E+48" must be exactly 49 digits, got "1,50320E+48" (it looks like a number a spreadsheet rewrote: give the file as SRI en línea downloads it)',
		);
	});

	test('a key written with spaces is read, and the row says so', () => {
		const spaced = invoiceKey.replace(/(\d{7})/g, '$1 ').trim();
		const [receipt] = read(listFile([{ ...invoiceRow, CLAVE_ACCESO: spaced }])).receipts;
		expect(receipt.row.clave_acceso).toBe(invoiceKey);
		expect(receipt.warnings).toEqual(['CLAVE_ACCESO is written with spaces, which were dropped.']);
	});
});

describe('what the access key contradicts: a warning on the row, the key’s type kept', () => {
	test('type label, date, issuer, number; and labels or values the node cannot read', () => {
		const list = read(
			listFile([
				{
					...invoiceRow,
					TIPO_COMPROBANTE: 'Nota de Débito',
					FECHA_EMISION: '16/03/2026',
					RUC_EMISOR: '1790000000002',
					SERIE_COMPROBANTE: '001-002-000012346',
				},
				{
					...invoiceRow,
					TIPO_COMPROBANTE: 'Recibo',
					FECHA_EMISION: '2026-03-15',
					SERIE_COMPROBANTE: 'A-12345',
					FECHA_AUTORIZACION: 'ayer',
					IVA: '1,234.50',
				},
				{ ...invoiceRow, SERIE_COMPROBANTE: '001002000012345' },
			]),
		);
		const [first, second, third] = list.receipts;
		expect(first.row).toMatchObject({
			tipo: 'factura',
			cod_doc: '01',
			fecha_emision: '2026-03-16',
			emisor_ruc: '1790000000002',
			numero: '001-002-000012346',
		});
		expect(first.warnings).toEqual([
			'TIPO_COMPROBANTE "Nota de Débito" says nota_debito (05), but the access key says factura (01, its digits 9–10): the key is the receipt the SRI gives.',
			"FECHA_EMISION 16/03/2026 is not the access key's date, 15/03/2026 (its digits 1–8).",
			`RUC_EMISOR 1790000000002 is not the access key's issuer, ${ISSUER} (its digits 11–23).`,
			"SERIE_COMPROBANTE 001-002-000012346 is not the access key's number, 001-002-000012345 (its digits 25–39).",
		]);
		expect(second.row).toMatchObject({
			tipo: 'factura',
			fecha_emision: '2026-03-15',
			numero: '001-002-000012345',
			fecha_autorizacion: null,
			iva: null,
		});
		expect(second.warnings).toEqual([
			'TIPO_COMPROBANTE "Recibo" is not a document type the node knows: the type is the access key\'s, factura (01).',
			'FECHA_EMISION "2026-03-15" is not a date as dd/mm/yyyy: it is the access key\'s.',
			'SERIE_COMPROBANTE "A-12345" is not a number as 001-002-000012345: it is the access key\'s, 001-002-000012345.',
			'FECHA_AUTORIZACION "ayer" is not a date and time as dd/mm/yyyy hh:mm:ss: it is left out.',
			'IVA "1,234.50" is not an amount: it is left out.',
		]);
		// A number without its dashes is the same number.
		expect(third.row.numero).toBe('001-002-000012345');
		expect(third.warnings).toEqual([]);
	});

	test('a test-environment key is flagged', () => {
		const key = keyFor({
			env: '1',
			date: '15032026',
			ruc: ISSUER,
			series: '001002',
			sequential: 12345,
		});
		const [receipt] = read(listFile([{ ...invoiceRow, CLAVE_ACCESO: key }])).receipts;
		expect(receipt.warnings).toEqual([
			"The access key is of the SRI's test environment (its digit 24 is 1): a receipt there has no tax validity.",
		]);
	});

	test.each([
		['Factura', '01'],
		['Facturas', '01'],
		['Liquidación de compra de bienes y prestación de servicios', '03'],
		['Liquidaciones de Compra', '03'],
		['Nota de Crédito', '04'],
		['Notas de Crédito', '04'],
		['Nota Credito', '04'],
		['NOTA  DE   CREDITO', '04'],
		['Nota de Cr?dito', '04'],
		['Nota de Cr\ufffddito', '04'],
		['Nota de Débito', '05'],
		['Notas de Debito', '05'],
		['Guía de Remisión', '06'],
		['Comprobante de Retención', '07'],
		['Comprobantes de Retencion', '07'],
		['Retención', '07'],
		['Recibo', undefined],
		['Comprobante', undefined],
	])('the label %j is document type %s', (label, code) => {
		expect(labelCode(label)).toBe(code);
	});
});

describe('Your RUC', () => {
	test('a buyer that is your RUC or its first 10 digits is yours; any other, and a receipt you issued, are flagged', () => {
		const own = PARTIES.abogada.id;
		const mine = keyFor({ date: '15032026', ruc: own, series: '001002', sequential: 12345 });
		const list = read(
			listFile([
				{ ...invoiceRow, IDENTIFICACION_RECEPTOR: own },
				{ ...invoiceRow, IDENTIFICACION_RECEPTOR: own.slice(0, 10) },
				{ ...invoiceRow, IDENTIFICACION_RECEPTOR: '1790016919001' },
				{ ...invoiceRow, RUC_EMISOR: own, CLAVE_ACCESO: mine, IDENTIFICACION_RECEPTOR: own },
			]),
			{ ownRuc: own },
		);
		expect(list.receipts.map((r) => r.warnings)).toEqual([
			[],
			[],
			[
				`IDENTIFICACION_RECEPTOR 1790016919001 is neither your RUC ${own} nor its first 10 digits: this receipt was issued to someone else.`,
			],
			[
				`The access key's issuer is your own RUC ${own}: this is a receipt you issued, not one you received.`,
			],
		]);
		// Without the option nothing is said of the buyer.
		expect(
			read(listFile([{ ...invoiceRow, IDENTIFICACION_RECEPTOR: '1' }])).receipts[0].warnings,
		).toEqual([]);
	});
});

describe('a file that is not the list', () => {
	test.each([
		[
			'another report',
			Buffer.from('RUC\tRAZON_SOCIAL\tTOTAL\r\n1790016919001\tX\t1.00\r\n'),
			'is not the SRI\'s list of received receipts: its first line has no CLAVE_ACCESO column (it starts "RUC\\tRAZON_SOCIAL\\tTOTAL"). Download it from SRI en línea → Facturación electrónica → Comprobantes electrónicos recibidos',
		],
		[
			'the list saved again by a spreadsheet, with semicolons',
			Buffer.from(`${CURRENT_LAYOUT.join(';')}\r\n`),
			'has its columns separated by ";", not by tabs as the SRI writes them: a program (a spreadsheet?) saved it again. Give the file as SRI en línea downloads it',
		],
		[
			'UTF-16',
			Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(CURRENT_LAYOUT.join('\t'), 'utf16le')]),
			'is encoded in UTF-16 (a program saved it again as "Unicode"), which the SRI never writes: give the file as SRI en línea downloads it',
		],
		[
			'blank lines only',
			Buffer.from('\r\n \r\n'),
			'is empty: it holds no line, not even the header',
		],
	])('%s', (_name, bytes, problem) => {
		expect(readReceivedList(bytes)).toEqual({ problem });
	});

	test('a first line of 10,000 characters is quoted by its first 80', () => {
		const result = readReceivedList(Buffer.from(`${'x'.repeat(10_000)}\n`));
		expect(result).toEqual({
			problem: expect.stringContaining(`(it starts "${'x'.repeat(80)}…")`),
		});
	});
});

describe('receipts listed twice: kept once', () => {
	test('in one file and across files: the first kept, where else it is listed and what differs named on it', () => {
		const a = read(listFile([invoiceRow, noteRow, invoiceRow])).receipts;
		const b = read(listFile([{ ...invoiceRow, IMPORTE_TOTAL: '116.00' }, noteRow])).receipts;
		const c = read(listFile([noteRow])).receipts;
		const kept = keepOnce([
			{ label: 'File "a.txt"', receipts: a },
			{ label: 'File "b.txt"', receipts: b },
			{ label: 'File "c.txt"', receipts: c },
		]);
		expect(kept.map((f) => f.map((r) => [r.row.clave_acceso, r.line]))).toEqual([
			[
				[invoiceKey, 2],
				[noteKey, 3],
			],
			[],
			[],
		]);
		expect(kept[0][0].warnings).toEqual([
			'Listed again at line 4, File "b.txt", line 2: kept once, here; what they say differs in importe_total: the receipt itself (Check Authorization) tells which is right.',
		]);
		expect(kept[0][1].warnings).toEqual([
			EMPTY_TOTAL,
			'Listed again at File "b.txt", line 3, File "c.txt", line 2: kept once, here.',
		]);
	});

	test('a receipt listed a thousand times names five places and counts the others', () => {
		const [receipts] = [read(listFile(Array.from({ length: 1000 }, () => invoiceRow))).receipts];
		const [kept] = keepOnce([{ label: 'File "a.txt"', receipts }]);
		expect(kept).toHaveLength(1);
		expect(kept[0].warnings).toEqual([
			'Listed again at line 3, line 4, line 5, line 6, line 7 and 994 more: kept once, here.',
		]);
	});
});

describe('the simulator’s month, as npm run dev serves it', () => {
	test('every receipt issued to the company that month, read back with no line lost; its credit note without its total', () => {
		const month = monthOfReceipts({ year: 2026, month: 10 });
		const list = monthList(month, INFORMANT, { year: 2026, month: 10 });
		const read2 = read(list.bytes, { ownRuc: INFORMANT.ruc });
		expect(read2.encoding).toBe('windows-1252');
		expect(read2.notRead).toEqual([]);
		expect(read2.receipts.map((r) => r.row.clave_acceso)).toEqual(list.keys);
		// Purchases from suppliers, their credit and debit notes, a client's retention, and the parking ticket.
		expect(read2.receipts.map((r) => r.row.tipo).sort()).toEqual([
			'comprobante_retencion',
			'factura',
			'factura',
			'factura',
			'factura',
			'factura',
			'nota_credito',
			'nota_debito',
		]);
		const warned = read2.receipts.filter((r) => r.warnings.length);
		expect(warned.map((r) => [r.row.tipo, r.warnings])).toEqual([['nota_credito', [EMPTY_TOTAL]]]);
		const parking = read2.receipts.find((r) => r.row.clave_acceso === list.unknownKey);
		expect(parking?.row).toMatchObject({
			emisor_ruc: UNKNOWN_ISSUER.ruc,
			total_sin_impuestos: 0.27,
			iva: 0.04,
			importe_total: 0.31,
		});
		const debit = read2.receipts.find((r) => r.row.tipo === 'nota_debito');
		expect(debit?.row.iva).toBe(1.5);
		expect(list.bytes.toString('latin1')).toContain('\t1.5\t11.50\t');
	});

	test('the file as bytes: Windows-1252, CRLF line ends, a trailing tab on rows without a modified document', () => {
		const { bytes } = monthList(monthOfReceipts({ year: 2026, month: 10 }), INFORMANT, {
			year: 2026,
			month: 10,
		});
		const text = bytes.toString('latin1');
		expect(text.endsWith('\r\n')).toBe(true);
		expect(
			text
				.split('\r\n')
				.slice(1, -1)
				.every((l) => l.split('\t').length === 12),
		).toBe(true);
		expect(text).toMatch(/\t\.31\t\r\n/);
		expect(bytes.includes(Buffer.from('Nota de Cr\xe9dito', 'latin1'))).toBe(true);
	});
});

describe('time linear in the size of the file', () => {
	/** A list of `n` receipts (distinct keys). */
	const listOf = (n) =>
		listFile(
			Array.from({ length: n }, (_, k) => {
				const key = keyFor({ date: '15032026', ruc: ISSUER, series: '001002', sequential: k + 1 });
				return {
					...invoiceRow,
					CLAVE_ACCESO: key,
					SERIE_COMPROBANTE: `001-002-${String(k + 1).padStart(9, '0')}`,
				};
			}),
		);
	/** The work reading `bytes` (and keeping each receipt once) takes, per byte. */
	const stepsPerByte = (bytes) => {
		const meter = { steps: 0 };
		const list = read(bytes, { meter });
		keepOnce([{ label: 'File "x.txt"', receipts: list.receipts }], meter);
		return { perByte: meter.steps / bytes.length, list };
	};

	test('a 5 MB list (30,000 receipts) takes the same work per byte as a 1 MB one', () => {
		const small = listOf(6_000);
		const large = listOf(30_000);
		expect(large.length).toBeGreaterThan(5 * 1024 * 1024);
		const s = stepsPerByte(small);
		const l = stepsPerByte(large);
		expect(l.list.receipts).toHaveLength(30_000);
		expect(l.perByte).toBeLessThanOrEqual(s.perByte * 1.01);
		expect(l.perByte).toBeLessThan(0.1);
	});

	test('hostile files: 5 MB of one line of tabs, of empty lines, of one receipt repeated', () => {
		const header = `${CURRENT_LAYOUT.join('\t')}\n`;
		const row = `${CURRENT_LAYOUT.map((c) => /** @type {Record<string, string>} */ (invoiceRow)[c]).join('\t')}\n`;
		const size = 5 * 1024 * 1024;
		for (const body of [
			'\t'.repeat(size),
			'\n'.repeat(size),
			row.repeat(Math.ceil(size / row.length)),
		]) {
			const { perByte } = stepsPerByte(Buffer.from(`${header}${body}`));
			expect(perByte).toBeLessThanOrEqual(1.01);
		}
	});
});
