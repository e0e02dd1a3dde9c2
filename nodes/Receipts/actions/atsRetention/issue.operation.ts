import { issueOperation } from '../common/operations';
import { atsRetentionSpec } from './fields';

/** POST /ats-retentions/issue (receipts service). */
export const { kind, description, validate, execute } = issueOperation(atsRetentionSpec);
