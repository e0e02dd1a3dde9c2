import { issueOperation } from '../common/operations';
import { invoiceSpec } from './fields';

/** POST /invoices/issue (the service's public documentation, Facturas). */
export const { kind, description, validate, execute } = issueOperation(invoiceSpec);
