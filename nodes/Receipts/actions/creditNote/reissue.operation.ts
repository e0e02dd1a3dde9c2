import { reissueOperation } from '../common/operations';
import { creditNoteSpec } from './fields';

/** POST /credit-notes/{id}/reissue (the service's public documentation, Notas de crédito). */
export const { kind, description, validate, execute } = reissueOperation(creditNoteSpec);
