import { declarationOutput, expectGolden } from '../harness/golden';
import { monthOfReceipts } from '../fixtures/sri/month';
import { realMonth } from '../fixtures/sri/real-month';
import {
	MONTH,
	annexOf,
	atsParameters,
	chain,
	checkStep,
	fileItem,
	readXmlStep,
} from './ats-setup';
import { startSri } from './setup';
/** @import { SriEnv } from './setup' */

/**
 * The ATS of the project's own months (test/fixtures/sri/month.js, real-month.js), as it is filed, byte for byte: its
 * file and its JSON for each way a bookkeeper gives the month to the node (the files, Read XML's JSON, Check
 * Authorization's answers, the form's choices per item, errors of the node before), and a real company's month
 * (reimbursements, a payment abroad, withholdings at 0 %, an export, voided receipts, the SRI's list). A change meant to keep what is filed (the
 * declarations' shared seam, a faster reader) keeps these; a change meant to change it rewrites them on purpose
 * (test/harness/golden.js).
 */

/** @type {SriEnv} */
let env;
const month = monthOfReceipts(MONTH);
const files = month.map((r) => fileItem(r.file, {}, 'data', r.fileName));

beforeAll(async () => (env = await startSri()));
afterAll(() => env.stop());
beforeEach(() => {
	env.reset();
	for (const r of month) env.sim.receipts.set(r.key, r.xml);
});

/** The ATS of a run, checked against the schema (annexOf), as the golden file keeps it. */
const kept = (result) => {
	annexOf(result);
	return declarationOutput(result.output('ATS')[0]);
};

test('the month from its files', async () => {
	const result = await env.engine.run(chain(files, [{ name: 'ATS', parameters: atsParameters() }]));
	expectGolden('ats/month-files', kept(result));
});

test('the month from Read XML’s JSON, without the files', async () => {
	const result = await env.engine.run(
		chain(files, [readXmlStep(), { name: 'ATS', parameters: atsParameters() }]),
	);
	expectGolden('ats/month-read-xml', kept(result));
});

test('the month through Check Authorization (version 2, the files passed on)', async () => {
	const result = await env.engine.run(
		chain(files, [checkStep(env.address), { name: 'ATS', parameters: atsParameters() }]),
	);
	expectGolden('ats/month-checked', kept(result));
});

test('the month through Check Authorization (version 1, the keys only)', async () => {
	const keys = month.map((r) => ({ json: { key: r.key } }));
	const result = await env.engine.run(
		chain(keys, [
			{ name: 'Check', parameters: env.check() },
			{ name: 'ATS', parameters: atsParameters() },
		]),
	);
	expectGolden('ats/month-checked-keys', kept(result));
});

test('the form’s choices per item, a semester, own sales left out', async () => {
	const items = month.map((r, k) =>
		fileItem(r.file, { sustento: k % 3 === 0 ? '02' : '', parte: k % 4 === 0 ? 'SI' : 'NO' }),
	);
	const parameters = atsParameters({
		filing: 'semestral',
		yearMonth: '2026-12',
		taxSupportPerItem: '={{ $json.sustento }}',
		relatedParty: '={{ $json.parte }}',
		electronicSales: 'leaveOut',
		options: { establishments: 3, registrationDate: '={{ $json.registro ?? "" }}' },
	});
	const result = await env.engine.run(chain(items, [{ name: 'ATS', parameters }]));
	expectGolden('ats/month-choices', kept(result));
});

test('errors of the node before, a key the SRI does not know, a rejected receipt', async () => {
	const items = [
		...files.slice(1, 4),
		{ json: { error: 'Access key 2110…: SRI did not answer in time' } },
		{ json: { clave_acceso: '1'.repeat(49), found: false, authorized: false, source: 'sri' } },
		fileItem(
			month[0].file.replace('<estado>AUTORIZADO</estado>', '<estado>NO AUTORIZADO</estado>'),
		),
		...files.slice(4),
	];
	const result = await env.engine.run(chain(items, [{ name: 'ATS', parameters: atsParameters() }]));
	expectGolden('ats/month-upstream', kept(result));
});

test('a real company’s month: a reimbursement, a payment abroad, 0 % withholdings, an export, voided receipts, the SRI’s list', async () => {
	const real = realMonth(MONTH);
	for (const r of [...real.receipts, real.onlyInList]) env.sim.receipts.set(r.key, r.xml);
	const result = await env.engine.run(
		chain(
			real.receipts.map((r) => fileItem(r.file, {}, 'data', r.fileName)),
			[
				checkStep(env.address),
				{
					name: 'ATS',
					parameters: atsParameters({
						options: {
							voidedReceipts: real.voided.join('\n'),
							sriListedKeys: `={{ ${JSON.stringify(real.list.keys)} }}`,
						},
					}),
				},
			],
		),
	);
	expectGolden('ats/real-month', kept(result));
});
