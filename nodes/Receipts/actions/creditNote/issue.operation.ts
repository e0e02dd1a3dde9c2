import { issueOperation } from '../common/operations';
import { creditNoteSpec } from './fields';

/** POST /credit-notes/issue (the service's public documentation, Notas de crédito). */
export const { kind, description, validate, execute } = issueOperation(creditNoteSpec);
