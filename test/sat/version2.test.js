import { built, outputNames } from '../harness/engine';
import { cfdiXml, uuidWith } from '../simulator/cfdi';
import { fields, fieldsOf, fileItem, fromXml, NODE, readXml, startSat } from './setup';
/** @import { SatEnv } from './setup' */

/**
 * The SAT (Mexico) node's version 2 through n8n-core's engine against the SAT simulator: Read CFDI XML leaves a
 * file it cannot read by Not Read (named by the name it arrived with) while the others go on, and outputs a row
 * per concepto by default, each with the CFDI's file; Check CFDI Status says whether the SAT confirmed the figures
 * of the CFDI at hand (matches_file) and flags a cancellation in process. Version 1 is the other files' subject.
 */

/** @type {SatEnv} */
let env;
beforeAll(async () => (env = await startSat()));
afterAll(() => env.stop());
beforeEach(() => env.reset());

const good = cfdiXml({ folio: '7' });

describe('Read CFDI XML', () => {
	test('three files, one not a CFDI: the CFDIs leave by Read, a row per concepto with the file and its name; the other by Not Read, named', async () => {
		const result = await env.run(
			readXml(),
			[
				fileItem(good.xml, { fileName: 'proveedor-7.xml' }),
				fileItem('<Acuse><Folio>1</Folio></Acuse>', { fileName: 'acuse.xml' }),
				fileItem(cfdiXml({ folio: '8' }).xml, { fileName: 'proveedor-8.xml' }),
			],
			false,
			2,
		);
		expect(result.error).toBeUndefined();
		const rows = result.output(NODE, 0);
		expect(
			rows.map((r) => [r.json.folio, r.json.concepto_numero, r.json.file_name, r.pairedItem]),
		).toEqual([
			['7', 1, 'proveedor-7.xml', { item: 0 }],
			['7', 2, 'proveedor-7.xml', { item: 0 }],
			['8', 1, 'proveedor-8.xml', { item: 2 }],
			['8', 2, 'proveedor-8.xml', { item: 2 }],
		]);
		expect(rows.every((r) => r.json.comprobante === undefined)).toBe(true);
		expect(rows.map((r) => r.binary?.data.fileName)).toEqual([
			'proveedor-7.xml',
			'proveedor-7.xml',
			'proveedor-8.xml',
			'proveedor-8.xml',
		]);
		const notRead = result.output(NODE, 1);
		expect(notRead.map((o) => [o.json, o.pairedItem, o.binary?.data.fileName])).toEqual([
			[
				{
					error:
						'[item 2] File "acuse.xml": it is not a CFDI: its root element is "Acuse" without a namespace, where a CFDI has "cfdi:Comprobante" in http://www.sat.gob.mx/cfd/4 (4.0) or http://www.sat.gob.mx/cfd/3 (3.3, 3.2)',
					item_index: 1,
					file_name: 'acuse.xml',
				},
				{ item: 1 },
				'acuse.xml',
			],
		]);
	});

	test('One Item per Concepto off: the whole CFDI with file_name', async () => {
		const result = await env.run(
			readXml({ onePerConcepto: false }),
			[fileItem(good.xml, { fileName: 'proveedor-7.xml' })],
			false,
			2,
		);
		const [item] = result.output(NODE, 0);
		expect(item.json).toMatchObject({ file_name: 'proveedor-7.xml', uuid: good.uuid });
		expect(item.json.comprobante).toBeDefined();
	});

	test('version 1: one output, and a bad file still stops the node (saved workflows keep their shape)', async () => {
		const result = await env.run(
			readXml(),
			[fileItem('<Acuse/>', { fileName: 'acuse.xml' })],
			false,
			1,
		);
		expect(result.error?.message).toMatch(/^\[item 1\] File "acuse.xml": it is not a CFDI/);
	});
});

describe('Check CFDI Status', () => {
	test('given the file: matches_file says the SAT knows a CFDI with its own UUID, RFCs and total', async () => {
		const found = await env.run(fromXml(), [fileItem(good.xml, { fileName: 'p.xml' })], false, 2);
		expect(found.output(NODE)[0].json).toMatchObject({
			valid: true,
			matches_file: true,
			file_name: 'p.xml',
		});
		const unknown = cfdiXml({ uuid: uuidWith('D602', 9) });
		const notFound = await env.run(fromXml(), [fileItem(unknown.xml)], false, 2);
		expect(notFound.output(NODE)[0].json).toMatchObject({ found: false, matches_file: null });
	});

	test('Fields from a sheet while the item carries Read CFDI XML’s CFDI: each figure asked that is not the CFDI’s is named', async () => {
		const read = await env.run(
			readXml({ onePerConcepto: false }),
			[fileItem(good.xml, { fileName: 'p.xml' })],
			false,
			2,
		);
		const cfdi = read.output(NODE, 0)[0].json;
		const asked = fieldsOf({ folio: '7' });
		const same = await env.run(fields(), [{ ...cfdi, ...asked }], false, 2);
		expect(same.output(NODE)[0].json).toMatchObject({ matches_file: true, warnings: [] });
		const other = await env.run(fields(), [{ ...cfdi, ...asked, tt: '1000.00' }], false, 2);
		const [item] = other.output(NODE);
		expect(item.json.matches_file).toBe(false);
		expect(item.json.warnings).toEqual([
			`The SAT was asked about other figures than the input item's CFDI ("p.xml"): Total "1000.00" asked, "${Number(good.total)}" in the CFDI. Its answer is not about that CFDI: take UUID, RFCs and Total from it.`,
		]);
	});

	test('Vigente with its cancellation in process: flagged, whatever the version', async () => {
		const pending = cfdiXml({ uuid: uuidWith('A002', 3) });
		for (const version of [1, 2]) {
			const result = await env.run(fromXml(), [fileItem(pending.xml)], false, version);
			const [item] = result.output(NODE);
			expect(item.json).toMatchObject({ valid: true, estatus_cancelacion: 'En proceso' });
			expect(/** @type {string[]} */ (item.json.warnings)[0]).toMatch(
				/^The issuer asked the SAT to cancel this CFDI/,
			);
		}
	});

	test.each([1, 2])(
		'version %i: given a previous node’s error item, it names that error, not "is required"; nothing is sent',
		async (version) => {
			const upstream = '[item 1] File "acuse.xml": it is not a CFDI';
			const result = await env.run(fields(), [{ error: upstream }], true, version);
			expect(result.output(NODE)[0].json.error).toBe(
				`[item 1] UUID (Folio Fiscal): is missing: the input item is not a document but the previous node's error: "${upstream}". Fix that item there (or route the previous node's errors elsewhere)`,
			);
			const xml = await env.run(fromXml(), [{ error: upstream }], true, version);
			expect(xml.output(NODE)[0].json.error).toMatch(
				/^\[item 1\] Input Binary Field "data": is missing: the input item is not a document but the previous node's error/,
			);
			expect(env.calls()).toEqual([]);
		},
	);
});

describe('the outputs n8n computes', () => {
	/** @type {import('n8n-workflow').INodeType} */
	const sat = built('nodes/Sat/Sat.node', 'Sat');
	test.each([
		[2, 'readXml', ['Read', 'Not Read']],
		[2, 'checkStatus', ['main']],
		[1, 'readXml', ['main']],
	])('version %i, %s: %j', (version, operation, expected) => {
		expect(outputNames(sat, version, { resource: 'cfdi', operation })).toEqual(expected);
	});
});
