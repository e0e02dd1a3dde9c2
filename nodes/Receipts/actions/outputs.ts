import type { INodeExecutionData, INodeOutputConfiguration } from 'n8n-workflow';

/**
 * A rejection must not look like a success. From node version 3, the operations that send receipts to the tax
 * authority for a decision — Issue (and Issue With Reimbursement), Issue From XML, Reissue, and Document →
 * Authorize — have two outputs: **Authorized**, the receipts the SRI authorized, and **Not Authorized**, every
 * other item: rejected (DEVUELTO, NO AUTORIZADO, ERROR), not decided yet (Wait for Final State off, or its
 * Timeout reached: `wait_timed_out`), and the items that failed when Continue On Fail sends them to the regular
 * output. Other operations keep one output. Workflows saved with version 1 or 2 keep one output for everything
 * (their connections stay as they are). The outputs are computed from the parameters, as n8n's Switch node does
 * (an `outputs` expression evaluated by n8n-workflow's getNodeOutputs, in the editor and in the engine alike).
 */
const DECISION_OUTPUTS_FROM_VERSION = 3;

/** The operations whose run ends with the SRI's decision on each receipt sent, per resource. */
const DECIDING: Record<string, readonly string[]> = {
	document: ['authorize'],
	receipt: ['issue', 'issueWithReimbursement', 'issueFromXml', 'reissue'],
};
const NOT_RECEIPT_KINDS = ['document', 'webhook'];

/** Whether a node of this version, resource and operation has the two outputs. */
export function splitsByDecision(version: number, resource: string, operation: string): boolean {
	if (version < DECISION_OUTPUTS_FROM_VERSION) return false;
	if (resource === 'webhook') return false;
	return (DECIDING[resource] ?? DECIDING.receipt).includes(operation);
}

const TWO_OUTPUTS: INodeOutputConfiguration[] = [
	{ type: 'main', displayName: 'Authorized' },
	{ type: 'main', displayName: 'Not Authorized' },
];

/** The node's `outputs`: the rule of `splitsByDecision`, as an expression n8n evaluates with the node's parameters. */
export const receiptsOutputs: `={{${string}}}` = `={{ $nodeVersion >= ${DECISION_OUTPUTS_FROM_VERSION} && ($parameter.resource === "document" ? ${JSON.stringify(DECIDING.document)} : ${JSON.stringify(NOT_RECEIPT_KINDS)}.includes($parameter.resource) ? [] : ${JSON.stringify(DECIDING.receipt)}).includes($parameter.operation) ? ${JSON.stringify(TWO_OUTPUTS)} : ["main"] }}`;

/** Whether an output item is a receipt the SRI authorized: an `AUTORIZADO` state, and no error. */
function isAuthorized(item: INodeExecutionData): boolean {
	return item.json.error === undefined && item.json.estado === 'AUTORIZADO';
}

/** The one output of an operation, as the two outputs: authorized first, every other item second; order kept. */
export function byDecision(items: INodeExecutionData[]): INodeExecutionData[][] {
	const authorized: INodeExecutionData[] = [];
	const others: INodeExecutionData[] = [];
	for (const item of items) (isAuthorized(item) ? authorized : others).push(item);
	return [authorized, others];
}
