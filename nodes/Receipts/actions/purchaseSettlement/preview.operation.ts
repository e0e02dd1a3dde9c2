import { previewOperation } from '../common/operations';
import { settlementSpec } from './fields';

/** Preview: the body Issue would send for a purchase settlement, with its warnings or problems; nothing is sent. */
export const { description, execute } = previewOperation(settlementSpec('plain'));
