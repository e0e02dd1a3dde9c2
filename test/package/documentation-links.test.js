import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The documentation links n8n shows (a node's "Docs" link from its codex file, a credential's "Open docs" link
 * from its documentationUrl, any link in a description) that point into the README land on a heading that
 * exists. A renamed heading otherwise leaves the user on the top of the README, with nothing to say why.
 * Read from the sources (nodes/, credentials/): the codex files ship as they are, the URLs are literal strings.
 */
const root = join(__dirname, '..', '..');
const read = (path) => readFileSync(join(root, path), 'utf8');
const manifest = JSON.parse(read('package.json'));
/** The repository's page on GitHub, where the README is shown: the homepage without its `#readme`. */
const repoPage = String(manifest.homepage).replace(/#readme$/, '');

/** Every file under a folder whose name ends in `suffix`, relative to the repository root. */
const filesUnder = (dir, suffix) =>
	readdirSync(join(root, dir), { withFileTypes: true }).flatMap((e) =>
		e.isDirectory()
			? filesUnder(join(dir, e.name), suffix)
			: e.name.endsWith(suffix)
				? [join(dir, e.name)]
				: [],
	);

/**
 * A heading's anchor as GitHub makes it: the heading's text (inline code, emphasis and link targets gone),
 * lower-case, every character that is not a letter, a digit, a space, '-' or '_' removed, each space made a
 * '-'. The second heading with the same anchor gets '-1', the third '-2'.
 */
function githubSlug(heading) {
	const text = heading
		.replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
		.replace(/`([^`]*)`/g, '$1')
		.replace(/(\*\*|__|\*)/g, '');
	return text
		.trim()
		.toLowerCase()
		.replace(/[^\p{L}\p{M}\p{N}\s_-]/gu, '')
		.replace(/ /g, '-');
}

/** The anchors of a Markdown document's headings (ATX `#` headings outside code fences). */
function anchorsOf(markdown) {
	const anchors = [];
	const seen = new Map();
	let fenced = false;
	for (const line of markdown.split('\n')) {
		if (/^\s*(```|~~~)/.test(line)) fenced = !fenced;
		const heading = fenced ? null : /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
		if (!heading) continue;
		const slug = githubSlug(heading[1]);
		const n = seen.get(slug) ?? 0;
		seen.set(slug, n + 1);
		anchors.push(n ? `${slug}-${n}` : slug);
	}
	return anchors;
}

const readmeAnchors = anchorsOf(read('README.md'));

/** Every link into the README in the sources: the repository page, or its README.md, with an #anchor. */
const escaped = repoPage.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
const intoReadme = new RegExp(`${escaped}(?:/blob/[\\w.-]+/README\\.md)?#([\\w%.-]*)`, 'g');
const links = [
	...filesUnder('nodes', '.json'),
	...filesUnder('nodes', '.ts'),
	...filesUnder('credentials', '.ts'),
].flatMap((file) =>
	[...read(file).matchAll(intoReadme)].map((m) => ({
		file,
		url: m[0],
		anchor: decodeURIComponent(m[1]),
	})),
);

describe('documentation links land on a README heading', () => {
	test('GitHub’s anchors, as this test computes them', () => {
		expect(githubSlug('Document Extraction (Mexico, Ecuador) Trigger')).toBe(
			'document-extraction-mexico-ecuador-trigger',
		);
		expect(
			githubSlug("For bookkeepers: an invoice without a calculator, then a month's batch"),
		).toBe('for-bookkeepers-an-invoice-without-a-calculator-then-a-months-batch');
		expect(githubSlug('Reading the outcome: rejected, reason, next step')).toBe(
			'reading-the-outcome-rejected-reason-next-step',
		);
		expect(githubSlug('401 and 403')).toBe('401-and-403');
		expect(githubSlug('Wait for `Final_State` **now**')).toBe('wait-for-final_state-now');
		expect(anchorsOf('# A\n```sh\n# not a heading\n```\n## Operations\n### Operations\n')).toEqual([
			'a',
			'operations',
			'operations-1',
		]);
	});

	test('every node’s codex and every credential links into the README', () => {
		const codexFiles = filesUnder('nodes', '.node.json');
		expect(codexFiles.length).toBe(manifest.n8n.nodes.length);
		for (const file of codexFiles) {
			const { resources } = JSON.parse(read(file));
			const urls = [...resources.primaryDocumentation, ...resources.credentialDocumentation].map(
				(r) => r.url,
			);
			expect([file, urls.every((url) => url.startsWith(`${repoPage}#`))]).toEqual([file, true]);
		}
		const credentialFiles = filesUnder('credentials', '.credentials.ts');
		expect(credentialFiles.length).toBe(manifest.n8n.credentials.length);
		for (const file of credentialFiles) {
			const [, url] = /documentationUrl\s*=\s*'([^']*)'/.exec(read(file)) ?? [];
			expect([file, url?.startsWith(`${repoPage}#`)]).toEqual([file, true]);
		}
		expect(links.length).toBeGreaterThanOrEqual(2 * codexFiles.length + credentialFiles.length);
	});

	test.each(links.map((l) => [l.file, l.url, l.anchor]))('%s: %s', (_file, _url, anchor) => {
		expect(readmeAnchors).toContain(anchor);
	});
});
