/**
 * Every resource of the SAT (Mexico) node and its operations: the router's table is typed from this map, so an
 * operation listed here without its module is a compile error (the shape of n8n's Airtable v2 `node.type.ts`).
 * The Operation selectors offer exactly these (checked by test/shared/router.test.js).
 */
export type SatMap = {
	cfdi: 'checkStatus' | 'readXml';
	diot: 'build';
	bulkDownload: 'request' | 'checkRequest' | 'download';
};
