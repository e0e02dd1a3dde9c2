import { withFakeClock } from '../harness/clock';
import { fixture, googleSheetsRows } from '../harness/engine';
import { keyFor, receiptXml } from '../simulator/sri';
import { startSri } from './setup';
/** @import { SriEnv } from './setup' */

/**
 * The example examples/sri-check-supplier-receipts.json through n8n's engine, from its "Try it" branch (the
 * IMAP trigger needs a mailbox; Google Sheets stands in, keeping the rows it would append), with its SRI node
 * pointed at the simulator as `npm run dev` points it: authorized receipts are booked, everything else reaches
 * the bookkeeper's list with its reason.
 */

/** @type {SriEnv} */
let env;
beforeAll(async () => (env = await startSri()));
afterAll(() => env.stop());
beforeEach(() => {
	env.reset();
	googleSheetsRows.length = 0;
});

/** The example, asking the simulator; `files` (XML texts) instead of its sample when given. */
function example(files) {
	const workflow = fixture('sri-check-supplier-receipts.json');
	for (const node of workflow.nodes) {
		if (node.name === 'Check with the SRI')
			node.parameters = { ...node.parameters, options: { serviceAddress: env.address } };
		if (node.name === 'Sample supplier XML' && files)
			node.parameters = {
				jsCode: `return ${JSON.stringify(files.map((xml, k) => ({ json: { archivo: `f${k + 1}.xml`, xml } })))};`,
			};
	}
	return workflow;
}

test('its sample: read, checked with the SRI, booked in Compras', async () => {
	const result = await env.engine.run(example());
	expect(result.error).toBeUndefined();
	expect(googleSheetsRows).toEqual([
		{
			sheet: 'Compras',
			row: {
				Fecha: '2026-10-21',
				'RUC proveedor': '1790016919001',
				Proveedor: 'Distribuidora Andina S.A.',
				Tipo: 'factura',
				Número: '001-002-000004521',
				'Clave de acceso': '2110202601179001691900120010020000045214829173519',
				'Fecha de autorización': '2026-10-21T10:15:42.127-05:00',
				Subtotal: 25,
				IVA: 3,
				Total: 28,
			},
		},
	]);
	expect(env.calls()).toHaveLength(1);
});

test('what is not booked reaches the bookkeeper with its reason: unknown to the SRI, not authorized, a test receipt, an SRI failure, a file that is no receipt', async () => {
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
				'<pedido>no es un comprobante</pedido>',
			]),
		),
	);
	expect(result.error).toBeUndefined();
	const booked = googleSheetsRows
		.filter((r) => r.sheet === 'Compras')
		.map((r) => r.row['Clave de acceso']);
	expect(booked).toEqual([keyFor({ sequential: 9 })]);
	const review = googleSheetsRows.filter((r) => r.sheet === 'Revisar').map((r) => r.row);
	const byKey = Object.fromEntries(review.map((r) => [r['Clave de acceso'] || r.Archivo, r]));
	// Not found at the SRI: the file's own figures, as Read XML read them.
	expect(byKey[unknown]).toMatchObject({
		'Estado SRI': 'NO ENCONTRADO',
		Proveedor: 'Distribuidora Andina S.A.',
		Número: '001-001-000000123',
		Total: 28,
	});
	expect(byKey[rejected]).toMatchObject({
		'Estado SRI': 'NO AUTORIZADO',
		Motivo: expect.stringContaining('ERROR EN DIFERENCIAS — The amounts do not add up'),
	});
	expect(byKey[test]).toMatchObject({
		'Estado SRI': 'AUTORIZADO',
		Motivo: expect.stringContaining("SRI's test environment"),
	});
	expect(byKey[fault]).toMatchObject({
		'Estado SRI': 'ERROR',
		Total: 28,
		Motivo: expect.stringContaining(`Access key ${fault}: SRI answered with a SOAP fault`),
	});
	expect(byKey['f6.xml']).toMatchObject({
		'Estado SRI': 'ERROR',
		Total: '',
		Motivo: expect.stringContaining('is not an SRI receipt: its root element is "pedido"'),
	});
	expect(review).toHaveLength(5);
});
