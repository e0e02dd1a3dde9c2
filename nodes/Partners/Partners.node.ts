import type {
	IExecuteFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';
import * as client from './actions/client/Client.resource';
import * as plan from './actions/plan/Plan.resource';
import * as subscription from './actions/subscription/Subscription.resource';
import { router } from './actions/router';
import { credentialTest } from './methods/credentialTest';
import * as listSearch from './methods/listSearch';
import * as loadOptions from './methods/loadOptions';

/** Partners (Mexico): plans, client accounts and subscriptions. Operations live in actions/<resource>/. */
export class Partners implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Partners (Mexico)',
		name: 'partners',
		icon: { light: 'file:partners.svg', dark: 'file:partners.dark.svg' },
		group: ['transform'],
		version: 1,
		subtitle: '={{$parameter["operation"] + ": " + $parameter["resource"]}}',
		description:
			'Manage plans, client accounts and subscriptions of a Mexican billing partner account',
		defaults: { name: 'Partners (Mexico)' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'partnersApi', required: true, testedBy: 'partnersApiTest' }],
		properties: [
			{
				displayName: 'Resource',
				name: 'resource',
				type: 'options',
				noDataExpression: true,
				options: [
					{ name: 'Client', value: 'client' },
					{ name: 'Plan', value: 'plan' },
					{ name: 'Subscription', value: 'subscription' },
				],
				default: 'client',
			},
			...client.description,
			...plan.description,
			...subscription.description,
		],
	};

	methods = { credentialTest, listSearch, loadOptions };

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await router.call(this);
	}
}
