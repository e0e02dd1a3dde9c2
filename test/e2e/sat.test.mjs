// End-to-end: a real n8n (the pinned version users run; N8N_LINE=1 for 1.x) loads the built package and checks
// 20 CFDIs with the SAT (Mexico) node in one run, against the SAT's simulator: every kind of answer the SAT gives
// (Vigente and each cancelable state, Cancelado and each cancellation state, not found, 601, the EFOS codes), the
// unusable ones (a SOAP fault, a maintenance page, an answer that is not the service's, no answer in time), a CFDI
// 3.2, an RFC with "&", and an XML without a stamp — each with its own outcome in the same execution. The same
// files through Read CFDI XML give the same summary. Run with `node --test test/e2e/sat.test.mjs`.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { requireTestModule } from '../../scripts/n8n/sandbox.mjs';
import { closeSuite, e2eSandbox, startSuiteN8n } from '../../scripts/n8n/suite.mjs';
import { chain, fileItem, itemsNode, node } from '../../scripts/n8n/workflow.mjs';

/** @type {Awaited<ReturnType<typeof e2eSandbox>>} */
let sb;
/** @type {Awaited<ReturnType<typeof startSuiteN8n>>} */
let n8n;

/**
 * The 20 CFDIs: what each is (the simulator's outcome code in its UUID, see test/simulator/sat.js) and what the
 * node must output for it.
 * @typedef {{ name: string; code: string; spec?: Record<string, unknown>; expect: Record<string, unknown> | RegExp }} Case
 * @type {Case[]}
 */
const CASES = [
	{
		name: 'vigente, cancelable sin aceptación',
		code: 'A000',
		expect: {
			estado: 'Vigente',
			valid: true,
			found: true,
			es_cancelable: 'Cancelable sin aceptación',
			estatus_cancelacion: null,
		},
	},
	{
		name: 'vigente, cancelable con aceptación',
		code: 'A001',
		expect: { valid: true, es_cancelable: 'Cancelable con aceptación', estatus_cancelacion: null },
	},
	{
		name: 'vigente, cancellation in process',
		code: 'A002',
		expect: { valid: true, estatus_cancelacion: 'En proceso' },
	},
	{
		name: 'vigente, cancellation refused',
		code: 'A003',
		expect: { valid: true, estatus_cancelacion: 'Solicitud rechazada' },
	},
	{
		name: 'vigente, no cancelable',
		code: 'A004',
		expect: { valid: true, es_cancelable: 'No cancelable' },
	},
	{
		name: 'cancelado sin aceptación',
		code: 'C001',
		expect: {
			estado: 'Cancelado',
			valid: false,
			found: true,
			estatus_cancelacion: 'Cancelado sin aceptación',
		},
	},
	{
		name: 'cancelado con aceptación',
		code: 'C002',
		expect: { estado: 'Cancelado', valid: false, estatus_cancelacion: 'Cancelado con aceptación' },
	},
	{
		name: 'cancelado, plazo vencido',
		code: 'C003',
		expect: { estado: 'Cancelado', valid: false, estatus_cancelacion: 'Plazo vencido' },
	},
	{
		name: 'cancelado before 2018',
		code: 'C004',
		expect: {
			estado: 'Cancelado',
			valid: false,
			es_cancelable: 'No cancelable',
			estatus_cancelacion: null,
		},
	},
	{
		name: 'not found (602)',
		code: 'D602',
		expect: {
			estado: 'No Encontrado',
			valid: false,
			found: false,
			codigo_estatus: 'N - 602: Comprobante no encontrado.',
		},
	},
	{
		name: 'expression not valid (601)',
		code: 'D601',
		expect: /: the SAT could not read the data it was asked with \(N - 601/,
	},
	{
		name: 'issuer on the EFOS list (100)',
		code: 'E100',
		expect: { valid: true, efos: { code: '100', listed: true } },
	},
	{
		name: 'issuer not listed (201)',
		code: 'E201',
		expect: { valid: true, efos: { code: '201', listed: false } },
	},
	{
		name: 'a SOAP fault',
		code: 'F500',
		expect:
			/: SAT answered with a SOAP fault \(HTTP 500\): .*The server was unable to process the request/,
	},
	{
		name: 'a maintenance page (503)',
		code: 'F503',
		expect: /: SAT is not available \(HTTP 503/,
	},
	{
		name: 'no answer in time',
		code: 'FE00',
		expect: /: SAT did not answer in time \(no complete answer within 5 s\)/,
	},
	{
		name: 'an answer that is not XML',
		code: 'FBAD',
		expect: /: SAT: the answer is not XML the package can read/,
	},
	{
		name: 'a CFDI 3.2',
		code: 'A000',
		spec: { version: '3.2' },
		expect: { valid: true, version: '3.2' },
	},
	{
		name: 'an RFC with "&"',
		code: 'A000',
		spec: { emisor: { rfc: 'A&B010101AB5', nombre: 'A&B SA' } },
		expect: { valid: true },
	},
	{
		name: 'an XML without a stamp',
		code: 'A000',
		spec: { stamped: false },
		expect: /the CFDI has no stamp \(TimbreFiscalDigital with its UUID\)/,
	},
];

/** The workflow: 20 CFDI files → Check CFDI Status (Continue On Fail) and, beside it, Read CFDI XML. */
function workflow() {
	const { cfdiXml, uuidWith } = requireTestModule('simulator/cfdi');
	const items = CASES.map((c, n) => {
		const cfdi = cfdiXml({
			folio: String(n + 1),
			uuid: uuidWith(c.code, n + 1),
			...(c.spec ?? {}),
		});
		return fileItem(cfdi.xml, `${cfdi.uuid}.xml`, { case: c.name, uuid: cfdi.uuid });
	});
	const sat = (name, parameters, extra = {}) =>
		node(name, 'n8n-nodes-latam-fiscal.sat', parameters, extra);
	return {
		id: 'e2eSat20',
		name: 'e2e SAT: 20 CFDIs',
		settings: { executionOrder: 'v1' },
		nodes: [
			node('Start', 'n8n-nodes-base.manualTrigger', {}),
			itemsNode('CFDIs', items),
			sat(
				'Check CFDI Status',
				{
					resource: 'cfdi',
					operation: 'checkStatus',
					inputMode: 'xml',
					xmlSource: 'binary',
					binaryPropertyName: 'data',
					options: { requestTimeout: 5, serviceAddress: sb.sim.addresses.sat },
				},
				{ onError: 'continueRegularOutput' },
			),
			sat(
				'Read CFDI XML',
				{ resource: 'cfdi', operation: 'readXml', xmlSource: 'binary', binaryPropertyName: 'data' },
				{ onError: 'continueRegularOutput' },
			),
		],
		connections: {
			...chain('Start', 'CFDIs', 'Check CFDI Status'),
			CFDIs: {
				main: [
					[
						{ node: 'Check CFDI Status', type: 'main', index: 0 },
						{ node: 'Read CFDI XML', type: 'main', index: 0 },
					],
				],
			},
		},
	};
}

/** @type {any} */
let run;
const outputOf = (name) => run.data.resultData.runData[name]?.[0]?.data?.main?.[0] ?? [];

/**
 * The second workflow: CFDIs as real generators write them (test/sat/real-cfdis.js: Carta Porte 2.0 and 3.1,
 * Nómina 1.1 and 1.2, Pagos 1.0 and 2.0, CFDI 3.2, two stamps…) through Read CFDI XML, and One Item per Concepto.
 */
function realWorkflow() {
	const { REAL_CFDIS } = requireTestModule('sat/real-cfdis');
	realCfdis = REAL_CFDIS;
	const items = REAL_CFDIS.map((c) => fileItem(c.xml, 'cfdi.xml', { name: c.name }));
	const read = {
		resource: 'cfdi',
		operation: 'readXml',
		xmlSource: 'binary',
		binaryPropertyName: 'data',
	};
	return {
		id: 'e2eSatRealCfdis',
		name: 'e2e SAT: CFDIs as generators write them',
		settings: { executionOrder: 'v1' },
		nodes: [
			node('Start', 'n8n-nodes-base.manualTrigger', {}),
			itemsNode('Files', items),
			node('Read', 'n8n-nodes-latam-fiscal.sat', read),
			node('Rows', 'n8n-nodes-latam-fiscal.sat', { ...read, onePerConcepto: true }),
		],
		connections: {
			...chain('Start', 'Files', 'Read'),
			Files: {
				main: [
					[
						{ node: 'Read', type: 'main', index: 0 },
						{ node: 'Rows', type: 'main', index: 0 },
					],
				],
			},
		},
	};
}

/** @type {any} */
let realRun;
/** @type {Array<{ name: string, xml: string, expect: Record<string, any> }>} */
let realCfdis;

before(async () => {
	sb = await e2eSandbox('e2e-sat');
	await sb.importWorkflows([workflow(), realWorkflow()]);
	n8n = await startSuiteN8n(sb);
	realRun = await n8n.execute('e2eSatRealCfdis', { timeoutMs: 120_000 });
	sb.sim.server.clear();
	run = await n8n.execute('e2eSat20', { timeoutMs: 180_000 });
});

after(() => closeSuite(n8n, sb));

describe(`SAT (Mexico) in real n8n: 20 CFDIs in one run`, () => {
	test('the run ends, one output item per CFDI, in order, each paired with its input', () => {
		assert.equal(run.data.resultData.error, undefined, run.data.resultData.error?.message);
		const out = outputOf('Check CFDI Status');
		assert.equal(out.length, CASES.length);
		out.forEach((item, n) => assert.deepEqual(item.pairedItem, { item: n }));
	});

	for (const [n, c] of CASES.entries()) {
		test(`${n + 1}. ${c.name}`, () => {
			const json = outputOf('Check CFDI Status')[n].json;
			if (c.expect instanceof RegExp) {
				assert.match(String(json.error), new RegExp(`^\\[item ${n + 1}\\] `));
				assert.match(String(json.error), c.expect);
				// Every unusable answer names the CFDI.
				if (c.code !== 'A000')
					assert.ok(
						String(json.error).includes(`CFDI ${outputOf('Read CFDI XML')[n].json.uuid}:`),
						json.error,
					);
			} else {
				assert.equal(json.error, undefined, json.error);
				for (const [key, value] of Object.entries(c.expect))
					if (value && typeof value === 'object')
						for (const [k, v] of Object.entries(value))
							assert.equal(json[key]?.[k], v, `${key}.${k}`);
					else assert.equal(json[key], value, key);
			}
		});
	}

	test('what reached the SAT: one question per stamped CFDI (a re-send after the fault and the 503), at most 2 at a time', () => {
		const asked = sb.sim.sat.asked.map((a) => a.params?.id);
		const stamped = CASES.filter((c) => c.spec?.stamped !== false).length;
		assert.equal(new Set(asked).size, stamped);
		assert.equal(asked.length, stamped + 2);
		assert.ok(sb.sim.server.peakInFlight <= 2, `peak ${sb.sim.server.peakInFlight}`);
		const ampersand = sb.sim.sat.asked.find((a) => a.params?.re === 'A&B010101AB5');
		assert.ok(ampersand, 'the RFC with & was asked about as itself');
		assert.match(ampersand.expression, /&re=A&amp;B010101AB5&/);
		const v32 = sb.sim.sat.asked.find((a) => a.params?.version === '3.2');
		assert.match(
			String(v32?.expression),
			/^\?re=EKU9003173C9&rr=URE180429TM6&tt=0000001346\.180000&id=/,
		);
	});

	test('Read CFDI XML gives the same summary as Check CFDI Status for the same file', () => {
		const checked = outputOf('Check CFDI Status');
		const read = outputOf('Read CFDI XML');
		let compared = 0;
		for (const [n, item] of checked.entries()) {
			if (item.json.error) continue;
			const {
				estado,
				valid,
				found,
				es_cancelable,
				estatus_cancelacion,
				efos,
				codigo_estatus,
				expresion_impresa,
				...summary
			} = item.json;
			assert.ok(
				[
					estado,
					valid,
					found,
					es_cancelable,
					estatus_cancelacion,
					efos,
					codigo_estatus,
					expresion_impresa,
				].every((v) => v !== undefined),
			);
			// What the SAT's answer flags (a cancellation in process) comes first; the rest is the file's.
			const fromFile = /** @type {string[]} */ (summary.warnings).filter(
				(w) => !w.startsWith('The issuer asked the SAT to cancel this CFDI'),
			);
			assert.deepEqual({ ...summary, warnings: fromFile }, read[n].json, CASES[n].name);
			compared++;
		}
		assert.equal(compared, 14);
	});
});

describe('Read CFDI XML in real n8n: CFDIs as real generators write them', () => {
	const realOutput = (name) => realRun.data.resultData.runData[name]?.[0]?.data?.main?.[0] ?? [];

	test('each is read with its UUID, version, RFCs and total', () => {
		assert.equal(realRun.data.resultData.error, undefined, realRun.data.resultData.error?.message);
		assert.deepEqual(
			realOutput('Read').map(({ json }) => [
				json.uuid,
				json.version,
				json.emisor.rfc,
				json.receptor.rfc,
				json.total,
			]),
			realCfdis.map(({ expect: e }) => [e.uuid, e.version, e.emisor, e.receptor, e.total]),
		);
	});

	test('Carta Porte: one Mercancia is a list as several are, its weights and values numbers', () => {
		const read = realOutput('Read').map((item) => item.json);
		const carta = (start) =>
			read[realCfdis.findIndex((c) => c.name.startsWith(start))].comprobante.Complemento[0]
				.CartaPorte;
		const v31 = carta('CFDI 4.0 transfer');
		const v20 = carta('CFDI 4.0 freight');
		assert.equal(v31.Version, '3.1');
		assert.ok(Array.isArray(v31.Mercancias.Mercancia) && v31.Mercancias.Mercancia.length === 1);
		assert.ok(Array.isArray(v20.Mercancias.Mercancia) && v20.Mercancias.Mercancia.length === 2);
		assert.deepEqual(
			[
				v31.Mercancias.Mercancia[0].PesoEnKg,
				v31.Mercancias.Mercancia[0].ValorMercancia,
				v31.Mercancias.NumTotalMercancias,
			],
			[1250, 87500, 1],
		);
		assert.deepEqual(v20.Mercancias.Mercancia[0].Pedimentos, [
			{ Pedimento: '23  47  3807  3001234' },
		]);
	});

	test('One Item per Concepto: an exempt line and a 0 % line give different rows', () => {
		const rows = realOutput('Rows')
			.map((item) => item.json)
			.filter((r) => r.uuid === '5A1C9E7B-3F20-4D8A-B6C1-0E2F4A6B8C01');
		assert.deepEqual(
			rows.slice(0, 2).map((r) => [r.iva_base, r.iva_tipo_factor, r.iva_tasa, r.iva_trasladado]),
			[
				[500, 'Exento', null, 0],
				[300, 'Tasa', 0, 0],
			],
		);
	});
});
