import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { CreatedLedger } from '../../shared/created';
import { numberOption } from '../../shared/options';
import { splitOutputs } from '../../shared/outputs';
import { Semaphore } from '../../shared/rateLimit';
import { route, type OperationTable } from '../../shared/router';
import { receiptsClient, type ReceiptsContext } from '../transport';
import { requestTimeoutOption } from './common/output';
import { parallelChecksOption } from './common/wait';
import * as document from './document/Document.resource';
import type { ReceiptsMap } from './node.type';
import { DECISION_OUTPUTS } from './outputs';
import { receiptKinds } from './receiptKinds';
import * as webhook from './webhook/Webhook.resource';

/**
 * Which code runs for each resource and operation of the Receipts node.
 *
 * Where the code is. Seven of the resources are receipt kinds (invoice, credit note, debit note, retention, ATS
 * retention, waybill, purchase settlement), and their operations (Get, Issue, Issue From XML, Preview, Reissue)
 * do the same thing for every kind: only the resource, the path, the words and the Fields form differ. So they are
 * ONE DECLARATIVE TABLE, receiptKinds.ts — the kinds × the operations each offers — and one file per operation,
 * receipt/<operation>.operation.ts, holding its fields and what it does for any kind. "Where is Credit Note →
 * Reissue?": `receiptKinds.creditNote.reissue`, i.e. receipt/reissue.operation.ts with the credit note's row.
 * Chosen over one file per kind and operation (as Partners and Extraction have, where every operation is its
 * own code) because here those files could only repeat the same code seven times or point elsewhere: the 34
 * five-line files that did so made a reader open three files to find one execute. The rules every receipt
 * operation shares stay in common/, each in one place: the receipt's validation and the access key
 * (receiptInput.ts), Wait for Final State (wait.ts), the recovery of an issue whose answer was lost
 * (recovery.ts), AI agents and production (agent.ts). Document and Webhook are not receipt kinds: one file per
 * operation in document/ and webhook/.
 */
export const resources: OperationTable<ReceiptsMap, ReceiptsContext> = {
	...receiptKinds,
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
	const outputs = await route.call(this, resources, (): ReceiptsContext => {
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
	// Authorized and not-authorized receipts by different outputs, from version 3 (outputs.ts).
	return splitOutputs.call(this, DECISION_OUTPUTS, outputs);
}
