import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { numberOption } from '../../shared/options';
import { route, type OperationTable } from '../../shared/router';
import { sriContext, type SriContext } from '../transport';
import type { SriMap } from './node.type';
import { requestTimeoutOption } from './receipt/common.descriptions';
import * as monthlyAnnex from './monthlyAnnex/MonthlyAnnex.resource';
import * as receipt from './receipt/Receipt.resource';

export const resources: OperationTable<SriMap, SriContext> = { receipt, monthlyAnnex };

export async function router(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	return await route.call(this, resources, () => {
		// Read once per execution (from the first item): it shapes the execution's one client. Read XML has no
		// such option and sends nothing; its client is never used.
		const seconds =
			this.getNodeParameter('operation', 0) === 'checkAuthorization'
				? numberOption.call(this, requestTimeoutOption, 0, { inOptions: true, once: true })
				: Number(requestTimeoutOption.default);
		return sriContext(this, seconds * 1000);
	});
}
