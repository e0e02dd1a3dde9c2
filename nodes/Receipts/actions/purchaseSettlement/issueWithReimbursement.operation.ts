import { issueOperation } from '../common/operations';
import { settlementSpec } from './fields';

/** POST /purchase-settlements/issue with `reembolso` required; item taxes of the no-object-of-tax kind (receipts service). */
export const { kind, description, validate, execute } = issueOperation(
	settlementSpec('reimbursement'),
	'issueWithReimbursement',
	'previewWithReimbursement',
);
