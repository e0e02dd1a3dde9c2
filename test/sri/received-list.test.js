import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
/** @import { IDataObject, IWorkflowBase } from 'n8n-workflow' */
import { INFORMANT, lastMonth, monthOfReceipts } from '../fixtures/sri/month';
import { fixture, outputNames, built } from '../harness/engine';
import { keyFor, SriSimulator } from '../simulator/sri';
import {
	CURRENT_LAYOUT,
	listFile,
	monthList,
	UNKNOWN_ISSUER,
} from '../simulator/sri-received-list';
import { chain, fileItem } from './ats-setup';
import { NODE, startSri } from './setup';
import { xsdErrors } from './xsd';
/** @import { SriEnv } from './setup' */

/**
 * SRI (Ecuador) → Received Receipts List → Read through n8n-core's engine: the list SRI en línea downloads, one or
 * several files, into one item per receipt (each paired with its file), Not Read for a file that is not the list and
 * for each line that names no receipt, nothing but a note for a list of no receipts; then each receipt fetched by Check
 * Authorization from the simulator, and the example (examples/sri-received-list-ats.json) as `npm run dev` runs it.
 */

/** @type {SriEnv} */
let env;
beforeAll(async () => (env = await startSri()));
afterAll(() => env.stop());
beforeEach(() => env.reset());

const ME = INFORMANT.ruc;
const ISSUER = '1790016919001';
const invoiceKey = keyFor({ date: '15102026', series: '001002', sequential: 4521 });
const noteKey = keyFor({ type: '04', date: '20102026', series: '001002', sequential: 88 });
/** A row of the current layout: an invoice of the simulator's issuer to ME. */
const invoiceRow = {
	RUC_EMISOR: ISSUER,
	RAZON_SOCIAL_EMISOR: 'Distribuidora Andina S.A.',
	TIPO_COMPROBANTE: 'Factura',
	SERIE_COMPROBANTE: '001-002-000004521',
	CLAVE_ACCESO: invoiceKey,
	FECHA_AUTORIZACION: '15/10/2026 10:21:07',
	FECHA_EMISION: '15/10/2026',
	IDENTIFICACION_RECEPTOR: ME,
	VALOR_SIN_IMPUESTOS: '25.00',
	IVA: '3.00',
	IMPORTE_TOTAL: '28.00',
	NUMERO_DOCUMENTO_MODIFICADO: '',
};
const noteRow = {
	...invoiceRow,
	TIPO_COMPROBANTE: 'Nota de Crédito',
	SERIE_COMPROBANTE: '001-002-000000088',
	CLAVE_ACCESO: noteKey,
	FECHA_AUTORIZACION: '20/10/2026 08:02:44',
	FECHA_EMISION: '20/10/2026',
	VALOR_SIN_IMPUESTOS: '10.00',
	IVA: '1.5',
	IMPORTE_TOTAL: '',
	NUMERO_DOCUMENTO_MODIFICADO: '001-001-000000120',
};

/** An item carrying the file `content`, named `name`, in its binary field `data`. */
const named = (name, content) => fileItem(content, {}, 'data', name);

/** Read Received List's parameters. */
const readList = (options = {}) => ({
	resource: 'receivedList',
	operation: 'read',
	binaryPropertyName: 'data',
	options,
});

/** Runs Read Received List (version `typeVersion`) on items that each carry one file. */
const runList = (files, options = {}, typeVersion = 2, continueOnFail = false) =>
	env.runWithFiles(readList(options), files, continueOnFail, 'data', typeVersion);

describe('one item per receipt', () => {
	test('two downloads (invoices, then every type): each receipt once, paired with its file, the row as listed', async () => {
		const result = await runList([
			{ name: 'recibidos-FC.txt', content: listFile([invoiceRow]) },
			{ name: 'recibidos-todos.txt', content: listFile([noteRow, invoiceRow]) },
		]);
		expect(result.error).toBeUndefined();
		const read = result.output(NODE, 0);
		expect(result.output(NODE, 1)).toEqual([]);
		expect(read.map((o) => [o.json.clave_acceso, o.pairedItem])).toEqual([
			[invoiceKey, { item: 0 }],
			[noteKey, { item: 1 }],
		]);
		expect(read[0].json).toEqual({
			fecha_emision: '2026-10-15',
			tipo: 'factura',
			cod_doc: '01',
			numero: '001-002-000004521',
			clave_acceso: invoiceKey,
			emisor_ruc: ISSUER,
			emisor_razon_social: 'Distribuidora Andina S.A.',
			comprador_identificacion: ME,
			total_sin_impuestos: 25,
			iva: 3,
			importe_total: 28,
			numero_documento_modificado: null,
			fecha_autorizacion: '2026-10-15T10:21:07-05:00',
			file_name: 'recibidos-FC.txt',
			line: 2,
			warnings: 'Listed again at File "recibidos-todos.txt", line 3: kept once, here.',
		});
		expect(read[1].json).toMatchObject({
			tipo: 'nota_credito',
			cod_doc: '04',
			iva: 1.5,
			importe_total: null,
			numero_documento_modificado: '001-001-000000120',
			file_name: 'recibidos-todos.txt',
			line: 2,
			warnings:
				'IMPORTE_TOTAL is empty in the file (the SRI leaves it empty on some credit notes): the total is in the receipt itself, which Check Authorization gives.',
		});
		// The list's file does not travel with its receipts: Check Authorization would take it for the receipt's XML.
		expect(read.every((o) => o.binary === undefined)).toBe(true);
		expect(env.calls()).toEqual([]);
	});

	test('Your RUC: a row issued to someone else is flagged; a RUC that is not one stops the node, nothing read', async () => {
		const other = { ...invoiceRow, IDENTIFICACION_RECEPTOR: '1713175071' };
		const result = await runList([{ name: 'l.txt', content: listFile([other]) }], { ownRuc: ME });
		expect(result.output(NODE, 0)[0].json.warnings).toBe(
			`IDENTIFICACION_RECEPTOR 1713175071 is neither your RUC ${ME} nor its first 10 digits: this receipt was issued to someone else.`,
		);
		const wrong = await runList([{ name: 'l.txt', content: listFile([other]) }], {
			ownRuc: '179214673900',
		});
		expect(wrong.error?.message).toBe(
			'[item 1] Options → Your RUC: must be your RUC, 13 digits, got "179214673900"',
		);
	});
});

describe('Not Read: what names no receipt, and the others go on', () => {
	test('a file that is not the list, an item without a file, a file too large, and a line whose key is not one', async () => {
		const bad = `${invoiceKey.slice(0, 48)}${(Number(invoiceKey[48]) + 1) % 10}`;
		const large = listFile(Array.from({ length: 6_000 }, () => invoiceRow));
		expect(large.length).toBeGreaterThan(1024 * 1024);
		const result = await env.engine.run(
			chain(
				[
					named('ventas.csv', Buffer.from('RUC;CLAVE_ACCESO;TOTAL\r\n')),
					{ json: { asunto: 'sin adjunto' } },
					named('recibidos-anio.txt', large),
					named(
						'recibidos.txt',
						listFile([invoiceRow, { ...invoiceRow, CLAVE_ACCESO: bad }, noteRow]),
					),
				],
				[{ name: NODE, parameters: readList({ maxFileSize: 1 }), typeVersion: 2 }],
			),
		);
		expect(result.error).toBeUndefined();
		expect(result.output(NODE, 0).map((o) => [o.json.clave_acceso, o.pairedItem])).toEqual([
			[invoiceKey, { item: 3 }],
			[noteKey, { item: 3 }],
		]);
		const notRead = result.output(NODE, 1);
		expect(
			notRead.map((o) => [o.json.error, o.json.item_index, o.json.file_name, o.json.line]),
		).toEqual([
			[
				'[item 1] File "ventas.csv": has its columns separated by ";", not by tabs as the SRI writes them: a program (a spreadsheet?) saved it again. Give the file as SRI en línea downloads it',
				0,
				'ventas.csv',
				undefined,
			],
			[
				'[item 2] Input Binary Field "data": the input item has no such binary field: it carries no file at all, so the previous node did not output one',
				1,
				undefined,
				undefined,
			],
			[
				'[item 3] File "recibidos-anio.txt": is larger than 1 MB (Options → Max File Size)',
				2,
				'recibidos-anio.txt',
				undefined,
			],
			[
				expect.stringMatching(
					new RegExp(
						`^\\[item 4\\] File "recibidos\\.txt", line 3: CLAVE_ACCESO "${bad}" has check digit \\d but the SRI modulo-11 check gives \\d: the key is mistyped\\. The row is not read, so its receipt is not fetched: check the line in the file as SRI en línea gave it\\.$`,
					),
				),
				3,
				'recibidos.txt',
				3,
			],
		]);
		expect(notRead.map((o) => o.pairedItem)).toEqual([
			{ item: 0 },
			{ item: 1 },
			{ item: 2 },
			{ item: 3 },
		]);
		// A file not read goes along on its Not Read item, to be saved or looked at.
		expect(notRead[0].binary?.data.fileName).toBe('ventas.csv');
	});

	test('a list of no receipts: no item, and a note on the node’s output that names the file', async () => {
		const result = await runList([
			{ name: 'recibidos-vacio.txt', content: Buffer.from(`${CURRENT_LAYOUT.join('\t')}\r\n`) },
		]);
		expect(result.error).toBeUndefined();
		expect(result.output(NODE, 0)).toEqual([]);
		expect(result.output(NODE, 1)).toEqual([]);
		expect(result.run.data.resultData.runData[NODE][0].hints).toEqual([
			{
				message:
					'File "recibidos-vacio.txt" lists no receipts (only its header line): the SRI found none for the year, month, day and document type it was downloaded with. If you expected some, download it again from SRI en línea.',
				location: 'outputPane',
			},
		]);
		// A list with receipts has no such note.
		const full = await runList([{ name: 'l.txt', content: listFile([invoiceRow]) }]);
		expect(full.run.data.resultData.runData[NODE][0].hints).toEqual([]);
	});

	test('version 1 (one output): the lines not read are error items among the receipts; a file not the list stops the node', async () => {
		const bad = invoiceKey.slice(1);
		const result = await runList(
			[{ name: 'l.txt', content: listFile([{ ...invoiceRow, CLAVE_ACCESO: bad }, invoiceRow]) }],
			{},
			1,
		);
		expect(result.output(NODE, 0).map((o) => o.json.clave_acceso ?? o.json.error)).toEqual([
			invoiceKey,
			`[item 1] File "l.txt", line 2: CLAVE_ACCESO "${bad}" must be exactly 49 digits, got 48 digits. The row is not read, so its receipt is not fetched: check the line in the file as SRI en línea gave it.`,
		]);
		const notList = await runList([{ name: 'x.txt', content: Buffer.from('a\tb\n') }], {}, 1);
		expect(notList.error?.message).toMatch(
			/^\[item 1\] File "x\.txt": is not the SRI's list of received receipts: its first line has no CLAVE_ACCESO column/,
		);
	});

	test('the node has Read and Not Read from version 2, one output in version 1', () => {
		const sri = built('nodes/Sri/Sri.node', 'Sri');
		expect(outputNames(sri, 2, readList())).toEqual(['Read', 'Not Read']);
		expect(outputNames(sri, 1, readList())).toEqual(['main']);
	});
});

describe('Read Received List → Check Authorization: each receipt fetched from the SRI', () => {
	test('the access key mapped as {{ $json.clave_acceso }}: held receipts authorized, an unknown one NO ENCONTRADO', async () => {
		const month = monthOfReceipts({ year: 2026, month: 10 });
		for (const r of month) env.sim.receipts.set(r.key, r.xml);
		const list = monthList(month, INFORMANT, { year: 2026, month: 10 });
		const result = await env.engine.run(
			chain(
				[named(list.fileName, list.bytes)],
				[
					{ name: NODE, parameters: readList({ ownRuc: ME }), typeVersion: 2 },
					{
						name: 'Check',
						typeVersion: 2,
						parameters: {
							resource: 'receipt',
							operation: 'checkAuthorization',
							accessKey: '={{ $json.clave_acceso }}',
							options: { serviceAddress: env.address },
						},
					},
				],
			),
		);
		expect(result.error).toBeUndefined();
		const checked = result.output('Check').map((o) => o.json);
		expect(checked.map((j) => j.clave_acceso)).toEqual(list.keys);
		expect(SriSimulator.keysAsked(env.calls()).sort()).toEqual([...list.keys].sort());
		const unknown = checked.filter((j) => !j.authorized);
		expect(unknown.map((j) => [j.clave_acceso, j.estado])).toEqual([
			[list.unknownKey, 'NO ENCONTRADO'],
		]);
		expect(unknown[0].warnings).toMatch(/^The SRI holds no receipt for this access key/);
		expect(checked.filter((j) => j.authorized)).toHaveLength(list.keys.length - 1);
		// No file of the list's reached Check Authorization: nothing to compare, nothing to warn about.
		expect(checked.every((j) => j.matches_file === null)).toBe(true);
		expect(checked.filter((j) => j.warnings)).toEqual(unknown);
	});
});

describe('the simulator serves a month’s list, as the portal downloads it', () => {
	test('GET /sri/received-list?ruc=…&month=…: the list held, a list of no receipts for another month, 400 without both', async () => {
		const list = monthList(monthOfReceipts({ year: 2026, month: 10 }), INFORMANT, {
			year: 2026,
			month: 10,
		});
		env.sim.receivedLists.set(`${ME} 2026-10`, list.bytes);
		const get = (query) => fetch(`${env.address}/received-list?${query}`);
		const held = await get(`ruc=${ME}&month=2026-10`);
		expect(held.status).toBe(200);
		expect(held.headers.get('content-type')).toBe('text/plain;charset=windows-1252');
		expect(Buffer.from(await held.arrayBuffer())).toEqual(list.bytes);
		const other = await get(`ruc=${ME}&month=2026-09`);
		expect(await other.text()).toBe(`${CURRENT_LAYOUT.join('\t')}\r\n`);
		expect((await get(`ruc=${ME}`)).status).toBe(400);
		expect((await get('month=2026-10&ruc=17921467390')).status).toBe(400);
	});
});

describe('the example, as npm run dev runs it', () => {
	/** @type {string} */
	let dir;
	beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'sri-list-'))));
	afterEach(() => rmSync(dir, { recursive: true, force: true }));

	/** examples/sri-received-list-ats.json reading `dir`, its SRI nodes asking the simulator. */
	function example() {
		const workflow = fixture('sri-received-list-ats.json');
		for (const node of /** @type {any[]} */ (workflow.nodes)) {
			if (node.type === 'n8n-nodes-base.readWriteFile' && node.parameters.operation === 'write')
				node.parameters.fileName = `=${dir}/{{ $binary.data.fileName }}`;
			else if (node.type === 'n8n-nodes-base.readWriteFile')
				node.parameters.fileSelector = `${dir}/*.txt`;
			if (node.name === 'Fetch each receipt from the SRI')
				node.parameters.options = { serviceAddress: env.address };
			// Not Chosen Yet in the example: the sandbox chooses 01 (scripts/n8n/sandbox.mjs fillPlaceholders).
			if (node.name === 'Build the ATS') node.parameters.taxSupport = '01';
		}
		return workflow;
	}

	test('last month’s list → each receipt from the SRI → the ATS held against the list: the key the SRI gives no receipt for is a problem, the run stops at Check First', async () => {
		const month = monthOfReceipts(lastMonth());
		for (const r of month) env.sim.receipts.set(r.key, r.xml);
		const list = monthList(month, INFORMANT, lastMonth());
		mkdirSync(dir, { recursive: true });
		writeFileSync(join(dir, list.fileName), list.bytes);
		const result = await env.engine.run(example());
		expect(result.output('Read the list')).toHaveLength(list.keys.length);
		expect(result.output('Read the list', 1)).toEqual([]);
		// The annex leaves by Check First (output 1), its file on it for review; nothing is saved.
		const [item] = result.output('Build the ATS', 1);
		const xml = Buffer.from(String(item.binary?.data.data), 'base64').toString('utf8');
		expect(xsdErrors(xml)).toEqual([]);
		const { json } = item;
		const { year, month: m } = lastMonth();
		expect([json.anio, json.mes]).toEqual([String(year), String(m).padStart(2, '0')]);
		// Six purchases: four invoices, a credit and a debit note, all from the SRI's own receipts.
		expect(/** @type {IDataObject[]} */ (json.compras).map((c) => c.clave_acceso).sort()).toEqual(
			list.keys.filter((k) => k !== list.unknownKey && k.slice(8, 10) !== '07').sort(),
		);
		// Held against the SRI's list: the key it lists but gives no receipt for is missing from the annex.
		expect(json.problems).toEqual([
			expect.stringMatching(
				new RegExp(
					`^\\[item \\d+\\] access key ${list.unknownKey}: left out, the SRI gave no receipt for it \\(NO ENCONTRADO\\)\\. The SRI lists what was issued to you`,
				),
			),
		]);
		const warnings = /** @type {string[]} */ (json.warnings);
		expect(warnings).toHaveLength(1);
		const retention = list.keys.find((k) => k.slice(8, 10) === '07');
		expect(warnings.find((w) => w.includes(`${retention}`))).toMatch(
			/^\[item \d+\] comprobante de retención .* left out, it withholds on your factura .*, which is not among the items/,
		);
		expect(list.bytes.includes(Buffer.from(UNKNOWN_ISSUER.name))).toBe(true);
		// Check First: the run stops, red, naming the problem; no file saved as if it were ready.
		expect(result.output('Build the ATS', 0)).toEqual([]);
		expect(result.error?.message).toContain(
			`The ATS is not ready to file: 1 problem(s). The first: [item`,
		);
		expect(result.error?.message).toContain(list.unknownKey);
		expect(existsSync(join(dir, String(json.file_name)))).toBe(false);
	});
});
