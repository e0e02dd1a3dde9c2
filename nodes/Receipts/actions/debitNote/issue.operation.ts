import { issueOperation } from '../common/operations';
import { debitNoteSpec } from './fields';

/** POST /debit-notes/issue (the service's public documentation, Notas de débito). */
export const { kind, description, validate, execute } = issueOperation(debitNoteSpec);
