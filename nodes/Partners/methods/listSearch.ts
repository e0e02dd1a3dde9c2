import type { IDataObject, ILoadOptionsFunctions, INodeListSearchResult } from 'n8n-workflow';
import { path } from '../../shared/path';
import { listIn, MAX_PAGES, partnersClient, planOption, readPlanPage } from '../transport';

/**
 * Plans, searched by the service (`search`), one page at a time. A page that is not the one asked is an error
 * (readPlanPage), and no page after MAX_PAGES is offered, so scrolling cannot ask the same page forever.
 */
export async function searchPlans(
	this: ILoadOptionsFunctions,
	filter?: string,
	paginationToken?: string,
): Promise<INodeListSearchResult> {
	const asked = Math.floor(Number(paginationToken ?? 1));
	const page = Number.isFinite(asked) && asked >= 1 && asked <= MAX_PAGES ? asked : 1;
	const read = await readPlanPage(partnersClient(this), page, filter?.trim() ?? '');
	return {
		results: read.products.map(planOption),
		paginationToken:
			read.next !== undefined && read.next <= MAX_PAGES ? String(read.next) : undefined,
	};
}

function matches(filter: string | undefined, ...texts: unknown[]): boolean {
	if (!filter) return true;
	const f = filter.toLowerCase();
	return texts.some((t) => typeof t === 'string' && t.toLowerCase().includes(f));
}

/** Clients: the list endpoint has no documented search, so the filter is applied here. */
export async function searchClients(
	this: ILoadOptionsFunctions,
	filter?: string,
): Promise<INodeListSearchResult> {
	const clients = listIn(await partnersClient(this).read<unknown>(path`/v1/clients`), ['clients']);
	return {
		results: clients
			.filter((c) => c.uuid !== undefined && matches(filter, c.name, c.email, c.uuid))
			.map((c) => ({
				name: [c.name, c.email].filter(Boolean).map(String).join(' - ') || String(c.uuid),
				value: String(c.uuid),
			})),
	};
}

export async function searchSubscriptions(
	this: ILoadOptionsFunctions,
	filter?: string,
): Promise<INodeListSearchResult> {
	const subs = listIn(await partnersClient(this).read<unknown>(path`/v1/subscriptions`), [
		'subscriptions',
	]);
	return {
		results: subs
			.filter(
				(s) =>
					s.uuid !== undefined &&
					matches(filter, s.name, (s.client as IDataObject | undefined)?.name, s.uuid),
			)
			.map((s) => ({
				name:
					[(s.client as IDataObject | undefined)?.name, s.name]
						.filter(Boolean)
						.map(String)
						.join(' - ') || String(s.uuid),
				value: String(s.uuid),
			})),
	};
}
