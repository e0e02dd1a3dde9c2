import { reissueOperation } from '../common/operations';
import { waybillSpec } from './fields';

/** POST /waybills/{id}/reissue (receipts service): the corrected waybill for one in NO AUTORIZADO or DEVUELTO. */
export const { kind, description, validate, execute } = reissueOperation(waybillSpec);
