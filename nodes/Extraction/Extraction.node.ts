import type {
	IExecuteFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';
import * as account from './actions/account/Account.resource';
import * as extraction from './actions/extraction/Extraction.resource';
import { router } from './actions/router';
import * as taxpayer from './actions/taxpayer/Taxpayer.resource';
import { EXTRACTION_DESCRIPTION } from './description';
import { credentialTest } from './methods/credentialTest';

/** Tax document extraction (Mexico's SAT; Ecuador's taxpayer registration). Operations live in actions/<resource>/. */
export class Extraction implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Document Extraction (Mexico, Ecuador)',
		name: 'extraction',
		icon: { light: 'file:extraction.svg', dark: 'file:extraction.dark.svg' },
		group: ['transform'],
		version: 1,
		subtitle: '={{$parameter["operation"] + ": " + $parameter["resource"]}}',
		description: EXTRACTION_DESCRIPTION,
		defaults: { name: 'Document Extraction (Mexico, Ecuador)' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'extractionApi', required: true, testedBy: 'extractionApiTest' }],
		properties: [
			{
				displayName: 'Resource',
				name: 'resource',
				type: 'options',
				noDataExpression: true,
				options: [
					{ name: 'Account', value: 'account' },
					{ name: 'Extraction', value: 'extraction' },
					{ name: 'Taxpayer', value: 'taxpayer' },
				],
				default: 'extraction',
			},
			...account.description,
			...extraction.description,
			...taxpayer.description,
		],
	};

	methods = { credentialTest };

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await router.call(this);
	}
}
