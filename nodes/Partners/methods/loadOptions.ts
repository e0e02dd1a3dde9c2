import type { IDataObject, ILoadOptionsFunctions, INodePropertyOptions } from 'n8n-workflow';
import { notChosen } from '../../shared/options';
import { path, segmentProblem } from '../../shared/path';
import { listIn, partnersClient, planOption, readPlans, unwrap } from '../transport';

/** Vigencies of the plan chosen in the same node (client creation). */
export async function getPlanVigencies(
	this: ILoadOptionsFunctions,
): Promise<INodePropertyOptions[]> {
	const plan = String(this.getCurrentNodeParameter('plan', { extractValue: true }) ?? '').trim();
	// The empty default is a choice of its own: "not chosen yet" (shared/options.ts).
	const none = notChosen('one of the plan’s vigencies (choose the plan first)');
	// An ID that cannot be a path segment names no plan (an expression still being typed, say).
	if (!plan || segmentProblem(plan)) return [none];
	const product = unwrap(await partnersClient(this).read(path`/v1/products/${plan}`));
	return [
		none,
		...((product.vigencies as IDataObject[] | undefined) ?? []).map((v) => ({
			name: `${String(v.expiration_period)}: ${String(v.folios)} folios, $${String(v.price)}`,
			value: String(v.uuid),
		})),
	];
}

/** All plans, every page (multi-select of Delete); a service that does not advance stops it (readPlans). */
export async function getPlans(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	return (await readPlans(partnersClient(this), '', undefined)).map(planOption);
}

export async function getClients(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	const clients = listIn(await partnersClient(this).read<unknown>(path`/v1/clients`), ['clients']);
	return clients
		.filter((c) => c.uuid !== undefined)
		.map((c) => ({
			name: [c.name, c.email, c.status].filter(Boolean).map(String).join(' - ') || String(c.uuid),
			value: String(c.uuid),
		}));
}
