import { issueFromXmlOperation } from '../common/operations';
import { retentionSpec } from './fields';

/** POST /retentions/issue/xml (receipts service). */
export const { kind, description, validate, execute } = issueFromXmlOperation(retentionSpec);
