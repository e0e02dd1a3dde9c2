import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { route, type OperationTable } from '../../shared/router';
import { publicServiceContext, type PublicServiceContext } from '../../shared/soap';
import { MAX_ANSWER_BYTES } from '../domain/answer';
import { SRI } from '../domain/service';
import type { SriMap } from './node.type';
import * as monthlyAnnex from './monthlyAnnex/MonthlyAnnex.resource';
import * as receipt from './receipt/Receipt.resource';

export const resources: OperationTable<SriMap, PublicServiceContext> = { receipt, monthlyAnnex };

export async function router(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	// The execution's one client, its Request Timeout read from the operation's options where it has them.
	return await route.call(this, resources, () =>
		publicServiceContext.call(this, SRI, resources, MAX_ANSWER_BYTES),
	);
}
