import { issueOperation } from '../common/operations';
import { settlementSpec } from './fields';

/** POST /purchase-settlements/issue (receipts service). */
export const { kind, description, validate, execute } = issueOperation(settlementSpec('plain'));
