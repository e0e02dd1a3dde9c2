import type { IDataObject, ILoadOptionsFunctions, INodeListSearchResult } from 'n8n-workflow';
import { listIn, partnersClient, type ProductPage } from '../transport';

/** Plans, searched by the service (`search`), one page at a time. */
export async function searchPlans(this: ILoadOptionsFunctions, filter?: string, paginationToken?: string): Promise<INodeListSearchResult> {
	const page = Number(paginationToken ?? 1) || 1;
	const qs: IDataObject = { page };
	if (filter) qs.search = filter;
	const answer = await partnersClient(this).request<ProductPage>({ method: 'GET', path: '/v1/products', qs });
	const { currentPage = page, lastPage = page } = answer.data?.pagination ?? {};
	return {
		results: (answer.data?.products ?? []).map((p) => ({ name: `${String(p.name)}${p.status ? ` (${String(p.status)})` : ''}`, value: String(p.uuid) })),
		paginationToken: currentPage < lastPage ? String(currentPage + 1) : undefined,
	};
}

function matches(filter: string | undefined, ...texts: unknown[]): boolean {
	if (!filter) return true;
	const f = filter.toLowerCase();
	return texts.some((t) => typeof t === 'string' && t.toLowerCase().includes(f));
}

/** Clients: the list endpoint has no documented search, so the filter is applied here. */
export async function searchClients(this: ILoadOptionsFunctions, filter?: string): Promise<INodeListSearchResult> {
	const clients = listIn(await partnersClient(this).request({ method: 'GET', path: '/v1/clients' }), ['clients']);
	return {
		results: clients
			.filter((c) => c.uuid !== undefined && matches(filter, c.name, c.email, c.uuid))
			.map((c) => ({ name: [c.name, c.email].filter(Boolean).map(String).join(' - ') || String(c.uuid), value: String(c.uuid) })),
	};
}

export async function searchSubscriptions(this: ILoadOptionsFunctions, filter?: string): Promise<INodeListSearchResult> {
	const subs = listIn(await partnersClient(this).request({ method: 'GET', path: '/v1/subscriptions' }), ['subscriptions']);
	return {
		results: subs
			.filter((s) => s.uuid !== undefined && matches(filter, s.name, (s.client as IDataObject | undefined)?.name, s.uuid))
			.map((s) => ({ name: [(s.client as IDataObject | undefined)?.name, s.name].filter(Boolean).map(String).join(' - ') || String(s.uuid), value: String(s.uuid) })),
	};
}
