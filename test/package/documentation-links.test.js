import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';

/**
 * The documentation links n8n shows (a node's "Docs" link from its codex file, a credential's "Open docs" link
 * from its documentationUrl, any link in a description) land on a heading that exists in the page they name, and
 * so does every relative link between the README and the pages in docs/. A renamed heading or a moved page
 * otherwise leaves the user at the top of a page, or on GitHub's 404, with nothing to say why.
 * Read from the sources (nodes/, credentials/): the codex files ship as they are, the URLs are literal strings.
 */
const root = join(__dirname, '..', '..');
const read = (path) => readFileSync(join(root, path), 'utf8');
const manifest = JSON.parse(read('package.json'));
/** The repository's page on GitHub, where the README is shown: the homepage without its `#readme`. */
const repoPage = String(manifest.homepage).replace(/#readme$/, '');
/** The branch GitHub shows files of, in links to a page other than the README. */
const BRANCH = 'main';

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

/** Lines of a Markdown document outside code fences. */
function proseLines(markdown) {
	let fenced = false;
	return markdown.split('\n').filter((line) => {
		if (/^\s*(```|~~~)/.test(line)) {
			fenced = !fenced;
			return false;
		}
		return !fenced;
	});
}

/** The anchors of a Markdown document's headings (ATX `#` headings outside code fences). */
function anchorsOf(markdown) {
	const anchors = [];
	const seen = new Map();
	for (const line of proseLines(markdown)) {
		const heading = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
		if (!heading) continue;
		const slug = githubSlug(heading[1]);
		const n = seen.get(slug) ?? 0;
		seen.set(slug, n + 1);
		anchors.push(n ? `${slug}-${n}` : slug);
	}
	return anchors;
}

/** The relative links of a Markdown document (`[text](target)`, images too), outside code; not http(s) or mailto. */
function relativeLinksOf(markdown) {
	return proseLines(markdown).flatMap((line) =>
		[...line.replace(/`[^`]*`/g, '').matchAll(/\]\(([^)\s]+)\)/g)]
			.map((m) => m[1])
			.filter((target) => !/^[a-z][a-z0-9+.-]*:/i.test(target)),
	);
}

/**
 * Where a link from `fromFile` lands: the file (relative to the repository root, '' for the same document) and
 * the anchor ('' for none).
 */
function resolveLink(fromFile, target) {
	const [path, anchor = ''] = target.split('#');
	const file = path
		? normalize(join(dirname(fromFile), decodeURI(path))).replace(/\/$/, '')
		: fromFile;
	return { file, anchor: decodeURIComponent(anchor) };
}

/** What is wrong with a link to `file`#`anchor`, or null when it lands where it says. */
function problemOf({ file, anchor }) {
	if (file.startsWith('..')) return `${file} is outside the repository`;
	if (!existsSync(join(root, file))) return `${file} does not exist`;
	if (!anchor) return null;
	if (!file.endsWith('.md') || statSync(join(root, file)).isDirectory())
		return `${file} is not a Markdown page, it has no #${anchor}`;
	return anchorsOf(read(file)).includes(anchor) ? null : `${file} has no heading #${anchor}`;
}

/** Every link into the documentation in the sources: the repository page (the README) or a page of it on GitHub. */
const escaped = repoPage.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
const intoDocs = new RegExp(`${escaped}(?:/blob/([\\w.-]+)/([\\w./-]+))?#([\\w%.-]*)`, 'g');
const links = [
	...filesUnder('nodes', '.json'),
	...filesUnder('nodes', '.ts'),
	...filesUnder('credentials', '.ts'),
].flatMap((file) =>
	[...read(file).matchAll(intoDocs)].map((m) => ({
		file,
		url: m[0],
		branch: m[1] ?? BRANCH,
		page: m[2] ?? 'README.md',
		anchor: decodeURIComponent(m[3]),
	})),
);

/** The README and the pages beside it: every Markdown file at the root and under docs/. */
const pages = [
	...readdirSync(root).filter((f) => f.endsWith('.md')),
	...(existsSync(join(root, 'docs')) ? filesUnder('docs', '.md') : []),
];
const pageLinks = pages.flatMap((file) =>
	relativeLinksOf(read(file)).map((target) => ({ file, target })),
);

describe('documentation links land on a heading that exists', () => {
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
		expect(githubSlug('Reproducible access key (Options → Access Key → Reproducible)')).toBe(
			'reproducible-access-key-options--access-key--reproducible',
		);
		expect(anchorsOf('# A\n```sh\n# not a heading\n```\n## Operations\n### Operations\n')).toEqual([
			'a',
			'operations',
			'operations-1',
		]);
	});

	test('relative links, as this test reads and resolves them', () => {
		expect(
			relativeLinksOf(
				'[a](docs/x.md#b) [`c`](../examples/) ![i](icon.svg) [w](https://x.org/y) `[n](not.md)`\n```\n[f](fenced.md)\n```\n[m](mailto:a@b.c) [s](#here)',
			),
		).toEqual(['docs/x.md#b', '../examples/', 'icon.svg', '#here']);
		expect(resolveLink('docs/receipts.md', '../examples/a.json')).toEqual({
			file: 'examples/a.json',
			anchor: '',
		});
		expect(resolveLink('docs/receipts.md', 'security.md#what-it-does-not-guarantee')).toEqual({
			file: 'docs/security.md',
			anchor: 'what-it-does-not-guarantee',
		});
		expect(resolveLink('README.md', 'examples/')).toEqual({ file: 'examples', anchor: '' });
		expect(resolveLink('docs/scale.md', '#queue-mode')).toEqual({
			file: 'docs/scale.md',
			anchor: 'queue-mode',
		});
		expect(problemOf({ file: 'README.md', anchor: 'no-such-heading' })).toBe(
			'README.md has no heading #no-such-heading',
		);
		expect(problemOf({ file: 'docs/no-such-page.md', anchor: '' })).toBe(
			'docs/no-such-page.md does not exist',
		);
		expect(problemOf({ file: '../elsewhere.md', anchor: '' })).toBe(
			'../elsewhere.md is outside the repository',
		);
	});

	test('every node’s codex and every credential links into the documentation', () => {
		const codexFiles = filesUnder('nodes', '.node.json');
		expect(codexFiles.length).toBe(manifest.n8n.nodes.length);
		const intoDocsOnce = new RegExp(`^${intoDocs.source}$`);
		for (const file of codexFiles) {
			const { resources } = JSON.parse(read(file));
			const urls = [...resources.primaryDocumentation, ...resources.credentialDocumentation].map(
				(r) => r.url,
			);
			expect([file, urls.every((url) => intoDocsOnce.test(url))]).toEqual([file, true]);
		}
		const credentialFiles = filesUnder('credentials', '.credentials.ts');
		expect(credentialFiles.length).toBe(manifest.n8n.credentials.length);
		for (const file of credentialFiles) {
			const [, url] = /documentationUrl\s*=\s*'([^']*)'/.exec(read(file)) ?? [];
			expect([file, intoDocsOnce.test(url ?? '')]).toEqual([file, true]);
		}
		expect(links.length).toBeGreaterThanOrEqual(2 * codexFiles.length + credentialFiles.length);
	});

	test.each(links.map((l) => [l.file, l.url, l]))('%s: %s', (_file, _url, link) => {
		expect(link.branch).toBe(BRANCH);
		expect(problemOf({ file: normalize(link.page), anchor: link.anchor })).toBeNull();
	});

	test('the README links to the pages in docs/', () => {
		expect(pages).toContain('README.md');
		expect(pageLinks.filter((l) => l.file === 'README.md').length).toBeGreaterThan(5);
	});

	test.each(pageLinks.map((l) => [l.file, l.target]))('%s → %s', (file, target) => {
		expect(problemOf(resolveLink(file, target))).toBeNull();
	});

	test('every example workflow is linked from the README or from a page it links', () => {
		const fromReadme = pageLinks
			.filter((l) => l.file === 'README.md')
			.map((l) => resolveLink('README.md', l.target).file);
		const reached = new Set([
			...fromReadme,
			...pageLinks
				.filter((l) => fromReadme.includes(l.file))
				.map((l) => resolveLink(l.file, l.target).file),
		]);
		const examples = readdirSync(join(root, 'examples')).filter((f) => f.endsWith('.json'));
		expect(examples.length).toBeGreaterThan(0);
		expect(examples.filter((f) => !reached.has(`examples/${f}`))).toEqual([]);
	});
});
