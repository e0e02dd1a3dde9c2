// End-to-end: the SRI (Ecuador) node in a real n8n (the line N8N_LINE selects; 2 by default), one workflow, one
// n8n run: 20 access keys checked against the SRI simulator, one kind of answer each (authorized in CDATA and
// escaped, not authorized, several entries, unknown, in process, a SOAP fault, a maintenance page with 503 and
// with 200, a slow answer, another key inside, totals that do not add up, a test-environment retention, each
// receipt kind, keys refused before sending), then Read XML of every authorized XML the first node attached —
// n8n's own binary data between two nodes. Run with `node --test test/e2e/sri.test.mjs` (`N8N_LINE=1` for 1.x).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { nodeOutput } from '../../scripts/n8n/executions.mjs';
import { requireTestModule } from '../../scripts/n8n/sandbox.mjs';
import { closeSuite, e2eSandbox, startSuiteN8n } from '../../scripts/n8n/suite.mjs';
import { chain, fileItem, itemsNode, node } from '../../scripts/n8n/workflow.mjs';

const SRI = 'n8n-nodes-latam-fiscal.sri';

/** @type {Awaited<ReturnType<typeof e2eSandbox>>} */
let sb;
/** @type {Awaited<ReturnType<typeof startSuiteN8n>>} */
let n8n;
/** The run of the one workflow (the execution n8n stored). */
let run;
/** @type {Array<{ name: string, key: string, sent: boolean }>} */
let cases;
/** @type {Array<Record<string, any>>} */
let checked;
/** @type {Array<Record<string, any>>} */
let read;
/** The run of the second workflow: Read XML of authorization files as other tools write them. */
let realRun;
/** @type {string} */
let realKey;
/** @type {Array<{ name: string, xml: string }>} */
let realFiles;

/** The 20 keys, one kind of answer each (the simulator answers by the key's numeric code: test/simulator/sri.js). */
function keys() {
	const { keyFor, checkDigit } = requireTestModule('simulator/sri');
	/** A valid key whose digits at `at` are `digits` (its check digit recomputed). */
	const withDigits = (at, digits) => {
		const key = keyFor({ sequential: 900 });
		const first48 = `${key.slice(0, at)}${digits}${key.slice(at + digits.length, 48)}`;
		return `${first48}${checkDigit(first48)}`;
	};
	const authorized = keyFor({ sequential: 1 });
	return [
		{ name: 'authorized', key: authorized, sent: true },
		{
			name: 'escaped credit note',
			key: keyFor({ scenario: 'escaped', type: '04', sequential: 2 }),
			sent: true,
		},
		{
			name: 'not authorized',
			key: keyFor({ scenario: 'notAuthorized', sequential: 3 }),
			sent: true,
		},
		{ name: 'several entries', key: keyFor({ scenario: 'several', sequential: 4 }), sent: true },
		{
			name: 'two rejections',
			key: keyFor({ scenario: 'twoRejections', sequential: 5 }),
			sent: true,
		},
		{ name: 'unknown', key: keyFor({ scenario: 'unknown', sequential: 6 }), sent: true },
		{ name: 'in process', key: keyFor({ scenario: 'inProcess', sequential: 7 }), sent: true },
		{ name: 'SOAP fault', key: keyFor({ scenario: 'fault', sequential: 8 }), sent: true },
		{
			name: 'maintenance 503',
			key: keyFor({ scenario: 'maintenance', sequential: 9 }),
			sent: true,
		},
		{
			name: 'maintenance 200',
			key: keyFor({ scenario: 'maintenance200', sequential: 10 }),
			sent: true,
		},
		{ name: 'slow', key: keyFor({ scenario: 'slow', sequential: 11 }), sent: true },
		{
			name: 'another key inside',
			key: keyFor({ scenario: 'otherKey', sequential: 12 }),
			sent: true,
		},
		{ name: 'bad totals', key: keyFor({ scenario: 'badTotals', sequential: 13 }), sent: true },
		{ name: 'test retention', key: keyFor({ type: '07', env: '1', sequential: 14 }), sent: true },
		{ name: 'waybill', key: keyFor({ type: '06', sequential: 15 }), sent: true },
		{ name: 'purchase settlement', key: keyFor({ type: '03', sequential: 16 }), sent: true },
		{ name: 'debit note', key: keyFor({ type: '05', sequential: 17 }), sent: true },
		{
			name: 'typed with spaces',
			key: keyFor({ sequential: 18 })
				.replace(/(\d{7})/g, '$1 ')
				.trim(),
			sent: true,
		},
		{
			name: 'wrong check digit',
			key: `${authorized.slice(0, 48)}${(Number(authorized[48]) + 1) % 10}`,
			sent: false,
		},
		{ name: 'document type 02', key: withDigits(8, '02'), sent: false },
	];
}

before(async () => {
	sb = await e2eSandbox('e2e-sri');
	cases = keys();
	sb.sim.sri.slowMs = 60_000;
	const onError = { onError: 'continueRegularOutput' };
	await sb.importWorkflows([
		{
			id: 'e2eSri20Keys',
			name: 'e2e SRI: 20 access keys',
			settings: { executionOrder: 'v1' },
			nodes: [
				node('Start', 'n8n-nodes-base.manualTrigger', {}),
				itemsNode(
					'Keys',
					cases.map((c) => ({ json: c })),
				),
				node(
					'Check',
					SRI,
					{
						resource: 'receipt',
						operation: 'checkAuthorization',
						accessKey: '={{ $json.key }}',
						options: { serviceAddress: sb.sim.addresses.sri, requestTimeout: 3 },
					},
					onError,
				),
				node(
					'Read',
					SRI,
					{
						resource: 'receipt',
						operation: 'readXml',
						xmlSource: 'binary',
						binaryPropertyName: 'data',
					},
					onError,
				),
			],
			connections: chain('Start', 'Keys', 'Check', 'Read'),
		},
	]);
	const { keyFor, receiptXml } = requireTestModule('simulator/sri');
	const { realAuthorizationFiles } = requireTestModule('sri/real-files');
	realKey = keyFor({ sequential: 901 });
	realFiles = realAuthorizationFiles(realKey, receiptXml(realKey));
	await sb.importWorkflows([
		{
			id: 'e2eSriRealFiles',
			name: 'e2e SRI: authorization files as other tools write them',
			settings: { executionOrder: 'v1' },
			nodes: [
				node('Start', 'n8n-nodes-base.manualTrigger', {}),
				itemsNode(
					'Files',
					realFiles.map((f) => fileItem(f.xml, 'autorizacion.xml', { name: f.name })),
				),
				node(
					'Read',
					SRI,
					{
						resource: 'receipt',
						operation: 'readXml',
						xmlSource: 'binary',
						binaryPropertyName: 'data',
					},
					onError,
				),
			],
			connections: chain('Start', 'Files', 'Read'),
		},
	]);
	n8n = await startSuiteN8n(sb);
	sb.sim.server.clear();
	realRun = await n8n.execute('e2eSriRealFiles');
	sb.sim.server.clear();
	run = await n8n.execute('e2eSri20Keys');
	checked = nodeOutput(run, 'Check').map((item) => item.json);
	read = nodeOutput(run, 'Read').map((item) => item.json);
});

after(() => closeSuite(n8n, sb));

/** The Check output of the case named `name`. */
const out = (name) => checked[cases.findIndex((c) => c.name === name)];
const key = (name) => /** @type {{ key: string }} */ (cases.find((c) => c.name === name)).key;

describe(`the SRI (Ecuador) node in real n8n: 20 access keys in one run`, () => {
	test('the run ends, one output item per key, in order', () => {
		assert.equal(run.data.resultData.error, undefined, run.data.resultData.error?.message);
		assert.equal(checked.length, 20);
	});

	test('authorized (CDATA, escaped, after a rejection, with spaces typed): authorized, the summary, the XML attached', () => {
		assert.deepEqual(
			{ ...out('authorized'), comprobante: undefined },
			{
				clave_acceso: key('authorized'),
				estado: 'AUTORIZADO',
				authorized: true,
				found: true,
				source: 'sri',
				numero_autorizacion: key('authorized'),
				fecha_autorizacion: '2026-10-21T10:15:42.127-05:00',
				ambiente: 'produccion',
				numero_comprobantes: 1,
				sri_messages: [],
				tipo: 'factura',
				version: '2.1.0',
				numero: '001-001-000000001',
				fecha_emision: '2026-10-21',
				emisor: { ruc: '1790016919001', razon_social: 'Distribuidora Andina S.A.' },
				comprador: {
					identificacion: '1713175071',
					razon_social: 'María José Pérez & Hijos',
					tipo_identificacion: '05',
				},
				total_sin_impuestos: 25,
				iva: 3,
				importe_total: 28,
				warnings: [],
				comprobante: undefined,
			},
		);
		assert.equal(out('authorized').comprobante.infoFactura.importeTotal, 28);
		const escaped = out('escaped credit note');
		assert.equal(escaped.authorized, true);
		assert.equal(escaped.tipo, 'nota_credito');
		assert.deepEqual(escaped.documento_modificado, {
			tipo: 'factura',
			numero: '001-001-000000120',
			fecha_emision: '2026-10-01',
		});
		assert.equal(out('several entries').estado, 'AUTORIZADO');
		assert.equal(out('several entries').numero_comprobantes, 2);
		assert.equal(out('typed with spaces').clave_acceso, key('typed with spaces').replace(/ /g, ''));
		assert.equal(out('typed with spaces').authorized, true);
		const files = nodeOutput(run, 'Check').filter((item) => item.binary?.data);
		assert.deepEqual(
			files.map((item) => item.binary?.data.fileName),
			checked.filter((j) => j.authorized).map((j) => `${j.clave_acceso}.xml`),
		);
	});

	test('not authorized, rejected twice, unknown, in process: what the SRI said, explained', () => {
		assert.equal(out('not authorized').estado, 'NO AUTORIZADO');
		assert.equal(out('not authorized').authorized, false);
		assert.equal(out('not authorized').sri_messages[0].identificador, '52');
		assert.match(out('not authorized').sri_messages[0].explanation, /The amounts do not add up/);
		assert.equal(out('two rejections').fecha_autorizacion, '2026-10-21T11:40:03.500-05:00');
		assert.deepEqual(out('unknown'), {
			clave_acceso: key('unknown'),
			authorized: false,
			found: false,
			source: 'sri',
			ambiente: 'produccion',
			numero_comprobantes: 0,
			sri_messages: [],
			warnings: [],
		});
		assert.equal(out('in process').estado, 'EN PROCESO');
		assert.equal(out('in process').sri_messages[0].identificador, '70');
	});

	test('every receipt kind, and what a careful bookkeeper flags', () => {
		assert.deepEqual(
			['test retention', 'waybill', 'purchase settlement', 'debit note'].map((n) => out(n).tipo),
			['comprobante_retencion', 'guia_remision', 'liquidacion_compra', 'nota_debito'],
		);
		assert.deepEqual(out('test retention').retenido, { renta: 1.75, iva: 4.5 });
		assert.equal(out('test retention').ambiente, 'pruebas');
		assert.match(out('test retention').warnings.join(' '), /SRI's test environment/);
		assert.match(out('another key inside').warnings[0], /is not the access key asked about/);
		assert.match(out('bad totals').warnings[0], /but importeTotal is 29\.00/);
	});

	test('a fault, maintenance pages and a slow answer: error items naming the key, within Request Timeout', () => {
		assert.match(
			out('SOAP fault').error,
			new RegExp(`^\\[item 8\\] Access key ${key('SOAP fault')}: SRI answered with a SOAP fault`),
		);
		assert.match(
			out('maintenance 503').error,
			/^\[item 9\] Access key \d{49}: SRI is not available \(HTTP 503: SRI - Servicio en mantenimiento\)/,
		);
		assert.match(
			out('maintenance 200').error,
			/^\[item 10\] Access key \d{49}: SRI: the answer is a web page( \([^)]*\))?, not a SOAP answer/,
		);
		assert.equal(
			out('slow').error,
			`[item 11] Access key ${key('slow')}: SRI did not answer in time (no complete answer within 3 s)`,
		);
	});

	test('keys that are not keys: error items naming the field, never sent', () => {
		assert.match(
			out('wrong check digit').error,
			/^\[item 19\] Access Key: has check digit \d but the SRI modulo-11 check gives \d/,
		);
		assert.match(out('document type 02').error, /^\[item 20\] Access Key: has document type 02/);
		const { SriSimulator } = requireTestModule('simulator/sri');
		const asked = new Set(SriSimulator.keysAsked(sb.sim.server.received('sri')));
		assert.deepEqual(
			cases.filter((c) => asked.has(c.key.replace(/ /g, ''))).map((c) => c.name),
			cases.filter((c) => c.sent).map((c) => c.name),
		);
	});

	test('Read XML of each authorized XML gives what Check Authorization gave', () => {
		const authorized = checked.filter((j) => j.authorized);
		assert.equal(authorized.length, 10);
		const readBack = read.filter((j) => j.source === 'authorization_file');
		// The file holds one entry (the answer may have held several), and names the receipt by its own key.
		const same = (/** @type {Record<string, any>} */ j) =>
			Object.fromEntries(
				Object.entries(j).filter(
					([k]) => !['source', 'numero_comprobantes', 'clave_acceso', 'warnings'].includes(k),
				),
			);
		assert.deepEqual(readBack.map(same), authorized.map(same));
		assert.deepEqual(
			readBack.map((j) => j.clave_acceso),
			authorized.map((j) => j.comprobante.infoTributaria.claveAcceso),
		);
		// Items without a file (not authorized, errors) are error items of Read XML, one per input.
		assert.equal(read.length, 20);
	});
});

describe('Read XML in real n8n: authorization files as other tools write them', () => {
	test('every wrapper (<Authorization>, <Autorizacion>, SOAP, ns2:RespuestaAutorizacionComprobante…) is read, with the receipt inside', () => {
		assert.equal(realRun.data.resultData.error, undefined, realRun.data.resultData.error?.message);
		const items = nodeOutput(realRun, 'Read').map((item) => item.json);
		assert.equal(items.length, realFiles.length);
		assert.ok(
			realFiles.some((f) => f.xml.includes('<Authorization>')),
			'an <Authorization> file is among them',
		);
		for (const [n, json] of items.entries()) {
			assert.equal(json.error, undefined, `${realFiles[n].name}: ${json.error}`);
			assert.deepEqual(
				{
					source: json.source,
					estado: json.estado,
					clave_acceso: json.clave_acceso,
					tipo: json.tipo,
					emisor: json.emisor,
					importe_total: json.importe_total,
					warnings: json.warnings,
				},
				{
					source: 'authorization_file',
					estado: 'AUTORIZADO',
					clave_acceso: realKey,
					tipo: 'factura',
					emisor: { ruc: '1790016919001', razon_social: 'Distribuidora Andina S.A.' },
					importe_total: 28,
					warnings: [],
				},
				realFiles[n].name,
			);
		}
	});
});
