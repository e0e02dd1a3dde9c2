import { previewOperation } from '../common/operations';
import { creditNoteSpec } from './fields';

/** Preview: the body Issue would send for a credit note, with its warnings or problems; nothing is sent. */
export const { description, execute } = previewOperation(creditNoteSpec);
