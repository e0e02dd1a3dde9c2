import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { route, type OperationTable } from '../../shared/router';
import { satContext, type SatContext } from '../transport';
import * as cfdi from './cfdi/Cfdi.resource';
import * as diot from './diot/Diot.resource';
import type { SatMap } from './node.type';

export const resources: OperationTable<SatMap, SatContext> = { cfdi, diot };

export async function router(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	return await route.call(this, resources, () => satContext(this));
}
