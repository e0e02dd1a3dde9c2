import { getOperation } from '../common/operations';

/** GET /waybills/{id} (receipts service). */
export const { kind, description, execute } = getOperation('waybill', '/waybills', 'waybill');
