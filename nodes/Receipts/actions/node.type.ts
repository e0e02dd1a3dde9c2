/**
 * Every resource of the Receipts node and its operations: the router's table is typed from this map, so an
 * operation listed here without its module is a compile error (the shape of n8n's Airtable v2 `node.type.ts`).
 * The Operation selectors offer exactly these (checked by test/shared/router.test.js).
 */
export type ReceiptsMap = {
	atsRetention: 'get' | 'issue' | 'issueFromXml' | 'preview';
	creditNote: 'get' | 'issue' | 'issueFromXml' | 'preview' | 'reissue';
	debitNote: 'get' | 'issue' | 'issueFromXml' | 'preview' | 'reissue';
	document: 'authorize' | 'download' | 'get' | 'sendEmail';
	invoice: 'get' | 'issue' | 'issueFromXml' | 'preview' | 'reissue';
	purchaseSettlement:
		| 'issue'
		| 'issueFromXml'
		| 'issueWithReimbursement'
		| 'preview'
		| 'previewWithReimbursement'
		| 'reissue';
	retention: 'issue' | 'issueFromXml' | 'preview' | 'reissue';
	waybill: 'get' | 'issue' | 'issueFromXml' | 'preview' | 'reissue';
	webhook: 'subscribe';
};
