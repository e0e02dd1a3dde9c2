// End-to-end: the ATS (SRI (Ecuador) → Monthly Annex → Build) in a real n8n (the line N8N_LINE selects; 2 by
// default). A month of receipts (test/fixtures/sri/month.js) as files in a folder → Read/Write Files → Read XML →
// the ATS → the file written to disk, which `xmllint --schema` (the SRI's at.xsd) accepts, whose totals agree to the
// cent with the receipts and whose warnings name every receipt left out; then the example
// (examples/sri-monthly-ats.json) as `npm run dev` imports it: last month's receipts of the sandbox's folder, checked
// with the SRI simulator, the ATS and the purchases sheet written beside them; and the month of a real company
// (test/fixtures/sri/real-month.js: a reimbursement invoice, a purchase settlement paid abroad with its retention,
// withholdings at 0 % IVA, an export invoice, a voided sale, and a supplier invoice only the SRI's list has) through
// the nodes as a bookkeeper wires them — the SRI's list read, the folder read, each receipt checked with the SRI, the
// ATS with the voided receipts and the list — which xmllint accepts, each written as the schema writes it, with the
// export and the missing invoice named in problems. Run with `node --test test/e2e/ats.test.mjs`.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { nodeOutput } from '../../scripts/n8n/executions.mjs';
import { fillPlaceholders, repoRoot, requireTestModule } from '../../scripts/n8n/sandbox.mjs';
import { closeSuite, e2eSandbox, startSuiteN8n } from '../../scripts/n8n/suite.mjs';
import { chain, node } from '../../scripts/n8n/workflow.mjs';

const SRI = 'n8n-nodes-latam-fiscal.sri';
const AT_XSD = join(repoRoot, 'test', 'fixtures', 'sri', 'at.xsd');

/** `xmllint --noout --schema at.xsd <file>`: '' when the SRI's schema accepts the file, else what xmllint said. */
function xsdComplaints(file) {
	try {
		execFileSync('xmllint', ['--noout', '--schema', AT_XSD, file], { stdio: 'pipe' });
		return '';
	} catch (error) {
		const e = /** @type {{ code?: string, stderr?: Buffer }} */ (error);
		if (e.code === 'ENOENT')
			throw new Error(
				"xmllint is missing: install Debian's libxml2-utils (.ci/run does when it is missing)",
			);
		return String(e.stderr);
	}
}

/**
 * The receipts of a month as the files of `sub`, a folder of the test's: numbered, so that Read/Write Files reads
 * them in the fixture's order (the items' numbers are the fixture's).
 * @param {string} sub
 * @param {Array<Record<string, any>>} receipts
 */
function writeMonth(sub, receipts) {
	mkdirSync(join(folder, sub), { recursive: true });
	receipts.forEach((r, k) =>
		writeFileSync(join(folder, sub, `${String(k).padStart(2, '0')}-${r.fileName}`), r.file),
	);
}

/** Monthly Annex → Build of the fixtures' informant, October 2026, Tax Support 01; `options` its Options. */
const atsNode = (name, options = {}, extra = {}) =>
	node(
		name,
		SRI,
		{
			resource: 'monthlyAnnex',
			operation: 'build',
			informantRuc: fixtures.INFORMANT.ruc,
			informantName: fixtures.INFORMANT.name,
			filing: 'monthly',
			period: 'chosen',
			yearMonth: '2026-10',
			taxSupport: '01',
			electronicSales: 'include',
			options,
		},
		extra,
	);

/** A module of the built package (dist/), e.g. `nodes/Sri/domain/ats/xml`. @returns {any} */
const built = (path) => createRequire(import.meta.url)(join(repoRoot, 'dist', `${path}.js`));

/** @type {Awaited<ReturnType<typeof e2eSandbox>>} */
let sb;
/** @type {Awaited<ReturnType<typeof startSuiteN8n>>} */
let n8n;
/** The month's receipts (test/fixtures/sri/month.js, compiled). @type {Array<Record<string, any>>} */
let month;
/** test/fixtures/sri/month.js, compiled. @type {any} */
let fixtures;
/** The real company's month (test/fixtures/sri/real-month.js realMonth, compiled). @type {any} */
let real;
let folder = '';

before(async () => {
	sb = await e2eSandbox('e2e-ats');
	fixtures = requireTestModule('fixtures/sri/month');
	month = fixtures.monthOfReceipts({ year: 2026, month: 10 });
	folder = join(sb.filesFolder, 'ats-e2e');
	rmSync(folder, { recursive: true, force: true });
	writeMonth('received', month);
	// The real company's month: its receipts in a folder, the SRI's list in another; the SRI holds them all.
	real = requireTestModule('fixtures/sri/real-month').realMonth({ year: 2026, month: 10 });
	writeMonth('real', real.receipts);
	mkdirSync(join(folder, 'list'), { recursive: true });
	writeFileSync(join(folder, 'list', real.list.fileName), real.list.bytes);
	for (const r of [...real.receipts, real.onlyInList]) sb.sim.sri.receipts.set(r.key, r.xml);
	const example = JSON.parse(
		readFileSync(join(repoRoot, 'examples', 'sri-monthly-ats.json'), 'utf8'),
	);
	await sb.importWorkflows([
		{
			id: 'e2eAtsMonth',
			name: 'e2e ATS: a month of receipts from a folder',
			settings: { executionOrder: 'v1' },
			nodes: [
				node('Start', 'n8n-nodes-base.manualTrigger', {}),
				node('Files', 'n8n-nodes-base.readWriteFile', {
					operation: 'read',
					fileSelector: `${folder}/received/*.xml`,
					options: {},
				}),
				node('Read XML', SRI, {
					resource: 'receipt',
					operation: 'readXml',
					xmlSource: 'binary',
					binaryPropertyName: 'data',
					options: {},
				}),
				atsNode('ATS'),
				node('Save', 'n8n-nodes-base.readWriteFile', {
					operation: 'write',
					fileName: `=${folder}/{{ $binary.data.fileName }}`,
					dataPropertyName: 'data',
					options: {},
				}),
			],
			connections: chain('Start', 'Files', 'Read XML', 'ATS', 'Save'),
		},
		fillPlaceholders({ ...example, id: 'e2eAtsExample' }, sb.sim, sb.opts.userFolder),
		realMonthWorkflow(),
	]);
	n8n = await startSuiteN8n(sb);
});

after(() => closeSuite(n8n, sb));

/**
 * The real company's month as a bookkeeper wires it: the SRI's list read (Received Receipts List), the month's
 * folder read once (Read/Write Files, Execute Once), each file read (Read XML) and checked with the SRI (Check
 * Authorization, the simulator), the ATS of October 2026 with the voided receipts typed and the SRI's list by an
 * expression; whatever leaves by Check First is saved for review.
 */
function realMonthWorkflow() {
	return {
		id: 'e2eAtsRealMonth',
		name: 'e2e ATS: a real company’s month, held against the SRI’s list',
		settings: { executionOrder: 'v1' },
		nodes: [
			node('Start', 'n8n-nodes-base.manualTrigger', {}),
			node('The SRI’s list', 'n8n-nodes-base.readWriteFile', {
				operation: 'read',
				fileSelector: `${folder}/list/*.txt`,
				options: {},
			}),
			node(
				'Read the list',
				SRI,
				{
					resource: 'receivedList',
					operation: 'read',
					binaryPropertyName: 'data',
					options: { ownRuc: fixtures.INFORMANT.ruc },
				},
				{ typeVersion: 2 },
			),
			node(
				'Last month’s receipts',
				'n8n-nodes-base.readWriteFile',
				{ operation: 'read', fileSelector: `${folder}/real/*.xml`, options: {} },
				{ executeOnce: true },
			),
			node(
				'Read XML',
				SRI,
				{
					resource: 'receipt',
					operation: 'readXml',
					xmlSource: 'binary',
					binaryPropertyName: 'data',
				},
				{ typeVersion: 2 },
			),
			node(
				'Check with the SRI',
				SRI,
				{
					resource: 'receipt',
					operation: 'checkAuthorization',
					options: { serviceAddress: sb.sim.addresses.sri },
				},
				{ typeVersion: 2 },
			),
			atsNode(
				'Build the ATS',
				{
					voidedReceipts: real.voided.join('\n'),
					sriListedKeys: "={{ $('Read the list').all().map(i => i.json.clave_acceso) }}",
				},
				{ typeVersion: 3 },
			),
			node('Save for review', 'n8n-nodes-base.readWriteFile', {
				operation: 'write',
				fileName: `=${folder}/real-{{ $binary.data.fileName }}`,
				dataPropertyName: 'data',
				options: {},
			}),
		],
		connections: {
			...chain(
				'Start',
				'The SRI’s list',
				'Read the list',
				'Last month’s receipts',
				'Read XML',
				'Check with the SRI',
				'Build the ATS',
			),
			'Build the ATS': { main: [[], [{ node: 'Save for review', type: 'main', index: 0 }]] },
		},
	};
}

describe('a month of receipts from a folder → Read XML → the ATS, in real n8n', () => {
	/** @type {Record<string, any>} */
	let annex;
	let file = '';
	before(async () => {
		const run = await n8n.execute('e2eAtsMonth');
		assert.equal(run.data.resultData.error, undefined, run.data.resultData.error?.message);
		const out = nodeOutput(run, 'ATS');
		assert.equal(out.length, 1);
		annex = out[0].json;
		file = join(folder, String(annex.file_name));
	});

	test('the file written to disk is an ATS the SRI’s schema accepts (xmllint)', () => {
		assert.ok(existsSync(file), `${file} was not written`);
		assert.equal(xsdComplaints(file), '');
		assert.match(readFileSync(file, 'utf8'), /<IdInformante>1792146739001<\/IdInformante>/);
	});

	test('its totals agree to the cent with the receipts', () => {
		const { EXPECTED } = fixtures;
		for (const [name, value] of Object.entries(EXPECTED.compras))
			if (name !== 'rows') assert.equal(annex.totals.compras[name], value, `compras ${name}`);
		for (const [name, value] of Object.entries(EXPECTED.ventas))
			if (name !== 'groups' && name !== 'documents')
				assert.equal(annex.totals.ventas[name], value, `ventas ${name}`);
		assert.equal(annex.compras.length, EXPECTED.compras.rows);
		assert.equal(annex.ventas.length, EXPECTED.ventas.groups);
	});

	test('its warnings name every receipt left out, and nothing else is missing', () => {
		assert.equal(annex.warnings.length, fixtures.EXPECTED.leftOut.length);
		for (const name of fixtures.EXPECTED.leftOut) {
			const item = month.findIndex((x) => x.name === name);
			assert.ok(
				annex.warnings.some((/** @type {string} */ w) => w.startsWith(`[item ${item + 1}] `)),
				`${name} (item ${item}) is not named in the warnings`,
			);
		}
		assert.equal(annex.counts.in_annex + annex.counts.left_out, month.length);
	});
});

test('the example as `npm run dev` imports it: last month’s folder checked with the SRI, the ATS and the purchases sheet written', async () => {
	const run = await n8n.execute('e2eAtsExample');
	assert.equal(run.data.resultData.error, undefined, run.data.resultData.error?.message);
	const [out] = nodeOutput(run, 'Build the ATS');
	const annex = /** @type {Record<string, any>} */ (out.json);
	const { year, month: m } = sb.sim.sriMonth;
	assert.deepEqual([annex.anio, annex.mes], [String(year), String(m).padStart(2, '0')]);
	assert.deepEqual(annex.problems, [], 'every receipt was checked with the SRI');
	assert.equal(annex.warnings.length, fixtures.EXPECTED.leftOut.length);
	const written = join(sb.filesFolder, 'sri', String(annex.file_name));
	assert.equal(xsdComplaints(written), '');
	const sheet = readFileSync(
		join(sb.filesFolder, 'sri', `ats-compras-${year}-${String(m).padStart(2, '0')}.csv`),
		'utf8',
	);
	assert.equal(sheet.trim().split('\n').length, 1 + fixtures.EXPECTED.compras.rows);
	assert.match(sheet.split('\n')[0], /codSustento/);
	// Flat headers, the schema's names: no air.0.codRetAir, no pagoExterior.pagoLocExt.
	assert.match(sheet.split('\n')[0], /codRetAir/);
	assert.doesNotMatch(sheet.split('\n')[0], /air\.\d|formasDePago\.\d|pagoExterior\./);
});

describe('a real company’s month through the nodes: the SRI’s list, the folder, each receipt checked, the ATS', () => {
	/** @type {any} */
	let run;
	/** @type {Record<string, any>} */
	let annex;
	let xml = '';
	before(async () => {
		run = await n8n.execute('e2eAtsRealMonth');
		assert.equal(run.data.resultData.error, undefined, run.data.resultData.error?.message);
		// Problems to look at: the annex leaves by Check First (output 1), never by Ready to File.
		assert.deepEqual(nodeOutput(run, 'Build the ATS', 0), []);
		const out = nodeOutput(run, 'Build the ATS', 1);
		assert.equal(out.length, 1);
		annex = out[0].json;
		const file = join(folder, `real-${annex.file_name}`);
		assert.ok(existsSync(file), `${file} was not written`);
		assert.equal(xsdComplaints(file), '');
		xml = readFileSync(file, 'utf8');
	});

	/** The `<name>` blocks of `text`, and the children of one as [name, value] pairs in the order written. */
	const blocks = (text, name) =>
		[...text.matchAll(new RegExp(`<${name}>[\\s\\S]*?</${name}>`, 'g'))].map((m) => m[0]);
	const pairs = (block) => [...block.matchAll(/<(\w+)>([^<]*)<\/\1>/g)].map((m) => [m[1], m[2]]);
	const purchase = (secuencial) =>
		String(blocks(xml, 'detalleCompras').find((b) => b.includes(`<secuencial>${secuencial}<`)));

	test('every receipt of the folder was checked with the SRI; the list read', () => {
		assert.equal(nodeOutput(run, 'Check with the SRI').length, real.receipts.length);
		assert.ok(nodeOutput(run, 'Check with the SRI').every((i) => i.json.authorized === true));
		assert.deepEqual(
			nodeOutput(run, 'Read the list').map((i) => i.json.clave_acceso),
			real.list.keys,
		);
	});

	test('the reimbursement invoice: tipoComprobante 41, totbasesImpReemb, its reembolsos in the schema’s order', () => {
		const b = purchase('000002201');
		assert.match(b, /<tipoComprobante>41<\/tipoComprobante>/);
		assert.match(b, /<totbasesImpReemb>120\.00<\/totbasesImpReemb>/);
		const reembolsos = blocks(b, 'reembolso').map(pairs);
		assert.equal(reembolsos.length, 2);
		// The schema's order: the writer's sequence, which test/sri/ats-domain.test.js reads against at.xsd itself.
		assert.deepEqual(
			reembolsos[0].map(([name]) => name),
			built('nodes/Sri/domain/ats/xml').SEQUENCES.reembolso,
		);
		assert.deepEqual(
			reembolsos
				.map((r) => Object.fromEntries(r))
				.map((r) => [r.baseImpGravReemb, r.baseImponibleReemb, r.montoIvaRemb]),
			[
				['100.00', '0.00', '15.00'],
				['0.00', '20.00', '0.00'],
			],
		);
	});

	test('the purchase settlement paid abroad: pagoExterior from its retention', () => {
		const b = purchase('000000016');
		assert.deepEqual(pairs(String(blocks(b, 'pagoExterior')[0])), [
			['pagoLocExt', '02'],
			['tipoRegi', '01'],
			['paisEfecPagoGen', '110'],
			['paisEfecPago', '110'],
			['aplicConvDobTrib', 'NO'],
			['pagExtSujRetNorLeg', 'SI'],
		]);
		assert.match(b, /<tpIdProv>03<\/tpIdProv>/);
		assert.match(b, /<valRetServ100>150\.00<\/valRetServ100>/);
	});

	test('the withholding at 0 % IVA: nothing in the IVA fields, its income tax in air', () => {
		const b = purchase('000005050');
		for (const [, name] of built('nodes/Sri/domain/ats/catalog').IVA_WITHHELD_FIELDS)
			assert.match(b, new RegExp(`<${name}>0\\.00</${name}>`), name);
		assert.match(b, /<valRetAir>7\.00<\/valRetAir>/);
	});

	test('the voided sale: in anulados, out of ventas', () => {
		assert.deepEqual(blocks(xml, 'detalleAnulados').map(pairs), [
			[
				['tipoComprobante', '01'],
				['establecimiento', '001'],
				['puntoEmision', '001'],
				['secuencialInicio', '000000107'],
				['secuencialFin', '000000107'],
				['autorizacion', real.voided[0]],
			],
			[
				['tipoComprobante', '01'],
				['establecimiento', '002'],
				['puntoEmision', '001'],
				['secuencialInicio', '000000061'],
				['secuencialFin', '000000061'],
				['autorizacion', real.voided[1]],
			],
		]);
		assert.deepEqual(
			blocks(xml, 'detalleVentas').map((b) => /<numeroComprobantes>(\d+)</.exec(b)?.[1]),
			['1'],
		);
	});

	test('problems: the export, and the supplier invoice only the SRI’s list has — nothing else', () => {
		assert.equal(annex.problems.length, 2, annex.problems.join('\n'));
		assert.match(
			annex.problems[0],
			/factura 001-001-000000105 .* is an export \(comercioExterior EXPORTADOR/,
		);
		assert.match(
			annex.problems[1],
			new RegExp(
				`^The SRI lists factura 001-002-000004601 .*access key ${real.onlyInList.key}\\), as issued to you, and it is not among the items`,
			),
		);
		assert.doesNotMatch(xml, /EIN123456789/);
	});
});
