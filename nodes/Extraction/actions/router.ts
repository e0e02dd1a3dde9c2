import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { CreatedLedger } from '../../shared/created';
import { route, type ResourceMap } from '../../shared/router';
import { ExtractionApi, type ExtractionContext } from '../transport';
import * as account from './account/Account.resource';
import * as extraction from './extraction/Extraction.resource';
import * as taxpayer from './taxpayer/Taxpayer.resource';

const resources: ResourceMap<ExtractionContext> = { extraction, account, taxpayer } as unknown as ResourceMap<ExtractionContext>;

export async function router(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	return await route.call(this, resources, (): ExtractionContext => ({ api: new ExtractionApi(this), created: new CreatedLedger('extraction', 'Extraction → Get') }));
}
