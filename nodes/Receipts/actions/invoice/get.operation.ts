import { getOperation } from '../common/operations';

/** GET /invoices/{id} (the service's public documentation, Facturas). */
export const { kind, description, execute } = getOperation('invoice', '/invoices', 'invoice');
