import type { TwoOutputs } from '../../shared/outputs';

/**
 * A rejection must not look like a success. From node version 3, the operations that send receipts to the tax
 * authority for a decision — Issue (and Issue With Reimbursement), Issue From XML, Reissue, and Document →
 * Authorize — have two outputs: **Authorized**, the receipts the SRI authorized, and **Not Authorized**, every
 * other item: rejected (DEVUELTO, NO AUTORIZADO, ERROR), not decided yet (Wait for Final State off, or its
 * Timeout reached: `wait_timed_out`), and the items that failed when Continue On Fail sends them to the regular
 * output. Other operations keep one output. Workflows saved with version 1 or 2 keep one output for everything
 * (their connections stay as they are). The mechanism (an `outputs` expression, the split) is shared/outputs.ts.
 */
export const DECISION_OUTPUTS: TwoOutputs = {
	fromVersion: 3,
	// The operations whose run ends with the SRI's decision on each receipt sent: Document → Authorize, and in
	// every receipt kind (the resources not named here) its issuing operations. Webhooks decide nothing.
	operations: { document: ['authorize'], webhook: [] },
	otherResources: ['issue', 'issueWithReimbursement', 'issueFromXml', 'reissue'],
	names: ['Authorized', 'Not Authorized'],
	// A receipt the SRI authorized: an `AUTORIZADO` state, and no error.
	first: (item) => item.json.error === undefined && item.json.estado === 'AUTORIZADO',
};
