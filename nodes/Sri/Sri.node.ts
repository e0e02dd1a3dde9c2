import type {
	IExecuteFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';
import * as monthlyAnnex from './actions/monthlyAnnex/MonthlyAnnex.resource';
import * as receipt from './actions/receipt/Receipt.resource';
import * as receivedList from './actions/receivedList/ReceivedList.resource';
import { outputsExpression } from '../shared/outputs';
import { FILING_OUTPUTS, READ_OUTPUTS, router } from './actions/router';

/**
 * SRI (Ecuador): any Ecuadorian electronic receipt checked with the SRI's own public web service, and a
 * receipt XML (or its authorization file) read into the fields a bookkeeper books, the SRI portal's list of the
 * receipts issued to the taxpayer read into one item per receipt, and the month's annex (ATS) built from its
 * receipts. No account, no credential.
 * Operations live in actions/<resource>/, the SRI's rules and formats in domain/.
 */
export class Sri implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'SRI',
		name: 'sri',
		icon: { light: 'file:sri.svg', dark: 'file:sri.dark.svg' },
		group: ['transform'],
		// Version 2: Read XML leaves a file it cannot read by a second output, Not Read, and the others go on; both
		// operations output a ledger row by default and pass the input's files on; Check Authorization compares the
		// receipt the SRI authorized with the file on the item. Saved workflows keep version 1 as it was.
		// Version 3: the declaration has two outputs, Ready to File and Check First (a filing with problems): what is not
		// ready never flows on as if it were. Saved workflows keep their version and its one output.
		version: [1, 2, 3],
		defaultVersion: 3,
		subtitle: '={{$parameter["operation"] + ": " + $parameter["resource"]}}',
		description:
			"Check with the SRI that an Ecuadorian receipt is authorized, by its access key, read a supplier's receipt XML into the figures a bookkeeper books, read the SRI's list of the receipts issued to you, and build the month's ATS from the receipts",
		defaults: { name: 'SRI (Ecuador)' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: outputsExpression(READ_OUTPUTS, FILING_OUTPUTS),
		properties: [
			{
				displayName: 'Resource',
				name: 'resource',
				type: 'options',
				noDataExpression: true,
				options: [
					{
						name: 'Receipt',
						value: 'receipt',
						description: 'Any electronic receipt (comprobante electrónico) the SRI authorizes',
					},
					{
						name: 'Received Receipts List',
						value: 'receivedList',
						description:
							'The list SRI en línea gives of the electronic receipts issued to you (comprobantes electrónicos recibidos), downloaded as a .txt file',
					},
					{
						name: 'Monthly Annex (ATS)',
						value: 'monthlyAnnex',
						description:
							'The Anexo Transaccional Simplificado: the month’s purchases and sales, built from its receipts for the SRI’s DIMM',
					},
				],
				default: 'receipt',
			},
			...receipt.description,
			...receivedList.description,
			...monthlyAnnex.description,
		],
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await router.call(this);
	}
}
