import { issueFromXmlOperation } from '../common/operations';
import { creditNoteSpec } from './fields';

/** POST /credit-notes/issue/xml with {xml} (the service's public documentation, Notas de crédito). */
export const { kind, description, validate, execute } = issueFromXmlOperation(creditNoteSpec);
