import { issueFromXmlOperation } from '../common/operations';
import { settlementSpec } from './fields';

/** POST /purchase-settlements/issue/xml (receipts service). */
export const { description, validate, execute } = issueFromXmlOperation(settlementSpec('plain'));
