import { reissueOperation } from '../common/operations';
import { debitNoteSpec } from './fields';

/** POST /debit-notes/{id}/reissue (the service's public documentation, Notas de débito). */
export const { kind, description, validate, execute } = reissueOperation(debitNoteSpec);
