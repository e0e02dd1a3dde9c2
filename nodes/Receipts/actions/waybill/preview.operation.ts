import { previewOperation } from '../common/operations';
import { waybillSpec } from './fields';

/** Preview: the body Issue would send for a waybill, with its warnings or problems; nothing is sent. */
export const { description, execute } = previewOperation(waybillSpec);
