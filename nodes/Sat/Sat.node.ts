import type {
	IExecuteFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';
import * as bulkDownload from './actions/bulkDownload/BulkDownload.resource';
import * as cfdi from './actions/cfdi/Cfdi.resource';
import { outputsExpression } from '../shared/outputs';
import * as diot from './actions/diot/Diot.resource';
import { FILING_OUTPUTS, READ_OUTPUTS, router } from './actions/router';
import { credentialTest } from './methods/credentialTest';

/**
 * Mexico's tax authority itself: without an account, a CFDI's status from the SAT's public status service, a
 * CFDI's XML read into rows, and the month's DIOT file built from the month's CFDIs; with the company's e.firma,
 * the month's CFDIs from the SAT's bulk download. Operations live in actions/<resource>/.
 */
export class Sat implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'SAT (Mexico)',
		name: 'sat',
		icon: { light: 'file:sat.svg', dark: 'file:sat.dark.svg' },
		group: ['transform'],
		// Version 2: Read CFDI XML leaves a file it cannot read by a second output, Not Read, and the others go on;
		// it outputs a row per concepto by default, each with the CFDI's file and its name; Check CFDI Status says
		// whether the SAT confirmed the figures of the CFDI at hand (matches_file). Saved workflows keep version 1.
		// Version 3: the declaration has two outputs, Ready to File and Check First (a filing with problems): what is not
		// ready never flows on as if it were. Saved workflows keep their version and its one output.
		version: [1, 2, 3],
		defaultVersion: 3,
		subtitle: '={{$parameter["operation"] + ": " + $parameter["resource"]}}',
		description:
			"Check a CFDI's status (vigente, cancelado) with the SAT's public service, read CFDI XML into rows, and build the monthly DIOT file, with no account; download the month's CFDIs from the SAT with the company's e.firma",
		defaults: { name: 'SAT (Mexico)' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: outputsExpression(READ_OUTPUTS, FILING_OUTPUTS),
		// Only Bulk Download signs with the taxpayer's e.firma; the other resources take no credential.
		credentials: [
			{
				name: 'satEfirmaApi',
				required: true,
				testedBy: 'satEfirmaTest',
				displayOptions: { show: { resource: ['bulkDownload'] } },
			},
		],
		properties: [
			{
				displayName: 'Resource',
				name: 'resource',
				type: 'options',
				noDataExpression: true,
				options: [
					{ name: 'CFDI', value: 'cfdi' },
					{ name: 'DIOT (Monthly Third-Party Report)', value: 'diot' },
					{ name: 'Bulk Download (Descarga Masiva)', value: 'bulkDownload' },
				],
				default: 'cfdi',
			},
			...cfdi.description,
			...diot.description,
			...bulkDownload.description,
		],
	};

	methods = { credentialTest };

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await router.call(this);
	}
}
