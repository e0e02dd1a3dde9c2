import type { IDataObject } from 'n8n-workflow';
import { itemLabel } from './errors';

/**
 * What an execution created that cannot be taken back (a tax document, an extraction job), kept so that no
 * failure leaves the user without its identifiers:
 * - an error that happens after the service accepted the request carries the identifiers of its item
 *   (`attachRecovery` in errors.ts); with Continue On Fail they become fields of the error item, so a workflow
 *   can route them, and the router puts them next to `error`;
 * - when a failure stops the node, the error lists everything this execution created before it
 *   (`CreatedLedger.describe`), because n8n then drops the output of the items that succeeded, and running
 *   the workflow again would create them a second time.
 */

interface CreatedEntry {
	item: number;
	/** Identifiers of what was created, e.g. `{ id, clave_acceso }` or `{ publicId }`. */
	ids: IDataObject;
	/** Its last known state, when known (e.g. `AUTORIZADO`). */
	state?: string;
}

/** Everything one execution created, by input item. */
export class CreatedLedger {
	private readonly entries = new Map<number, CreatedEntry>();

	constructor(
		/** What is created, for messages: "receipt", "extraction". */
		private readonly what: string,
		/** How to follow one up, e.g. "Document → Get". */
		private readonly followUp: string,
	) {}

	record(item: number, ids: IDataObject, state?: string): void {
		const before = this.entries.get(item);
		const known = Object.fromEntries(
			Object.entries(ids).filter(([, v]) => v !== undefined && v !== null && v !== ''),
		);
		this.entries.set(item, {
			item,
			ids: { ...(before?.ids ?? {}), ...known },
			state: state ?? before?.state,
		});
	}

	setState(item: number, state: string | undefined): void {
		const entry = this.entries.get(item);
		if (entry && state) entry.state = state;
	}

	get size(): number {
		return this.entries.size;
	}

	/** A paragraph for an error that stops the node, or undefined when nothing was created. */
	describe(): string | undefined {
		if (this.entries.size === 0) return undefined;
		const lines = [...this.entries.values()]
			.sort((a, b) => a.item - b.item)
			.map((e) => {
				const ids = Object.entries(e.ids)
					.map(([k, v]) => `${k} ${String(v)}`)
					.join(', ');
				return `- ${itemLabel(e.item).slice(1, -1)}: ${ids}${e.state ? ` (${e.state})` : ''}`;
			});
		return (
			`This execution created ${this.entries.size} ${this.what}${this.entries.size === 1 ? '' : 's'} before it stopped. ` +
			`They exist: do not run these items again (that would create them twice); follow them with ${this.followUp}.\n${lines.join('\n')}`
		);
	}
}
