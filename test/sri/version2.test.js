import { withFakeClock } from '../harness/clock';
import { built, outputNames } from '../harness/engine';
import { entryXml, keyFor, receiptXml } from '../simulator/sri';
import { NODE, sampleInvoiceRow, startSri } from './setup';
/** @import { SriEnv } from './setup' */

/**
 * The received-documents flow as a bookkeeper meets it, in the SRI (Ecuador) node's version 2, through n8n-core's
 * engine against the SRI simulator: a batch that survives a bad file (Read XML's Not Read output, each file named
 * by the name it arrived with), a file checked against the receipt the SRI authorized (matches_file), and a row
 * a purchases ledger takes (Output → Ledger Row, the default). Version 1, as saved workflows carry it, is tested
 * by the other files of this folder.
 */

/** @type {SriEnv} */
let env;
beforeAll(async () => (env = await startSri()));
afterAll(() => env.stop());
beforeEach(() => env.reset());

const authorizedKey = keyFor({ sequential: 4521, series: '001002' });
/** A supplier's file: the SRI's authorization file of an authorized invoice (28.00: 20.00 at 15 %, 5.00 at 0 %). */
const authorized = `<?xml version="1.0" encoding="UTF-8"?>\n${entryXml({ estado: 'AUTORIZADO', key: authorizedKey, comprobante: receiptXml(authorizedKey), fecha: '21/10/2026 10:15:42' })}`;
/** The same file, its total and its IVA base at 15 % altered by hand (the receipt still adds up). */
const altered = authorized
	.replace('<importeTotal>28.00</importeTotal>', '<importeTotal>33.75</importeTotal>')
	.replace(
		'<baseImponible>20.00</baseImponible><valor>3.00</valor></totalImpuesto>',
		'<baseImponible>25.00</baseImponible><valor>3.75</valor></totalImpuesto>',
	);
const FILES = [
	{ name: 'factura-andina.xml', content: authorized },
	{ name: 'factura-andina (copia).xml', content: altered },
	{ name: 'RIDE-andina.xml', content: '<Authorization><Status>OK</Status></Authorization>' },
];

/** The columns of a ledger row, in order (Check Authorization adds matches_file after estado). */
const LEDGER = [
	'authorized',
	'estado',
	'fecha_emision',
	'tipo',
	'numero',
	'clave_acceso',
	'emisor_ruc',
	'emisor_razon_social',
	'comprador_identificacion',
	'base_iva_15',
	'base_iva_5',
	'base_iva_otra_tarifa',
	'base_iva_0',
	'base_no_objeto_iva',
	'base_exento_iva',
	'iva',
	'ice',
	'importe_total',
	'retenido_renta',
	'retenido_iva',
	'retenido_isd',
	'fecha_autorizacion',
	'file_name',
	'sri_messages',
	'warnings',
];

describe('Read XML: a batch that survives a file it cannot read', () => {
	test('three files, one not a receipt: two leave by Read, the third by Not Read with its name, position and reason; nothing stops', async () => {
		const result = await env.runWithFiles(env.readBinary(), FILES, false, 'data', 2);
		expect(result.error).toBeUndefined();
		const read = result.output(NODE, 0);
		const notRead = result.output(NODE, 1);
		expect(read.map((o) => [o.json.file_name, o.pairedItem])).toEqual([
			['factura-andina.xml', { item: 0 }],
			['factura-andina (copia).xml', { item: 1 }],
		]);
		expect(notRead).toHaveLength(1);
		expect(notRead[0].pairedItem).toEqual({ item: 2 });
		expect(notRead[0].json).toEqual({
			error:
				'[item 3] File "RIDE-andina.xml": is not an SRI receipt: its root element is "Authorization", and it holds no authorization (an element such as "autorizacion" or "Authorization" with a "comprobante" or "numeroAutorizacion"), where a receipt has one of "factura", "liquidacionCompra", "notaCredito", "notaDebito", "guiaRemision", "comprobanteRetencion"',
			item_index: 2,
			file_name: 'RIDE-andina.xml',
		});
		// The file that could not be read goes along: it can be saved or sent back to the supplier.
		expect(notRead[0].binary?.data.fileName).toBe('RIDE-andina.xml');
		expect(env.calls()).toHaveLength(0);
	});

	test('no message about a file writes an element as a tag (the editor’s notices would swallow it)', async () => {
		const result = await env.runWithFiles(
			env.readBinary(),
			[
				{ name: 'a.xml', content: '<factura><infoTributaria></factura>' },
				{ name: 'b.xml', content: '<!DOCTYPE x [<!ENTITY a "b">]><factura/>' },
				{ name: 'c.xml', content: '<pedido/>' },
				{
					name: 'd.xml',
					content: entryXml({ estado: 'AUTORIZADO', key: authorizedKey, comprobante: '<pedido/>' }),
				},
				{ name: 'e.xml', content: '<factura><!-- sin cerrar </factura>' },
			],
			false,
			'data',
			2,
		);
		const errors = result.output(NODE, 1).map((o) => String(o.json.error));
		expect(errors).toHaveLength(5);
		errors.forEach((message, k) => {
			expect(message).toMatch(new RegExp(`^\\[item ${k + 1}\\] File "${'abcde'[k]}\\.xml": `));
			expect(message).not.toMatch(/<[A-Za-z!?/]/);
		});
		expect(errors[0]).toContain(
			'the end tag "factura" at line 1, column 26 does not match "infoTributaria"',
		);
	});

	test('an item without the file, and a previous node’s error item: both leave by Not Read, saying which', async () => {
		const result = await env.run(
			env.readBinary(),
			[{ asunto: 'sin adjunto' }, { error: '[item 2] IMAP: the mailbox could not be read' }],
			false,
			2,
		);
		expect(result.error).toBeUndefined();
		expect(result.output(NODE, 0)).toEqual([]);
		expect(result.output(NODE, 1).map((o) => o.json.error)).toEqual([
			'[item 1] Input Binary Field "data": the input item has no such binary field: it carries no file at all, so the previous node did not output one',
			'[item 2] Input Binary Field "data": is missing: the input item is not a document but the previous node\'s error: "[item 2] IMAP: the mailbox could not be read". Fix that item there (or route the previous node\'s errors elsewhere)',
		]);
	});

	test('a wrong setting is still the node’s failure, not a file’s', async () => {
		const result = await env.run(
			{ ...env.readText({ attachXml: true, binaryPropertyName: ' ' }) },
			[{ xml: authorized }],
			false,
			2,
		);
		expect(result.error?.message).toBe(
			'[item 1] Options → Put XML in Field: must name a binary field, e.g. data',
		);
	});
});

describe('Read XML: the file goes on, and the row a ledger takes', () => {
	test('by default a flat row of at most 25 columns with the bases per IVA rate; the file keeps its name', async () => {
		const result = await env.runWithFiles(env.readBinary(), FILES.slice(0, 1), false, 'data', 2);
		const [item] = result.output(NODE, 0);
		expect(Object.keys(item.json)).toEqual(LEDGER);
		expect(Object.values(item.json).every((v) => v === null || typeof v !== 'object')).toBe(true);
		expect(item.json).toMatchObject({
			authorized: true,
			estado: 'AUTORIZADO',
			...sampleInvoiceRow(authorizedKey),
			file_name: 'factura-andina.xml',
			warnings: '',
		});
		expect(item.binary?.data.fileName).toBe('factura-andina.xml');
	});

	test('Rename File to Access Key; Output → Whole Receipt gives version 1’s fields and the file’s name', async () => {
		const renamed = await env.runWithFiles(
			{ ...env.readBinary({ renameFile: true }), output: 'whole' },
			FILES.slice(0, 1),
			false,
			'data',
			2,
		);
		const [item] = renamed.output(NODE, 0);
		expect(item.binary?.data.fileName).toBe(`${authorizedKey}.xml`);
		const v1 = await env.runWithFiles(env.readBinary(), [authorized], false, 'data', 1);
		const { file_name: name, ...rest } = item.json;
		expect(name).toBe('factura-andina.xml');
		expect(rest).toEqual(v1.output(NODE, 0)[0].json);
		expect(v1.output(NODE, 0)[0].binary?.data.fileName).toBe(`${authorizedKey}.xml`);
	});

	test('a retention: what it withholds in its own columns, no invoice amounts', async () => {
		const key = keyFor({ type: '07', sequential: 77 });
		const result = await env.run(env.readText(), [{ xml: receiptXml(key) }], false, 2);
		expect(result.output(NODE, 0)[0].json).toMatchObject({
			tipo: 'comprobante_retencion',
			base_iva_15: null,
			base_iva_0: null,
			iva: null,
			importe_total: null,
			retenido_renta: 1.75,
			retenido_iva: 4.5,
			retenido_isd: 0,
		});
	});

	test('bases at 12 % (receipts before 2024) have their column; no objeto and exento theirs', async () => {
		const key = keyFor({ sequential: 88 });
		const receipt = receiptXml(key).replace(
			'<totalImpuesto><codigo>2</codigo><codigoPorcentaje>4</codigoPorcentaje><baseImponible>20.00</baseImponible><valor>3.00</valor></totalImpuesto>',
			'<totalImpuesto><codigo>2</codigo><codigoPorcentaje>2</codigoPorcentaje><baseImponible>10.00</baseImponible><valor>1.20</valor></totalImpuesto><totalImpuesto><codigo>2</codigo><codigoPorcentaje>6</codigoPorcentaje><baseImponible>4.00</baseImponible><valor>0.00</valor></totalImpuesto><totalImpuesto><codigo>2</codigo><codigoPorcentaje>7</codigoPorcentaje><baseImponible>6.00</baseImponible><valor>0.00</valor></totalImpuesto><totalImpuesto><codigo>3</codigo><codigoPorcentaje>3011</codigoPorcentaje><baseImponible>10.00</baseImponible><valor>1.50</valor></totalImpuesto>',
		);
		const result = await env.run(env.readText(), [{ xml: receipt }], false, 2);
		expect(result.output(NODE, 0)[0].json).toMatchObject({
			base_iva_15: null,
			base_iva_otra_tarifa: 10,
			base_no_objeto_iva: 4,
			base_exento_iva: 6,
			base_iva_0: 5,
			iva: 1.2,
			ice: 1.5,
		});
	});
});

describe('Read XML → Check Authorization: the file against the receipt the SRI authorized', () => {
	test('three files in one run, no setting changed: the authorized one matches, its altered copy does not, each difference named; the unreadable one never reaches the SRI', async () => {
		const result = await env.runReadThenCheck(FILES);
		expect(result.error).toBeUndefined();
		expect(result.output('Read XML', 1).map((o) => o.json.file_name)).toEqual(['RIDE-andina.xml']);
		const checked = result.output('Check Authorization');
		expect(checked.map((o) => [o.json.file_name, o.json.authorized, o.json.matches_file])).toEqual([
			['factura-andina.xml', true, true],
			['factura-andina (copia).xml', true, false],
		]);
		expect(Object.keys(checked[0].json)).toEqual([
			...LEDGER.slice(0, 2),
			'matches_file',
			...LEDGER.slice(2),
		]);
		expect(Object.keys(checked[0].json).length).toBeLessThanOrEqual(26);
		expect(checked[0].json.warnings).toBe('');
		// The row is the SRI's figures; the warning names what the file changed.
		expect(checked[1].json).toMatchObject({ importe_total: 28, base_iva_15: 20, iva: 3 });
		expect(checked[1].json.warnings).toBe(
			'File "factura-andina (copia).xml" is not the receipt the SRI authorized for this access key: infoFactura.totalConImpuestos.totalImpuesto[0].baseImponible is 25 in the file, 20 at the SRI; infoFactura.totalConImpuestos.totalImpuesto[0].valor is 3.75 in the file, 3 at the SRI; infoFactura.importeTotal is 33.75 in the file, 28 at the SRI. Book the SRI’s figures, not the file’s, or ask the supplier why they differ.',
		);
		// Both keys asked once: the file's own, since Access Key was left empty.
		expect(env.calls()).toHaveLength(2);
		// The supplier's file goes on, under its name; the SRI's copy does not replace it.
		expect(checked.map((o) => o.binary?.data.fileName)).toEqual([
			'factura-andina.xml',
			'factura-andina (copia).xml',
		]);
	});

	test('Whole Receipt: matches_file and file_differences beside found', async () => {
		const result = await env.runReadThenCheck(FILES.slice(1, 2), 2, { output: 'whole' });
		const [item] = result.output('Check Authorization');
		expect(Object.keys(item.json).slice(0, 8)).toEqual([
			'clave_acceso',
			'estado',
			'authorized',
			'found',
			'matches_file',
			'file_differences',
			'file_name',
			'source',
		]);
		expect(item.json.file_differences).toEqual([
			'infoFactura.totalConImpuestos.totalImpuesto[0].baseImponible is 25 in the file, 20 at the SRI',
			'infoFactura.totalConImpuestos.totalImpuesto[0].valor is 3.75 in the file, 3 at the SRI',
			'infoFactura.importeTotal is 33.75 in the file, 28 at the SRI',
		]);
	});

	test('a file claiming AUTORIZADO that the SRI did not authorize: the state is a difference too', async () => {
		const key = keyFor({ scenario: 'notAuthorized', sequential: 31 });
		const file = entryXml({ estado: 'AUTORIZADO', key, comprobante: receiptXml(key) });
		const result = await env.runReadThenCheck([{ name: 'f.xml', content: file }]);
		const [item] = result.output('Check Authorization');
		expect(item.json).toMatchObject({
			authorized: false,
			estado: 'NO AUTORIZADO',
			matches_file: false,
		});
		expect(item.json.warnings).toContain('the file says "AUTORIZADO", the SRI "NO AUTORIZADO"');
	});

	test('a key the SRI does not know: NO ENCONTRADO, nothing to compare, the receipt’s figures from the file, each said', async () => {
		const key = keyFor({ scenario: 'unknown', sequential: 32 });
		const result = await env.runReadThenCheck([{ name: 'g.xml', content: receiptXml(key) }]);
		const [item] = result.output('Check Authorization');
		expect(item.json).toMatchObject({
			authorized: false,
			estado: 'NO ENCONTRADO',
			matches_file: null,
			...sampleInvoiceRow(key),
			numero: '001-001-000000032',
			file_name: 'g.xml',
		});
		const warnings = String(item.json.warnings).split(' | ');
		expect(warnings).toEqual([
			expect.stringMatching(
				/^The SRI holds no receipt for this access key: it answered with no entry \(estado NO ENCONTRADO is this node's word, not the SRI's\)\. The SRI authorizes a receipt up to 24 hours after the issuer sends it: ask again later\./,
			),
			'File "g.xml": the receipt\'s figures here (issuer, number, date, amounts) are the file\'s, since the SRI gave no receipt for its access key. Do not book them until the SRI authorizes it.',
		]);
		// The supplier's file goes on; no copy of the SRI's, which gave none.
		expect(Object.keys(item.binary ?? {})).toEqual(['data']);
		expect(item.binary?.data.fileName).toBe('g.xml');
	});

	test('Whole Receipt of a key the SRI does not know or is processing: estado says it, with what to do; no comprobante', async () => {
		const unknown = keyFor({ scenario: 'unknown', sequential: 34 });
		const inProcess = keyFor({ scenario: 'inProcess', sequential: 35 });
		const result = await env.runReadThenCheck(
			[
				{ name: 'u.xml', content: receiptXml(unknown) },
				{ name: 'p.xml', content: receiptXml(inProcess) },
			],
			2,
			{ output: 'whole' },
		);
		const [u, p] = result.output('Check Authorization').map((i) => i.json);
		expect(u).toMatchObject({
			clave_acceso: unknown,
			estado: 'NO ENCONTRADO',
			authorized: false,
			found: false,
			file_name: 'u.xml',
			numero: '001-001-000000034',
			emisor: { ruc: '1790016919001' },
		});
		expect(u).not.toHaveProperty('comprobante');
		expect(p).toMatchObject({ estado: 'EN PROCESO', authorized: false, found: true });
		expect(p.warnings).toContainEqual(
			expect.stringMatching(
				/^The SRI has received this receipt but not processed it yet \(estado EN PROCESO\)/,
			),
		);
		// Version 1, as saved workflows carry it, keeps its shape: no estado for a key without an entry.
		const v1 = await env.run(env.check(), [{ key: unknown }]);
		expect(v1.output(NODE)[0].json).not.toHaveProperty('estado');
	});

	describe('an SRI that fails for a file’s key: its error item names the file, in both On Error modes', () => {
		const fault = keyFor({ scenario: 'fault', sequential: 36 });
		const ok = keyFor({ sequential: 37 });
		/** Read XML → Check Authorization (On Error `mode`) → a No Operation on each of its outputs. */
		const run = (mode) => {
			const files = [
				{ name: 'bien.xml', content: receiptXml(ok) },
				{ name: 'caido.xml', content: receiptXml(fault) },
			];
			return withFakeClock(async () => {
				const wf = env.readThenCheckWorkflow(files);
				const check = /** @type {any} */ (wf.nodes.find((n) => n.name === 'Check Authorization'));
				check.onError = mode;
				for (const [k, name] of ['Success', 'Failure'].entries()) {
					wf.nodes.push({
						id: `o${k}`,
						name,
						type: 'n8n-nodes-base.noOp',
						typeVersion: 1,
						position: [800, 200 * k],
						parameters: {},
					});
				}
				wf.connections['Check Authorization'] = {
					main: [
						[{ node: 'Success', type: /** @type {const} */ ('main'), index: 0 }],
						...(mode === 'continueErrorOutput'
							? [[{ node: 'Failure', type: /** @type {const} */ ('main'), index: 0 }]]
							: []),
					],
				};
				return env.engine.run(wf);
			});
		};

		test('Continue (using error output): the failed file leaves by the error output, named in its details', async () => {
			const { result } = await run('continueErrorOutput');
			expect(result.error).toBeUndefined();
			expect(result.output('Success').map((i) => i.json.clave_acceso)).toEqual([ok]);
			const failed = result.output('Failure');
			expect(failed).toHaveLength(1);
			// n8n merges the input item (Read XML's row of the file) under the error and its details.
			expect(failed[0].json).toMatchObject({
				clave_acceso: fault,
				error: expect.stringMatching(
					new RegExp(`^\\[item 2\\] Access key ${fault}: SRI answered with a SOAP fault`),
				),
				details: { file_name: 'caido.xml' },
			});
		});

		test('Continue (regular output): the failed file’s item among the others, its file_name beside the error as every row has it', async () => {
			const { result } = await run('continueRegularOutput');
			expect(result.error).toBeUndefined();
			const items = result.output('Success');
			expect(items.map((i) => i.json.clave_acceso ?? null)).toEqual([ok, null]);
			expect(items[1].json).toEqual({
				error: expect.stringContaining(`Access key ${fault}: SRI answered with a SOAP fault`),
				file_name: 'caido.xml',
			});
		});
	});

	test('a typed key and no file: as version 1, the SRI’s copy attached; an input file of that field is kept', async () => {
		const key = keyFor({ sequential: 33 });
		const typed = await env.run(env.check({}, key), [{}], false, 2);
		const [item] = typed.output(NODE);
		expect(item.json.matches_file).toBeNull();
		expect(item.binary?.data.fileName).toBe(`${key}.xml`);
		const kept = await env.runWithFiles(
			env.check({ inputBinaryField: 'none' }, key),
			[{ name: 'proveedor.xml', content: receiptXml(key) }],
			false,
			'data',
			2,
		);
		expect(kept.output(NODE)[0].binary?.data.fileName).toBe('proveedor.xml');
	});
});

describe('a node downstream names an upstream error', () => {
	test.each([1, 2])(
		'version %i: Check Authorization given a previous node’s error item says so, not "is required"',
		async (version) => {
			const result = await env.run(
				env.check(),
				[{ error: '[item 1] File "x.xml": is not an SRI receipt' }],
				true,
				version,
			);
			expect(result.output(NODE)[0].json.error).toBe(
				'[item 1] Access Key: is missing: the input item is not a document but the previous node\'s error: "[item 1] File "x.xml": is not an SRI receipt". Fix that item there (or route the previous node\'s errors elsewhere)',
			);
			expect(env.calls()).toHaveLength(0);
		},
	);
});

describe('the outputs n8n computes', () => {
	/** @type {import('n8n-workflow').INodeType} */
	const sri = built('nodes/Sri/Sri.node', 'Sri');
	test.each([
		[2, 'readXml', ['Read', 'Not Read']],
		[2, 'checkAuthorization', ['main']],
		[1, 'readXml', ['main']],
		[1, 'checkAuthorization', ['main']],
	])('version %i, %s: %j', (version, operation, expected) => {
		expect(outputNames(sri, version, { resource: 'receipt', operation })).toEqual(expected);
	});

	test('a new node is version 3 (the readers of version 2, and the two outputs of the ATS)', () => {
		expect(sri.description.defaultVersion).toBe(3);
		expect(outputNames(sri, 3, { resource: 'receipt', operation: 'readXml' })).toEqual([
			'Read',
			'Not Read',
		]);
	});
});
