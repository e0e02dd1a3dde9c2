import type { IDataObject, ILoadOptionsFunctions, INodePropertyOptions } from 'n8n-workflow';
import { listIn, partnersClient, unwrap } from '../transport';
import { searchPlans } from './listSearch';

/** Vigencies of the plan chosen in the same node (client creation). */
export async function getPlanVigencies(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	const plan = String(this.getCurrentNodeParameter('plan', { extractValue: true }) ?? '').trim();
	if (!plan) return [];
	const product = unwrap(await partnersClient(this).request({ method: 'GET', path: `/v1/products/${encodeURIComponent(plan)}` }));
	return ((product.vigencies as IDataObject[] | undefined) ?? []).map((v) => ({
		name: `${String(v.expiration_period)}: ${String(v.folios)} folios, $${String(v.price)}`,
		value: String(v.uuid),
	}));
}

/** All plans, every page (multi-select of Delete). */
export async function getPlans(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	const options: INodePropertyOptions[] = [];
	let token: string | undefined = '1';
	while (token) {
		const page = await searchPlans.call(this, undefined, token);
		options.push(...page.results.map((r) => ({ name: r.name, value: r.value })));
		token = page.paginationToken as string | undefined;
	}
	return options;
}

export async function getClients(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	const clients = listIn(await partnersClient(this).request({ method: 'GET', path: '/v1/clients' }), ['clients']);
	return clients
		.filter((c) => c.uuid !== undefined)
		.map((c) => ({ name: [c.name, c.email, c.status].filter(Boolean).map(String).join(' - ') || String(c.uuid), value: String(c.uuid) }));
}
