import type { XmlElement } from '../xml';
import { children } from '../xml';

/**
 * Which element of an SRI receipt says its environment (`ambiente`: 1 test, 2 production) and its access key
 * (`claveAcceso`), in one place: the SRI node's Read XML and Check Authorization (nodes/Sri/domain/receipt.ts)
 * and the AI-agent production guard of Receipts' Issue From XML (nodes/Receipts/actions/common/agent.ts) take
 * the same element for the same fact.
 *
 * The SRI's receipt schemas have no namespace (SRI, Ficha técnica de comprobantes electrónicos, esquema offline):
 * the receipt's `infoTributaria` is the one child of the root element with that name and no namespace, and its
 * `ambiente` and `claveAcceso` are its own children of those names, with no namespace. A second such element is
 * not a second reading: the fact cannot be told.
 *
 * Other readers read otherwise — one takes the first `ambiente` of the text (comments included), another merges
 * elements by their local name whatever their prefix — so `identityMarks` lists every other place where an
 * `ambiente` or an access key could be read, for the guard to refuse what any of them could take for production.
 */

/** One fact as the SRI reads it: the element's text, trimmed, or why it cannot be told. */
type IdentityFact = { value: string } | { problem: string };

/** What a receipt says of itself, read as the SRI reads it. Absent facts are undefined. */
interface ReceiptIdentity {
	ambiente?: IdentityFact;
	claveAcceso?: IdentityFact;
	/** The elements read (for `identityMarks`, which lists every other one). */
	read: XmlElement[];
}

/** The un-namespaced child `local` of `parent`, when it is the only one; why not otherwise. */
function only(
	parent: XmlElement,
	local: string,
	what: string,
): IdentityFact | XmlElement | undefined {
	const found = children(parent, local, '');
	if (found.length > 1) {
		const values = found
			.slice(0, 5)
			.map((e) => (e.children.length ? 'elements' : JSON.stringify(e.text.trim().slice(0, 20))))
			.join(', ');
		return {
			problem: `<${parent.name}> has ${found.length} ${what} (${values})`,
		};
	}
	return found[0];
}

function factOf(element: XmlElement | IdentityFact | undefined): IdentityFact | undefined {
	if (element === undefined || 'problem' in element || 'value' in element) return element;
	return element.children.length
		? { problem: `<${element.name}> holds elements, not a value` }
		: { value: element.text.trim() };
}

/**
 * The receipt's `ambiente` and `claveAcceso`, read from `root` (the receipt's root element) as the SRI reads them.
 * Messages never spell the access key's element name: n8n replaces an error message that contains "EACCES"
 * (n8n-workflow, NodeError's common errors), and "claveAcceso" does.
 */
export function receiptIdentity(root: XmlElement): ReceiptIdentity {
	const infos = children(root, 'infoTributaria', '');
	if (infos.length !== 1) {
		const problem = `the XML has ${infos.length ? `${infos.length} <infoTributaria> elements` : 'no <infoTributaria> element'} under its root <${root.name}>`;
		return { ambiente: { problem }, claveAcceso: { problem }, read: [] };
	}
	const [info] = infos;
	const ambiente = only(info, 'ambiente', '<ambiente> elements');
	const key = only(info, 'claveAcceso', 'access keys');
	const read = [info, ambiente, key].filter(
		(e): e is XmlElement => e !== undefined && 'local' in e,
	);
	return { ambiente: factOf(ambiente), claveAcceso: factOf(key), read };
}

/** The value of `fact`, when it has one. */
export const factValue = (fact: IdentityFact | undefined): string | undefined =>
	fact && 'value' in fact ? fact.value : undefined;

/** An `ambiente` or an access key found anywhere else in a receipt, with what it says. */
export interface IdentityMark {
	what: 'ambiente' | 'access key';
	/**
	 * Where: the path of the element it is in or on (`infoTributaria/c`, or the root's name), or `a comment`, `a
	 * CDATA section`, `a processing instruction`. Never the mark's own name (see receiptIdentity on EACCES).
	 */
	where: string;
	value: string;
}

/** An element met on the walk, with the one above it (for the path of a mark). */
interface Walk {
	e: XmlElement;
	parent?: Walk;
}

const MARK_NAMES = new Map<string, IdentityMark['what']>([
	['ambiente', 'ambiente'],
	['claveacceso', 'access key'],
]);

/**
 * Every `ambiente` and access key of the document other than the ones the SRI reads (`identity.read`): elements
 * and attributes of those local names in any letter case, under any prefix or namespace, wherever they sit; and,
 * in the raw text `xml` when given, tags of those names inside comments, CDATA sections and processing
 * instructions — markup the XML reader does not take for elements, but a reader that searches the text does.
 * In time linear in the document.
 */
export function identityMarks(
	root: XmlElement,
	identity: ReceiptIdentity,
	xml?: string,
): IdentityMark[] {
	const read = new Set(identity.read);
	const marks: IdentityMark[] = [];
	const pathOf = (step: Walk): string => {
		const names: string[] = [];
		for (let at: Walk | undefined = step; at && at.e !== root; at = at.parent)
			names.push(at.e.local);
		return names.reverse().join('/') || root.local;
	};
	const pending: Walk[] = [{ e: root }];
	for (let step = pending.pop(); step; step = pending.pop()) {
		const { e } = step;
		const what = MARK_NAMES.get(e.local.toLowerCase());
		if (what && !read.has(e))
			marks.push({
				what,
				where: step.parent ? pathOf(step.parent) : root.local,
				value: e.children.length ? '(elements)' : e.text.trim(),
			});
		for (const [name, value] of Object.entries(e.attributes)) {
			const mark = MARK_NAMES.get(name.slice(name.indexOf(':') + 1).toLowerCase());
			if (mark && !name.startsWith('xmlns'))
				marks.push({ what: mark, where: pathOf(step), value: value.trim() });
		}
		for (let k = e.children.length - 1; k >= 0; k--)
			pending.push({ e: e.children[k], parent: step });
	}
	if (xml !== undefined) marks.push(...hiddenMarks(xml));
	return marks;
}

/** Sections of the raw text that hold markup the reader does not read as elements, with their ends. */
const HIDDEN = [
	{ open: '<!--', close: '-->', where: 'a comment' },
	{ open: '<![CDATA[', close: ']]>', where: 'a CDATA section' },
	{ open: '<?', close: '?>', where: 'a processing instruction' },
] as const;

/** Tags named `ambiente` or `claveAcceso` (any prefix, any case) inside comments, CDATA sections and PIs of `xml`. */
function hiddenMarks(xml: string): IdentityMark[] {
	const marks: IdentityMark[] = [];
	let i = xml.indexOf('<');
	while (i >= 0) {
		const section = HIDDEN.find((h) => xml.startsWith(h.open, i));
		if (!section) {
			i = xml.indexOf('<', i + 1);
			continue;
		}
		const start = i + section.open.length;
		const end = xml.indexOf(section.close, start);
		const body = xml.slice(start, end < 0 ? xml.length : end);
		for (const mark of tagsIn(body)) marks.push({ ...mark, where: section.where });
		if (end < 0) break;
		i = xml.indexOf('<', end + section.close.length);
	}
	return marks;
}

/** Start tags of a mark's name in `text` and the text after each, up to the next `<`: as a search of the text reads them. */
function tagsIn(text: string): Array<Omit<IdentityMark, 'where'>> {
	const found: Array<Omit<IdentityMark, 'where'>> = [];
	for (let i = text.indexOf('<'); i >= 0; i = text.indexOf('<', i + 1)) {
		let end = i + 1;
		while (end < text.length && !' \t\r\n/<>'.includes(text[end])) end++;
		const name = text.slice(i + 1, end);
		const what = MARK_NAMES.get(name.slice(name.indexOf(':') + 1).toLowerCase());
		if (!what) continue;
		const close = text.indexOf('>', end);
		if (close < 0) break;
		const next = text.indexOf('<', close + 1);
		found.push({ what, value: text.slice(close + 1, next < 0 ? text.length : next).trim() });
		i = close;
	}
	return found;
}
