import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/**
 * What a declaration gave for one of the project's own months, kept in `test/fixtures/golden/<name>.json`: a change
 * of the code that is not meant to change what a bookkeeper files (a refactoring) must give the same bytes. A run
 * with `UPDATE_GOLDEN=1` writes the files instead of comparing: done on purpose, when a change of the output is
 * meant, and reviewed in the diff. A missing file fails the test (it is never written silently).
 */
const FOLDER = join(__dirname, '..', 'fixtures', 'golden');

/**
 * Compares `value` (JSON-serializable) with the golden file `name`, or writes it under UPDATE_GOLDEN=1.
 * @param {string} name
 * @param {unknown} value
 */
export function expectGolden(name, value) {
	const path = join(FOLDER, `${name}.json`);
	const text = `${JSON.stringify(value, null, '\t')}\n`;
	if (process.env.UPDATE_GOLDEN === '1') {
		mkdirSync(dirname(path), { recursive: true });
		writeFileSync(path, text);
		return;
	}
	if (!existsSync(path))
		throw new Error(
			`No golden file ${name}.json: run the test with UPDATE_GOLDEN=1 to write it, then review it`,
		);
	expect(JSON.parse(text)).toEqual(JSON.parse(readFileSync(path, 'utf8')));
	// Byte for byte, not only equal as values: key order and number spelling are part of the output.
	expect(text).toBe(readFileSync(path, 'utf8'));
}

/**
 * A declaration's one output item as the golden file keeps it: its JSON, and its file (name, type, text).
 * @param {import('n8n-workflow').INodeExecutionData | undefined} item
 */
export function declarationOutput(item) {
	const file = item?.binary?.data;
	return {
		json: item?.json,
		file: file
			? {
					fileName: file.fileName,
					mimeType: file.mimeType,
					text: Buffer.from(String(file.data), 'base64').toString('utf8'),
				}
			: null,
	};
}
