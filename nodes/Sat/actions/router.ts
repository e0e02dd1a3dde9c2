import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { route, type OperationTable } from '../../shared/router';
import { publicServiceContext, type PublicServiceContext } from '../../shared/soap';
import { MAX_ANSWER_BYTES, SAT } from '../domain/service';
import * as cfdi from './cfdi/Cfdi.resource';
import * as diot from './diot/Diot.resource';
import type { SatMap } from './node.type';

export const resources: OperationTable<SatMap, PublicServiceContext> = { cfdi, diot };

export async function router(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	// The execution's one client, its Request Timeout read from the operation's options where it has them.
	return await route.call(this, resources, () =>
		publicServiceContext.call(this, SAT, resources, MAX_ANSWER_BYTES),
	);
}
