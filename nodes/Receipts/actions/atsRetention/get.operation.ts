import { getOperation } from '../common/operations';

/** GET /ats-retentions/{id} (receipts service). */
export const { kind, description, execute } = getOperation(
	'atsRetention',
	'/ats-retentions',
	'ATS retention',
);
