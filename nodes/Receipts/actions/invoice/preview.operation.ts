import { previewOperation } from '../common/operations';
import { invoiceSpec } from './fields';

/** Preview: the body Issue would send for an invoice, with its warnings or problems; nothing is sent. */
export const { description, execute } = previewOperation(invoiceSpec);
