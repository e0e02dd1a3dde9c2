/**
 * Every resource of the SRI (Ecuador) node and its operations: the router's table is typed from this map, so
 * an operation listed here without its module is a compile error (the shape of n8n's Airtable v2
 * `node.type.ts`). The Operation selector offers exactly these (checked by test/shared/router.test.js).
 */
export type SriMap = {
	receipt: 'checkAuthorization' | 'readXml';
	monthlyAnnex: 'build';
	receivedList: 'read';
};
