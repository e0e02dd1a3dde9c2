import { receiptKindDescription } from '../common/resource';
import * as get from './get.operation';
import * as issue from './issue.operation';
import * as issueFromXml from './issueFromXml.operation';
import * as preview from './preview.operation';
import * as reissue from './reissue.operation';

export { get, issue, issueFromXml, preview, reissue };

/** Credit notes (/credit-notes): the service's public documentation (Notas de crédito); the spec names them without their operations. */
export const description = receiptKindDescription(
	'creditNote',
	{ a: 'a credit note', name: 'credit note', base: '/credit-notes' },
	{ get, issue, issueFromXml, preview, reissue },
);
