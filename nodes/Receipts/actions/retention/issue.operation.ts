import { issueOperation } from '../common/operations';
import { retentionSpec } from './fields';

/** POST /retentions/issue (receipts service). */
export const { kind, description, validate, execute } = issueOperation(retentionSpec);
