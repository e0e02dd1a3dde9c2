import { issueFromXmlOperation } from '../common/operations';
import { settlementSpec } from './fields';

/** POST /purchase-settlements/issue/xml (receipts service). */
export const { kind, description, validate, execute } = issueFromXmlOperation(
	settlementSpec('plain'),
);
