import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

/** The SRI's ATS schema (release 2020-12-02), committed byte for byte: test/fixtures/sri/README.md. */
export const AT_XSD = join(__dirname, '..', 'fixtures', 'sri', 'at.xsd');

/**
 * What `xmllint --noout --schema at.xsd` says of an ATS: [] when the schema accepts it, else its complaints. Every
 * ATS the tests build goes through here (test/sri/ats-setup.js `annexOf`). xmllint is Debian's libxml2-utils,
 * which .ci/run installs when it is missing; without it this throws: the schema check is never skipped.
 * @param {string | Buffer} xml
 * @returns {string[]}
 */
export function xsdErrors(xml) {
	const run = spawnSync('xmllint', ['--noout', '--schema', AT_XSD, '-'], {
		input: xml,
		encoding: 'utf8',
		maxBuffer: 64 * 1024 * 1024,
	});
	if (run.error)
		throw new Error(
			`xmllint could not be run (${run.error.message}): install Debian's libxml2-utils (apt-get install libxml2-utils; .ci/run installs it when missing). Every ATS the tests build is checked against the SRI's schema with it; the check is never skipped.`,
		);
	if (run.status === 0) return [];
	return run.stderr
		.split('\n')
		.map((l) => l.trim())
		.filter((l) => l && !/ validates$| fails to validate$/.test(l));
}
