/** @import { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow' */
import { KeptBudget } from '../../nodes/shared/budget';
import { documentsOf, lastCompletePeriod, throwIfStopped } from '../../nodes/shared/declaration';
import { AFTER_ITEMS, BEFORE_ITEMS, Findings } from '../../nodes/shared/findings';

/**
 * The declarations' seam (nodes/shared/declaration.ts, findings.ts), each piece alone: the last complete period on
 * an authority's clock, what a filing found in item order, the one error that stops a filing, and the one way
 * items are read — the ATS and the DIOT run it through the engine (test/sri/ats*.test.js, test/sat/diot*.test.js).
 */

const NODE = {
	id: 'n',
	name: 'Declaration',
	type: 'test',
	typeVersion: 1,
	position: [0, 0],
	parameters: {},
};
const WORDS = { name: 'TEST', filing: 'test filing', document: 'paper', byHand: 'by hand' };

/**
 * The part of n8n's execute context the seam uses, over `items` (JSON only: files are the engine tests').
 * @param {INodeExecutionData[]} items
 * @returns {IExecuteFunctions}
 */
const context = (items, parameters = { binaryPropertyName: 'data' }) =>
	/** @type {any} */ ({
		getNode: () => NODE,
		getInputData: () => items,
		getNodeParameter: (name, _i, fallback) => parameters[name] ?? fallback,
	});

describe('the last complete period, on the authority’s clock', () => {
	const at = (iso) => Date.parse(iso);
	test('Ecuador (UTC−05:00): on 1 November at 02:00 UTC it is still October there', () => {
		expect(lastCompletePeriod(at('2026-11-15T12:00:00Z'), 'America/Guayaquil')).toEqual({
			year: 2026,
			month: 10,
		});
		expect(lastCompletePeriod(at('2026-11-01T02:00:00Z'), 'America/Guayaquil')).toEqual({
			year: 2026,
			month: 9,
		});
		expect(lastCompletePeriod(at('2027-01-10T12:00:00Z'), 'America/Guayaquil')).toEqual({
			year: 2026,
			month: 12,
		});
	});

	test('Mexico City (UTC−06:00): at 05:30 UTC on 1 November it is still 31 October there', () => {
		expect(lastCompletePeriod(at('2026-11-01T05:30:00Z'), 'America/Mexico_City')).toEqual({
			year: 2026,
			month: 9,
		});
		expect(lastCompletePeriod(at('2026-11-01T06:30:00Z'), 'America/Mexico_City')).toEqual({
			year: 2026,
			month: 10,
		});
	});

	test('a semester: the last one that has ended, named by June or December', () => {
		expect(lastCompletePeriod(at('2027-03-10T12:00:00Z'), 'America/Guayaquil', 6)).toEqual({
			year: 2026,
			month: 12,
		});
		expect(lastCompletePeriod(at('2026-07-01T12:00:00Z'), 'America/Guayaquil', 6)).toEqual({
			year: 2026,
			month: 6,
		});
	});
});

test('findings: in the order of their items, what is about the run first, what is about the lines last', () => {
	const f = new Findings();
	f.warn(3, 'w3');
	f.warn(AFTER_ITEMS, 'lines');
	f.warn(1, 'w1a');
	f.warn(BEFORE_ITEMS, 'run');
	f.warn(1, 'w1b');
	f.problem(2, 'p2');
	f.problem(0, 'p0');
	expect(f.warnings).toEqual(['run', 'w1a', 'w1b', 'w3', 'lines']);
	expect(f.problems).toEqual(['p0', 'p2']);
	expect(f.stopped).toBe(false);
});

describe('the error that stops a filing', () => {
	test('its first line names what is wrong and the first item; its details every group with its fix', () => {
		const f = new Findings();
		f.stop('papers without a date', 'Date them.', '[item 3] paper.xml: no date');
		f.stop('papers without a date', 'Date them.', '[item 6] other.xml: no date');
		f.stop('form fields to fix', 'Fix the form.', 'Month: must be YYYY-MM');
		let error;
		try {
			throwIfStopped.call(context([]), WORDS, f);
		} catch (e) {
			error = /** @type {any} */ (e);
		}
		expect(error.message).toBe(
			'No TEST was built: papers without a date: [item 3] paper.xml: no date (3 problems in all: see the details)',
		);
		expect(error.description).toBe(
			[
				'papers without a date (2):\n- [item 3] paper.xml: no date\n- [item 6] other.xml: no date\nDate them.',
				'form fields to fix (1):\n- Month: must be YYYY-MM\nFix the form.',
				'No file was built.',
			].join('\n\n'),
		);
	});

	test('a group lists 50 lines and counts the rest; a message naming a system error code is kept as written', () => {
		const f = new Findings();
		for (let i = 0; i < 60; i++)
			f.stop('bad papers', 'Fix them.', `[item ${i + 1}] claveAcceso EACCES`);
		let error;
		try {
			throwIfStopped.call(context([]), WORDS, f);
		} catch (e) {
			error = /** @type {any} */ (e);
		}
		expect(error.message).toBe(
			'No TEST was built: bad papers: [item 1] claveAcceso EACCES (60 problems in all: see the details)',
		);
		expect(error.description).toContain('[item 50] claveAcceso EACCES\n- … and 10 more\nFix them.');
		expect(error.description).not.toContain('[item 51]');
	});

	test('nothing stops a filing with no stop', () => {
		expect(() => throwIfStopped.call(context([]), WORDS, new Findings())).not.toThrow();
	});
});

describe('reading the items', () => {
	/** A filing whose documents are the items' `paper`, or not documents. */
	const filing = {
		words: WORDS,
		what: 'Test → Build',
		narrow: 'Give fewer papers',
		maxBytes: 1024,
		fromFile: () => ({ unread: 'files are the engine tests’' }),
		fromJson: (/** @type {INodeExecutionData} */ item, /** @type {number} */ index) =>
			typeof item.json.paper === 'string'
				? { index, paper: item.json.paper }
				: { unread: 'is not a paper' },
		notDocuments: () => ({ title: 'items that are not papers', fix: 'Give papers.' }),
	};

	test('documents in item order; an error of the node before is a problem; what is not a document stops', async () => {
		const findings = new Findings();
		const items = [
			{ json: { paper: 'a' } },
			{ json: { error: 'the node before failed' } },
			{ json: { other: true } },
			{ json: { error: '[item 4] File "pedido.xml": is not a paper', file_name: 'pedido.xml' } },
			{ json: { paper: 'b', error: 'a warning of its own', comprobante: {} } },
		];
		const { documents, itemCount } = await documentsOf(context(items), filing, findings, undefined);
		expect(itemCount).toBe(5);
		expect(documents).toEqual([
			{ index: 0, paper: 'a' },
			{ index: 4, paper: 'b' },
		]);
		expect(findings.problems).toEqual([
			'[item 2] came from the node before as an error: "the node before failed". Whatever paper it stood for is not in the test filing: fix it there and run again, or add it by hand.',
			'[item 4] pedido.xml came from the node before as an error: "[item 4] File "pedido.xml": is not a paper". Whatever paper it stood for is not in the test filing: fix it there and run again, or add it by hand.',
		]);
		expect(findings.stops).toEqual([
			{
				title: 'items that are not papers',
				fix: 'Give papers.',
				lines: ['[item 3] is not a paper'],
			},
		]);
	});

	test('the documents a filing holds count against the run’s memory: a month too large stops with the budget’s error', async () => {
		const items = Array.from({ length: 50 }, () => ({ json: { paper: 'x'.repeat(10_000) } }));
		const kept = new KeptBudget(/** @type {any} */ (NODE), { bytes: 200_000, items: 1000 });
		await expect(documentsOf(context(items), filing, new Findings(), kept)).rejects.toThrow(
			/Test → Build: this run would keep more than/,
		);
		const enough = new KeptBudget(/** @type {any} */ (NODE), { bytes: 10_000_000, items: 1000 });
		const { documents } = await documentsOf(context(items), filing, new Findings(), enough);
		expect(documents).toHaveLength(50);
	});
});
