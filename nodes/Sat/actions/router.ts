import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { filingOutputs, readerOutputs, splitOutputs } from '../../shared/outputs';
import { route, type OperationTable } from '../../shared/router';
import { publicServiceContext, type PublicServiceContext } from '../../shared/soap';
import { SAT_BULK } from '../domain/bulk/service';
import { MAX_ANSWER_BYTES, SAT } from '../domain/service';
import * as bulkDownload from './bulkDownload/BulkDownload.resource';
import * as cfdi from './cfdi/Cfdi.resource';
import * as diot from './diot/Diot.resource';
import type { SatMap } from './node.type';

export const resources: OperationTable<SatMap, PublicServiceContext> = { cfdi, diot, bulkDownload };

/** From version 2, Read CFDI XML has two outputs: Read, and Not Read (a file that cannot be read, named). */
export const READ_OUTPUTS = readerOutputs({ cfdi: ['readXml'] });

/** From version 3, the declaration has two outputs: Ready to File, and Check First (a filing with problems). */
export const FILING_OUTPUTS = filingOutputs({ diot: ['build'] });

export async function router(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	// The execution's one client, its Request Timeout read from the operation's options where it has them.
	const outputs = await route.call(
		this,
		resources,
		() =>
			publicServiceContext.call(
				this,
				// The bulk download service is the SAT's too, with its own faults (a refused signature is final).
				this.getNodeParameter('resource', 0) === 'bulkDownload' ? SAT_BULK : SAT,
				resources,
				MAX_ANSWER_BYTES,
			),
		// Version 2: a file that cannot be read is an item (Not Read), never the whole node's failure.
		{ notReadAsItems: this.getNode().typeVersion >= READ_OUTPUTS.fromVersion },
	);
	return splitOutputs.call(this, [READ_OUTPUTS, FILING_OUTPUTS], outputs);
}
