import { issueFromXmlOperation } from '../common/operations';
import { invoiceSpec } from './fields';

/** POST /invoices/issue/xml with {xml} (the service's public documentation, Facturas). */
export const { kind, description, validate, execute } = issueFromXmlOperation(invoiceSpec);
