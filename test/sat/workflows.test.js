import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
/** @import { IWorkflowBase } from 'n8n-workflow' */
import { withFakeClock } from '../harness/clock';
import { built, Engine, fixture, readCsv } from '../harness/engine';
import { DOCUMENT_OUTCOMES, ExtractionSimulator } from '../simulator/extraction';
import { uuidWith } from '../simulator/cfdi';
import { SatSimulator } from '../simulator/sat';
import { SimulatorServer } from '../simulator/server';

/**
 * The example examples/sat-check-received-cfdis.json, as a user imports it, through n8n-core's engine: Document
 * Extraction downloads last month's received CFDIs from its simulator, SAT (Mexico) checks each with the SAT's
 * simulator, the valid ones become a purchases sheet (a row per concepto), the others the bookkeeper's list.
 */

const extraction = new ExtractionSimulator();
const sat = new SatSimulator();
/** @type {SimulatorServer} */
let server;
/** @type {Engine} */
let engine;
/** @type {string} */
let dir;

beforeAll(async () => {
	server = await new SimulatorServer([extraction, extraction.ecuador, sat]).start();
	engine = new Engine(
		[built('nodes/Extraction/Extraction.node', 'Extraction'), built('nodes/Sat/Sat.node', 'Sat')],
		[built('credentials/ExtractionApi.credentials', 'ExtractionApi')],
	);
});
afterAll(async () => server.stop());
beforeEach(() => {
	extraction.reset();
	sat.reset();
	server.clear();
	engine.credentials.set('extractionApi', {
		environment: 'production',
		productionBaseUrl: ExtractionSimulator.baseUrl(server.url('extraction'), 'prod'),
		stagingBaseUrl: ExtractionSimulator.baseUrl(server.url('extraction'), 'staging'),
		apiKey: extraction.prodKey,
		authScheme: 'bearer',
	});
	dir = mkdtempSync(join(tmpdir(), 'sat-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** The example, its SAT password given (the file reads it from an n8n Variable), asking the simulator, writing to `dir`. */
function example() {
	const workflow = fixture('sat-check-received-cfdis.json');
	for (const node of /** @type {any[]} */ (workflow.nodes)) {
		if (node.name === "Download last month's received CFDIs")
			node.parameters.satPassword = 'S3cr3t-CIEC-pass';
		if (node.type === 'n8n-nodes-latam-fiscal.sat')
			node.parameters.options = {
				...(node.parameters.options ?? {}),
				serviceAddress: SatSimulator.address(server.url('sat')),
			};
		if (node.type === 'n8n-nodes-base.readWriteFile')
			node.parameters.fileName = String(node.parameters.fileName).replace(
				'/home/node/cfdi/',
				`${dir}/`,
			);
	}
	return /** @type {IWorkflowBase} */ (workflow);
}

/** A CSV file the example wrote to `dir`, as rows of cells. */
const csv = (name) => readCsv(join(dir, name));

test("fixture: last month's received CFDIs checked with the SAT; valid ones a row per concepto, the rest for the bookkeeper", async () => {
	extraction.nextJobs.push({ checks: 1, outcome: 'COMPLETED', documents: 5 });
	const { result } = await withFakeClock(() => engine.run(example()), { maxMs: 2 * 3_600_000 });
	expect(result.error).toBeUndefined();

	const job = [...extraction.jobs.values()][0];
	const uuids = job.documents.map((d) => d.uuid);
	// One question per CFDI, about the CFDI the file holds (its own UUID, RFCs, total and seal).
	expect(sat.asked.map((a) => a.params?.id).sort()).toEqual([...uuids].sort());
	const checked = result.output('Check CFDI Status').map((i) => /** @type {any} */ (i.json));
	expect(checked.map((c) => [c.estado, c.valid, c.efos?.listed])).toEqual([
		['Vigente', true, false],
		['Cancelado', false, false],
		['Vigente', true, false],
		['Vigente', true, true],
		['Cancelado', false, false],
	]);

	const month = new Date(Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth() - 1, 1))
		.toISOString()
		.slice(0, 7);
	expect(readdirSync(dir).sort()).toEqual([`compras-${month}.csv`, `para-revisar-${month}.csv`]);
	const purchases = csv(`compras-${month}.csv`);
	// The third is Vigente, but its issuer asked to cancel it: not booked until that is settled.
	expect(purchases.map((r) => r.uuid)).toEqual([uuids[0]]);
	expect(purchases[0]).toMatchObject({
		concepto_numero: 1,
		descripcion: 'Servicios profesionales',
		importe: 1000,
		iva_base: 1000,
		iva_tipo_factor: 'Tasa',
		iva_tasa: 0.16,
		iva_trasladado: 160,
	});
	// The sample's RFCs are the SAT's published test RFCs, which pass their own checks: no warning to teach anyone to
	// ignore warnings.
	expect(purchases[0].warnings).toBe('');
	const list = csv(`para-revisar-${month}.csv`);
	expect(list.map((r) => [r.uuid, r.estado, r.motivo])).toEqual([
		[uuids[1], 'Cancelado', 'Estado: Cancelado'],
		[
			uuids[2],
			'Vigente',
			'Cancellation in process: Vigente today, cancelled once the receiver accepts or the deadline passes',
		],
		[uuids[3], 'Vigente', 'Issuer on the EFOS list (art. 69-B)'],
		[uuids[4], 'Cancelado', 'Estado: Cancelado'],
	]);
	expect(list[1].warnings).toMatch(/^The issuer asked the SAT to cancel this CFDI/);
	expect(list[0].warnings).toBe('');
});

test('fixture: the SAT down for one CFDI: it goes to the bookkeeper with the error naming it, the others are checked', async () => {
	extraction.nextJobs.push({ checks: 1, outcome: 'COMPLETED', documents: 3 });
	// The next document's UUID (the extraction simulator numbers them, see extraction.js makeDocuments): the SAT
	// answers it with its maintenance page.
	const n = extraction.documentCount;
	sat.pin(uuidWith(DOCUMENT_OUTCOMES[n % DOCUMENT_OUTCOMES.length], n + 1), { outcome: 'F503' });
	const { result } = await withFakeClock(() => engine.run(example()), { maxMs: 2 * 3_600_000 });
	expect(result.error).toBeUndefined();
	const uuids = [...extraction.jobs.values()][0].documents.map((d) => d.uuid);
	const month = new Date(Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth() - 1, 1))
		.toISOString()
		.slice(0, 7);
	const list = csv(`para-revisar-${month}.csv`);
	expect(list.map((r) => r.motivo)).toEqual([
		expect.stringMatching(
			new RegExp(`^\\[item 1\\] CFDI ${uuids[0]}: SAT is not available \\(HTTP 503`),
		),
		'Estado: Cancelado',
		'Cancellation in process: Vigente today, cancelled once the receiver accepts or the deadline passes',
	]);
	// Nothing of these three may be booked: no purchases sheet is written.
	expect(readdirSync(dir)).toEqual([`para-revisar-${month}.csv`]);
});
