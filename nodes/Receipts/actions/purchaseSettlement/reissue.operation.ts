import { reissueOperation } from '../common/operations';
import { settlementSpec } from './fields';

/**
 * POST /purchase-settlements/{id}/reissue (the service's public documentation, Liquidaciones de compra). One
 * operation for both variants: a `reembolso`, when the corrected settlement has one, is validated and sent.
 */
export const { kind, description, validate, execute } = reissueOperation(settlementSpec('reissue'));
