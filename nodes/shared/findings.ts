import { itemLabel, quoted } from './errors';

/**
 * What a declaration (the ATS, the DIOT: many items in, one filing out) found on its way, in one collector shared
 * by the operation that reads the items (shared/declaration.ts) and the domain that builds the filing:
 * - `warnings`: what was left out, and why, or what the bookkeeper should know; the filing is right without it;
 * - `problems`: what may make the filing wrong or incomplete — said, never written as if it were right;
 * - stops: input the filing cannot be built from (grouped by what is wrong, each group with its fix): no file.
 * Warnings and problems are listed in the order of the items they are about (n8n's numbering, `itemLabel`), those
 * about the whole run before every item's, those about the filing's lines after (`AFTER_ITEMS`). Pure: no n8n.
 */

/** What is said of the run as a whole, before any item (e.g. the taxpayer's own id). */
export const BEFORE_ITEMS = -1;

/** What is said of the filing's lines or of several items at once, after every item's. */
export const AFTER_ITEMS = Number.MAX_SAFE_INTEGER;

/** Input that stops the filing, grouped by what is wrong. */
export interface StopGroup {
	/** What is wrong, as a plural noun phrase ("items that are not CFDIs"). */
	title: string;
	/** One line per item or value concerned, naming it. */
	lines: string[];
	/** How to fix them. */
	fix: string;
}

interface Said {
	item: number;
	text: string;
}

/** Texts in the order of their items; texts about the same item keep the order they were said in. */
function inItemOrder(said: Said[]): string[] {
	return said
		.map((s, k) => ({ s, k }))
		.sort((a, b) => a.s.item - b.s.item || a.k - b.k)
		.map(({ s }) => s.text);
}

export class Findings {
	private readonly warned: Said[] = [];
	private readonly problemed: Said[] = [];
	private readonly groups = new Map<string, StopGroup>();

	/** A warning about item `item` (or BEFORE_ITEMS, AFTER_ITEMS). */
	warn(item: number, text: string): void {
		this.warned.push({ item, text });
	}

	/** A problem about item `item` (or BEFORE_ITEMS, AFTER_ITEMS). */
	problem(item: number, text: string): void {
		this.problemed.push({ item, text });
	}

	/** Input that stops the filing: `line` joins the group `title` (its `fix` said once). */
	stop(title: string, fix: string, line: string): void {
		const group = this.groups.get(title) ?? { title, lines: [], fix };
		this.groups.set(title, group);
		group.lines.push(line);
	}

	/** True once anything stops the filing. */
	get stopped(): boolean {
		return this.groups.size > 0;
	}

	/** The groups that stop the filing, in the order first met. */
	get stops(): StopGroup[] {
		return [...this.groups.values()];
	}

	get warnings(): string[] {
		return inItemOrder(this.warned);
	}

	get problems(): string[] {
		return inItemOrder(this.problemed);
	}
}

/**
 * A previous node's error on an input item (n8n's Continue On Fail, or a Not Read output) stands for a document
 * that is not in the filing: the one policy of every declaration is a problem naming the item — its file first, when
 * the item names one (`file_name`, as a Not Read item does) — and its error; the filing is built from the rest, never
 * shown as complete.
 */
export function upstreamFinding(
	findings: Findings,
	item: number,
	error: string,
	words: { document: string; filing: string; byHand: string },
	fileName?: string,
): void {
	findings.problem(
		item,
		`${itemLabel(item)}${fileName ? ` ${fileName}` : ''} came from the node before as an error: ${quoted(error)}. Whatever ${words.document} it stood for is not in the ${words.filing}: fix it there and run again, or add it ${words.byHand}.`,
	);
}

/** `2026-09 (12), 2026-08 (3)`: the most common first, at most six. */
function countsOf(values: readonly string[]): string {
	const counts = new Map<string, number>();
	for (const v of values) counts.set(v, (counts.get(v) ?? 0) + 1);
	const sorted = [...counts].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
	const shown = sorted.slice(0, 6).map(([v, n]) => `${v} (${n})`);
	return `${shown.join(', ')}${sorted.length > 6 ? `, and ${sorted.length - 6} more` : ''}`;
}

/**
 * Whether a filing's documents fit the period it declares — `dates`, the ISO date each document belongs to the
 * period by (a purchase's registration, a sale's emission, a payment's), `holds` whether a date is in the period:
 * none of them in it stops the filing, naming the period and the months the documents are of (an empty filing of
 * the wrong period is the mistake a green run would hide); more of them outside it than in it is a problem.
 */
export function checkPeriod(
	findings: Findings,
	words: { documents: string; period: string; field: string },
	dates: readonly string[],
	holds: (date: string) => boolean,
): void {
	if (!dates.length) return;
	const outside = dates.filter((d) => !holds(d));
	const months = countsOf(outside.map((d) => d.slice(0, 7)));
	if (outside.length === dates.length)
		findings.stop(
			`no ${words.documents} of the period`,
			`Check ${words.field}: declare the period the ${words.documents} are of, or give the node the ${words.documents} of ${words.period}.`,
			`${words.field} ${words.period}: none of the ${dates.length} ${words.documents} is of it; they are of ${months}`,
		);
	else if (outside.length > dates.length - outside.length)
		findings.problem(
			AFTER_ITEMS,
			`${outside.length} of the ${dates.length} ${words.documents} are of other months than ${words.period} (${months}) and are left out (see the warnings): is ${words.field} the period you mean to file?`,
		);
}

/**
 * Whether a filing's documents are the taxpayer's: `parties`, the taxpayer's side of each document (its receiver,
 * for a DIOT); none of them the taxpayer stops the filing, naming who they are (the wrong company's files, or the
 * wrong RFC typed).
 */
export function checkTaxpayer(
	findings: Findings,
	words: { documents: string; taxpayer: string; field: string; side: string },
	parties: readonly string[],
	isTaxpayer: (party: string) => boolean,
): void {
	if (!parties.length || parties.some(isTaxpayer)) return;
	findings.stop(
		`${words.documents} that are not the taxpayer's`,
		`Check ${words.field}, or give the node the ${words.documents} of ${words.taxpayer}.`,
		`${words.field} ${words.taxpayer}: none of the ${parties.length} ${words.documents} has it as its ${words.side}; they have ${countsOf(parties)}`,
	);
}
