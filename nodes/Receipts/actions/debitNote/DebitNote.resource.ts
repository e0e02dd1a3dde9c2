import { receiptKindDescription } from '../common/resource';
import * as get from './get.operation';
import * as issue from './issue.operation';
import * as issueFromXml from './issueFromXml.operation';
import * as preview from './preview.operation';
import * as reissue from './reissue.operation';

export { get, issue, issueFromXml, preview, reissue };

/** Debit notes (/debit-notes): the service's public documentation (Notas de débito); the spec names them without their operations. */
export const description = receiptKindDescription(
	'debitNote',
	{ a: 'a debit note', name: 'debit note', base: '/debit-notes' },
	{ get, issue, issueFromXml, preview, reissue },
);
