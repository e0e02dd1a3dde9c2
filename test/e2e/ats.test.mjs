// End-to-end: the ATS (SRI (Ecuador) → Monthly Annex → Build) in a real n8n (the line N8N_LINE selects; 2 by
// default). A month of receipts (test/fixtures/sri/month.js) as files in a folder → Read/Write Files → Read XML →
// the ATS → the file written to disk, which `xmllint --schema` (the SRI's at.xsd) accepts, whose totals agree to the
// cent with the receipts and whose warnings name every receipt left out; then the example
// (examples/sri-monthly-ats.json) as `npm run dev` imports it: last month's receipts of the sandbox's folder, checked
// with the SRI simulator, the ATS and the purchases sheet written beside them. Run with
// `node --test test/e2e/ats.test.mjs`.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
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

/** @type {Awaited<ReturnType<typeof e2eSandbox>>} */
let sb;
/** @type {Awaited<ReturnType<typeof startSuiteN8n>>} */
let n8n;
/** The month's receipts (test/fixtures/sri/month.js, compiled). @type {Array<Record<string, any>>} */
let month;
/** test/fixtures/sri/month.js, compiled. @type {any} */
let fixtures;
let folder = '';

before(async () => {
	sb = await e2eSandbox('e2e-ats');
	fixtures = requireTestModule('fixtures/sri/month');
	month = fixtures.monthOfReceipts({ year: 2026, month: 10 });
	folder = join(sb.filesFolder, 'ats-e2e');
	rmSync(folder, { recursive: true, force: true });
	mkdirSync(join(folder, 'received'), { recursive: true });
	// Numbered, so that Read/Write Files reads them in the fixture's order (the items' numbers are the fixture's).
	month.forEach((r, k) =>
		writeFileSync(join(folder, 'received', `${String(k).padStart(2, '0')}-${r.fileName}`), r.file),
	);
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
				node('ATS', SRI, {
					resource: 'monthlyAnnex',
					operation: 'build',
					informantRuc: fixtures.INFORMANT.ruc,
					informantName: fixtures.INFORMANT.name,
					filing: 'monthly',
					period: 'chosen',
					yearMonth: '2026-10',
					taxSupport: '01',
					electronicSales: 'include',
					options: {},
				}),
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
	]);
	n8n = await startSuiteN8n(sb);
});

after(() => closeSuite(n8n, sb));

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
				annex.warnings.some((/** @type {string} */ w) => w.startsWith(`[item ${item}] `)),
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
});
