import { receiptKindDescription } from '../common/resource';
import * as get from './get.operation';
import * as issue from './issue.operation';
import * as issueFromXml from './issueFromXml.operation';
import * as preview from './preview.operation';
import * as reissue from './reissue.operation';

export { get, issue, issueFromXml, preview, reissue };

/** Invoices (/invoices): the service's public documentation (Facturas); the spec names them without their operations. */
export const description = receiptKindDescription(
	'invoice',
	{ a: 'an invoice', name: 'invoice', base: '/invoices' },
	{ get, issue, issueFromXml, preview, reissue },
);
