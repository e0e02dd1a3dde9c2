import { fixedPath, path, segmentProblem } from '../../nodes/shared/path';

/** The one rule for IDs that go into an address: built from segments, a value that could change the address is refused. */
describe('path segments', () => {
	test.each([
		'5e4b3f2c9a8d4c7b8f1e2d3c4b5a6978',
		'ext_2f9c1a7b',
		'doc-8d1f.2c',
		'a~b',
		"it's",
		'x@y:z',
	])('%j is an ID', (value) => {
		expect(segmentProblem(value)).toBeUndefined();
	});

	test.each([
		['', 'is empty'],
		['.', '"." is not an ID (it would change which address is called)'],
		['..', '".." is not an ID (it would change which address is called)'],
		['a/b', '"a/b" is not an ID: it contains "/", which would change which address is called'],
		['a?b', 'it contains "?"'],
		['a#b', 'it contains "#"'],
		['%2e%2e', 'it contains "%"'],
		['a b', 'it contains a space'],
		['a\tb', 'it contains a space'],
		['a\\b', 'it contains "\\"'],
		['a\u0000b', 'it contains a control character'],
		['ñ', 'it contains "ñ"'],
	])('%j is refused', (value, says) => {
		expect(segmentProblem(value)).toContain(says);
	});

	test('path: literal text as written, each value one encoded segment, the first problem kept', () => {
		expect(path`/edocs/${'abc'}/issue`).toMatchObject({
			text: '/edocs/abc/issue',
			problem: undefined,
		});
		expect(path`/x/${"it's"}`.text).toBe("/x/it's");
		expect(path`/edocs/${'..'}/issue`).toMatchObject({
			text: '/edocs/../issue',
			problem: expect.stringContaining('".." is not an ID'),
		});
		expect(path`/a/${'ok'}/${'a/b'}`.problem).toContain('"a/b"');
		expect(path`/a/${undefined}`.problem).toBe('is empty');
	});

	test('an ApiPath inside a path is put in as it is, with its problem', () => {
		expect(path`${fixedPath('/purchase-settlements')}/${'abc'}/reissue`.text).toBe(
			'/purchase-settlements/abc/reissue',
		);
		expect(path`${fixedPath('/a/../b')}/x`.problem).toContain('".." is not an ID');
	});
});
