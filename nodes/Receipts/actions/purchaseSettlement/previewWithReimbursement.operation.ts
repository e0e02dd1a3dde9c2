import { previewOperation } from '../common/operations';
import { settlementSpec } from './fields';

/** Preview of Issue With Reimbursement: the body it would send, with its warnings or problems; nothing is sent. */
export const { description, execute } = previewOperation(
	settlementSpec('reimbursement'),
	'previewWithReimbursement',
);
