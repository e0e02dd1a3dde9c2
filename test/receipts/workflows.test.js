/** @import { IDataObject } from 'n8n-workflow' */
import { SRI_CODES } from '../../nodes/shared/sri/sriMessages';
import { withFakeClock } from '../harness/clock';
import { fixture } from '../harness/engine';
import { startReceipts } from './setup';
/** @import { ReceiptsEnv } from './setup' */

/**
 * The importable fixtures in examples/, run through the engine against the simulator on the fake clock (their
 * own Timeout and Poll Interval, in fake time). n8n's own If and No Operation nodes are the harness's stand-ins
 * (test/harness/engine.js).
 */

/** @type {ReceiptsEnv} */
let env;
beforeAll(async () => (env = await startReceipts()));
afterAll(async () => env.stop());
beforeEach(() => {
	env.receipts.reset();
	env.server.clear();
});

/** Runs a workflow on the fake clock. */
const run = async (workflow) => (await withFakeClock(() => env.engine.run(workflow))).result;

/** The outputs a workflow's last run gave a node, as JSON. */
const jsonOf = (result, node) => result.output(node).map((i) => i.json);

test('receipts-retention-wait-branch.json: issues each row from JSON, waits, branches; the repeated row is returned with 43, and a second run authorizes nothing twice', async () => {
	const result = await run(fixture('receipts-retention-wait-branch.json'));
	expect(result.error).toBeUndefined();
	// Rows may be sent side by side (Options → Parallel Requests): the tests do not depend on their order of arrival.
	const issued = env.calls().filter((c) => c.method === 'POST');
	const sent = (seq) =>
		issued
			.filter((c) => /** @type {IDataObject} */ (c.body).secuencial === seq)
			.map((c) => /** @type {IDataObject} */ (c.body));
	expect(issued.map((c) => /** @type {IDataObject} */ (c.body).secuencial).sort()).toEqual([
		101, 101, 102,
	]);
	expect(sent(102)[0].items).toEqual([
		expect.objectContaining({
			base_imponible: 80.5,
			valor_retenido: 1.41,
			numero_documento_sustento: '002-001-000000310',
		}),
	]);
	// The reproducible key: the repeated row carries the same key as the first, so the SRI authorizes one and returns the other.
	const [first, repeated] = sent(101).map((b) => String(b.clave_acceso));
	expect(first).toMatch(/^\d{49}$/);
	expect(repeated).toBe(first);
	expect(String(sent(102)[0].clave_acceso)).not.toBe(first);
	expect(
		jsonOf(result, 'Authorized')
			.map((j) => [j.numero, j.estado, j.rejected])
			.sort(),
	).toEqual([
		['001-002-000000101', 'AUTORIZADO', false],
		['001-002-000000102', 'AUTORIZADO', false],
	]);
	const [returned] = jsonOf(result, 'Issue retention').filter((j) => j.estado === 'DEVUELTO');
	expect(returned).not.toHaveProperty('url_formato_impresion');
	expect(jsonOf(result, 'Not authorized: reasons')).toEqual([
		{
			numero: '001-002-000000101',
			id: returned.id,
			estado: 'DEVUELTO',
			timedOut: false,
			codes: '43',
			reason: `43 CLAVE ACCESO REGISTRADA — ${SRI_CODES['43'].explanation}`,
			next_step: SRI_CODES['43'].nextStep,
		},
	]);

	// The same workflow run again: every row is returned with 43, none authorized a second time.
	const again = await run(fixture('receipts-retention-wait-branch.json'));
	expect(again.error).toBeUndefined();
	expect(jsonOf(again, 'Authorized')).toEqual([]);
	expect(jsonOf(again, 'Not authorized: reasons').map((j) => [j.numero, j.codes])).toEqual([
		['001-002-000000101', '43'],
		['001-002-000000102', '43'],
		['001-002-000000101', '43'],
	]);
	expect([...env.receipts.receipts.values()].filter((r) => r.estado === 'AUTORIZADO')).toHaveLength(
		2,
	);
});

test('receipts-authorize-pending.json: authorizes each receipt and waits for its final state', async () => {
	const ids = [
		env.receipts.seed('retention', { ambiente: 1 }, 'CREADO').id,
		env.receipts.seed('waybill', { ambiente: 1 }, 'CREADO').id,
	];
	const wf = fixture('receipts-authorize-pending.json');
	/** @type {any} */ (wf.nodes.find((n) => n.name === 'Receipt IDs')).parameters = {
		jsCode: `return ${JSON.stringify(ids.map((id) => ({ json: { id } })))};`,
	};
	env.receipts.planNext('AUTORIZADO');
	env.receipts.planNext('DEVUELTO');
	const result = await run(wf);
	expect(result.error).toBeUndefined();
	expect(result.output('Authorize and wait').map((i) => [i.json.id, i.json.estado])).toEqual([
		[ids[0], 'AUTORIZADO'],
		[ids[1], 'DEVUELTO'],
	]);
});

test('receipts-invoice-email-ride.json: invoices each row, waits, e-mails and downloads the RIDE of the authorized ones; the repeated row is returned with 43', async () => {
	const result = await run(fixture('receipts-invoice-email-ride.json'));
	expect(result.error).toBeUndefined();
	// Rows may be sent side by side (Options → Parallel Requests): the tests do not depend on their order of arrival.
	const issued = env.calls().filter((c) => c.method === 'POST' && c.path === '/invoices/issue');
	const sent = (seq) =>
		issued
			.filter((c) => /** @type {IDataObject} */ (c.body).secuencial === seq)
			.map((c) => /** @type {IDataObject} */ (c.body));
	expect(issued.map((c) => /** @type {IDataObject} */ (c.body).secuencial).sort()).toEqual([
		2001, 2001, 2002,
	]);
	expect(sent(2002)[0].totales).toMatchObject({ total_sin_impuestos: 19.05, importe_total: 21.91 });
	expect(sent(2001)[1].clave_acceso).toBe(sent(2001)[0].clave_acceso);
	const authorized = [...env.receipts.receipts.values()].filter((r) => r.estado === 'AUTORIZADO');
	expect(authorized.map((r) => r.body.secuencial).sort()).toEqual([2001, 2002]);
	const mailedTo = {
		2001: ['compras@andes.ec', 'contabilidad@andes.ec'],
		2002: ['juan@example.com'],
	};
	const byId = (list) => [...list].sort((a, b) => a.id.localeCompare(b.id));
	expect(byId(env.receipts.emails)).toEqual(
		byId(authorized.map((r) => ({ id: r.id, destinatarios: mailedTo[Number(r.body.secuencial)] }))),
	);
	const pdfs = result.output('Download the RIDE');
	expect(byId(pdfs.map((p) => p.json))).toEqual(
		byId(authorized).map((r) =>
			expect.objectContaining({
				id: r.id,
				estado: 'AUTORIZADO',
				fileName: `${r.clave_acceso}.pdf`,
				mimeType: 'application/pdf',
			}),
		),
	);
	expect(pdfs.every((p) => p.binary?.data.mimeType === 'application/pdf')).toBe(true);
	expect(jsonOf(result, 'Not authorized')).toEqual([
		expect.objectContaining({
			estado: 'DEVUELTO',
			rejected: true,
			numero: '001-002-000002001',
			reason: `43 CLAVE ACCESO REGISTRADA — ${SRI_CODES['43'].explanation}`,
			next_step: SRI_CODES['43'].nextStep,
			sri_messages: [expect.objectContaining({ identificador: '43', source: 'envio_sri' })],
		}),
	]);
	expect(jsonOf(result, 'Not authorized')[0]).not.toHaveProperty('url_formato_impresion');
});
