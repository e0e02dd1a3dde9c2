import { issueFromXmlOperation } from '../common/operations';
import { debitNoteSpec } from './fields';

/** POST /debit-notes/issue/xml with {xml} (the service's public documentation, Notas de débito). */
export const { kind, description, validate, execute } = issueFromXmlOperation(debitNoteSpec);
