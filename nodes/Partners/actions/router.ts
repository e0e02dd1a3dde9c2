import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { route, type ResourceMap } from '../../shared/router';
import { partnersClient, type PartnersContext } from '../transport';
import * as client from './client/Client.resource';
import * as plan from './plan/Plan.resource';
import * as subscription from './subscription/Subscription.resource';

const resources: ResourceMap<PartnersContext> = { plan, client, subscription } as unknown as ResourceMap<PartnersContext>;

export async function router(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	return await route.call(this, resources, (): PartnersContext => ({ api: partnersClient(this) }));
}
