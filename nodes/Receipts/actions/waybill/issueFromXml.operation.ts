import { issueFromXmlOperation } from '../common/operations';
import { waybillSpec } from './fields';

/** POST /waybills/issue/xml (receipts service). */
export const { kind, description, validate, execute } = issueFromXmlOperation(waybillSpec);
