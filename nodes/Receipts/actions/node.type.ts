/**
 * Every resource of the Receipts node and its operations: the router's table is typed from this map, so an
 * operation listed here without its module is a compile error (the shape of n8n's Airtable v2 `node.type.ts`).
 * The Operation selectors offer exactly these (checked by test/shared/router.test.js).
 */
export type ReceiptsMap = {
	atsRetention: 'get' | 'issue' | 'issueFromXml';
	creditNote: 'get' | 'issue' | 'issueFromXml' | 'reissue';
	debitNote: 'get' | 'issue' | 'issueFromXml' | 'reissue';
	document: 'authorize' | 'download' | 'get' | 'sendEmail';
	invoice: 'get' | 'issue' | 'issueFromXml' | 'reissue';
	purchaseSettlement: 'issue' | 'issueFromXml' | 'issueWithReimbursement' | 'reissue';
	retention: 'issue' | 'issueFromXml' | 'reissue';
	waybill: 'get' | 'issue' | 'issueFromXml' | 'reissue';
	webhook: 'subscribe';
};
