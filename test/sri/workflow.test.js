import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
/** @import { IWorkflowBase } from 'n8n-workflow' */
import { withFakeClock } from '../harness/clock';
import { fixture, readCsv } from '../harness/engine';
import { keyFor, receiptXml } from '../simulator/sri';
import { sampleInvoiceRow, startSri } from './setup';
/** @import { SriEnv } from './setup' */

/**
 * The example examples/sri-check-supplier-receipts.json through n8n's engine, from its "Try it" branch (the
 * IMAP trigger needs a mailbox), with its SRI node pointed at the simulator as `npm run dev` points it and its
 * files written to a temporary folder: an authorized receipt identical to its file is booked, everything else
 * reaches the bookkeeper's list with its reason, and a file that is no receipt the list of files not read.
 */

/** @type {SriEnv} */
let env;
/** @type {string} */
let dir;
beforeAll(async () => (env = await startSri()));
afterAll(() => env.stop());
beforeEach(() => {
	env.reset();
	dir = mkdtempSync(join(tmpdir(), 'sri-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** The example, asking the simulator, writing to `dir`; `files` (XML texts) instead of its samples when given. */
function example(files) {
	const workflow = fixture('sri-check-supplier-receipts.json');
	for (const node of /** @type {any[]} */ (workflow.nodes)) {
		if (node.name === 'Check with the SRI')
			node.parameters = { ...node.parameters, options: { serviceAddress: env.address } };
		if (node.type === 'n8n-nodes-base.readWriteFile')
			node.parameters.fileName = String(node.parameters.fileName).replace(
				'/home/node/compras/',
				`${dir}/`,
			);
		if (node.name === 'Three sample files' && files)
			node.parameters = {
				jsCode: `return ${JSON.stringify(files.map((xml, k) => ({ json: { archivo: `f${k + 1}.xml`, xml } })))};`,
			};
	}
	return /** @type {IWorkflowBase} */ (workflow);
}

/** The rows of the file the example wrote whose name starts with `prefix` (none: no file). */
function sheet(prefix) {
	const file = readdirSync(dir).find((f) => f.startsWith(`${prefix}-`));
	return file ? readCsv(join(dir, file)) : [];
}

test('its three samples: the authorized file booked, its altered copy for review (not the file the SRI authorized), the acknowledgment not read', async () => {
	const result = await env.engine.run(example());
	expect(result.error).toBeUndefined();
	expect(readdirSync(dir).map((f) => f.replace(/-\d{4}-.*\.csv$/, ''))).toEqual(
		expect.arrayContaining(['compras', 'para-revisar', 'no-leidos']),
	);
	const key = keyFor({ sequential: 4521, series: '001002' });
	expect(sheet('compras')).toEqual([
		{
			authorized: true,
			estado: 'AUTORIZADO',
			matches_file: true,
			...sampleInvoiceRow(key),
			retenido_iva: null,
			retenido_isd: null,
			fecha_autorizacion: '2026-10-21T10:15:42.127-05:00',
			file_name: 'factura-001-002-000004521.xml',
			sri_messages: '',
			warnings: '',
		},
	]);
	const review = sheet('para-revisar');
	expect(review).toHaveLength(1);
	expect(review[0]).toMatchObject({
		file_name: 'factura-001-002-000004521 (reenviada).xml',
		authorized: true,
		matches_file: false,
		importe_total: 28,
	});
	expect(review[0].warnings).toContain(
		'File "factura-001-002-000004521 (reenviada).xml" is not the receipt the SRI authorized for this access key: infoFactura.importeTotal is 33.75 in the file, 28 at the SRI.',
	);
	expect(sheet('no-leidos')).toEqual([
		{
			error:
				'[item 3] File "respuesta-recepcion.xml": is not an SRI receipt: its root element is "RespuestaRecepcionComprobante", and it holds no authorization (an element such as "autorizacion" or "Authorization" with a "comprobante" or "numeroAutorizacion"), where a receipt has one of "factura", "liquidacionCompra", "notaCredito", "notaDebito", "guiaRemision", "comprobanteRetencion"',
			item_index: 2,
			file_name: 'respuesta-recepcion.xml',
		},
	]);
	expect(env.calls()).toHaveLength(2);
});

test('what is not booked reaches the bookkeeper with its reason: unknown to the SRI, not authorized, a test receipt, an SRI failure', async () => {
	const unknown = keyFor({ scenario: 'unknown' });
	const rejected = keyFor({ scenario: 'notAuthorized' });
	const test = keyFor({ env: '1', sequential: 5 });
	const fault = keyFor({ scenario: 'fault' });
	// On the fake clock: the SOAP fault is asked about again, with the client's backoff.
	const { result } = await withFakeClock(() =>
		env.engine.run(
			example([
				receiptXml(keyFor({ sequential: 9 })),
				receiptXml(unknown),
				receiptXml(rejected),
				receiptXml(test),
				receiptXml(fault),
			]),
		),
	);
	expect(result.error).toBeUndefined();
	expect(sheet('compras').map((r) => r.clave_acceso)).toEqual([keyFor({ sequential: 9 })]);
	const review = sheet('para-revisar');
	const byKey = Object.fromEntries(review.map((r) => [r.clave_acceso, r]));
	// Not found at the SRI: nothing authorized to book, nothing to compare; the row says which receipt, from its file.
	expect(byKey[unknown]).toMatchObject({
		authorized: false,
		estado: 'NO ENCONTRADO',
		matches_file: null,
		numero: '001-001-000000123',
		file_name: 'f2.xml',
		warnings: expect.stringContaining('The SRI holds no receipt for this access key'),
	});
	expect(byKey[rejected]).toMatchObject({
		estado: 'NO AUTORIZADO',
		sri_messages: expect.stringContaining('52 ERROR EN DIFERENCIAS'),
	});
	expect(byKey[test]).toMatchObject({
		estado: 'AUTORIZADO',
		warnings: expect.stringContaining("SRI's test environment"),
	});
	// The SRI failed for one key: its error, naming the key, in the list.
	const failed = review.filter((r) => r.error);
	expect(failed.map((r) => [r.error, r.file_name])).toEqual([
		[expect.stringContaining(`Access key ${fault}: SRI answered with a SOAP fault`), 'f5.xml'],
	]);
	expect(review).toHaveLength(4);
	expect(sheet('no-leidos')).toEqual([]);
});
