import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { numberOption } from '../../shared/options';
import { readerOutputs, splitOutputs } from '../../shared/outputs';
import { route, type OperationTable } from '../../shared/router';
import { sriContext, type SriContext } from '../transport';
import type { SriMap } from './node.type';
import { requestTimeoutOption } from './receipt/common.descriptions';
import * as monthlyAnnex from './monthlyAnnex/MonthlyAnnex.resource';
import * as receipt from './receipt/Receipt.resource';

export const resources: OperationTable<SriMap, SriContext> = { receipt, monthlyAnnex };

/** From version 2, Read XML has two outputs: Read, and Not Read (a file that cannot be read, named). */
export const READ_OUTPUTS = readerOutputs({ receipt: ['readXml'] });

export async function router(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const outputs = await route.call(
		this,
		resources,
		() => {
			// Read once per execution (from the first item): it shapes the execution's one client. Read XML has no
			// such option and sends nothing; its client is never used.
			const seconds =
				this.getNodeParameter('operation', 0) === 'checkAuthorization'
					? numberOption.call(this, requestTimeoutOption, 0, { inOptions: true, once: true })
					: Number(requestTimeoutOption.default);
			return sriContext(this, seconds * 1000);
		},
		// Version 2: a file that cannot be read is an item (Not Read), never the whole node's failure.
		{ notReadAsItems: this.getNode().typeVersion >= READ_OUTPUTS.fromVersion },
	);
	return splitOutputs.call(this, READ_OUTPUTS, outputs);
}
