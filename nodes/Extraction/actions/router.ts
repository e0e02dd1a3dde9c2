import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { CreatedLedger } from '../../shared/created';
import { route, type OperationTable } from '../../shared/router';
import type { ExtractionMap } from './node.type';
import { extractionContext, type ExtractionContext } from '../transport';
import * as account from './account/Account.resource';
import * as extraction from './extraction/Extraction.resource';
import * as taxpayer from './taxpayer/Taxpayer.resource';

export const resources: OperationTable<ExtractionMap, ExtractionContext> = {
	extraction,
	account,
	taxpayer,
};

export async function router(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	return await route.call(
		this,
		resources,
		(): ExtractionContext => ({
			...extractionContext(this),
			created: new CreatedLedger('extraction', 'Extraction → Get'),
		}),
	);
}
