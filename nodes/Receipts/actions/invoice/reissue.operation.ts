import { reissueOperation } from '../common/operations';
import { invoiceSpec } from './fields';

/** POST /invoices/{id}/reissue (the service's public documentation, Facturas). */
export const { kind, description, validate, execute } = reissueOperation(invoiceSpec);
