import { issueFromXmlOperation } from '../common/operations';
import { atsRetentionSpec } from './fields';

/** POST /ats-retentions/issue/xml (receipts service). */
export const { kind, description, validate, execute } = issueFromXmlOperation(atsRetentionSpec);
