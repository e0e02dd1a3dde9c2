import { issueOperation } from '../common/operations';
import { waybillSpec } from './fields';

/** POST /waybills/issue (receipts service). */
export const { kind, description, validate, execute } = issueOperation(waybillSpec);
