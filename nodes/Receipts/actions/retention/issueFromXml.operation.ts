import { issueFromXmlOperation } from '../common/operations';
import { retentionSpec } from './fields';

/** POST /retentions/issue/xml (receipts service). */
export const { description, validate, execute } = issueFromXmlOperation(retentionSpec);
