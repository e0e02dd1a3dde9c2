import { previewOperation } from '../common/operations';
import { debitNoteSpec } from './fields';

/** Preview: the body Issue would send for a debit note, with its warnings or problems; nothing is sent. */
export const { description, execute } = previewOperation(debitNoteSpec);
