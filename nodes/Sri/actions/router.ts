import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { filingOutputs, readerOutputs, splitOutputs } from '../../shared/outputs';
import { route, type OperationTable } from '../../shared/router';
import { publicServiceContext, type PublicServiceContext } from '../../shared/soap';
import { MAX_ANSWER_BYTES } from '../domain/answer';
import { SRI } from '../domain/service';
import type { SriMap } from './node.type';
import * as monthlyAnnex from './monthlyAnnex/MonthlyAnnex.resource';
import * as receipt from './receipt/Receipt.resource';
import * as receivedList from './receivedList/ReceivedList.resource';

export const resources: OperationTable<SriMap, PublicServiceContext> = {
	receipt,
	monthlyAnnex,
	receivedList,
};

/**
 * From version 2, Read XML and Read Received List have two outputs: Read, and Not Read (a file that cannot be read,
 * named; a line of the list that names no receipt).
 */
export const READ_OUTPUTS = readerOutputs({ receipt: ['readXml'], receivedList: ['read'] });

/** From version 3, the declaration has two outputs: Ready to File, and Check First (a filing with problems). */
export const FILING_OUTPUTS = filingOutputs({ monthlyAnnex: ['build'] });

export async function router(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	// The execution's one client, its Request Timeout read from the operation's options where it has them.
	const outputs = await route.call(
		this,
		resources,
		() => publicServiceContext.call(this, SRI, resources, MAX_ANSWER_BYTES),
		// Version 2: a file that cannot be read is an item (Not Read), never the whole node's failure.
		{ notReadAsItems: this.getNode().typeVersion >= READ_OUTPUTS.fromVersion },
	);
	return splitOutputs.call(this, [READ_OUTPUTS, FILING_OUTPUTS], outputs);
}
