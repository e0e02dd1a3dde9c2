// End-to-end: a real n8n (the pinned version users run) loads the built package, and the SAT (Mexico) node's Bulk
// Download runs against the simulator of the SAT's bulk download service, which verifies every signature with the
// certificate in the request (test/simulator/satBulk.js): the example examples/sat-bulk-download-monthly-diot.json
// as `npm run dev` prepares it (a month's received CFDIs requested, checked in a Wait loop until finished,
// downloaded into one item per CFDI, read, checked, into the DIOT file); the month's metadata into one item per
// row; and a wrong password, a mismatched key and a request altered after it was signed, each refused with a clear
// error, nothing sent (or, altered, refused by the SAT) and nothing of the key, password or token in what n8n kept.
// Run with `node --test test/e2e/sat-bulk.test.mjs`.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { nodeOutput } from '../../scripts/n8n/executions.mjs';
import {
	fillPlaceholders,
	requireTestModule,
	withSandboxCredentials,
} from '../../scripts/n8n/sandbox.mjs';
import { closeSuite, e2eSandbox, startSuiteN8n } from '../../scripts/n8n/suite.mjs';
import { chain, node } from '../../scripts/n8n/workflow.mjs';

/** @type {Awaited<ReturnType<typeof e2eSandbox>>} */
let sb;
/** @type {Awaited<ReturnType<typeof startSuiteN8n>>} */
let n8n;

const BAD_PASSWORD = { id: 'latamEfirmaBadPw', name: 'e.firma, wrong password' };
const OTHER_KEY = { id: 'latamEfirmaOtherKey', name: 'e.firma, another key' };
const WRONG_PASSWORD = 'n0t-the-e.firma-password';

/** A SAT node of Bulk Download with the credential `ref` (the sandbox's unless told). */
const bulk = (name, parameters, ref) =>
	node(
		name,
		'n8n-nodes-latam-fiscal.sat',
		{
			resource: 'bulkDownload',
			...parameters,
			options: { serviceAddress: sb.sim.addresses['sat:bulkDownload'] },
		},
		{ typeVersion: 2, credentials: { satEfirmaApi: ref ?? { id: 'x', name: 'x' } } },
	);
const wait = (seconds) =>
	node(
		'Wait',
		'n8n-nodes-base.wait',
		{ resume: 'timeInterval', amount: seconds, unit: 'seconds' },
		{ typeVersion: 1.1, webhookId: '7d1e7c2a-8b6f-4c55-9d3e-5a1f0b2c3d4e' },
	);

function workflows() {
	const example = JSON.parse(
		readFileSync(
			new URL('../../examples/sat-bulk-download-monthly-diot.json', import.meta.url),
			'utf8',
		),
	);
	const requestOnly = (id, ref) => ({
		id,
		name: `e2e bulk: ${id}`,
		settings: { executionOrder: 'v1' },
		nodes: [
			node('Start', 'n8n-nodes-base.manualTrigger', {}),
			bulk(
				'Request',
				{ operation: 'request', direction: 'received', content: 'CFDI', period: 'lastMonth' },
				ref,
			),
		],
		connections: chain('Start', 'Request'),
	});
	return [
		{
			...fillPlaceholders(withSandboxCredentials(example), sb.sim, sb.opts.userFolder),
			id: 'e2eBulkExample',
		},
		{
			id: 'e2eBulkMetadata',
			name: 'e2e bulk: metadata',
			settings: { executionOrder: 'v1' },
			nodes: [
				node('Start', 'n8n-nodes-base.manualTrigger', {}),
				bulk('Request', {
					operation: 'request',
					direction: 'received',
					content: 'Metadata',
					period: 'lastMonth',
				}),
				wait(8),
				bulk('Check Request', { operation: 'checkRequest' }),
				bulk('Download', { operation: 'download' }),
			],
			connections: chain('Start', 'Request', 'Wait', 'Check Request', 'Download'),
		},
		requestOnly('e2eBulkBadPw', BAD_PASSWORD),
		requestOnly('e2eBulkOtherKey', OTHER_KEY),
		requestOnly('e2eBulkAltered'),
	];
}

/** Everything n8n kept of a run and logged: no key, password or token may be in it. */
const kept = (run) => `${JSON.stringify(run)}\n${n8n.logs()}`;

before(async () => {
	sb = await e2eSandbox('e2e-sat-bulk', {
		// Called once the test code is built: the test material's other key is read from there.
		adjustCredentials: (list, sim) => [
			...list,
			{
				...BAD_PASSWORD,
				type: 'satEfirmaApi',
				data: { ...sim.credentials.satEfirmaApi, keyPassword: WRONG_PASSWORD },
			},
			{
				...OTHER_KEY,
				type: 'satEfirmaApi',
				data: {
					...sim.credentials.satEfirmaApi,
					privateKey: requireTestModule('simulator/satBulk').efirmaFile('unrelated.key'),
				},
			},
		],
	});
	await sb.importWorkflows(workflows());
	n8n = await startSuiteN8n(sb);
});

after(() => closeSuite(n8n, sb));

const secrets = () => [
	sb.sim.credentials.satEfirmaApi.privateKey,
	sb.sim.credentials.satEfirmaApi.keyPassword,
	WRONG_PASSWORD,
	...[...sb.sim.satBulk.tokens.keys()].flatMap((t) => [t, decodeURIComponent(t)]),
];
const leaked = (run) => secrets().filter((s) => kept(run).includes(s));
const paths = () => sb.sim.server.received('satbulk').map((r) => r.path);

describe('Bulk Download in a real n8n, against a simulator that verifies every signature', () => {
	test("the example: last month's received CFDIs requested, checked in the Wait loop until finished, downloaded into one item per CFDI, into the DIOT", async () => {
		sb.sim.server.clear();
		const run = await n8n.execute('e2eBulkExample');
		assert.equal(run.data.resultData.error, undefined, run.data.resultData.error?.message);
		const checks = run.data.resultData.runData['Check Request'];
		assert.ok(
			checks.length >= 2,
			`Check Request ran ${checks.length} time(s): the loop never waited again`,
		);
		assert.equal(checks[0].data?.main?.[0]?.[0]?.json.still_processing, true);
		const cfdis = nodeOutput(run, 'Download');
		const { lastPeriod } = requireTestModule('simulator/received');
		const period = lastPeriod();
		const vigentes = sb.sim.satBulk.cfdis.filter(
			(c) => c.receptorRfc === 'EKU9003173C9' && c.fecha.startsWith(period) && !c.cancelled,
		);
		assert.equal(cfdis.length, vigentes.length);
		for (const item of cfdis)
			assert.match(String(item.binary?.data?.fileName), /^[0-9A-F-]{36}\.xml$/);
		assert.equal(nodeOutput(run, 'Read CFDI XML').length, vigentes.length);
		const diot = readFileSync(
			join(sb.opts.userFolder, '.n8n-files', 'cfdi', `DIOT-EKU9003173C9-${period}.txt`),
			'utf8',
		);
		assert.ok(diot.split('\n').length >= 5, diot);
		assert.deepEqual(sb.sim.satBulk.refusals, []);
		assert.deepEqual(leaked(run), []);
	});

	test("the month's metadata: one item per row, typed", async () => {
		const run = await n8n.execute('e2eBulkMetadata');
		assert.equal(run.data.resultData.error, undefined, run.data.resultData.error?.message);
		const rows = nodeOutput(run, 'Download').map((i) => i.json);
		assert.ok(rows.length > 10);
		assert.ok(
			rows.some((r) => r.estatus === 'cancelado' && typeof r.fecha_cancelacion === 'string'),
		);
		assert.ok(
			rows.every((r) => typeof r.monto === 'number' && /^[0-9A-F-]{36}$/.test(String(r.uuid))),
		);
		assert.deepEqual(leaked(run), []);
	});

	test('a wrong password: refused with what to do, nothing sent, the password nowhere', async () => {
		sb.sim.server.clear();
		const run = await n8n.execute('e2eBulkBadPw');
		assert.match(
			String(run.data.resultData.error?.message),
			/SAT e\.firma \(FIEL\) credential: Key Password does not open the private key/,
		);
		assert.deepEqual(paths(), []);
		assert.deepEqual(leaked(run), []);
	});

	test('a key that does not belong to the certificate: refused, nothing sent', async () => {
		sb.sim.server.clear();
		const run = await n8n.execute('e2eBulkOtherKey');
		assert.match(
			String(run.data.resultData.error?.message),
			/Private Key \(\.key\) does not belong to the certificate/,
		);
		assert.deepEqual(paths(), []);
		assert.deepEqual(leaked(run), []);
	});

	test('a request altered after it was signed: refused by the SAT (302), never sent again', async () => {
		sb.sim.server.clear();
		sb.sim.satBulk.refusals = [];
		sb.sim.satBulk.alter = (xml, path) =>
			path === '/SolicitaDescargaService.svc'
				? xml.replace('TipoSolicitud="CFDI"', 'TipoSolicitud="Metadata"')
				: xml;
		try {
			const run = await n8n.execute('e2eBulkAltered');
			assert.match(
				String(run.data.resultData.error?.message),
				/The SAT answered 302 \(Sello Mal Formado\): it refused the signature/,
			);
			assert.deepEqual(paths(), [
				'/Autenticacion/Autenticacion.svc',
				'/SolicitaDescargaService.svc',
			]);
			assert.deepEqual(
				sb.sim.satBulk.refusals.map((r) => r.why),
				['signature: digest'],
			);
			assert.deepEqual(leaked(run), []);
		} finally {
			sb.sim.satBulk.alter = undefined;
		}
	});
});
