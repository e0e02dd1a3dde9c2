import { getOperation } from '../common/operations';

/** GET /edocs/{id} (receipts service): any receipt kind. */
export const { kind, description, execute } = getOperation(
	'document',
	'/edocs',
	'receipt (any kind)',
);
