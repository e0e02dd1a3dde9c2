import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { route, type OperationTable } from '../../shared/router';
import type { PartnersMap } from './node.type';
import { partnersClient, type PartnersContext } from '../transport';
import * as client from './client/Client.resource';
import * as plan from './plan/Plan.resource';
import * as subscription from './subscription/Subscription.resource';

export const resources: OperationTable<PartnersMap, PartnersContext> = {
	plan,
	client,
	subscription,
};

export async function router(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	return await route.call(
		this,
		resources,
		(): PartnersContext => ({ api: partnersClient(this), fetchesToken: true }),
	);
}
