import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { CreatedLedger } from '../../shared/created';
import { Semaphore } from '../../shared/rateLimit';
import { route, type OperationTable } from '../../shared/router';
import type { ReceiptsMap } from './node.type';
import { receiptsClient, type ReceiptsContext } from '../transport';
import { numberOption } from '../../shared/options';
import { requestTimeoutOption } from './common/output';
import { parallelChecksOption } from './common/wait';
import * as atsRetention from './atsRetention/AtsRetention.resource';
import * as creditNote from './creditNote/CreditNote.resource';
import * as debitNote from './debitNote/DebitNote.resource';
import * as document from './document/Document.resource';
import * as invoice from './invoice/Invoice.resource';
import * as purchaseSettlement from './purchaseSettlement/PurchaseSettlement.resource';
import * as retention from './retention/Retention.resource';
import * as waybill from './waybill/Waybill.resource';
import * as webhook from './webhook/Webhook.resource';

export const resources: OperationTable<ReceiptsMap, ReceiptsContext> = {
	atsRetention,
	retention,
	waybill,
	purchaseSettlement,
	invoice,
	creditNote,
	debitNote,
	document,
	webhook,
};

/** Options read once per execution (from the first item): they shape the execution's shared client. */
function executionSettings(this: IExecuteFunctions): { timeoutMs: number; parallelChecks: number } {
	const once = { inOptions: true, once: true };
	return {
		timeoutMs: numberOption.call(this, requestTimeoutOption, 0, once) * 1000,
		parallelChecks: numberOption.call(this, parallelChecksOption, 0, once),
	};
}

export async function router(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	return await route.call(this, resources, (): ReceiptsContext => {
		const settings = executionSettings.call(this);
		return {
			api: receiptsClient(this, {
				timeoutMs: settings.timeoutMs,
				timeoutOption: 'Options → Request Timeout',
			}),
			created: new CreatedLedger('receipt', 'Document → Get'),
			checks: new Semaphore(settings.parallelChecks),
		};
	});
}
